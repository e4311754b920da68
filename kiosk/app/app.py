"""The kiosk as guests see it, composed of parts that each own their state (built by `kiosk.app.compose`):

- `router` (`kiosk/app/routing.py`): the screen shown, and whether the frame must be drawn again;
- `loop` (`kiosk/loop/frame_loop.py`): timing — the sleep, the deadlines, the watchdog's ping, the frame drawn
  last, the guard, when to stop;
- `inputs` (`kiosk/loop/input_events.py`): what a touch, a key, a seat's input or café news does, and the finger
  between down and up;
- `commands` (`kiosk/app/control_commands.py`): the control socket's commands;
- `host` (`kiosk/app/host.py`): what a screen may ask (`kiosk.screens.Host`) — the table's facts, the settings,
  the staff's preferences and PIN;
- `records` (`kiosk/app/records.py`): the event log the kiosk writes now (a game's own records go through its
  table controller, `kiosk/app/controller.py`);
- `cafe` (`kiosk/app/cafe_side.py`): the café link while the table is in a café, and joining one;
- `display`, `audio`, `inbox`: the screen on the glass, the sound, what other threads post.

No part receives the app: each gets the parts it works with, and `tests/test_kiosk_rooms.py` holds what each may
touch. The app makes them, runs the loop and gives the display back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from kiosk.app.audio import Sounds
from kiosk.app.cafe_side import CafeSide
from kiosk.app.control_commands import ControlCommands
from kiosk.app.host import KioskHost, prefs_over
from kiosk.app.records import Records
from kiosk.app.routing import Router
from kiosk.eventlog.store import EventLog
from kiosk.loop.display import WAKE, Display, DisplayError
from kiosk.loop.frame_loop import FrameLoop
from kiosk.loop.inbox import Command, Inbox
from kiosk.loop.input_events import InputEvents
from kiosk.loop.waiting import Waker, opened_by
from kiosk.settings.settings import Settings

if TYPE_CHECKING:
    from kiosk.app.cafe_link import CafeLink
    from kiosk.app.joining import Joining
    from kiosk.hardware.hardware import Hardware

__all__ = ["WAKE", "App", "Command", "DisplayError"]


class App:
    """The composed kiosk. What it works with is built outside and handed in (`kiosk.app.compose`): the event log,
    the opened hardware (seats, scanners, lights, camera), the café link and the inbox they post to."""

    def __init__(self, settings: Settings, log: EventLog | None, kiosk_mode: bool = False, headless: bool = False,
                 heartbeat: Callable[[], float | None] | None = None,
                 fallback_headless: bool = False, on_status: Callable[[str], None] | None = None, *,
                 inbox: Inbox | None = None, hardware: Hardware | None = None, cafe: CafeLink | None = None,
                 joining: Joining | None = None):
        self.settings = settings
        self.inbox = inbox or Inbox()  # where other threads post (`post`, `call`); it wakes the loop
        self.records = Records(settings.log_path, log)
        self.cafe = CafeSide(cafe, joining, self.inbox.post)
        prefs = prefs_over(settings)  # the staff's saved language and volume win over the config's
        self.audio = Sounds(settings.volume, settings.mute)
        self.host = KioskHost(settings, prefs, self.records, self.audio, self.cafe, hardware, kiosk_mode,
                              lambda code: self.loop.stop(code))  # (the admin menu's restart and shut down)
        self.router = Router(self.host, self.records, self.cafe, on_status or _no_status)
        self.host.router = self.router
        # The hardware's own descriptors (a grabbed scanner) are not SDL's: only what opening the display opened.
        self.display, touch_devices, monitors = opened_by(
            lambda: Display(settings, kiosk_mode, headless, fallback_headless))
        lights = hardware.lights if hardware else None
        if lights is not None and lights.strip is not None:
            lights.strip.attach(self.display)  # the --sim window: the seat lights drawn under the screen
        waker = Waker(pygame.display.get_driver(), touch_devices, monitors)
        self.loop = FrameLoop(self.router, self.display, self.inbox, waker, self.audio, self.cafe, lights,
                              lambda: settings.idle_pause_s, heartbeat)
        self.inputs = InputEvents(self.router, self.loop, self.display, self.host, self.cafe,
                                  hardware.camera if hardware else None, hardware.key if hardware else None)
        self.commands = ControlCommands(self.router, self.loop, self.display, self.host, lights,
                                        hardware.camera if hardware else None, self.inputs.touched)
        self.inputs.answer_commands_with(self.commands)
        self.loop.listen(self.inputs)
        self.router.resume()

    def run(self) -> int:
        """Turn the loop until it stops; then the sound and the display are given back."""
        code = self.loop.run()
        self.audio.close()
        self.display.close()
        return code

    def close(self) -> None:
        """Give the display back (a second App in the same process opens it afresh)."""
        self.loop.waker.close()
        self.display.close()


def _no_status(text: str) -> None:
    """No systemd to tell (tests, a desktop)."""


def post_sdl(loop: FrameLoop, event: pygame.event.Event) -> None:
    """Thread-safe: an SDL event made by a program (a test's or benchmark's touch), waking the loop as the
    touchscreen's own device does for a finger."""
    pygame.event.post(event)
    loop.waker.wake(sdl=True)
