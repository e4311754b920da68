"""The display loop: sleep until something is due, hand the inputs on, draw a frame when something changed.

Hardware threads only post inputs to the inbox (`kiosk/loop/inbox.py`), which wakes the loop
(`kiosk/loop/waiting.py`, decision H23-Q); everything else happens on this thread. The loop sleeps until a
touch, an input or a deadline: an idle kiosk draws nothing and wakes only when something is due (H23-Q2).
A frame is the screen's view, the guests' notice band after a caught error and the café strip, put on the
glass by `kiosk/loop/display.py`.
"""

from __future__ import annotations

import math
import queue
import time
from dataclasses import replace
from typing import Any

import pygame

from kiosk import i18n
from kiosk.app import idle
from kiosk.drawing.render import measure
from kiosk.drawing.view import INK, PANEL, Element, Limits, View, ui_scale

App = Any  # kiosk.app.app.App (not imported, not even for types: the app imports this module)

IDLE_WAIT_MS = 60_000  # an idle loop turns at least this often: a net for a deadline nobody declared (H23-Q2)


class FrameLoop:
    """One turn of the loop per `step`; `draw` makes the frame."""

    def __init__(self, app: App):
        self.app = app

    def _next_wakeup(self, now: float) -> float | None:
        """The earliest deadline: the screen's, the light strip's, the idle pause, the notice's end, the audio's
        sleep, the café announcement's end. Nothing else wakes an idle loop but the watchdog's ping."""
        app = self.app
        wakeup = app.screen.next_wakeup()
        if app.lights is not None:  # the --sim window's light strip animates a blinking light
            wakeup = app.lights.next_wakeup(wakeup, now)
        deadlines = [wakeup, self._idle_deadline(), app.audio.sleep_due()]  # the audio device closes when quiet
        if app.guard.notice_shows(now):
            deadlines.append(app.guard.notice_until)
        if app.cafe is not None:
            deadlines.append(app.cafe.next_wakeup())
        return min((t for t in deadlines if t is not None), default=None)

    def step(self, max_wait_ms: int | None = None) -> None:
        app = self.app
        now = time.monotonic()
        wakeup = self._next_wakeup(now)
        # rounded up: a wait rounded down ends before its deadline, and the turn then finds nothing due yet
        wait = IDLE_WAIT_MS if wakeup is None else max(0, min(IDLE_WAIT_MS, math.ceil((wakeup - now) * 1000)))
        if max_wait_ms is not None:
            wait = min(wait, max_wait_ms)
        if app.dirty:
            wait = 0
        for event in self._wait(wait):
            app.guarded(app.input_events.on_pygame, event)
        while True:
            try:
                item = app.inputs.get_nowait()
            except queue.Empty:
                break
            app.guarded(app.input_events.on_item, item)
        app.guarded(self._after_inputs)
        self._beat()

    def _after_inputs(self) -> None:
        """Time, the café, the idle pause, the frame, the lights and the sound device: once per turn of the loop."""
        app = self.app
        now = time.monotonic()
        if app.screen.on_tick(now):
            app.dirty = True
        if app.guard.notice_until and now >= app.guard.notice_until:
            app.guard.notice_until = 0.0  # the notice ran out: draw the screen without it
            app.dirty = True
        if app.cafe is not None and app.cafe.tick():
            app.dirty = True
        app.audio.tick(now)
        self._idle_check(time.monotonic())
        if app.dirty:
            app.draw()  # through the app: a benchmark times its frames there
        if app.lights is not None:
            app.lights.follow(app.screen)
        app.audio.settle()  # a closed audio device opens after the frame: the verdict never waits for it (A26-1)

    def _wait(self, ms: int) -> list[pygame.event.Event]:
        """SDL events, waiting up to `ms` for one, an input from another thread, or the deadline. SDL is pumped
        only when it may have an event (`kiosk.loop.waiting.Woken.pump`): a scan goes straight to its verdict.
        The watchdog's ping cuts the sleep into slices; a slice's end pings and sleeps on, touching nothing else:
        on the VM here a wake costs a few milliseconds of CPU for every part of the program it touches (H23-Q2)."""
        waker = self.app.waker
        end = time.monotonic() + ms / 1000
        while True:
            left = end - time.monotonic()
            beat_in = self._beat()
            woken = waker.sleep(left if beat_in is None else min(left, beat_in))
            if woken.timed_out and time.monotonic() < end:  # the watchdog's slice ran out, not the wait
                continue
            events = waker.events(woken, pygame.event.get)
            if events or woken.posted or time.monotonic() >= end:
                return events

    def _beat(self) -> float | None:
        """The watchdog's ping when one is due; seconds until the next one (None: no watchdog)."""
        return self.app.heartbeat() if self.app.heartbeat is not None else None

    # --- a table left alone

    def _idle_deadline(self) -> float | None:
        return idle.deadline(self.app.screen, self.app.settings.idle_pause_s, self.app.last_activity)

    def _idle_check(self, now: float) -> None:
        """Idle mid-game for `idle_pause_s`: the game is paused (resumable from the history), the menu shows."""
        app = self.app
        left = idle.pause_if_left(app.screen, app.settings.idle_pause_s, app.last_activity, now)
        if left is not None:
            app.last_activity = now
            app.go_menu(paused=left.game_row)

    # --- the frame

    def draw(self) -> None:
        app = self.app
        width, height = app.surface.get_width(), app.surface.get_height()
        strip = app.cafe.strip_height(width, height) if app.cafe is not None else 0
        band = self._notice_height(width, height) if app.guard.notice_shows(time.monotonic()) else 0
        app.current_view = app.screen.view(width, height - strip - band)
        if band:
            self._notice(app.current_view, band)
        if app.cafe is not None:
            app.cafe.decorate(app.current_view, height)
        app.video.present(app.current_view)
        if app.cafe is not None:  # after the flip: the publisher's work never delays what players see
            app.cafe.publish_status(app.screen)
        app.dirty = False
        app.frames += 1

    @staticmethod
    def _notice_height(width: int, height: int) -> int:
        """The calm notice's band: as high as its words need at the screen's least capitals."""
        cap = Limits.for_size(width, height).cap
        pad = max(4, round(6 * ui_scale(width, height)))
        return measure.height(i18n.tr("A glitch – the game goes on"), width, cap, pad) + 2 * pad

    @staticmethod
    def _notice(view: View, band: int) -> None:
        """The guests' calm notice after a caught error: a band across the top that pushes the screen (built
        `band` px lower) down, so it covers no button."""
        view.elements = [replace(e, rect=(e.rect[0], e.rect[1] + band, e.rect[2], e.rect[3])) for e in view.elements]
        view.elements.insert(0, Element("text", (0, 0, view.width, band), i18n.tr("A glitch – the game goes on"),
                                        color=INK, fill=PANEL, size=0.9, align="center", tag="notice"))
        view.height += band
