"""What an input does, on the display thread: a touch or a key (SDL's events), a seat's input or a scan
(posted by the hardware threads), a café message, and a control-socket command (`kiosk/app/control_commands.py`).

A tap acts on the topmost button under it when the finger lifts; a long press on the top-left corner opens
the admin screen; typed letters and Enter are a scan from the keyboard (simulation).
"""

from __future__ import annotations

import time
from typing import Any

import pygame

from hw.inputs import CardScan, ReaderError
from kiosk.app import control_commands
from kiosk.app.joining import JoinNews
from kiosk.loop.display import WAKE
from kiosk.loop.inbox import Command
from kiosk.screens import Screen
from kiosk.screens.admin import AdminScreen
from kiosk.screens.assignment import offer as offer_assignment

App = Any  # kiosk.app.app.App (not imported, not even for types: the app imports this module)


class InputEvents:
    """Inputs to the screen shown, and the state between a finger's down and up and of a code being typed."""

    def __init__(self, app: App):
        self.app = app
        self.press: tuple[float, tuple[int, int], Screen] | None = None  # when, where, on which screen
        self.typed = ""

    def on_item(self, item: Any) -> None:
        """An input from another thread: a command, a café message, a camera's pile scan, a seat's input."""
        app = self.app
        if isinstance(item, Command):
            control_commands.answer(app, item)
            return
        if isinstance(item, JoinNews) and app.joining is not None:
            app.joining.receive(item)
            if item.joined is not None:
                app.join_cafe(item.joined)
            app.dirty = True
            return
        if app.cafe is not None and app.cafe.receive(item):
            app.dirty = True
            offer_assignment(app)
            return
        if app.camera is not None:
            item = app.camera.pile_seats.route(item, app.screen)
            if item is None:  # taken by its question ("who laid this card?")
                app.dirty = True
                return
        app.last_activity = time.monotonic()
        app.audio.wake()  # someone is at the table: a cue may follow
        if isinstance(item, ReaderError) and item.reason in ("disconnected", "reconnected"):
            if item.reason == "disconnected":
                app.scanners_down[item.reader] = app.seat_of_reader(item.reader)
            else:
                app.scanners_down.pop(item.reader, None)
        if isinstance(item, CardScan) and not app.screen.takes_scans:
            app.cue("rejected")  # nothing here can take a card: say so by ear
        app.screen.on_input(item)
        app.dirty = True

    def on_pygame(self, event: pygame.event.Event) -> None:
        app = self.app
        kind = event.type
        if kind == pygame.NOEVENT or kind == WAKE:
            return
        if kind == pygame.QUIT:
            # SDL turns SIGTERM and SIGINT into QUIT: systemctl stop/restart and a reboot end the kiosk
            # cleanly, in kiosk mode too (ignored, systemd waited TimeoutStopSec, killed it and counted a
            # failure). A guest cannot make one: the kiosk is fullscreen on the console, no window to close.
            app.stop(0)
        elif kind == pygame.KEYDOWN:
            self._on_key(event)
        elif kind == pygame.TEXTINPUT:
            # A key mapped to a seat button presses it, unless a code is being typed (codes start with letters
            # no button uses as its first key).
            if not self.typed and app.key_handler is not None and app.key_handler(event.text):
                return
            self.typed += event.text
        elif kind in (pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN):
            self._on_down(event)
        elif kind in (pygame.MOUSEBUTTONUP, pygame.FINGERUP):
            self._release(self._point(event))
        elif kind in (pygame.WINDOWEXPOSED, pygame.VIDEORESIZE):
            app.video.invalidate()  # the window's picture is lost or resized: a whole frame, not the changes
            app.dirty = True

    def _on_down(self, event: pygame.event.Event) -> None:
        app = self.app
        self.press = (time.monotonic(), self._point(event), app.screen)
        app.last_activity = time.monotonic()
        app.audio.wake()
        action = app.current_view.hit(*self.press[1]) if app.current_view else None
        if action:
            app.screen.on_press(action)  # a hold-to-confirm button starts counting
            app.dirty = True

    def _point(self, event: pygame.event.Event) -> tuple[int, int]:
        if event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
            window = pygame.display.get_surface() or self.app.display  # (the --sim light strip makes it taller)
            x, y = int(event.x * window.get_width()), int(event.y * window.get_height())
        else:
            x, y = event.pos
        return self.app.to_logical(x, y)

    def _release(self, point: tuple[int, int]) -> None:
        app = self.app
        pressed, self.press = self.press, None
        if pressed is None:
            return
        held = time.monotonic() - pressed[0]
        x, y = pressed[1]
        if pressed[2] is not app.screen:  # a hold already acted and the screen changed under the finger
            return
        if x < 60 and y < 60 and held >= app.settings.admin_hold_s:  # the admin corner
            if not isinstance(app.screen, AdminScreen):
                app.show(AdminScreen(app, app.screen))
            return
        self.touch(*point, held=held)

    def touch(self, x: int, y: int, held: float = 0.0) -> None:
        """A tap at (x, y), the finger down for `held` seconds: the topmost button under it acts."""
        app = self.app
        if app.current_view is None:
            app.draw()
        action = app.current_view.hit(x, y) if app.current_view else None
        if action:
            app.screen.on_touch(action, held)
            app.dirty = True

    def _on_key(self, event: pygame.event.Event) -> None:
        app = self.app
        if event.key == pygame.K_ESCAPE and not app.kiosk_mode:
            app.stop(0)
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.typed.strip():
            self.on_item(CardScan(self.typed.strip(), "keyboard", time.monotonic_ns()))
            self.typed = ""
        elif event.key == pygame.K_BACKSPACE:
            self.typed = self.typed[:-1]
