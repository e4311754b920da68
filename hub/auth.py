"""The staff password: an scrypt hash in the hub's config, never the password itself.

`referee-hub hash-password` prints a line for the config. The format names its
parameters so they can grow later: `scrypt$N$r$p$salt$hash` (salt and hash base64).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

N, R, P = 2**14, 8, 1


def hash_password(password: str, salt: bytes | None = None) -> str:
    salt = salt or os.urandom(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=N, r=R, p=P, dklen=32)
    encoded = [base64.b64encode(salt).decode(), base64.b64encode(digest).decode()]
    return "$".join(["scrypt", str(N), str(R), str(P), *encoded])


def valid_hash(text: str) -> bool:
    parts = text.split("$")
    if len(parts) != 6 or parts[0] != "scrypt" or not all(p.isdigit() for p in parts[1:4]):
        return False
    try:
        base64.b64decode(parts[4], validate=True)
        base64.b64decode(parts[5], validate=True)
    except ValueError:
        return False
    return True


def check_password(password: str, stored: str) -> bool:
    if not valid_hash(stored):
        return False
    _, n, r, p, salt, digest = stored.split("$")
    mine = hashlib.scrypt(password.encode("utf-8"), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p),
                          maxmem=256 * 1024 * 1024, dklen=len(base64.b64decode(digest)))
    return hmac.compare_digest(mine, base64.b64decode(digest))
