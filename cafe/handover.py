"""Pairing without a shell, the handover: how a table gets its broker user, password and the café's CA from the hub.

The path (docs/cafe.md, "Pairing"; decisions P34-6 …):

1. The table asks to join: `POST /pair/hello` to the hub (its address typed in admin → Café) with its table id
   and its Ed25519 key. The hub lists it to staff as "waiting to join" with the key's fingerprint, which the
   table's Café screen shows too.
2. Staff compare the fingerprints and accept. The hub adds the table's broker user (`table-<id>`, a fresh
   password) through the dynamic security plugin and shows a one-time code of `CODE_DIGITS` digits on the staff
   page, with a random `salt` that the table's next hello receives.
3. Staff type the code on the table. The table derives two keys from code and salt with scrypt, proves it knows
   the code (`proof`, an HMAC) and signs the claim with its own key; the hub checks both and answers with the
   bundle (broker address, user, password, the café's CA) sealed with AES-GCM under the second key.

The code never crosses the network. Whoever sits in the middle of the Wi-Fi (the table cannot check the hub's
self-signed certificate before it has anything of the café) sees a salt, a proof and a sealed box: without the
code it can neither open the box nor make one the table accepts, so it cannot hand the table another CA. It can
try codes offline against a proof it saw: 10¹² codes at one scrypt each (32 MiB, ~0.1 s) is out of reach in the
code's lifetime, and a code opens one bundle once. Each code allows `CODE_TRIES` wrong claims, then it is void.

Everything here is the standard library and `cryptography` (scrypt, HMAC-SHA256, AES-GCM); nothing made here
but which bytes go where. Both sides import this module, so they build the same bytes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import http.client
import json
import os
import re
import secrets
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cryptography import x509
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from cafe import contract
from cafe.access import table_user
from cafe.config import parse_broker, parse_hub

VERSION = 1
CODE_DIGITS = 12
CODE_TRIES = 5
CODE_LIFETIME_S = 30 * 60
SALT_BYTES = 16
NONCE_BYTES = 12
SCRYPT = {"n": 2**15, "r": 8, "p": 1}  # 32 MiB and about a tenth of a second here, a few tenths on a Pi
MAX_MESSAGE = 4 * 1024  # a hello or a claim
MAX_ANSWER = 32 * 1024  # the hub's answer (the sealed bundle holds a CA certificate)
MAX_CA = 8 * 1024
MAX_DEPTH = 4  # a pairing message is a flat object
STATES = ("waiting", "refused", "accepted", "paired", "expired")
_B64URL = re.compile(r"[A-Za-z0-9_-]*")
_PASSWORD = re.compile(r"[!-~]{16,128}")  # printable ASCII, no spaces: what broker-config and the hub make


class HandoverError(ValueError):
    """A pairing message that breaks these rules; the message says which."""


class WrongCode(HandoverError):
    """The sealed bundle does not open with this code (a wrong code, or an answer from someone else)."""


# ---------------------------------------------------------------- bytes


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: object, size: int | None = None, limit: int = MAX_ANSWER) -> bytes:
    """Bytes from base64url (no padding), of exactly `size` bytes when given; HandoverError otherwise."""
    if not isinstance(text, str) or len(text) > limit or not _B64URL.fullmatch(text):
        raise HandoverError("not base64url")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise HandoverError("not base64url") from None
    if size is not None and len(data) != size:
        raise HandoverError(f"not {size} bytes")
    return data


def canonical(value: Mapping[str, Any]) -> bytes:
    """Sorted keys, no whitespace, UTF-8: the bytes both sides hash, sign and authenticate."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def decode(data: bytes, limit: int) -> dict[str, Any]:
    """A JSON object of at most `limit` bytes with `"v": 1`; HandoverError otherwise."""
    if len(data) > limit:
        raise HandoverError(f"more than {limit} bytes")
    try:
        text = data.decode("utf-8")
        if contract.nesting(text) > MAX_DEPTH:  # counted before parsing: a deep one would exhaust the recursion
            raise HandoverError(f"nested more than {MAX_DEPTH} deep")
        value = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise HandoverError("not JSON") from None
    if not isinstance(value, dict) or value.get("v") != VERSION:
        raise HandoverError('not a pairing message ({"v": 1, …})')
    return value


