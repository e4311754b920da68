"""The composition root and the one event loop: inputs queue → screen → controller → draw.

Hardware threads only enqueue inputs and wake the loop with a pygame user event;
everything else happens on this thread. The loop sleeps in `event.wait` until a
touch, an input or a screen's next deadline: an idle kiosk draws nothing.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from kiosk import i18n
from kiosk.controller import TableController
from kiosk.render import Renderer
from kiosk.screens import Screen
from kiosk.screens.menu import MenuScreen
from kiosk.screens.table import TableScreen
from kiosk.settings import Settings
from kiosk.storage import FULL, StorageFault, fault_of, open_log
from kiosk.store import EventLog

logger = logging.getLogger(__name__)

WAKE = pygame.USEREVENT + 1
IDLE_WAIT_MS = 1000
# While idle the loop sleeps on a threading.Event and pumps SDL this often for touches: SDL's own
# wait polls every millisecond on some drivers (1.4 % of a core on the dummy driver), this costs ~0.1 %.
TOUCH_POLL_S = 0.03


class DisplayError(RuntimeError):
    """SDL could not open the screen: the kiosk must not pretend to run (black screen, unit "active")."""


class Command:
    """A request from another thread that must run on the display thread (screenshot, state)."""

    def __init__(self, name: str, arg: Any = None):
        self.name = name
        self.arg = arg
        self.result: Any = None
        self.error: Exception | None = None
        self.done = threading.Event()


class App:
    def __init__(self, settings: Settings, log: EventLog | None, kiosk_mode: bool = False,
                 headless: bool = False, reader_seats: dict[str, str] | None = None,
                 heartbeat: Callable[[], None] | None = None, wake_every_s: float | None = None,
                 fallback_headless: bool = False, on_status: Callable[[str], None] | None = None):
        self.settings = settings
        self.on_status = on_status  # systemd's STATUS= line (storage faults and their end)
        self._last_fault: str | None = None
        # Only a simulation may fall back to the dummy driver; a real kiosk without a screen fails loudly.
        self.fallback_headless = fallback_headless
        self.log = log
        self.kiosk_mode = kiosk_mode
        self.headless = headless
        self.reader_seats = dict(reader_seats or {})
        self.heartbeat = heartbeat
        # The loop wakes at least this often, so watchdog pings keep their pace while idle.
        self.max_idle_ms = IDLE_WAIT_MS if not wake_every_s else max(10, min(IDLE_WAIT_MS, int(wake_every_s * 1000)))
        self.inputs: queue.Queue[Any] = queue.Queue()
        self._wake = threading.Event()
        self.running = True
        self.exit_code = 0
        self.dirty = True
        self.frames = 0
        self._press: tuple[float, tuple[int, int]] | None = None
        self._typed = ""
        self.key_handler: Callable[[str], bool] | None = None  # simulation: keys that are seat buttons
        self.cafe: Any = None  # kiosk.cafe_link.CafeLink when the table is in a café
        self.lights: Any = None  # kiosk.seat_lights.LightFollower when the table has seat lights
        i18n.set_language(settings.language)
        self.surface = self._open_display()
        self.renderer = Renderer(self.surface)
        self.screen: Screen = MenuScreen(self)
        self.current_view = None
        self.resume()

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

    def resume(self) -> None:
        if self.log is None:
            return
        try:
            controller = TableController.resume(self.log)
        except Exception as error:
            if not self._storage_error(error):
                raise
            return
        if controller is not None:
            self._show_table(controller)

    def start_game(self, game_id: str, players: list[str], dealer: str, options: dict,
                   seat_players: dict[str, str]) -> None:
        try:
            controller = TableController.new_game(self.log, game_id, players, dealer, options, seat_players)
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

    def seat_of_reader(self, reader: str) -> str | None:
        return self.reader_seats.get(reader)

    def admin_action(self, action: str, back: Screen) -> str | None:
        """Run an admin menu entry; returns a sentence to show."""
        table = back if isinstance(back, TableScreen) else None
        if action == "undo" and table is not None:
            fb = table.controller.undo()
            self.show(table)
            return fb.text(self.lang)
        if action == "abandon" and table is not None:
            table.controller.abandon()
            self.go_menu()
            return None
        if action == "export":
            return i18n.tr("Exported {n} games to {dir}", n=self.export_all(), dir=self.settings.data_dir / "exports")
        if action == "lang":
            self.toggle_language()
            return None
        if action == "demo":
            self.settings.demo_after_s = 0 if self.settings.demo_after_s else 120.0
            return i18n.tr("Demo mode off") if not self.settings.demo_after_s else i18n.tr("Demo mode on")
        if action == "restart":
            self.stop(3)  # systemd's Restart=always starts a fresh process
        elif action == "shutdown":
            self.stop(4)
        elif action == "quit" and not self.kiosk_mode:
            self.stop(0)
        return None

    def export_all(self) -> int:
        if self.log is None:
            return 0
        target = self.settings.data_dir / "exports"
        target.mkdir(parents=True, exist_ok=True)
        records = self.log.games()
        for record in records:
            with open(target / f"game-{record.id:05d}-{record.header['game']}.jsonl", "w", encoding="utf-8") as out:
                self.log.export(record.id, out)
        return len(records)

    def stop(self, code: int = 0) -> None:
        self.exit_code = code
        self.running = False

    # --- inputs from other threads

    def post(self, item: Any) -> None:
        """Thread-safe: hand an input or a Command to the display thread."""
        self.inputs.put(item)
        self._wake.set()

    def call(self, name: str, arg: Any = None, timeout: float = 10.0) -> Any:
        """Thread-safe: run a Command on the display thread and wait for its result."""
        command = Command(name, arg)
        self.post(command)
        if not command.done.wait(timeout):
            raise TimeoutError(name)
        if command.error is not None:
            raise command.error
        return command.result

    # --- the loop

    def run(self) -> int:
        while self.running:
            self.step()
        pygame.display.quit()
        return self.exit_code

    def close(self) -> None:
        """Give the display back (a second App in the same process opens it afresh)."""
        pygame.display.quit()

    def step(self, max_wait_ms: int | None = None) -> None:
        now = time.monotonic()
        wakeup = self.screen.next_wakeup()
        if self.lights is not None:  # the --sim window's light strip animates a blinking light
            wakeup = self.lights.next_wakeup(wakeup, now)
        wait = self.max_idle_ms if wakeup is None else max(0, min(self.max_idle_ms, int((wakeup - now) * 1000)))
        if max_wait_ms is not None:
            wait = min(wait, max_wait_ms)
        if self.dirty:
            wait = 0
        for event in self._wait(wait):
            self._on_pygame(event)
        while True:
            try:
                item = self.inputs.get_nowait()
            except queue.Empty:
                break
            self._on_item(item)
        if self.screen.on_tick(time.monotonic()):
            self.dirty = True
        if self.cafe is not None and self.cafe.tick():
            self.dirty = True
        if self.dirty:
            self.draw()
        if self.lights is not None:
            self.lights.follow(self.screen)
        if self.heartbeat is not None:
            self.heartbeat()

    def _wait(self, ms: int) -> list[pygame.event.Event]:
        """SDL events, waiting up to `ms` for one, an input from another thread, or the deadline."""
        end = time.monotonic() + ms / 1000
        while True:
            events = pygame.event.get()
            if events or self._wake.is_set():
                self._wake.clear()
                return events
            left = end - time.monotonic()
            if left <= 0:
                return []
            self._wake.wait(min(TOUCH_POLL_S, left))

    def draw(self) -> None:
        width, height = self.surface.get_width(), self.surface.get_height()
        strip = self.cafe.strip_height(width, height) if self.cafe is not None else 0
        self.current_view = self.screen.view(width, height - strip)
        if self.cafe is not None:
            self.cafe.decorate(self.current_view, height)
        self.renderer.draw(self.current_view)
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
            return
        self.screen.on_input(item)
        self.dirty = True

    def _command(self, command: Command) -> Any:
        if command.name == "screenshot":
            self.draw()
            pygame.image.save(self.surface, str(command.arg))
            return {"path": str(command.arg)}
        if command.name == "state":
            model = self.screen.model()
            if self.lights is not None:  # as they are after the inputs handled so far in this step
                self.lights.follow(self.screen)
                model["lights"] = self.lights.reported()
            return model
        if command.name == "screenshot_window":  # the whole --sim window, its light strip included
            self.draw()
            if self.lights is not None:
                self.lights.follow(self.screen)
                self.lights.draw_strip()
            pygame.image.save(pygame.display.get_surface(), str(command.arg))
            return {"path": str(command.arg)}
        if command.name == "action":
            # A script touches what a finger could: a button on the screen now, nothing else.
            self.draw()
            if not isinstance(command.arg, str) or command.arg not in self.current_view.buttons():
                shown = ", ".join(sorted(self.current_view.buttons()))
                raise ValueError(f"no button {command.arg!r} on this screen (buttons: {shown})")
            self.screen.on_action(command.arg)
            self.dirty = True
            return self.screen.model()
        if command.name == "view":
            self.draw()
            return {"texts": self.current_view.texts(), "buttons": self.current_view.buttons()}
        raise ValueError(f"unknown command {command.name!r}")

    def _on_pygame(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame.NOEVENT or kind == WAKE:
            return
        if kind == pygame.QUIT:
            if not self.kiosk_mode:
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
            self._press = (time.monotonic(), self._point(event))
        elif kind in (pygame.MOUSEBUTTONUP, pygame.FINGERUP):
            self._release(self._point(event))
        elif kind in (pygame.WINDOWEXPOSED, pygame.VIDEORESIZE):
            self.dirty = True

    def _point(self, event: pygame.event.Event) -> tuple[int, int]:
        if event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
            return int(event.x * self.surface.get_width()), int(event.y * self.surface.get_height())
        return event.pos

    def _release(self, point: tuple[int, int]) -> None:
        pressed, self._press = self._press, None
        if pressed is None:
            return
        held = time.monotonic() - pressed[0]
        x, y = pressed[1]
        if x < 60 and y < 60 and held >= self.settings.admin_hold_s:  # the admin corner
            from kiosk.screens.admin import AdminScreen

            if not isinstance(self.screen, AdminScreen):
                self.show(AdminScreen(self, self.screen))
            return
        self.touch(*point)

    def touch(self, x: int, y: int) -> None:
        """A tap at (x, y): the topmost button under it acts."""
        if self.current_view is None:
            self.draw()
        action = self.current_view.hit(x, y) if self.current_view else None
        if action:
            self.screen.on_action(action)
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
        self.draw()
        pygame.image.save(self.surface, str(path))
