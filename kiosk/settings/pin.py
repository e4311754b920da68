"""The admin PIN: a salted PBKDF2 hash, a lockout after wrong tries, and a PIN changed from the admin menu.

Which PIN opens the menu (docs/pi-setup.md): a PIN set from the admin menu is kept as its own salted hash in
the data directory (`admin-pin.json`) together with the config's `admin_pin_hash` it replaced; it counts while
the config still says that hash. A *newer* configured hash — the owner wrote another into the config — wins,
and the menu's PIN is forgotten: the owner can always take a table back through its config. Without any
configured hash the default PIN 1234 opens the menu only to choose a new PIN (`must_change`).

Wrong tries: after 5 wrong PINs each further try waits 30 s, doubling up to an hour. The wait counts in
monotonic time (a clock stepped back from 2033 once left the keypad locked for years): it is kept with the
boot it belongs to, so a restart of the kiosk keeps it, and a wait read back is never longer than MAX_WAIT_S
(after a reboot, the wait that was left). A hash with more than MAX_ITERATIONS is refused unchecked: one wrong
PIN would hold the display thread for seconds (the watchdog ends it after 20).
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
MIN_ITERATIONS, MAX_ITERATIONS = 1_000, 600_000  # what --check-config accepts; more is refused, not computed
MAX_FILE = 64 * 1024  # admin-pin.json is a few hundred bytes
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
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
    if scheme != "pbkdf2_sha256" or not iterations.isdigit() or not MIN_ITERATIONS <= int(iterations) <= MAX_ITERATIONS:
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


def boot_id() -> str:
    """This boot's id (monotonic time is comparable only within one boot)."""
    try:
        return BOOT_ID.read_text(encoding="ascii").strip()[:64]
    except OSError:
        return ""


class PinGuard:
    """Checks PINs against the stored hash, counts wrong tries, keeps both across restarts."""

    FILE = "admin-pin.json"

    def __init__(self, data_dir: Path, config_hash: str, clock: Callable[[], float] = time.monotonic,
                 default_hash: str | None = None):
        self.path = Path(data_dir) / self.FILE
        self.config_hash = config_hash
        self.default_hash = default_hash  # the well-known PIN's hash: it opens only the change of PIN
        self.clock = clock
        saved = self._read()
        over = saved.get("over", config_hash)  # a file from before: its PIN was set over this config
        self.own_hash: str | None = saved.get("hash") if over == config_hash else None
        self.failures = int(_number(saved.get("failures"), 0, 10_000))
        self.locked_until = self.clock() + self._saved_wait(saved)

    def _saved_wait(self, saved: dict) -> float:
        """The wait left when the file was written, bounded: within the same boot from the monotonic clock,
        after a reboot the wait that was left then (never more than MAX_WAIT_S either way)."""
        if saved.get("boot") == boot_id() and "until" in saved:
            left = _number(saved.get("until"), -1e18, 1e18) - self.clock()
        else:
            left = _number(saved.get("left"), 0.0, MAX_WAIT_S)
        return min(MAX_WAIT_S, max(0.0, left))

    @property
    def stored_hash(self) -> str:
        """The PIN set from the admin menu over the config's current hash, else the config's."""
        return self.own_hash or self.config_hash

    @property
    def must_change(self) -> bool:
        """The PIN is still the well-known default: the menu opens only to choose another."""
        return self.default_hash is not None and self.stored_hash == self.default_hash

    def tries_left(self) -> int:
        """Wrong PINs still taken before the keypad waits (after a wait, the next wrong one waits again)."""
        return max(0, FREE_TRIES - self.failures)

    def locked_for(self) -> float:
        """Seconds until the next try is taken (0: now), never more than MAX_WAIT_S."""
        return min(MAX_WAIT_S, max(0.0, self.locked_until - self.clock()))

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
        """Store a new PIN (digits, 4 to 8) as its own salted hash, over the config's current hash."""
        if not (new_pin.isdigit() and MIN_LENGTH <= len(new_pin) <= MAX_LENGTH):
            raise ValueError("a PIN is 4 to 8 digits")
        if self.default_hash is not None and check_pin(new_pin, self.default_hash):
            raise ValueError("not the default PIN")
        self.own_hash = hash_pin(new_pin)
        self._write()

    def _read(self) -> dict:
        try:
            with open(self.path, "rb") as handle:
                data = json.loads(handle.read(MAX_FILE + 1)[:MAX_FILE].decode("utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self) -> None:
        data: dict[str, object] = {"failures": self.failures, "until": self.locked_until, "left": self.locked_for(),
                                   "boot": boot_id(), "over": self.config_hash}
        if self.own_hash:
            data["hash"] = self.own_hash
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            json.dump(data, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)


def _number(value: object, lo: float, hi: float) -> float | int:
    """A number from the file, within [lo, hi] (whatever the file holds); lo for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return lo
    return min(hi, max(lo, value))
