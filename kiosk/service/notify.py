"""systemd's notify protocol: READY=1 after the first frame, WATCHDOG=1 while the loop runs.

One datagram to `$NOTIFY_SOCKET` per message (an abstract socket when the path
starts with `@`). The loop calls `beat()` every step and before it sleeps; `beat()` says when the
next ping is due (`interval`: half the watchdog's time after the last), and an idle loop wakes just
for it. A ping goes out once 0.9 × `interval` has passed, so a wake a millisecond early still pings.
A hung loop stops pinging and systemd restarts it. Written
out rather than taken from `sdnotify`, which swallows send errors silently.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable


class Notifier:
    def __init__(self, environ: dict[str, str] | None = None, clock: Callable[[], float] = time.monotonic):
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        self.interval = int(usec) / 1e6 / 2 if usec.isdigit() and int(usec) > 0 else None
        self.clock = clock
        self.ready_sent = False
        self.last_ping = float("-inf")
        self.errors = 0
        self.last_status = ""
        self._sock: socket.socket | None = None
        if self.address:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @property
    def enabled(self) -> bool:
        return self._sock is not None

    def send(self, message: str) -> bool:
        if self._sock is None:
            return False
        try:
            self._sock.sendto(message.encode(), self.address)
        except OSError:
            self.errors += 1
            return False
        return True

    def ready(self, status: str = "") -> None:
        if not self.ready_sent:
            self.ready_sent = self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, text: str) -> None:
        """A one-line STATUS= for `systemctl status` (why the kiosk is not showing its table)."""
        self.last_status = " ".join(text.split())
        self.send("STATUS=" + self.last_status)

    def beat(self) -> float | None:
        """Called by the loop after each step and before each sleep: READY once, then WATCHDOG=1 when due.
        Returns the seconds until the next ping is due (None: no watchdog), so an idle loop wakes just for it."""
        if self._sock is None:
            return None
        if not self.ready_sent:
            self.ready(self.last_status or "table screen up")
        if self.interval is None:
            return None
        now = self.clock()
        if now - self.last_ping >= 0.9 * self.interval:
            if not self.send("WATCHDOG=1"):
                return self.interval  # systemd did not take it: the next try an interval later, not in a spin
            self.last_ping = now
        return max(0.01, self.last_ping + self.interval - now)

    def stopping(self) -> None:
        self.send("STOPPING=1")
