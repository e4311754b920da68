"""Password guessing, limited: per client address and over all addresses, failures in a window lock the login
for a time that doubles with each lockout. A locked login answers 429 at once, without the scrypt a guess would
cost. An attempt counts as a failure from the moment it starts, so thirty guesses sent at once meet the limit
after the first five instead of all running scrypt.

The overall limit stops a guesser with many addresses (a café's Wi-Fi hands them out) at the price of locking
the staff out for a while too; staff already logged in keep their sessions.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field

WINDOW_S = 300.0
PER_ADDRESS = 5  # failures in WINDOW_S from one address before its lockout
OVERALL = 20  # failures in WINDOW_S from all addresses together before everyone's lockout
FIRST_LOCK_S = 60.0  # the first lockout; each further one doubles, up to MAX_LOCK_S
MAX_LOCK_S = 3600.0
EVERYONE = "*"


@dataclass
class _Count:
    failures: deque[float] = field(default_factory=deque)
    locked_until: float = 0.0
    lockouts: int = 0


class LoginGuard:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: dict[str, _Count] = {}

    def refused_for(self, address: str, now: float) -> float:
        """Seconds until `address` may try again (0 when it may now)."""
        with self.lock:
            waits = [c.locked_until - now for key in (address, EVERYONE) if (c := self.counts.get(key))]
        return max([0.0, *waits])

    def attempt(self, address: str, now: float) -> float:
        """Start an attempt: 0 and counted as a failure until `succeeded`, or the seconds it is refused for."""
        wait = self.refused_for(address, now)
        if wait > 0:
            return wait
        with self.lock:
            if len(self.counts) > 10_000:  # forget quiet addresses rather than grow without end
                self.counts = {k: c for k, c in self.counts.items() if c.locked_until > now or c.failures}
            for key, limit in ((address, PER_ADDRESS), (EVERYONE, OVERALL)):
                self._fail(self.counts.setdefault(key, _Count()), limit, now)
        return 0.0

    @staticmethod
    def _fail(count: _Count, limit: int, now: float) -> None:
        while count.failures and count.failures[0] <= now - WINDOW_S:
            count.failures.popleft()
        count.failures.append(now)
        if len(count.failures) >= limit:
            count.lockouts += 1
            count.locked_until = now + min(MAX_LOCK_S, FIRST_LOCK_S * 2 ** (count.lockouts - 1))
            count.failures.clear()

    def succeeded(self, address: str) -> None:
        """The password was right: this attempt was no failure, and the address starts afresh."""
        with self.lock:
            self.counts.pop(address, None)
            everyone = self.counts.get(EVERYONE)
            if everyone and everyone.failures:
                everyone.failures.pop()
