"""How the display loop sleeps: until an input arrives or the next frame is due, and not a moment earlier.

An idle kiosk must cost next to nothing (issue #23, "Quiet when idle": ≤ 0.3 % of a core here,
fanless Pi all day). SDL's own wait does not sleep on the kiosk's drivers: with kmsdrm (the Pi)
and dummy (tests, headless) SDL_WaitEventTimeout polls every millisecond (1.3 % of a core measured
here), and pygame-ce's `event.wait` always does. So the loop sleeps in `select()` on

- a wake pipe: every other thread (scanners, seat buttons, the café link, the control socket) that
  hands the loop something writes one byte to it (`Waker.wake`, called by `kiosk.loop.inbox.Inbox.post`);
- the touchscreen: the evdev devices (`/dev/input/event*`) SDL opened with the display. A touch makes
  one readable; the loop wakes and pumps SDL, which reads it (touch → frame stays one 60 Hz frame);

with a timeout for the screen's next deadline only (a fading verdict, a race timer, a blinking light,
the watchdog's ping). On a desktop window (x11, wayland …) SDL's input comes over the window system's
socket, which is not the kiosk's to wait on: there the loop pumps SDL every 8 ms as before (that is
the `--sim` window on a developer's machine, never a table).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import weakref
from pathlib import Path

SELECT_DRIVERS = frozenset({"kmsdrm", "KMSDRM", "dummy", "offscreen", "evdev"})  # input through evdev or none
TOUCH_POLL_S = 0.008  # a desktop window: how often SDL is pumped for its input (within one 60 Hz frame)


def input_devices(fd_dir: Path = Path("/proc/self/fd")) -> set[int]:
    """The process's open file descriptors on evdev devices (`/dev/input/…`)."""
    found = set()
    with contextlib.suppress(OSError):
        for entry in fd_dir.iterdir():
            with contextlib.suppress(OSError, ValueError):
                if os.readlink(entry).startswith("/dev/input/"):
                    found.add(int(entry.name))
    return found


class Waker:
    """The loop's sleep and the other threads' way to end it."""

    def __init__(self, driver: str, devices: set[int] | None = None):
        self.blocking = driver in SELECT_DRIVERS
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._read, selectors.EVENT_READ)
        self.devices = set(devices or ())
        for fd in self.devices:
            with contextlib.suppress(OSError, ValueError):
                self._selector.register(fd, selectors.EVENT_READ)
        # An app dropped without close() (tests make hundreds) gives its pipe back when collected.
        self._finalizer = weakref.finalize(self, _release, self._selector, (self._read, self._write))

    def wake(self) -> None:
        """Thread-safe: end the loop's sleep now (a full pipe already says so). After `close` nothing: the pipe's
        numbers may belong to another file by then (the inbox may still be posted to)."""
        if not self._finalizer.alive:
            return
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._write, b"\0")

    def woken(self) -> bool:
        """Whether anyone called `wake` since the last look (and forget it)."""
        woke = False
        with contextlib.suppress(BlockingIOError, OSError):
            while os.read(self._read, 4096):
                woke = True
        return woke

    def sleep(self, seconds: float) -> None:
        """Sleep until woken, until a touch, or `seconds` (on a desktop window: at most one pump interval)."""
        if not self.blocking:
            seconds = min(seconds, TOUCH_POLL_S)
        if seconds > 0:
            self._selector.select(seconds)

    def close(self) -> None:
        self._finalizer()


def _release(selector: selectors.BaseSelector, fds: tuple[int, int]) -> None:
    selector.close()
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
