"""What an input does, on the display thread: a touch or a key (SDL's events), a seat's input or a scan
(posted by the hardware threads), a café message, and a control-socket command (`kiosk/app/control_commands.py`).

A tap acts on the topmost button under it when the finger lifts; a long press on the top-left corner opens
the admin screen; typed letters and Enter are a scan from the keyboard (simulation). The inputs own what lies
between a finger's down and up, the code being typed and when someone last touched the table.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from hw.inputs import ButtonPress, CardScan, Input, ReaderNews
from kiosk.app.cafe_side import CafeSide
from kiosk.app.control_commands import ControlCommands
from kiosk.app.host import KioskHost
from kiosk.app.joining import JoinNews
from kiosk.app.routing import Router
from kiosk.loop.display import WAKE, Display
from kiosk.loop.frame_loop import FrameLoop
from kiosk.loop.inbox import Command
from kiosk.screens import Screen
from kiosk.screens.admin import AdminScreen

if TYPE_CHECKING:
    from kiosk.hardware.camera_seat import TableCamera

CORNER_PX = 60  # the admin corner: a hold within this many pixels of the top-left corner


class InputEvents:
    """Inputs to the router's screen; `frame` is the loop whose view a finger hits (and which a key may stop)."""

    commands: ControlCommands  # set by `answer_commands_with`, once the commands are made over these inputs

    def __init__(self, router: Router, frame: FrameLoop, display: Display, host: KioskHost, cafe: CafeSide,
                 camera: TableCamera | None, key_handler: Callable[[str], bool] | None = None):
        self.router = router
        self.frame = frame
        self.display = display
        self.host = host
        self.cafe = cafe
        self.camera = camera
        self.key_handler = key_handler  # simulation: a typed key may be a seat's button
        self.press: tuple[float, tuple[int, int], Screen] | None = None  # when, where, on which screen
        self.typed = ""
        self.last_activity = time.monotonic()  # a touch or a seat input: the idle pause counts from here

    def answer_commands_with(self, commands: ControlCommands) -> None:
        self.commands = commands

    def touched(self) -> None:
        """Someone touched the table now (a control-socket touch too): the idle pause counts from here."""
        self.last_activity = time.monotonic()

    def forget_press(self) -> None:
        """A finger that was down no longer counts (the screen under it was rebuilt)."""
        self.press = None

    # --- from other threads

    def on_item(self, item: object) -> None:
        """An input from another thread: a command, joining news, a café message, a camera's pile scan, a seat's
        input or a scan."""
        router = self.router
        if isinstance(item, Command):
            self.commands.answer(item)
            return
        if isinstance(item, JoinNews) and self.cafe.joining is not None:
            self.cafe.joining.receive(item)
            if item.joined is not None:
                self.cafe.join(item.joined, self.host.log)
            router.changed()
            return
        link = self.cafe.link
        if link is not None and link.receive(item):
            router.changed()
            router.offer_assignment()
            return
        if not isinstance(item, ButtonPress | CardScan | ReaderNews):
            return  # news for a café link that has stopped since: nothing a screen takes
        if self.camera is not None:
            routed = self.camera.pile_seats.route(item, router.screen)
            if routed is None:  # taken by its question ("who laid this card?")
                router.changed()
                return
            self._on_input(routed)
            return
        self._on_input(item)

    def _on_input(self, item: Input) -> None:
        router = self.router
        self.last_activity = time.monotonic()
        self.host.audio.wake()  # someone is at the table: a cue may follow
        if isinstance(item, ReaderNews) and item.reason in ("disconnected", "reconnected"):
            if item.reason == "disconnected":
                self.host.scanners_down[item.reader] = self.host.seat_of_reader(item.reader)
            else:
                self.host.scanners_down.pop(item.reader, None)
        if isinstance(item, CardScan) and not router.screen.takes_scans:
            self.host.cue("rejected")  # nothing here can take a card: say so by ear
        router.screen.on_input(item)
        router.changed()

    # --- SDL's events

    def on_pygame(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame.NOEVENT or kind == WAKE:
            return
        if kind == pygame.QUIT:
            # SDL turns SIGTERM and SIGINT into QUIT: systemctl stop/restart and a reboot end the kiosk
            # cleanly, in kiosk mode too (ignored, systemd waited TimeoutStopSec, killed it and counted a
            # failure). A guest cannot make one: the kiosk is fullscreen on the console, no window to close.
            self.frame.stop(0)
        elif kind == pygame.KEYDOWN:
            self._on_key(event)
        elif kind == pygame.TEXTINPUT:
            # A key mapped to a seat button presses it, unless a code is being typed (codes start with letters
            # no button uses as its first key).
            if not self.typed and self.key_handler is not None and self.key_handler(event.text):
                return
            self.typed += event.text
        elif kind in (pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN):
            self._on_down(event)
        elif kind in (pygame.MOUSEBUTTONUP, pygame.FINGERUP):
            self._release(self._point(event))
        elif kind in (pygame.WINDOWEXPOSED, pygame.VIDEORESIZE):
            self.display.invalidate()  # the window's picture is lost or resized: a whole frame, not the changes
            self.router.changed()

    def _on_down(self, event: pygame.event.Event) -> None:
        self.press = (time.monotonic(), self._point(event), self.router.screen)
        self.last_activity = time.monotonic()
        self.host.audio.wake()
        view = self.frame.view
        action = view.hit(*self.press[1]) if view is not None else None
        if action:
            self.router.screen.on_press(action)  # a hold-to-confirm button starts counting
            self.router.changed()

    def _point(self, event: pygame.event.Event) -> tuple[int, int]:
        if event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
            window = pygame.display.get_surface() or self.display.window  # (the --sim light strip makes it taller)
            x, y = int(event.x * window.get_width()), int(event.y * window.get_height())
        else:
            x, y = event.pos
        return self.display.to_logical(x, y)

    def _release(self, point: tuple[int, int]) -> None:
        router = self.router
        pressed, self.press = self.press, None
        if pressed is None:
            return
        held = time.monotonic() - pressed[0]
        x, y = pressed[1]
        if pressed[2] is not router.screen:  # a hold already acted and the screen changed under the finger
            return
        if x < CORNER_PX and y < CORNER_PX and held >= self.host.settings.admin_hold_s:  # the admin corner
            if not isinstance(router.screen, AdminScreen):
                router.show(AdminScreen(self.host, router.screen))
            return
        self.touch(*point, held=held)

    def touch(self, x: int, y: int, held: float = 0.0) -> None:
        """A tap at (x, y), the finger down for `held` seconds: the topmost button under it acts."""
        if self.frame.view is None:
            self.frame.draw()
        view = self.frame.view
        action = view.hit(x, y) if view is not None else None
        if action:
            self.router.screen.on_touch(action, held)
            self.router.changed()

    def _on_key(self, event: pygame.event.Event) -> None:
        if event.key == pygame.K_ESCAPE and not self.host.kiosk_mode:
            self.frame.stop(0)
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.typed.strip():
            self.on_item(CardScan(self.typed.strip(), "keyboard", time.monotonic_ns()))
            self.typed = ""
        elif event.key == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