# ---------------------------------------------------------------- the code


def new_code() -> str:
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


def shown(code: str) -> str:
    """The code as staff read and type it: groups of four digits."""
    return " ".join(code[i:i + 4] for i in range(0, len(code), 4))


def digits(text: str) -> str:
    """What staff typed, spaces and dashes left out; HandoverError unless it is CODE_DIGITS digits."""
    code = "".join(c for c in text if c not in " -")
    if len(code) != CODE_DIGITS or not code.isascii() or not code.isdigit():
        raise HandoverError(f"the code has {CODE_DIGITS} digits")
    return code


def new_salt() -> str:
    return b64url(os.urandom(SALT_BYTES))


@dataclass(frozen=True, slots=True)
class Instance:
    """One pairing: this café, this table id, this key, this code's salt. Everything is bound to all four."""

    cafe: str
    table: str
    key: str
    salt: str

    def fields(self) -> dict[str, Any]:
        return {"v": VERSION, "cafe": self.cafe, "table": self.table, "key": self.key, "salt": self.salt}

    def claim_bytes(self, proof: str) -> bytes:
        """What the table signs with its own key when it claims the bundle."""
        return canonical({**self.fields(), "purpose": "tabletop-referee pairing claim", "proof": proof})


@dataclass(frozen=True, slots=True)
class Keys:
    proof: bytes
    seal: bytes


def derive(code: str, instance: Instance) -> Keys:
    """The two keys a code gives for one pairing (scrypt; the salt and the pairing's fields as scrypt's salt)."""
    salt = unb64url(instance.salt, SALT_BYTES) + hashlib.sha256(canonical(instance.fields())).digest()
    out = Scrypt(salt=salt, length=64, **SCRYPT).derive(digits(code).encode("ascii"))
    return Keys(out[:32], out[32:])


def proof(keys: Keys, instance: Instance) -> str:
    """The table's proof that it knows the code (HMAC-SHA256 over the pairing's fields)."""
    return b64url(hmac.new(keys.proof, canonical({**instance.fields(), "purpose": "proof"}), "sha256").digest())


def proof_holds(keys: Keys, instance: Instance, claimed: object) -> bool:
    return isinstance(claimed, str) and hmac.compare_digest(proof(keys, instance), claimed)


# ---------------------------------------------------------------- the bundle


@dataclass(frozen=True, slots=True)
class Bundle:
    """What a paired table needs to reach the café's broker."""

    cafe: str
    table: str
    broker: str  # "host:port" of the broker's TLS listener
    username: str
    password: str
    ca: str  # PEM of the café's CA

    def payload(self) -> dict[str, Any]:
        return {"v": VERSION, "cafe": self.cafe, "table": self.table, "broker": self.broker,
                "username": self.username, "password": self.password, "ca": self.ca}


def check_ca(pem: object) -> x509.Certificate:
    """A CA certificate in PEM, at most MAX_CA bytes; HandoverError otherwise."""
    if not isinstance(pem, str) or len(pem) > MAX_CA or not pem.isascii():
        raise HandoverError("ca must be a PEM certificate")
    try:
        cert = x509.load_pem_x509_certificate(pem.encode("ascii"))
        constraints = cert.extensions.get_extension_for_class(x509.BasicConstraints).value
    except (ValueError, x509.ExtensionNotFound):
        raise HandoverError("ca is not a CA certificate") from None
    if not constraints.ca:
        raise HandoverError("ca is not a CA certificate")
    return cert


