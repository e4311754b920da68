"""Password guessing, slowed where it comes from: growing delays per address and for the staff account, never a
lockout of everyone.

- Per address (an IPv6 address by its /64, the network one device chooses its addresses from): FREE_PER_ADDRESS
  failures within WINDOW_S cost nothing, each further one doubles the wait before that address may try again
  (1 s, 2 s, 4 s … up to ADDRESS_MAX_S).
- For the account (the one staff password): failures from all addresses together beyond FREE_FOR_ACCOUNT within
  WINDOW_S make every address *that has failed* wait too, doubling up to ACCOUNT_MAX_S. An address with no
  failure on record never waits for the account, so staff at their own device log in at once however many
  addresses guess; staff who mistyped wait at most ACCOUNT_MAX_S (plus their own address's few seconds).

A waiting address is answered 429 with Retry-After at once, without the scrypt a guess would cost. An attempt
counts as a failure from the moment it starts, so thirty guesses sent at once meet the delays after the first
few instead of all running scrypt. Times are monotonic (a clock stepped back or forth changes no wait).
`referee-hub unlock` (docs/cafe.md) clears every delay of a running hub.
"""

from __future__ import annotations

import ipaddress
import threading
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

WINDOW_S = 24 * 3600.0  # failures are remembered a day: a slow guesser stays slowed
FREE_PER_ADDRESS = 3
ADDRESS_MAX_S = 900.0
FREE_FOR_ACCOUNT = 10
ACCOUNT_MAX_S = 30.0
MAX_ADDRESSES = 10_000


@dataclass
class _Count:
    failures: deque[float] = field(default_factory=deque)
    ready_at: float = 0.0  # monotonic: no attempt before then


def network(address: str) -> str:
    """The key an address counts under: itself for IPv4, its /64 for IPv6."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _delay(failures: int, free: int, most: float) -> float:
    extra = failures - free
    return 0.0 if extra <= 0 else min(most, 2.0 ** (extra - 1))


UNLOCK_NAME = "staff-unlock"  # in the hub's data directory: `referee-hub unlock` touches it


class LoginGuard:
    def __init__(self, unlock_file: Path | None = None) -> None:
        self.lock = threading.Lock()
        self.addresses: dict[str, _Count] = {}
        self.account = _Count()
        self.unlock_file = unlock_file
        self._unlocked = self._unlock_mark()

    def _unlock_mark(self) -> float:
        try:
            return self.unlock_file.stat().st_mtime if self.unlock_file else 0.0
        except OSError:
            return 0.0

    def unlock_if_asked(self) -> bool:
        """Clear every delay when the owner ran `referee-hub unlock` since the last look (True then)."""
        mark = self._unlock_mark()
        if mark == self._unlocked:
            return False
        self._unlocked = mark
        self.clear()
        return True

    def _forget_old(self, count: _Count, now: float) -> None:
        while count.failures and count.failures[0] <= now - WINDOW_S:
            count.failures.popleft()

    def refused_for(self, address: str, now: float) -> float:
        """Seconds until `address` may try again (0 when it may now)."""
        with self.lock:
            return self._wait(network(address), now)

    def _wait(self, key: str, now: float) -> float:
        mine = self.addresses.get(key)
        if mine is None:
            return 0.0
        self._forget_old(mine, now)
        account = self.account.ready_at - now if mine.failures else 0.0
        return max(0.0, mine.ready_at - now, account)

    def attempt(self, address: str, now: float) -> float:
        """Start an attempt: 0 and counted as a failure until `succeeded`, or the seconds it must wait."""
        key = network(address)
        with self.lock:
            wait = self._wait(key, now)
            if wait > 0:
                return wait
            if len(self.addresses) >= MAX_ADDRESSES:  # forget quiet addresses rather than grow without end
                self.addresses = {k: c for k, c in self.addresses.items() if c.ready_at > now or c.failures}
            mine = self.addresses.setdefault(key, _Count())
            for count, free, most in ((mine, FREE_PER_ADDRESS, ADDRESS_MAX_S),
                                      (self.account, FREE_FOR_ACCOUNT, ACCOUNT_MAX_S)):
                self._forget_old(count, now)
                count.failures.append(now)
                count.ready_at = now + _delay(len(count.failures), free, most)
        return 0.0

    def succeeded(self, address: str) -> None:
        """The password was right: this attempt was no failure, and the address starts afresh."""
        with self.lock:
            self.addresses.pop(network(address), None)
            if self.account.failures:
                self.account.failures.pop()

    def clear(self) -> None:
        """Every delay gone (the owner's `referee-hub unlock`)."""
        with self.lock:
            self.addresses.clear()
            self.account = _Count()
