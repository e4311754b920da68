"""Which screen the kiosk shows: the menu, a game's table screen (new, resumed, rematched, left), the café's
assignment, and the fault screen when the event log fails.

The router owns the screen shown (`screen`) and whether the frame must be drawn again (`dirty`). The screens ask
for their moves through their host (`kiosk/app/host.py`), which hands them here: one place decides where the
guests go next; the display loop only draws what is shown, and says when it has (`drawn`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from kiosk.app.cafe_side import CafeSide
from kiosk.app.controller import TableController
from kiosk.app.records import Records
from kiosk.eventlog.storage import FULL, StorageFault, fault_of
from kiosk.screens import Host, Screen
from kiosk.screens.assignment import offer, pending
from kiosk.screens.fault import FaultScreen
from kiosk.screens.menu import MenuScreen
from kiosk.screens.setup import SetupScreen
from kiosk.screens.table import TableScreen

logger = logging.getLogger(__name__)


class Router:
    """The screen shown and every move between screens; screens are made over `host`, games read and written
    through `records`, the café's assignment read from `cafe`; `status` is systemd's STATUS= line."""

    def __init__(self, host: Host, records: Records, cafe: CafeSide, status: Callable[[str], None]):
        self.host = host
        self.records = records
        self.cafe = cafe
        self.status = status
        self.screen: Screen = MenuScreen(host)
        self.dirty = True  # the frame must be drawn again
        self._last_fault: str | None = None

    # --- the frame

    def changed(self) -> None:
        """What the screen shows has changed: the loop draws the frame again."""
        self.dirty = True

    def drawn(self) -> None:
        """The loop drew the frame: nothing waits to be drawn."""
        self.dirty = False

    # --- moves

    def show(self, screen: Screen) -> None:
        self.screen = screen
        self.dirty = True
        camera = self.host.camera
        if camera is not None:  # a table screen: its game's taught faces; teaching: only on its screen
            game = str(screen.controller.referee.header["game"]) if isinstance(screen, TableScreen) else None
            camera.shown(game, getattr(screen, "teaching", False))

    def go_menu(self, paused: int | None = None) -> None:
        """The menu; `paused`: the game the idle pause just stopped, offered there to resume."""
        self.show(MenuScreen(self.host, paused))
        self.offer_assignment()  # club nights: the café's assignment for this table, if one waits

    def offer_assignment(self) -> None:
        """Show the café's assignment for this table over the menu, or take a cleared one off the screen."""
        link = self.cafe.link
        if link is None:
            return
        shown = offer(self.host, self.screen, pending(link.assignment, self.records.log), link.config.table)
        if shown is not None:
            self.show(shown)

    def resume(self) -> None:
        log = self.records.log
        if log is None:
            return
        try:  # the game in progress, else the results of the game that ended on screen (issue #22)
            controller = TableController.resume(log) or TableController.ended(log)
        except Exception as error:
            if not self._storage_error(error):
                raise
            return
        if controller is not None:
            self._show_table(controller)

    def start_game(self, game_id: str, players: list[str], dealer: str | None, options: dict[str, Any],
                   seat_players: dict[str, str], assignment: dict[str, Any] | None = None) -> None:
        try:
            controller = TableController.new_game(self.records.log, game_id, players, dealer, options, seat_players,
                                                  assignment)
        except Exception as error:
            if not self._storage_error(error):
                raise
            return
        self._show_table(controller)

    def _show_table(self, controller: TableController) -> None:
        controller.on_fault = self.storage_fault
        self.show(TableScreen(self.host, controller))

    def rematch(self, old: TableController) -> None:
        header = old.referee.header
        self.start_game(header["game"], list(header["players"]), header.get("dealer", header["players"][-1]),
                        header.get("options", {}), old.seat_players)

    def leave_game(self, controller: TableController, new_game: bool) -> None:
        """Guests left the table screen (confirmed): the game is paused in the log, then the menu or a new set-up."""
        controller.pause()
        if not new_game:  # the menu names the paused game with a large "Resume" (issue #37)
            self.go_menu(paused=controller.game_row)
            return
        header = controller.referee.header
        self.show(SetupScreen(self.host, header["game"], names=list(header["players"])))

    def resume_game(self, game_row: int) -> None:
        """A paused game (its log row) taken up again from the history."""
        if self.records.log is not None:
            self.show(TableScreen(self.host, TableController.reopen(self.records.log, game_row)))

    def rebuild(self) -> None:
        """After an error the display loop's guard caught: the game in progress or the results on screen, rebuilt
        from the log."""
        self.go_menu()
        self.resume()

    def plain_menu(self) -> None:
        """The menu and nothing over it: where the guard leaves the guests when even the rebuilt screen fails."""
        self.show(MenuScreen(self.host))

    # --- storage faults (kiosk/eventlog/storage.py)

    def _storage_error(self, error: Exception) -> bool:
        fault = fault_of(error)
        if fault is not None:
            self.storage_fault(fault)
        return fault is not None

    def storage_fault(self, fault: StorageFault | None) -> None:
        """The log failed (or works again: None). A full disk during a game stays on the table screen, whose
        verdict says so and whose next event tries again; everything else shows the fault screen."""
        self.dirty = True
        if fault is None:
            if self._last_fault is not None:
                logger.info("event log writable again")
                self.status("table screen up")
            self._last_fault = None
            return
        if str(fault) != self._last_fault:  # the fault screen retries every 3 s: one line per new fault
            logger.error("event log %s: %s", self.records.path, fault)
            self.status(f"storage fault ({fault.kind}): {fault.detail}")
        self._last_fault = str(fault)
        if fault.kind == FULL and isinstance(self.screen, TableScreen):
            return
        if isinstance(self.screen, FaultScreen) and self.screen.fault is not None:
            self.screen.fault = fault
            return
        self.show(FaultScreen(self.host, fault))

    def retry_storage(self) -> bool:
        """Open the log afresh (the fault screen's retry); True when the screen changed."""
        link = self.cafe.link
        opened = self.records.reopen(link.config.table if link is not None else None)
        if opened.log is None:
            changed = isinstance(self.screen, FaultScreen) and self.screen.fault != opened.fault
            self.storage_fault(opened.fault)
            return changed
        if link is not None:  # its publisher follows the log (a fresh one has its own file and key)
            link.adopt(opened.log)
        self.storage_fault(None)
        if opened.notice:
            self.show(FaultScreen(self.host, notice=opened.notice))
        else:
            self.after_storage_fault()
        return True

    def after_storage_fault(self) -> None:
        """Back to the game in progress, or the menu."""
        self.go_menu()
        self.resume()
