"""The display loop: sleep until something is due, hand the inputs on, draw a frame when something changed.

The loop owns timing: its sleep (`kiosk/loop/waiting.py`, decisions H23-Q, H23-Q2), the watchdog's ping, every
deadline (the screen's, the idle pause's, the notice's, the sound device's, the café's), the frame it drew last
(`view`, `frames`) and when the kiosk stops (`running`, `exit_code`). Hardware threads only post to the inbox
(`kiosk/loop/inbox.py`), which wakes the loop; everything else happens on this thread. A frame is the router's
screen's view, the guests' notice band after a caught error and the café strip, put on the glass by
`kiosk/loop/display.py`. The guard (`kiosk/loop/guard.py`) is the loop's too: a screen's exception is logged,
counted and answered by rebuilding the screen from the log, never the end of the kiosk.
"""

from __future__ import annotations

import logging
import math
import queue
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import pygame

from kiosk import i18n
from kiosk.app import idle
from kiosk.app.audio import Sounds
from kiosk.app.cafe_side import CafeSide
from kiosk.app.routing import Router
from kiosk.drawing.render import measure
from kiosk.drawing.view import INK, PANEL, Element, Limits, View, ui_scale
from kiosk.loop.display import Display
from kiosk.loop.guard import EXIT_CODE as GUARD_EXIT
from kiosk.loop.guard import REPEAT, WINDOW_S, LoopGuard
from kiosk.loop.inbox import Inbox
from kiosk.loop.waiting import Waker

if TYPE_CHECKING:
    from kiosk.hardware.seat_lights import LightFollower

IDLE_WAIT_MS = 60_000  # an idle loop turns at least this often: a net for a deadline nobody declared (H23-Q2)
NOTICE = "A glitch – the game goes on"
T = TypeVar("T")

logger = logging.getLogger(__name__)


class Inputs(Protocol):
    """What the loop hands its inputs to (`kiosk.loop.input_events.InputEvents`)."""

    last_activity: float  # a touch or a seat input: the idle pause counts from here

    def on_pygame(self, event: pygame.event.Event) -> None: ...

    def on_item(self, item: object) -> None: ...

    def forget_press(self) -> None: ...


