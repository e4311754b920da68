"""The kiosk as guests see it, composed from rooms with one job each (built by `kiosk.app.compose`).

`kiosk/loop/display.py` opens the screen and puts a frame on it; `kiosk/loop/frame_loop.py` is the display loop (sleep
until something is due, hand the inputs on, draw); `kiosk/loop/input_events.py` says what a touch, a key, a seat's
input or a café message does; `kiosk/app/routing.py` decides which screen shows; `kiosk/app/control_commands.py` runs
the control socket's commands. The app holds what they share (the screen shown, the log, the hardware, the
café link, the sound, the preferences) and answers the screens' questions.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from hw.camera.zones import seat_of_reader as camera_seat_of
from kiosk import i18n
from kiosk.app import staff
from kiosk.app.audio import Cue, Sounds
from kiosk.app.commands import AdminCommand
from kiosk.app.controller import TableController
from kiosk.app.routing import ScreenRouter
from kiosk.drawing.render import Renderer
from kiosk.drawing.view import View
from kiosk.eventlog import export as exporting
from kiosk.eventlog.storage import StorageFault
from kiosk.eventlog.store import EventLog
from kiosk.loop.display import WAKE, Display, DisplayError
from kiosk.loop.frame_loop import FrameLoop
from kiosk.loop.guard import EXIT_CODE as GUARD_EXIT
from kiosk.loop.guard import REPEAT, WINDOW_S, LoopGuard
from kiosk.loop.inbox import Command, Inbox
from kiosk.loop.input_events import InputEvents
from kiosk.loop.waiting import Waker, device_monitors, input_devices
from kiosk.screens import Screen
from kiosk.screens.menu import MenuScreen
from kiosk.settings.pin import PinGuard
from kiosk.settings.prefs import Prefs
from kiosk.settings.settings import DEFAULT_PIN_HASH, Settings

if TYPE_CHECKING:
    from cafe.settings import CafeLinkConfig
    from kiosk.app.cafe_link import CafeLink
    from kiosk.app.joining import Joining
    from kiosk.hardware.hardware import Hardware

__all__ = ["WAKE", "App", "Command", "DisplayError"]

logger = logging.getLogger(__name__)


class App:
    """The kiosk as guests see it. What it works with is built outside and handed in (`kiosk.app.compose`):
    the event log, the opened hardware (seats, scanners, lights), the café link and the inbox they post to."""

    def __init__(self, settings: Settings, log: EventLog | None, kiosk_mode: bool = False, headless: bool = False,
                 heartbeat: Callable[[], float | None] | None = None,
                 fallback_headless: bool = False, on_status: Callable[[str], None] | None = None, *,
                 inbox: Inbox | None = None, hardware: Hardware | None = None, cafe: CafeLink | None = None,
                 joining: Joining | None = None):
        self.settings = settings
        self.on_status = on_status  # systemd's STATUS= line (storage faults and their end)
        self.log = log
        self.kiosk_mode = kiosk_mode
        self.reader_seats = dict(hardware.reader_seats) if hardware else {}
        self.heartbeat = heartbeat
        self.inbox = inbox or Inbox()  # where other threads post (`post`, `call`); it wakes `self.waker`
        self.inputs = self.inbox.items
        self.running, self.exit_code = True, 0
        self.dirty, self.frames = True, 0
        self.last_activity = time.monotonic()  # a touch or a seat input: the idle pause counts from here
        self.key_handler: Callable[[str], bool] | None = hardware.key if hardware else None  # simulation: seat keys
        self.table_name = hardware.table_name if hardware else "table"  # the config's table name (CSV export)
        self.seats = hardware.seat_names if hardware else []  # the config's seat ids (test screens)
        self.mounts = Path("/proc/mounts")  # where Export looks for a USB stick …
        self.usb_roots: tuple[str, ...] = exporting.USB_ROOTS  # … mounted below one of these
        self.pins = PinGuard(settings.data_dir, settings.pin_hash, default_hash=DEFAULT_PIN_HASH)
        self.prefs = self._prefs_over(settings)
        self.scanners_down: dict[str, str | None] = {}  # reader → its seat, while unplugged
        self.cafe = cafe  # when the table is in a café
        self.joining = joining  # admin → Café: joining a café without a shell
        self.lights, self.camera = (hardware.lights, hardware.camera) if hardware else (None, None)  # lights, camera
        self.guard = LoopGuard()  # a screen's exception: logged, counted, the table rebuilt from the log
        i18n.set_language(settings.language)
        devices, monitors = input_devices(), device_monitors()  # the hardware's own (a grabbed scanner): not SDL's
        self.video = Display(settings, kiosk_mode, headless, fallback_headless)
        self.waker = self._waker(input_devices() - devices, device_monitors() - monitors)
        if self.lights is not None and self.lights.strip is not None:
            self.lights.strip.attach(self.video)  # the --sim window: the seat lights drawn under the screen
        self.audio = Sounds(settings.volume, settings.mute)
        self.routes = ScreenRouter(self)
        self.input_events = InputEvents(self)
        self.loop = FrameLoop(self)
        self.screen: Screen = MenuScreen(self)
        self.current_view: View | None = None
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

    def _waker(self, touch_devices: set[int], monitors: set[int]) -> Waker:
        """The loop's sleep (decisions H23-Q, H23-Q2): woken by the touchscreen SDL opened with the display and by
        SDL's device monitor, and by every post to the inbox, the hardware threads' included (they post there
        directly, not through `post`)."""
        waker = Waker(pygame.display.get_driver(), touch_devices, monitors)
        self.inbox.wake_with(waker.wake)
        return waker

    # --- the display (kiosk/loop/display.py)

    @property
    def display(self) -> pygame.Surface:
        """The display as mounted (rotated or not), without the --sim light strip."""
        return self.video.window

    @property
    def surface(self) -> pygame.Surface:
        """The upright picture screens draw on."""
        return self.video.surface

    @property
    def renderer(self) -> Renderer:
        return self.video.renderer

    def to_logical(self, x: int, y: int) -> tuple[int, int]:
        """A display point (touch) → the point of the upright picture under it."""
        return self.video.to_logical(x, y)

    def draw(self) -> None:
        """Draw the frame now (`kiosk/loop/frame_loop.py`)."""
        self.loop.draw()

    def screenshot(self, path: Path) -> None:
        """What the display shows (rotated as it is mounted)."""
        self.draw()
        self.video.save(path)

    def shown(self) -> pygame.Surface:
        """The kiosk's picture as the display shows it: turned when rotated (without the --sim light strip)."""
        return self.video.shown()

    # --- which screen shows (kiosk/app/routing.py): the screens ask the app

    def show(self, screen: Screen) -> None:
        self.routes.show(screen)

    def go_menu(self, paused: int | None = None) -> None:
        """The menu; `paused`: the game the idle pause just stopped, offered there to resume."""
        self.routes.go_menu(paused)

    def resume(self) -> None:
        self.routes.resume()

    def start_game(self, game_id: str, players: list[str], dealer: str | None, options: dict,
                   seat_players: dict[str, str], assignment: dict | None = None) -> None:
        self.routes.start_game(game_id, players, dealer, options, seat_players, assignment)

    def rematch(self, old: TableController) -> None:
        self.routes.rematch(old)

    def leave_game(self, controller: TableController, new_game: bool) -> None:
        self.routes.leave_game(controller, new_game)

    def resume_game(self, game_id: int) -> None:
        self.routes.resume_game(game_id)

    def storage_fault(self, fault: StorageFault | None) -> None:
        self.routes.storage_fault(fault)

    def retry_storage(self) -> bool:
        return self.routes.retry_storage()

    def after_storage_fault(self) -> None:
        self.routes.after_storage_fault()

    def abandon_game(self, game_id: int) -> None:
        if self.log is not None:
            self.log.set_status(game_id, "abandoned")

    # --- what the screens share

    def cue(self, cue: Cue) -> None:
        self.audio.play(cue)

    @property
    def lang(self) -> str:
        return i18n.language()

    def toggle_language(self) -> None:
        i18n.set_language("en" if self.lang == "de" else "de")
        self.dirty = True

    def status(self, text: str) -> None:
        """systemd's STATUS= line, when there is one."""
        if self.on_status is not None:
            self.on_status(text)

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

    def join_cafe(self, config: CafeLinkConfig) -> None:
        """The table just joined a café (admin → Café): its link to the broker starts now, no restart needed."""
        from kiosk.app.cafe_link import CafeLink  # paho only for a table in a café

        if self.cafe is not None:
            self.cafe.stop()
        if self.log is not None:
            self.log.seal_for(config.table)  # its records signed for the café from now on, the earlier ones too
        self.cafe = None if self.log is None else CafeLink(config, self.log, self.inbox.post).start()
        self.dirty = True

    def leave_cafe(self) -> None:
        """Admin → Café → Leave: the link stops, the password and the café's CA are forgotten."""
        if self.cafe is not None:
            self.cafe.stop()
            self.cafe = None
        if self.joining is not None:
            self.joining.leave()
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
        self.waker.wake(sdl=True)

    def call(self, name: str, arg: Any = None, timeout: float = 10.0) -> Any:
        """Thread-safe: run a Command on the display thread and wait for its result."""
        return self.inbox.call(name, arg, timeout)

    def _on_item(self, item: Any) -> None:
        """An input or a Command as the display thread handles it (`kiosk/loop/input_events.py`)."""
        self.input_events.on_item(item)

    def touch(self, x: int, y: int, held: float = 0.0) -> None:
        """A tap at (x, y), the finger down for `held` seconds: the topmost button under it acts."""
        self.input_events.touch(x, y, held)

    # --- the loop (kiosk/loop/frame_loop.py)

    def run(self) -> int:
        self._stop_on_signals()
        while self.running:
            self.step()
        self.inbox.close()  # a control-socket client waiting on the loop gets its answer now
        self.audio.close()
        self.video.close()
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

    def close(self) -> None:
        """Give the display back (a second App in the same process opens it afresh)."""
        self.waker.close()
        self.video.close()

    def step(self, max_wait_ms: int | None = None) -> None:
        self.loop.step(max_wait_ms)

    # --- the guard (kiosk/loop/guard.py)

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
        self.status(f"guarded error: {type(error).__name__} (the game goes on)")
        self.input_events.press = None
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
