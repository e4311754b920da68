"""How the display loop sleeps: until an input arrives or the next frame is due, and not a moment earlier.

An idle kiosk must cost next to nothing (issue #23, "Quiet when idle": ≤ 0.3 % of a core here,
fanless Pi all day). SDL's own wait does not sleep on the kiosk's drivers: with kmsdrm (the Pi)
and dummy (tests, headless) SDL_WaitEventTimeout polls every millisecond (1.3 % of a core measured
here), and pygame-ce's `event.wait` always does. So the loop sleeps in `select()` on

- a wake pipe: every other thread (scanners, seat buttons, the café link, the control socket) that
  hands the loop something writes one byte to it (`Waker.wake`, called by `kiosk.loop.inbox.Inbox.post`);
- the touchscreen: the evdev devices (`/dev/input/event*`) SDL opened with the display. A touch makes
  one readable; the loop wakes and pumps SDL, which reads it (touch → frame stays one 60 Hz frame);
- SDL's device monitor: the udev netlink socket through which SDL hears of a touchscreen or keyboard
  plugged in or out. It wakes the loop, SDL opens the new device on that pump, and the loop watches
  the devices again (`Waker.watch`), so no timer is needed to notice a device;

with a timeout for the screen's next deadline only (a fading verdict, a race timer, a blinking light,
the watchdog's ping). On a desktop window (x11, wayland …) SDL's input comes over the window system's
socket, which is not the kiosk's to wait on: there the loop pumps SDL every 8 ms as before (that is
the `--sim` window on a developer's machine, never a table).

SDL is pumped only when it may have something (`Woken.pump`): a device or the monitor was readable, a
program posted an SDL event (`wake(sdl=True)`), or the wait ran out. A scan, a seat button or the café
wakes the loop through the pipe alone and goes straight to its verdict (decision H23-Q2).
"""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import signal
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypeVar

SELECT_DRIVERS = frozenset({"kmsdrm", "KMSDRM", "dummy", "offscreen", "evdev"})  # input through evdev or none
TOUCH_POLL_S = 0.008  # a desktop window: how often SDL is pumped for its input (within one 60 Hz frame)
NETLINK_KOBJECT_UEVENT = 15  # the netlink protocol of udev's device events (linux/netlink.h)

T = TypeVar("T")
logger = logging.getLogger(__name__)


def input_devices(fd_dir: Path = Path("/proc/self/fd")) -> set[int]:
    """The process's open file descriptors on evdev devices (`/dev/input/…`)."""
    return {fd for fd, target in _open_files(fd_dir) if target.startswith("/dev/input/")}


def device_monitors(fd_dir: Path = Path("/proc/self/fd"), netlink: Path = Path("/proc/self/net/netlink")
                    ) -> set[int]:
    """The process's open udev monitor sockets (netlink, kobject uevents): how SDL hears of hotplug."""
    inodes = set()
    with contextlib.suppress(OSError):
        for line in netlink.read_text().splitlines()[1:]:
            fields = line.split()
            if len(fields) >= 10 and fields[1] == str(NETLINK_KOBJECT_UEVENT):
                inodes.add(fields[9])
    return {fd for fd, target in _open_files(fd_dir) if target[8:-1] in inodes and target.startswith("socket:[")}


def opened_by(open_display: Callable[[], T], fd_dir: Path = Path("/proc/self/fd"),
              netlink: Path = Path("/proc/self/net/netlink")) -> tuple[T, set[int], set[int]]:
    """Run `open_display` and say which evdev devices and udev monitor sockets it opened: SDL's own, which the loop
    sleeps on. SDL offers no call that names its input descriptors, so they are told apart from the ones the
    hardware opened before (a grabbed scanner: not SDL's) by the process's open files before and after (this is
    the one place that looks; `tests/test_kiosk_quiet.py` checks it against files opened here)."""
    devices, monitors = input_devices(fd_dir), device_monitors(fd_dir, netlink)
    opened = open_display()
    return opened, input_devices(fd_dir) - devices, device_monitors(fd_dir, netlink) - monitors


def _open_files(fd_dir: Path) -> list[tuple[int, str]]:
    found = []
    with contextlib.suppress(OSError):
        for entry in fd_dir.iterdir():
            with contextlib.suppress(OSError, ValueError):
                found.append((int(entry.name), os.readlink(entry)))
    return found


class Woken(NamedTuple):
    """What ended one sleep."""

    posted: bool = False  # another thread woke the loop: the inbox has an item
    device: bool = False  # a device or the device monitor is readable: SDL has input to read
    sdl_posted: bool = False  # a program posted an SDL event (`kiosk.app.app.post_sdl`: a test's, a benchmark's)
    hotplug: bool = False  # SDL's device monitor is readable: a device came or went
    timed_out: bool = False  # nothing came: the wait ran out
    polled: bool = False  # a desktop window: one pump interval passed (SDL's input is the window system's)

    @property
    def pump(self) -> bool:
        """Whether SDL may have events: only then is it pumped (a scan alone goes straight to its verdict)."""
        return self.device or self.sdl_posted or self.timed_out or self.polled


