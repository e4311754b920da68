"""The guard around the display loop (issue #22): a bug in a screen never ends the guests' game.

An exception in a screen's input handler or drawing is caught by the app, logged at ERROR
with its traceback, and the table screen is rebuilt from the event log (the truth) with a
calm notice. The guard protects guests, it never hides bugs: every caught error is counted
(the control socket's `state` reports `guarded_errors`; the monkey drill and the test
suite fail on any), and the same fault repeating `REPEAT` times within `WINDOW_S` ends the
process with `EXIT_CODE`, so systemd restarts it and its start limit counts it.
"""

from __future__ import annotations

import time
import traceback
from collections import deque
from dataclasses import dataclass, field

REPEAT = 5  # the same fault this often …
WINDOW_S = 60.0  # … within this many seconds: exit for a restart
EXIT_CODE = 70  # EX_SOFTWARE: an internal error; systemd's Restart=always starts the kiosk again
NOTICE_S = 6.0  # how long the guests' notice stays on screen


def fingerprint(error: BaseException) -> tuple[str, str, int]:
    """What makes two faults "the same": the exception's type and the line that raised it."""
    frames = traceback.extract_tb(error.__traceback__)
    last = frames[-1] if frames else None
    return type(error).__name__, last.filename if last else "", last.lineno or 0 if last else 0


@dataclass
class LoopGuard:
    """Counts the display loop's caught errors and says when one repeats too often."""

    count: int = 0
    notice_until: float = 0.0
    _seen: dict[tuple[str, str, int], deque[float]] = field(default_factory=dict)

    def caught(self, error: BaseException, now: float | None = None) -> bool:
        """Count one caught error; True when the same fault came `REPEAT` times within `WINDOW_S` (exit now)."""
        now = time.monotonic() if now is None else now
        self.count += 1
        self.notice_until = now + NOTICE_S
        times = self._seen.setdefault(fingerprint(error), deque(maxlen=REPEAT))
        times.append(now)
        return len(times) == REPEAT and now - times[0] <= WINDOW_S

    def notice_shows(self, now: float) -> bool:
        return now < self.notice_until
