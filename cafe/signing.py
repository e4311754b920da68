"""A table's signed hash chain (`shared/cafe-protocol.md`, "Integrity"): canonical form, hashes, Ed25519 keys.

One module for both sides, so the bytes a table hashes are exactly the bytes the hub hashes again: the table
signs each log record when it writes it (`RecordSigner.seal`), the hub checks it against the key its staff
accepted (`check_record`). The crypto is `cryptography`'s Ed25519 (OpenSSL underneath; Debian's
python3-cryptography on 32-bit Pi OS), nothing made here but the canonical JSON the contract defines.

- canonical form: the record without `h` and `sig`, keys sorted by code point, no whitespace, UTF-8 (only
  the escapes JSON requires), integers only — a float anywhere makes it no record of the contract;
- `h`: base64url (no padding) of SHA-256 over the canonical form; `prev`: the `h` of record n − 1 (absent
  for n = 1); `sig`: base64url of the Ed25519 signature over the 32 bytes of that hash;
- a key as the status carries it: `ed25519:<base64url of the 32 raw bytes>`; its fingerprint: the first 8
  base64url characters of SHA-256 over those 32 bytes (what the table's screen and the hub's staff page show).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from cafe.contract import MAX_INT, ContractError

KEY_PREFIX = "ed25519:"
HASH_CHARS = 43  # base64url of 32 bytes, no padding
SIG_CHARS = 86  # base64url of 64 bytes, no padding
KEY_CHARS = len(KEY_PREFIX) + HASH_CHARS
FINGERPRINT_CHARS = 8
SEALS = ("h", "sig")  # what the canonical form leaves out
_B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class IntegrityError(ContractError):
    """A record whose hash or signature does not hold (or that cannot be put in canonical form)."""


# ---------------------------------------------------------------- bytes


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str, size: int) -> bytes:
    """The `size` bytes a base64url text (no padding) stands for; IntegrityError for anything else."""
    if not isinstance(text, str) or len(text) != -(-size * 4 // 3) or not set(text) <= _B64URL:
        raise IntegrityError(f"not base64url of {size} bytes")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise IntegrityError(f"not base64url of {size} bytes") from None
    if len(data) != size or b64url(data) != text:  # one spelling per value: no stray bits in the last character
        raise IntegrityError(f"not base64url of {size} bytes")
    return data


def _integers_only(value: object) -> None:
    """Walk a JSON value (iteratively: a payload nests at most 16 deep, but this needs no recursion limit)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float):
            raise IntegrityError("a signed record holds integers only, no floats")
        if isinstance(item, int) and not isinstance(item, bool) and not -MAX_INT <= item <= MAX_INT:
            raise IntegrityError("an integer outside ±(2^53 - 1)")
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def canonical(record: Mapping[str, Any]) -> bytes:
    """The record's canonical form (without `h` and `sig`): sorted keys, no whitespace, UTF-8, integers only."""
    body = {k: v for k, v in record.items() if k not in SEALS}
    _integers_only(body)
    try:
        return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False).encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError) as error:  # a lone surrogate, a value JSON cannot hold
        raise IntegrityError(f"no canonical form: {error}") from None


def digest(record: Mapping[str, Any]) -> bytes:
    """SHA-256 over the canonical form: the 32 bytes that are signed."""
    return hashlib.sha256(canonical(record)).digest()


def record_hash(record: Mapping[str, Any]) -> str:
    """The record's `h`."""
    return b64url(digest(record))


# ---------------------------------------------------------------- keys


def public_text(key: Ed25519PublicKey) -> str:
    """A public key as the status carries it: `ed25519:<base64url>`."""
    return KEY_PREFIX + b64url(key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))


def parse_public(text: object) -> Ed25519PublicKey:
    """An `ed25519:…` key from a status (IntegrityError when it is not one)."""
    if not isinstance(text, str) or not text.startswith(KEY_PREFIX) or len(text) != KEY_CHARS:
        raise IntegrityError("key must be ed25519:<base64url of 32 bytes>")
    return Ed25519PublicKey.from_public_bytes(unb64url(text[len(KEY_PREFIX):], 32))


def is_public_text(text: object) -> bool:
    try:
        parse_public(text)
    except (IntegrityError, ValueError):
        return False
    return True


def fingerprint(key_text: str) -> str:
    """The key's short fingerprint: the first 8 base64url characters of SHA-256 over its 32 raw bytes — what the
    table shows on its Café screen and the hub's staff compare before they accept it."""
    raw = unb64url(key_text[len(KEY_PREFIX):], 32) if key_text.startswith(KEY_PREFIX) else b""
    if not raw:
        raise IntegrityError("not an ed25519 key")
    return b64url(hashlib.sha256(raw).digest())[:FINGERPRINT_CHARS]


def new_private_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def write_private_key(path: Path, key: Ed25519PrivateKey) -> None:
    """The key as PKCS#8 PEM, mode 0600 from the first byte, written whole or not at all (a temporary file
    synced, renamed over, the folder synced): a kill at any instant leaves no half key."""
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, pem)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, path)
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def read_private_key(path: Path) -> Ed25519PrivateKey:
    """The table's key from its PEM file (ValueError when the file holds no Ed25519 key)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(16 * 1024)
    key = serialization.load_pem_private_key(data, password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} holds no Ed25519 key")
    return key


def load_or_make_key(path: Path) -> Ed25519PrivateKey:
    """The key in `path`, made (and written, mode 0600) when there is none yet. The file's mode is put back to
    0600 should someone have widened it."""
    try:
        key = read_private_key(path)
    except FileNotFoundError:
        key = new_private_key()
        write_private_key(path, key)
        return key
    if os.stat(path).st_mode & 0o077:
        os.chmod(path, 0o600)
    return key


# ---------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class RecordSigner:
    """A table's private key: seals each log record as it is written."""

    key: Ed25519PrivateKey

    @property
    def public(self) -> str:
        return public_text(self.key.public_key())

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def seal(self, record: Mapping[str, Any], prev: str | None) -> dict[str, Any]:
        """The record with `prev` (left out for n = 1), `h` and `sig`: what the log keeps and sends, byte for
        byte the same every time (IntegrityError when the record has no canonical form, e.g. a float)."""
        body = {k: v for k, v in record.items() if k not in (*SEALS, "prev")}
        if prev is not None:
            body["prev"] = prev
        hashed = digest(body)
        return body | {"h": b64url(hashed), "sig": b64url(self.key.sign(hashed))}


def check_record(record: Mapping[str, Any], key: Ed25519PublicKey) -> str:
    """The record's `h` when its hash and its signature hold with `key`; IntegrityError otherwise (which one)."""
    hashed = digest(record)
    if unb64url(record.get("h"), 32) != hashed:  # type: ignore[arg-type]
        raise IntegrityError("h is not the hash of the record")
    try:
        key.verify(unb64url(record.get("sig"), 64), hashed)  # type: ignore[arg-type]
    except InvalidSignature:
        raise IntegrityError("the signature does not hold with the table's key") from None
    return str(record["h"])


def signed_by(record: Mapping[str, Any], key: Ed25519PublicKey) -> bool:
    try:
        check_record(record, key)
    except IntegrityError:
        return False
    return True
