"""Certificates for a café, made with `cryptography` (no openssl command line, so no shell quoting and the same
code on a laptop, a Pi and in CI).

- **The café's own CA** (`ca.crt`, `ca.key`): a self-signed authority that signs exactly one thing, the café
  broker's certificate. Tables get `ca.crt` at pairing and trust only it for the broker; the CA's key never
  leaves the broker machine (root only, mode 600).
- **The broker's certificate** (`broker.crt`, `broker.key`), signed by that CA, naming the broker's host names
  and addresses (tables check the name they connect to, as TLS clients do).
- **A self-signed certificate** for the hub's HTTPS pages: staff compare its SHA-256 fingerprint once.

Keys are ECDSA P-256: small, quick on a Pi, understood by every TLS stack Mosquitto, Python and browsers use.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_DAYS = 365 * 30  # the tables keep the CA from pairing on: it outlives the hardware
CERT_DAYS = 365 * 5
RENEW_DAYS = 90  # a certificate this close to its end is made again when the config is written again
MAX_NAMES = 32


@dataclass(frozen=True, slots=True)
class Pair:
    """A certificate and the files it and its key live in."""

    cert: Path
    key: Path


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _general_name(name: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


def default_names() -> list[str]:
    """The names a service on this machine is reached by: its host name (and `.local`, as Avahi/mDNS announces
    it on Pi OS), localhost and the loopback addresses."""
    host = socket.gethostname().split(".")[0] or "localhost"
    return list(dict.fromkeys([host, f"{host}.local", "localhost", "127.0.0.1", "::1"]))


def check_names(names: Iterable[str]) -> list[str]:
    """Host names or IP addresses for a certificate: each 1-253 characters of a host name, or an address."""
    out: list[str] = []
    for name in names:
        name = name.strip().lower()
        try:
            ipaddress.ip_address(name)
        except ValueError:
            labels = name.rstrip(".").split(".")
            if not 0 < len(name) <= 253 or not all(
                    0 < len(label) <= 63 and label.replace("-", "").isalnum() and label.isascii()
                    and not label.startswith("-") for label in labels):
                raise ValueError(f"{name!r} is neither a host name nor an IP address") from None
        if name not in out:
            out.append(name)
    if not out or len(out) > MAX_NAMES:
        raise ValueError(f"name 1 to {MAX_NAMES} host names or addresses for the certificate")
    return out


def _builder(subject: x509.Name, issuer: x509.Name, public: ec.EllipticCurvePublicKey, days: int
             ) -> x509.CertificateBuilder:
    now = _now()
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public)
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))  # a table's clock a little behind
            .not_valid_after(now + datetime.timedelta(days=days))
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False))


def make_ca(common_name: str) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A CA that may sign server certificates only (path length 0)."""
    key = _key()
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    usage = x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                          data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                          encipher_only=False, decipher_only=False)
    cert = (_builder(name, name, key.public_key(), CA_DAYS)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(usage, critical=True)
            .sign(key, hashes.SHA256()))
    return cert, key


def make_server(names: Sequence[str], issuer: tuple[x509.Certificate, ec.EllipticCurvePrivateKey] | None = None,
                days: int = CERT_DAYS) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A TLS server certificate for `names`, signed by `issuer` (cert, key), or self-signed without one."""
    names = check_names(names)
    key = _key()
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])])
    issuer_cert, issuer_key = issuer if issuer is not None else (None, key)
    builder = (_builder(subject, issuer_cert.subject if issuer_cert else subject, key.public_key(), days)
               .add_extension(x509.SubjectAlternativeName([_general_name(n) for n in names]), critical=False)
               .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
               .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False))
    if issuer_cert is not None:
        issuer_public = issuer_cert.public_key()
        if not isinstance(issuer_public, ec.EllipticCurvePublicKey):
            raise ValueError("the issuing certificate's key is not an elliptic-curve key (cafe/certs.py makes those)")
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_public), critical=False)
    return builder.sign(issuer_key, hashes.SHA256()), key


def cert_pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def write_private(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Write a file that no other user may read at any moment (made with its mode, then renamed into place)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def fingerprint(cert: x509.Certificate) -> str:
    """SHA-256 over the certificate, as browsers show it: 32 hex pairs separated by colons."""
    return cert.fingerprint(hashes.SHA256()).hex(":").upper()


def load_cert(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(Path(path).read_bytes())


def load_key(path: Path) -> ec.EllipticCurvePrivateKey:
    key = serialization.load_pem_private_key(Path(path).read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise ValueError(f"{path}: not an EC private key")
    return key


def names_of(cert: x509.Certificate) -> list[str]:
    try:
        alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return []
    return [str(n.value) for n in alt]


def fresh(cert: x509.Certificate, names: Sequence[str] | None = None) -> bool:
    """Still good for a while, and (when `names` are given) naming exactly those."""
    if cert.not_valid_after_utc - _now() < datetime.timedelta(days=RENEW_DAYS):
        return False
    return names is None or sorted(names_of(cert)) == sorted(str(_general_name(n).value) for n in names)


def ensure_ca(folder: Path, common_name: str) -> Pair:
    """The café's CA in `folder` (`ca.crt`, `ca.key`), made once and kept: every paired table trusts it."""
    pair = Pair(folder / "ca.crt", folder / "ca.key")
    if pair.cert.exists() and pair.key.exists():
        load_cert(pair.cert), load_key(pair.key)  # unreadable ones are an error, never silently replaced
        return pair
    cert, key = make_ca(common_name)
    write_private(pair.key, key_pem(key))
    write_private(pair.cert, cert_pem(cert), 0o644)
    return pair


def ensure_server(folder: Path, stem: str, names: Sequence[str], ca: Pair | None) -> tuple[Pair, bool]:
    """`stem.crt`/`stem.key` for `names`, signed by `ca` (self-signed without one); made again when missing,
    expiring within RENEW_DAYS or naming other names. Returns the files and whether they were made now."""
    names = check_names(names)
    pair = Pair(folder / f"{stem}.crt", folder / f"{stem}.key")
    if pair.cert.exists() and pair.key.exists():
        current = load_cert(pair.cert)
        signed_by = load_cert(ca.cert).subject if ca is not None else current.subject
        if fresh(current, names) and current.issuer == signed_by:
            return pair, False
    issuer = (load_cert(ca.cert), load_key(ca.key)) if ca is not None else None
    cert, key = make_server(names, issuer)
    write_private(pair.key, key_pem(key))
    write_private(pair.cert, cert_pem(cert), 0o644)
    return pair, True