class Waker:
    """The loop's sleep and the other threads' way to end it."""

    def __init__(self, driver: str, devices: set[int] | None = None, monitors: set[int] | None = None):
        self.blocking = driver in SELECT_DRIVERS
        self._read, self._write = _pipe()  # inbox posts
        self._sdl_read, self._sdl_write = _pipe()  # SDL events posted by a program: SDL must be pumped
        self._selector = selectors.DefaultSelector()
        for fd in (self._read, self._sdl_read):
            self._selector.register(fd, selectors.EVENT_READ)
        self.monitors = {fd for fd in monitors or () if self._register(fd)}
        self.devices: set[int] = set()
        self.watch(set(devices or ()))
        # An app dropped without close() (tests make hundreds) gives its pipe back when collected.
        self._finalizer = weakref.finalize(self, _release, self._selector,
                                           (self._read, self._write, self._sdl_read, self._sdl_write))

    def watch(self, devices: set[int]) -> None:
        """Sleep on exactly these input devices from now on. All are registered afresh: the kernel forgets a
        closed device by itself, and SDL may open a replugged one under the same number."""
        for fd in self.devices:
            with contextlib.suppress(KeyError, ValueError, OSError):
                self._selector.unregister(fd)
        self.devices = {fd for fd in devices if self._register(fd)}

    def _register(self, fd: int) -> bool:
        try:
            self._selector.register(fd, selectors.EVENT_READ)
        except (KeyError, ValueError, OSError):
            return False
        return True

    def events(self, woken: Woken, pump: Callable[[], list[T]]) -> list[T]:
        """SDL's events (`pump`: `pygame.event.get`), fetched only when it may have some. After a hotplug the
        devices SDL opened on that pump are watched too, and the ones it closed no longer."""
        if not woken.pump:
            return []
        if not woken.hotplug:
            return pump()
        before = input_devices()
        events = pump()
        after = input_devices()
        self.watch((self.devices & after) | (after - before))
        self._drop_undrained_monitors()
        return events

    def _drop_undrained_monitors(self) -> None:
        """SDL empties its device monitor when pumped. One still readable after a pump is not read by anyone, and
        watching it would make every sleep end at once (a busy loop): it is no longer watched (hotplug is then
        seen at the next pump the loop makes for another reason)."""
        for fd in list(self.monitors):
            if _readable(fd):
                logger.warning("SDL's device monitor (fd %d) stays readable after a pump: no longer watched", fd)
                with contextlib.suppress(KeyError, ValueError, OSError):
                    self._selector.unregister(fd)
                self.monitors.discard(fd)

    def wake(self, sdl: bool = False) -> None:
        """Thread-safe: end the loop's sleep now (a full pipe already says so); `sdl`: an SDL event was posted, so
        the loop must pump SDL. After `close` nothing: the pipe's numbers may belong to another file by then (the
        inbox may still be posted to)."""
        if not self._finalizer.alive:
            return
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._sdl_write if sdl else self._write, b"\0")

    def wake_on_signals(self) -> None:
        """A signal ends the sleep too: the kernel may deliver it to any thread (a scanner's), which leaves this
        thread's `select()` running; Python's handler writes to the pipe from there. Main thread only."""
        signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)

    def sleep(self, seconds: float) -> Woken:
        """Sleep until woken, until a device is readable, or `seconds` (on a desktop window: at most one pump
        interval); empties the pipe and says what ended the sleep."""
        if not self.blocking:
            seconds = min(seconds, TOUCH_POLL_S)
        ready = {key.fd for key, _ in self._selector.select(max(0.0, seconds))}
        pipes = {self._read, self._sdl_read}
        for fd in ready & pipes:
            with contextlib.suppress(BlockingIOError, OSError):
                os.read(fd, 65536)  # a byte written after this read wakes the next sleep
        return Woken(posted=self._read in ready, device=bool(ready - pipes), sdl_posted=self._sdl_read in ready,
                     hotplug=bool(ready & self.monitors), timed_out=not ready and self.blocking,
                     polled=not self.blocking)

    def close(self) -> None:
        self._finalizer()


def _readable(fd: int) -> bool:
    with selectors.DefaultSelector() as probe:
        probe.register(fd, selectors.EVENT_READ)
        return bool(probe.select(0))


def _pipe() -> tuple[int, int]:
    read, write = os.pipe()
    os.set_blocking(read, False)
    os.set_blocking(write, False)
    return read, write


def _release(selector: selectors.BaseSelector, fds: tuple[int, ...]) -> None:
    if threading.current_thread() is threading.main_thread():
        before = signal.set_wakeup_fd(-1)  # signals no longer write to a pipe about to close …
        if before not in fds:
            signal.set_wakeup_fd(before)  # … unless the wake-up fd was someone else's
    selector.close()
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
