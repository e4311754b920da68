"""The one event loop: inputs queue → screen → controller → draw (built by `kiosk.compose`).

Hardware threads only post inputs to the inbox (`kiosk/inbox.py`), which wakes the loop (`kiosk/waiting.py`);
everything else happens on this thread. The loop sleeps until a touch, an input
or a screen's next deadline: an idle kiosk draws nothing and wakes about once a second.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from hw.camera.zones import seat_of_reader as camera_seat_of
from hw.inputs import CardScan, ReaderError
from kiosk import control_commands, i18n, idle, staff
from kiosk import export as exporting
from kiosk.audio import Cue, Sounds
from kiosk.commands import AdminCommand
from kiosk.controller import TableController
from kiosk.guard import EXIT_CODE as GUARD_EXIT
from kiosk.guard import REPEAT, WINDOW_S, LoopGuard
from kiosk.inbox import Command, Inbox
from kiosk.pin import PinGuard
from kiosk.prefs import Prefs
from kiosk.render import Renderer, measure
from kiosk.screens import Screen
from kiosk.screens.admin import AdminScreen
from kiosk.screens.assignment import offer as offer_assignment
from kiosk.screens.menu import MenuScreen
from kiosk.screens.setup import SetupScreen
from kiosk.screens.table import TableScreen
from kiosk.settings import Settings
from kiosk.storage import FULL, StorageFault, fault_of, open_log
from kiosk.store import EventLog
from kiosk.view import INK, PANEL, Element, Limits, View, ui_scale
from kiosk.waiting import Waker, input_devices

if TYPE_CHECKING:
    from kiosk.cafe_link import CafeLink
    from kiosk.hardware import Hardware

logger = logging.getLogger(__name__)

WAKE = pygame.USEREVENT + 1
IDLE_WAIT_MS = 1000  # the loop wakes at least this often (watchdog pings, SDL's device hotplug)


class DisplayError(RuntimeError):
    """SDL could not open the screen: the kiosk must not pretend to run (black screen, unit "active")."""


class App:
    """The kiosk as guests see it. What it works with is built outside and handed in (`kiosk.compose`):
    the event log, the opened hardware (seats, scanners, lights), the café link and the inbox they post to."""

    def __init__(self, settings: Settings, log: EventLog | None, kiosk_mode: bool = False, headless: bool = False,
                 heartbeat: Callable[[], None] | None = None, wake_every_s: float | None = None,
                 fallback_headless: bool = False, on_status: Callable[[str], None] | None = None, *,
                 inbox: Inbox | None = None, hardware: Hardware | None = None, cafe: CafeLink | None = None):
        self.settings = settings
        self.on_status = on_status  # systemd's STATUS= line (storage faults and their end)
        self._last_fault: str | None = None
        # Only a simulation may fall back to the dummy driver; a real kiosk without a screen fails loudly.
        self.fallback_headless = fallback_headless
        self.log = log
        self.kiosk_mode = kiosk_mode
        self.headless = headless
        self.reader_seats = dict(hardware.reader_seats) if hardware else {}
        self.heartbeat = heartbeat
        # The loop wakes at least this often, so watchdog pings keep their pace while idle.
        self.max_idle_ms = IDLE_WAIT_MS if not wake_every_s else max(10, min(IDLE_WAIT_MS, int(wake_every_s * 1000)))
        self.inbox = inbox or Inbox()  # where other threads post (`post`, `call`); it wakes `self.waker`
        self.inputs = self.inbox.items
        self.running, self.exit_code = True, 0
        self.dirty, self.frames = True, 0
        self._press: tuple[float, tuple[int, int], Screen] | None = None  # when, where, on which screen
        self.last_activity = time.monotonic()  # a touch or a seat input: the idle pause counts from here
        self._typed = ""
        self.key_handler: Callable[[str], bool] | None = hardware.key if hardware else None  # simulation: seat keys
        self.table_name = hardware.table_name if hardware else "table"  # the config's table name (CSV export)
        self.seats = hardware.seat_names if hardware else []  # the config's seat ids (test screens)
        self.mounts = Path("/proc/mounts")  # where Export looks for a USB stick …
        self.usb_roots = exporting.USB_ROOTS  # … mounted below one of these
        self.pins = PinGuard(settings.data_dir, settings.pin_hash)
        self.prefs = self._prefs_over(settings)
        self.scanners_down: dict[str, str | None] = {}  # reader → its seat, while unplugged
        self.cafe = cafe  # when the table is in a café
        self.lights, self.camera = (hardware.lights, hardware.camera) if hardware else (None, None)  # lights, camera
        self.guard = LoopGuard()  # a screen's exception: logged, counted, the table rebuilt from the log
        i18n.set_language(settings.language)
        devices = input_devices()
        self.display = self._open_display()
        self.waker = self._waker(input_devices() - devices)
        self.rotate = settings.rotate % 360
        self.surface = self._canvas()
        self.renderer = Renderer(self.surface)
        if self.lights is not None and self.lights.strip is not None:
            self.lights.strip.attach(self)  # the --sim window: the seat lights drawn under the screen
        self.audio = Sounds(settings.volume, settings.mute)
        self.screen: Screen = MenuScreen(self)
        self.current_view = None
        self.resume()

    @staticmethod
    def _prefs_over(settings: Settings) -> Prefs:
        """The admin menu's saved choices, which win over the config's language and volume."""
        prefs = Prefs.load(settings.data_dir)
        if prefs.language:
            settings.language = prefs.language
        if prefs.volume is not None:
            settings.volume, settings.mute = prefs.volume, prefs.volume == 0
        return prefs

    def _waker(self, touch_devices: set[int]) -> Waker:
        """The loop's sleep (decision H23-Q): woken by the touchscreen SDL opened with the display, and by every
        post to the inbox, the hardware threads' included (they post there directly, not through `post`)."""
        waker = Waker(pygame.display.get_driver(), touch_devices)
        self.inbox.wake_with(waker.wake)
        return waker

    # --- display

    def _open_display(self) -> pygame.Surface:
        size = (self.settings.width, self.settings.height)
        flags = pygame.FULLSCREEN if self.kiosk_mode and not self.headless else 0
        try:
            pygame.display.init()
            surface = pygame.display.set_mode(size if not flags else (0, 0), flags)
        except pygame.error as error:
            driver = os.environ.get("SDL_VIDEODRIVER") or "SDL's default"
            if not self.fallback_headless:
                pygame.display.quit()
                raise DisplayError(f"no working display ({driver}): {error}") from error
            logger.warning("no working display (%s): %s — simulation renders headless (SDL dummy driver)",
                           driver, error)
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            pygame.display.quit()
            pygame.display.init()
            self.headless = True
            surface = pygame.display.set_mode(size)
        pygame.font.init()
        pygame.display.set_caption("Tabletop Referee")
        if self.kiosk_mode:
            pygame.mouse.set_visible(False)
        pygame.event.set_allowed(None)
        pygame.event.set_blocked(None)
        pygame.event.set_allowed([pygame.QUIT, pygame.KEYDOWN, pygame.TEXTINPUT, pygame.MOUSEBUTTONDOWN,
                                  pygame.MOUSEBUTTONUP, pygame.FINGERDOWN, pygame.FINGERUP, WAKE,
                                  pygame.WINDOWEXPOSED, pygame.VIDEORESIZE])
        return surface

    def _canvas(self) -> pygame.Surface:
        """Where screens draw: the display itself, or (rotated) an upright surface turned onto it per frame."""
        if not self.rotate:
            return self.display
        w, h = self.display.get_size()
        return pygame.Surface((h, w) if self.rotate in (90, 270) else (w, h)).convert()

    def to_logical(self, x: int, y: int) -> tuple[int, int]:
        """A display point (touch) → the point of the upright picture under it."""
        w, h = self.surface.get_size()  # the upright picture's size
        if self.rotate == 90:
            return y, h - 1 - x
        if self.rotate == 180:
            return w - 1 - x, h - 1 - y
        if self.rotate == 270:
            return w - 1 - y, x
        return x, y

    def cue(self, cue: Cue) -> None:
        self.audio.play(cue)

    @property
    def lang(self) -> str:
        return i18n.language()

    def toggle_language(self) -> None:
        i18n.set_language("en" if self.lang == "de" else "de")
        self.dirty = True

    # --- screens

    def show(self, screen: Screen) -> None:
        self.screen = screen
        self.dirty = True

    def go_menu(self) -> None:
        self.show(MenuScreen(self))
        offer_assignment(self)  # club nights: the café's assignment for this table, if one waits

    def resume(self) -> None:
        if self.log is None:
            return
        try:  # the game in progress, else the results of the game that ended on screen (issue #22)
            controller = TableController.resume(self.log) or TableController.ended(self.log)
        except Exception as error:
            if not self._storage_error(error):
                raise
            return
        if controller is not None:
            self._show_table(controller)

    def start_game(self, game_id: str, players: list[str], dealer: str | None, options: dict,
                   seat_players: dict[str, str], assignment: dict | None = None) -> None:
        try:
            controller = TableController.new_game(self.log, game_id, players, dealer, options, seat_players,
                                                  assignment)
        except Exception as error:
            if not self._storage_error(error):
                raise
            return
        self._show_table(controller)

    def _show_table(self, controller: TableController) -> None:
        controller.on_fault = self.storage_fault
        self.show(TableScreen(self, controller))

    # --- storage faults (kiosk/storage.py)

    def _storage_error(self, error: Exception) -> bool:
        fault = fault_of(error)
        if fault is not None:
            self.storage_fault(fault)
        return fault is not None

    def storage_fault(self, fault: StorageFault | None) -> None:
        """The log failed (or works again: None). A full disk during a game stays on the table screen, whose
        verdict says so and whose next event tries again; everything else shows the fault screen."""
        from kiosk.screens.fault import FaultScreen

        self.dirty = True
        if fault is None:
            if self._last_fault is not None:
                logger.info("event log writable again")
                self._status("table screen up")
            self._last_fault = None
            return
        if str(fault) != self._last_fault:  # the fault screen retries every 3 s: one line per new fault
            logger.error("event log %s: %s", self.settings.log_path, fault)
            self._status(f"storage fault ({fault.kind}): {fault.detail}")
        self._last_fault = str(fault)
        if fault.kind == FULL and isinstance(self.screen, TableScreen):
            return
        if isinstance(self.screen, FaultScreen) and self.screen.fault is not None:
            self.screen.fault = fault
            return
        self.show(FaultScreen(self, fault))

    def retry_storage(self) -> bool:
        """Open the log afresh (the fault screen's retry); True when the screen changed."""
        from kiosk.screens.fault import FaultScreen

        opened = open_log(self.settings.log_path)
        if opened.log is None:
            changed = isinstance(self.screen, FaultScreen) and self.screen.fault != opened.fault
            self.storage_fault(opened.fault)
            return changed
        if self.log is not None:
            with contextlib.suppress(Exception):
                self.log.close()
        self.log = opened.log
        self.storage_fault(None)
        if opened.notice:
            self.show(FaultScreen(self, notice=opened.notice))
        else:
            self.after_storage_fault()
        return True

    def after_storage_fault(self) -> None:
        """Back to the game in progress, or the menu."""
        self.go_menu()
        self.resume()

    def _status(self, text: str) -> None:
        if self.on_status is not None:
            self.on_status(text)

    def rematch(self, old: TableController) -> None:
        header = old.referee.header
        self.start_game(header["game"], list(header["players"]), header.get("dealer", header["players"][-1]),
                        header.get("options", {}), old.seat_players)

    def leave_game(self, controller: TableController, new_game: bool) -> None:
        """Guests left the table screen (confirmed): the game is paused in the log, then the menu or a new set-up."""
        controller.pause()
        if not new_game:
            self.go_menu()
            return
        header = controller.referee.header
        self.show(SetupScreen(self, header["game"], names=list(header["players"])))

    def resume_game(self, game_id: int) -> None:
        """A paused game taken up again from the history."""
        if self.log is None:
            return
        self.show(TableScreen(self, TableController.reopen(self.log, game_id)))

    def abandon_game(self, game_id: int) -> None:
        if self.log is not None:
            self.log.set_status(game_id, "abandoned")

    def seat_of_reader(self, reader: str) -> str | None:
        return self.reader_seats.get(reader) or camera_seat_of(reader)  # a pile scan once its seat is known

    def save_prefs(self) -> None:
        self.prefs.save(self.settings.data_dir)

    def set_volume(self, percent: int) -> None:
        """The admin menu's volume: kept in the prefs and handed to the sound output when there is one."""
        self.prefs.volume = percent
        self.save_prefs()
        self.settings.volume, self.settings.mute = percent, percent == 0
        self.audio.set_volume(percent / 100)
        self.audio.muted = percent == 0
        self.cue("accepted")  # hear the new volume

    @property
    def volume(self) -> int:
        """The volume in percent, 0 when muted."""
        return 0 if self.audio.muted else self.audio.volume

    def set_default_language(self, lang: str) -> None:
        self.prefs.language = lang
        self.settings.language = lang
        self.save_prefs()
        i18n.set_language(lang)
        self.dirty = True

    def admin(self, command: AdminCommand, back: Screen) -> str | None:
        """Run an admin menu entry (already confirmed when destructive); returns a sentence to show."""
        return staff.run(self, command, back)

    def stop(self, code: int = 0) -> None:
        self.exit_code = code
        self.running = False

    # --- inputs from other threads

    def post(self, item: Any) -> None:
        """Thread-safe: hand an input or a Command to the display thread."""
        self.inbox.post(item)

    def post_sdl(self, event: pygame.event.Event) -> None:
        """Thread-safe: an SDL event made by a program (a test's or benchmark's touch), waking the loop as the
        touchscreen's own device does for a finger."""
        pygame.event.post(event)
        self.waker.wake()

    def call(self, name: str, arg: Any = None, timeout: float = 10.0) -> Any:
        """Thread-safe: run a Command on the display thread and wait for its result."""
        return self.inbox.call(name, arg, timeout)

    # --- the loop

    def run(self) -> int:
        while self.running:
            self.step()
        self.audio.close()
        pygame.display.quit()
        return self.exit_code

    def close(self) -> None:
        """Give the display back (a second App in the same process opens it afresh)."""
        self.waker.close()
        pygame.display.quit()

    def step(self, max_wait_ms: int | None = None) -> None:
        now = time.monotonic()
        wakeup = self.screen.next_wakeup()
        if self.lights is not None:  # the --sim window's light strip animates a blinking light
            wakeup = self.lights.next_wakeup(wakeup, now)
        idle_at = self._idle_deadline()
        if idle_at is not None:
            wakeup = idle_at if wakeup is None else min(wakeup, idle_at)
        if self.guard.notice_shows(now):
            wakeup = self.guard.notice_until if wakeup is None else min(wakeup, self.guard.notice_until)
        quiet_at = self.audio.sleep_due()  # the audio device closes when no cue played for a while
        if quiet_at is not None:
            wakeup = quiet_at if wakeup is None else min(wakeup, quiet_at)
        wait = self.max_idle_ms if wakeup is None else max(0, min(self.max_idle_ms, int((wakeup - now) * 1000)))
        if max_wait_ms is not None:
            wait = min(wait, max_wait_ms)
        if self.dirty:
            wait = 0
        for event in self._wait(wait):
            self.guarded(self._on_pygame, event)
        while True:
            try:
                item = self.inputs.get_nowait()
            except queue.Empty:
                break
            self.guarded(self._on_item, item)
        self.guarded(self._after_inputs)
        if self.heartbeat is not None:
            self.heartbeat()

    def _after_inputs(self) -> None:
        """Time, the café, the idle pause, the frame and the lights: once per turn of the loop."""
        now = time.monotonic()
        if self.screen.on_tick(now):
            self.dirty = True
        if self.guard.notice_until and now >= self.guard.notice_until:
            self.guard.notice_until = 0.0  # the notice ran out: draw the screen without it
            self.dirty = True
        if self.cafe is not None and self.cafe.tick():
            self.dirty = True
        self.audio.tick(now)
        self._idle_check(time.monotonic())
        if self.dirty:
            self.draw()
        if self.lights is not None:
            self.lights.follow(self.screen)

    # --- the guard (kiosk/guard.py)

    def guarded(self, handler: Callable[..., Any], *args: Any) -> Any:
        """Run a piece of the loop; a screen's exception is logged, counted and answered from the log, never
        the end of the kiosk (unless the same fault keeps coming: then exit for systemd to restart)."""
        try:
            return handler(*args)
        except Exception as error:
            self._caught(error)
            return None

    def _caught(self, error: Exception) -> None:
        logger.error("display loop guard: %s on screen %r; the table is rebuilt from the log", error,
                     getattr(self.screen, "name", "?"), exc_info=error)
        if self.guard.caught(error):
            logger.critical("display loop guard: the same fault %d times within %.0f s — exiting for a restart",
                            REPEAT, WINDOW_S)
            self.stop(GUARD_EXIT)
            return
        self._status(f"guarded error: {type(error).__name__} (the game goes on)")
        self._press = None
        try:
            self.go_menu()
            self.resume()  # the game in progress or the results on screen, from the log
            self.draw()
        except Exception as again:  # the log's game itself cannot be shown: the menu, and say so
            logger.error("display loop guard: rebuilding from the log failed: %s", again, exc_info=again)
            if self.guard.caught(again):
                self.stop(GUARD_EXIT)
            self.screen = MenuScreen(self)
            self.dirty = True

    def _notice_height(self, width: int, height: int) -> int:
        """The calm notice's band: as high as its words need at the screen's least capitals."""
        cap = Limits.for_size(width, height).cap
        pad = max(4, round(6 * ui_scale(width, height)))
        return measure.height(i18n.tr("A glitch – the game goes on"), width, cap, pad) + 2 * pad

    def _notice(self, view: View, band: int) -> None:
        """The guests' calm notice after a caught error: a band across the top that pushes the screen (built
        `band` px lower) down, so it covers no button."""
        view.elements = [replace(e, rect=(e.rect[0], e.rect[1] + band, e.rect[2], e.rect[3])) for e in view.elements]
        view.elements.insert(0, Element("text", (0, 0, view.width, band), i18n.tr("A glitch – the game goes on"),
                                        color=INK, fill=PANEL, size=0.9, align="center", tag="notice"))
        view.height += band

    def _wait(self, ms: int) -> list[pygame.event.Event]:
        """SDL events, waiting up to `ms` for one, an input from another thread, or the deadline."""
        end = time.monotonic() + ms / 1000
        while True:
            events = pygame.event.get()
            if self.waker.woken() or events:
                return events
            left = end - time.monotonic()
            if left <= 0:
                return []
            self.waker.sleep(left)

    # --- a table left alone

    def _idle_deadline(self) -> float | None:
        return idle.deadline(self.screen, self.settings.idle_pause_s, self.last_activity)

    def _idle_check(self, now: float) -> None:
        """Idle mid-game for `idle_pause_s`: the game is paused (resumable from the history), the menu shows."""
        if idle.pause_if_left(self.screen, self.settings.idle_pause_s, self.last_activity, now):
            self.last_activity = now
            self.go_menu()

    def draw(self) -> None:
        width, height = self.surface.get_width(), self.surface.get_height()
        strip = self.cafe.strip_height(width, height) if self.cafe is not None else 0
        band = self._notice_height(width, height) if self.guard.notice_shows(time.monotonic()) else 0
        self.current_view = self.screen.view(width, height - strip - band)
        if band:
            self._notice(self.current_view, band)
        if self.cafe is not None:
            self.cafe.decorate(self.current_view, height)
        self.renderer.draw(self.current_view)
        if self.rotate:
            self.display.blit(pygame.transform.rotate(self.surface, -self.rotate), (0, 0))
        pygame.display.flip()
        if self.cafe is not None:  # after the flip: the publisher's work never delays what players see
            self.cafe.publish_status(self.screen)
        self.dirty = False
        self.frames += 1

    def _on_item(self, item: Any) -> None:
        if isinstance(item, Command):
            try:
                item.result = self._command(item)
            except Exception as exc:  # a bad request (unknown action, unwritable path) is its caller's error
                logger.warning("command %s %r failed: %s", item.name, item.arg, exc)
                item.error = exc
                self.dirty = True
            finally:
                item.done.set()
            return
        if self.cafe is not None and self.cafe.receive(item):
            self.dirty = True
            offer_assignment(self)
            return
        if self.camera is not None:
            item = self.camera.pile_seats.route(item, self.screen)
            if item is None:  # taken by its question ("who laid this card?")
                self.dirty = True
                return
        self.last_activity = time.monotonic()
        self.audio.wake()  # someone is at the table: a cue may follow
        if isinstance(item, ReaderError) and item.reason in ("disconnected", "reconnected"):
            if item.reason == "disconnected":
                self.scanners_down[item.reader] = self.seat_of_reader(item.reader)
            else:
                self.scanners_down.pop(item.reader, None)
        if isinstance(item, CardScan) and not self.screen.takes_scans:
            self.cue("rejected")  # nothing here can take a card: say so by ear
        self.screen.on_input(item)
        self.dirty = True

    def _command(self, command: Command) -> Any:
        """A control-socket command, on this thread (`kiosk/control_commands.py`)."""
        return control_commands.run(self, command.name, command.arg)

    def _on_pygame(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame.NOEVENT or kind == WAKE:
            return
        if kind == pygame.QUIT:
            # SDL turns SIGTERM and SIGINT into QUIT: systemctl stop/restart and a reboot end the kiosk
            # cleanly, in kiosk mode too (ignored, systemd waited TimeoutStopSec, killed it and counted a
            # failure). A guest cannot make one: the kiosk is fullscreen on the console, no window to close.
            self.stop(0)
        elif kind == pygame.KEYDOWN:
            self._on_key(event)
        elif kind == pygame.TEXTINPUT:
            # A key mapped to a seat button presses it, unless a code is being typed (codes start with letters
            # no button uses as its first key).
            if not self._typed and self.key_handler is not None and self.key_handler(event.text):
                return
            self._typed += event.text
        elif kind in (pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN):
            self._press = (time.monotonic(), self._point(event), self.screen)
            self.last_activity = time.monotonic()
            self.audio.wake()
            action = self.current_view.hit(*self._press[1]) if self.current_view else None
            if action:
                self.screen.on_press(action)  # a hold-to-confirm button starts counting
                self.dirty = True
        elif kind in (pygame.MOUSEBUTTONUP, pygame.FINGERUP):
            self._release(self._point(event))
        elif kind in (pygame.WINDOWEXPOSED, pygame.VIDEORESIZE):
            self.dirty = True

    def _point(self, event: pygame.event.Event) -> tuple[int, int]:
        if event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
            window = pygame.display.get_surface() or self.display  # (the --sim light strip makes it taller)
            x, y = int(event.x * window.get_width()), int(event.y * window.get_height())
        else:
            x, y = event.pos
        return self.to_logical(x, y)

    def _release(self, point: tuple[int, int]) -> None:
        pressed, self._press = self._press, None
        if pressed is None:
            return
        held = time.monotonic() - pressed[0]
        x, y = pressed[1]
        if pressed[2] is not self.screen:  # a hold already acted and the screen changed under the finger
            return
        if x < 60 and y < 60 and held >= self.settings.admin_hold_s:  # the admin corner
            if not isinstance(self.screen, AdminScreen):
                self.show(AdminScreen(self, self.screen))
            return
        self.touch(*point, held=held)

    def touch(self, x: int, y: int, held: float = 0.0) -> None:
        """A tap at (x, y), the finger down for `held` seconds: the topmost button under it acts."""
        if self.current_view is None:
            self.draw()
        action = self.current_view.hit(x, y) if self.current_view else None
        if action:
            self.screen.on_touch(action, held)
            self.dirty = True

    def _on_key(self, event: pygame.event.Event) -> None:
        if event.key == pygame.K_ESCAPE and not self.kiosk_mode:
            self.stop(0)
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self._typed.strip():
            from hw.inputs import CardScan

            self._on_item(CardScan(self._typed.strip(), "keyboard", time.monotonic_ns()))
            self._typed = ""
        elif event.key == pygame.K_BACKSPACE:
            self._typed = self._typed[:-1]

    def screenshot(self, path: Path) -> None:
        """What the display shows (rotated as it is mounted)."""
        self.draw()
        pygame.image.save(self.shown(), str(path))

    def shown(self) -> pygame.Surface:
        """The kiosk's picture as the display shows it: turned when rotated (without the --sim light strip)."""
        return self.display if self.rotate else self.surface
