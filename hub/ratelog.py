"""Warnings that a flood cannot turn into a flood of log lines: one line per kind per interval, with a count.

A hostile or broken table can send thousands of bad messages a second; each is
dropped, but a line per message would fill the Pi's SD card and hide everything
else. The first of a kind is logged at once; later ones within `every_s` are only
counted, and the next line says how many were left out.
"""

from __future__ import annotations

import logging
import threading
import time


class RateLimitedLog:
    def __init__(self, logger: logging.Logger, every_s: float = 10.0):
        self.logger = logger
        self.every_s = every_s
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}
        self.total = 0  # every call, logged or held (for /api/health)

    def warning(self, kind: str, message: str, *args: object) -> bool:
        """Log `message` unless a line of this `kind` went out less than `every_s` ago; True when logged."""
        now = time.monotonic()
        with self._lock:
            self.total += 1
            if now - self._last.get(kind, -self.every_s) < self.every_s:
                self._held[kind] = self._held.get(kind, 0) + 1
                return False
            if len(self._last) >= 1000:  # kinds named after topics: a flood of made-up names cannot grow this
                self._last.clear()
            self._last[kind] = now
            held = self._held.pop(kind, 0)
        if held:
            message += f" (and {held} more like it in the last {self.every_s:g} s)"
        self.logger.warning(message, *args)
        return True