def check_bundle(value: Mapping[str, Any], instance: Instance) -> Bundle:
    """Every field of an opened bundle checked, and bound to this pairing."""
    if value.get("v") != VERSION or value.get("cafe") != instance.cafe or value.get("table") != instance.table:
        raise HandoverError("the bundle is for another café or table")
    if value.get("username") != table_user(instance.table):
        raise HandoverError("the bundle names another broker user")
    broker = value.get("broker")
    if not isinstance(broker, str) or len(broker) > 300:
        raise HandoverError("broker must be host:port")
    parse_broker(broker, tls=True)
    password = value.get("password")
    if not isinstance(password, str) or not _PASSWORD.fullmatch(password):
        raise HandoverError("password must be 16-128 printable characters")
    check_ca(value.get("ca"))
    return Bundle(instance.cafe, instance.table, broker, str(value["username"]), password, str(value["ca"]))


def seal(keys: Keys, instance: Instance, bundle: Bundle) -> dict[str, Any]:
    """The claim's answer: the bundle encrypted and authenticated (AES-GCM), bound to the pairing's fields."""
    nonce = os.urandom(NONCE_BYTES)
    box = AESGCM(keys.seal).encrypt(nonce, canonical(bundle.payload()), canonical(instance.fields()))
    return {"v": VERSION, "nonce": b64url(nonce), "box": b64url(box)}


def open_sealed(keys: Keys, instance: Instance, answer: Mapping[str, Any]) -> Bundle:
    """The bundle from the hub's answer; WrongCode when it does not open (a wrong code or a forged answer)."""
    nonce = unb64url(answer.get("nonce"), NONCE_BYTES)
    box = unb64url(answer.get("box"))
    try:
        plain = AESGCM(keys.seal).decrypt(nonce, box, canonical(instance.fields()))
    except InvalidTag:
        raise WrongCode("the answer does not open with this code") from None
    return check_bundle(decode(plain, MAX_ANSWER), instance)


# ---------------------------------------------------------------- the hub's answer to a hello


def check_state(answer: Mapping[str, Any], table: str, key: str) -> tuple[str, str, str | None]:
    """(café, state, salt or None) from the hub's answer to a hello, each checked."""
    cafe, state, salt = answer.get("cafe"), answer.get("state"), answer.get("salt")
    if not contract.is_id(cafe) or answer.get("table") != table or answer.get("key") != key:
        raise HandoverError("the hub answered for another table")
    if state not in STATES:
        raise HandoverError(f"unknown state {state!r}")
    if state == "accepted":
        unb64url(salt, SALT_BYTES)
        return str(cafe), state, str(salt)
    return str(cafe), str(state), None


# ---------------------------------------------------------------- the table's side of the wire


@dataclass(frozen=True, slots=True)
class Answer:
    """The hub's HTTP answer: its status and its JSON object (`{}` when it sent none)."""

    status: int
    body: dict[str, Any]


def post(hub: str, path: str, body: Mapping[str, Any], timeout: float = 15.0) -> Answer:
    """One JSON request to the hub over HTTPS. The hub's certificate is not checked: before pairing the table has
    nothing of the café to check it with, and what comes back matters only when the code authenticates it.
    OSError when the hub cannot be reached; HandoverError for an answer that is no pairing message."""
    host, port = parse_hub(hub)
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    connection = http.client.HTTPSConnection(host, port, timeout=timeout, context=context)
    try:
        connection.request("POST", path, body=canonical(body), headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        data = response.read(MAX_ANSWER + 1)
    except http.client.HTTPException as error:
        raise OSError(f"the hub's answer broke off: {error}") from None
    finally:
        connection.close()
    try:
        return Answer(response.status, decode(data, MAX_ANSWER))
    except HandoverError:
        if response.status >= 400:
            return Answer(response.status, {})
        raise


def hello(hub: str, table: str, key: str) -> Answer:
    return post(hub, "/pair/hello", {"v": VERSION, "table": table, "key": key})


def claim(hub: str, instance: Instance, keys: Keys, sign: Callable[[bytes], bytes]) -> Answer:
    """Claim the bundle: the proof of the code and the table's signature over the claim."""
    made = proof(keys, instance)
    return post(hub, "/pair/claim", {"v": VERSION, "table": instance.table, "key": instance.key, "proof": made,
                                     "sig": b64url(sign(instance.claim_bytes(made)))})