class FrameLoop:
    """One turn of the loop per `step`; `draw` makes the frame; `run` turns it until `stop`."""

    inputs: Inputs  # set by `listen`, once the inputs are made over this loop

    def __init__(self, router: Router, display: Display, inbox: Inbox, waker: Waker, audio: Sounds, cafe: CafeSide,
                 lights: LightFollower | None, idle_pause_s: Callable[[], float],
                 heartbeat: Callable[[], float | None] | None = None):
        self.router = router
        self.display = display
        self.inbox = inbox
        self.waker = waker
        self.audio = audio
        self.cafe = cafe
        self.lights = lights
        self.idle_pause_s = idle_pause_s  # the settings' (read each time: the admin menu has no say in it yet)
        self.heartbeat = heartbeat  # systemd's watchdog ping: seconds until the next one is due (None: none)
        self.guard = LoopGuard()
        self.view: View | None = None  # the frame on the glass
        self.frames = 0
        self.running, self.exit_code = True, 0
        inbox.wake_with(waker.wake)  # every post ends the sleep, the hardware threads' included

    def listen(self, inputs: Inputs) -> None:
        self.inputs = inputs

    def stop(self, code: int = 0) -> None:
        self.exit_code = code
        self.running = False

    # --- the turn

    def run(self) -> int:
        """Turn until stopped; then a control-socket client waiting on the loop gets its answer at once."""
        self._stop_on_signals()
        while self.running:
            self.step()
        self.inbox.close()
        return self.exit_code

    def _stop_on_signals(self) -> None:
        """systemd's SIGTERM (stop, restart, reboot) and Ctrl-C end the loop at once, status 0. SDL would turn
        them into a QUIT event, but only at its next pump, and an idle loop sleeps for seconds."""
        if threading.current_thread() is not threading.main_thread():
            return

        def stop(signum: int, frame: object) -> None:
            self.stop(0)  # the loop's sleep has ended already: the signal wrote to its wake pipe

        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, stop)
        self.waker.wake_on_signals()

    def step(self, max_wait_ms: int | None = None) -> None:
        now = time.monotonic()
        wakeup = self._next_wakeup(now)
        # rounded up: a wait rounded down ends before its deadline, and the turn then finds nothing due yet
        wait = IDLE_WAIT_MS if wakeup is None else max(0, min(IDLE_WAIT_MS, math.ceil((wakeup - now) * 1000)))
        if max_wait_ms is not None:
            wait = min(wait, max_wait_ms)
        if self.router.dirty:
            wait = 0
        for event in self._wait(wait):
            self.guarded(self.inputs.on_pygame, event)
        while True:
            try:
                item = self.inbox.items.get_nowait()
            except queue.Empty:
                break
            self.guarded(self.inputs.on_item, item)
        self.guarded(self._after_inputs)
        self._beat()

    def _next_wakeup(self, now: float) -> float | None:
        """The earliest deadline: the screen's, the light strip's, the idle pause, the notice's end, the audio's
        sleep, the café announcement's end. Nothing else wakes an idle loop but the watchdog's ping."""
        wakeup = self.router.screen.next_wakeup()
        if self.lights is not None:  # the --sim window's light strip animates a blinking light
            wakeup = self.lights.next_wakeup(wakeup, now)
        deadlines = [wakeup, self._idle_deadline(), self.audio.sleep_due()]  # the audio device closes when quiet
        if self.guard.notice_shows(now):
            deadlines.append(self.guard.notice_until)
        link = self.cafe.link
        if link is not None:
            deadlines.append(link.next_wakeup())
        return min((t for t in deadlines if t is not None), default=None)

    def _after_inputs(self) -> None:
        """Time, the café, the idle pause, the frame, the lights and the sound device: once per turn of the loop."""
        router, now = self.router, time.monotonic()
        if router.screen.on_tick(now):
            router.changed()
        if self.guard.notice_until and now >= self.guard.notice_until:
            self.guard.notice_until = 0.0  # the notice ran out: draw the screen without it
            router.changed()
        link = self.cafe.link
        if link is not None and link.tick():
            router.changed()
        self.audio.tick(now)
        self._idle_check(time.monotonic())
        if router.dirty:
            self.draw()
        if self.lights is not None:
            self.lights.follow(router.screen)
        self.audio.settle()  # a closed audio device opens after the frame: the verdict never waits for it (A26-1)

    def _wait(self, ms: int) -> list[pygame.event.Event]:
        """SDL events, waiting up to `ms` for one, an input from another thread, or the deadline. SDL is pumped
        only when it may have an event (`kiosk.loop.waiting.Woken.pump`): a scan goes straight to its verdict.
        The watchdog's ping cuts the sleep into slices; a slice's end pings and sleeps on, touching nothing else:
        on the VM here a wake costs a few milliseconds of CPU for every part of the program it touches (H23-Q2)."""
        waker = self.waker
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
        return self.heartbeat() if self.heartbeat is not None else None

    # --- a table left alone

    def _idle_deadline(self) -> float | None:
        return idle.deadline(self.router.screen, self.idle_pause_s(), self.inputs.last_activity)

    def _idle_check(self, now: float) -> None:
        """Idle mid-game for `idle_pause_s`: the game is paused (resumable from the history), the menu shows."""
        left = idle.pause_if_left(self.router.screen, self.idle_pause_s(), self.inputs.last_activity, now)
        if left is not None:
            self.inputs.last_activity = now
            self.router.go_menu(paused=left.game_row)

    # --- the frame

    def draw(self) -> None:
        router, link = self.router, self.cafe.link
        surface = self.display.surface
        width, height = surface.get_width(), surface.get_height()
        strip = link.strip_height(width, height) if link is not None else 0
        band = self._notice_height(width, height) if self.guard.notice_shows(time.monotonic()) else 0
        view = self.view = router.screen.view(width, height - strip - band)
        if band:
            self._notice(view, band)
        if link is not None:
            link.decorate(view, height)
        self.display.present(view)
        if link is not None:  # after the flip: the publisher's work never delays what players see
            link.publish_status(router.screen)
        router.drawn()
        self.frames += 1

    def screenshot(self, path: Path) -> None:
        """What the display shows now (rotated as it is mounted), as a PNG."""
        self.draw()
        self.display.save(path)

    @staticmethod
    def _notice_height(width: int, height: int) -> int:
        """The calm notice's band: as high as its words need at the screen's least capitals."""
        cap = Limits.for_size(width, height).cap
        pad = max(4, round(6 * ui_scale(width, height)))
        return measure.height(i18n.tr(NOTICE), width, cap, pad) + 2 * pad

    @staticmethod
    def _notice(view: View, band: int) -> None:
        """The guests' calm notice after a caught error: a band across the top that pushes the screen (built
        `band` px lower) down, so it covers no button."""
        view.elements = [replace(e, rect=(e.rect[0], e.rect[1] + band, e.rect[2], e.rect[3])) for e in view.elements]
        view.elements.insert(0, Element("text", (0, 0, view.width, band), i18n.tr(NOTICE),
                                        color=INK, fill=PANEL, size=0.9, align="center", tag="notice"))
        view.height += band

    # --- the guard

    def guarded(self, handler: Callable[..., T], *args: Any) -> T | None:
        """Run a piece of the loop; a screen's exception is logged, counted and answered from the log, never
        the end of the kiosk (unless the same fault keeps coming: then exit for systemd to restart)."""
        try:
            return handler(*args)
        except Exception as error:
            self._caught(error)
            return None

    def _caught(self, error: Exception) -> None:
        logger.error("display loop guard: %s on screen %r; the table is rebuilt from the log", error,
                     self.router.screen.name, exc_info=error)
        if self.guard.caught(error):
            logger.critical("display loop guard: the same fault %d times within %.0f s — exiting for a restart",
                            REPEAT, WINDOW_S)
            self.stop(GUARD_EXIT)
            return
        self.router.status(f"guarded error: {type(error).__name__} (the game goes on)")
        self.inputs.forget_press()
        try:
            self.router.rebuild()  # the game in progress or the results on screen, from the log
            self.draw()
        except Exception as again:  # the log's game itself cannot be shown: the menu, and say so
            logger.error("display loop guard: rebuilding from the log failed: %s", again, exc_info=again)
            if self.guard.caught(again):
                self.stop(GUARD_EXIT)
            self.router.plain_menu()
