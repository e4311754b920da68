"""The admin PIN: a salted PBKDF2 hash, a lockout after wrong tries, and a PIN changed from the admin menu.

The config's `admin_pin_hash` is the fallback; a PIN set from the admin menu is kept as its own salted
hash in the data directory (`admin-pin.json`), together with the count of wrong tries and the end of the
current lockout (wall-clock time, so a restart does not reset it). Guessing the 4-digit default took
under a second before; now after 5 wrong PINs each further try waits 30 s, doubling up to an hour.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ITERATIONS = 120_000
FREE_TRIES = 5  # wrong PINs before the first wait
FIRST_WAIT_S = 30.0
MAX_WAIT_S = 3600.0
MIN_LENGTH = 4
MAX_LENGTH = 8


def hash_pin(pin: str, salt: str | None = None, iterations: int = ITERATIONS) -> str:
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt.encode(), iterations).hex()
    return f"pbkdf2_sha256${iterations}${salt}${digest}"


def check_pin(pin: str, stored: str) -> bool:
    try:
        scheme, iterations, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "pbkdf2_sha256":
        return False
    expected = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt.encode(), int(iterations)).hex()
    return hmac.compare_digest(expected, digest)


def wait_after(failures: int) -> float:
    """Seconds the keypad stays locked after this many wrong PINs in a row (0 for the first four)."""
    if failures < FREE_TRIES:
        return 0.0
    return min(MAX_WAIT_S, FIRST_WAIT_S * 2 ** (failures - FREE_TRIES))


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to one PIN try: unlocked, or how long to wait before the next try."""

    ok: bool
    wait_s: float = 0.0  # > 0: locked for this long (the try was refused or was the one that locked it)
    failures: int = 0


class PinGuard:
    """Checks PINs against the stored hash, counts wrong tries, keeps both across restarts."""

    FILE = "admin-pin.json"

    def __init__(self, data_dir: Path, config_hash: str, clock: Callable[[], float] = time.time):
        self.path = Path(data_dir) / self.FILE
        self.config_hash = config_hash
        self.clock = clock
        saved = self._read()
        self.own_hash: str | None = saved.get("hash")
        self.failures = int(saved.get("failures", 0))
        self.locked_until = float(saved.get("locked_until", 0.0))

    @property
    def stored_hash(self) -> str:
        """The PIN set from the admin menu, else the config's."""
        return self.own_hash or self.config_hash

    def tries_left(self) -> int:
        """Wrong PINs still taken before the keypad waits (after a wait, the next wrong one waits again)."""
        return max(0, FREE_TRIES - self.failures)

    def locked_for(self) -> float:
        """Seconds until the next try is taken (0: now)."""
        return max(0.0, self.locked_until - self.clock())

    def attempt(self, pin: str) -> Verdict:
        wait = self.locked_for()
        if wait > 0:
            return Verdict(False, wait, self.failures)
        if check_pin(pin, self.stored_hash):
            self.failures, self.locked_until = 0, 0.0
            self._write()
            return Verdict(True)
        self.failures += 1
        wait = wait_after(self.failures)
        self.locked_until = self.clock() + wait if wait else 0.0
        self._write()
        return Verdict(False, wait, self.failures)

    def change(self, new_pin: str) -> None:
        """Store a new PIN (digits, 4 to 8) as its own salted hash; the config's hash stays the fallback."""
        if not (new_pin.isdigit() and MIN_LENGTH <= len(new_pin) <= MAX_LENGTH):
            raise ValueError("a PIN is 4 to 8 digits")
        self.own_hash = hash_pin(new_pin)
        self._write()

    def _read(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self) -> None:
        data: dict[str, float | str] = {"failures": self.failures, "locked_until": self.locked_until}
        if self.own_hash:
            data["hash"] = self.own_hash
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            json.dump(data, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)
