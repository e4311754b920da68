"""Which screen the kiosk shows: the menu, a game's table screen (new, resumed, rematched, left), and the
fault screen when the event log fails.

The screens ask the app (`app.show`, `app.go_menu`, `app.start_game`, …), which hands the question here:
one place decides where the guests go next, the display loop only draws what is shown.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from kiosk.app.controller import TableController
from kiosk.eventlog.storage import FULL, StorageFault, fault_of, open_log
from kiosk.screens import Screen
from kiosk.screens.assignment import offer as offer_assignment
from kiosk.screens.menu import MenuScreen
from kiosk.screens.setup import SetupScreen
from kiosk.screens.table import TableScreen

App = Any  # kiosk.app.app.App (not imported, not even for types: the app imports this module)

logger = logging.getLogger(__name__)


class ScreenRouter:
    """The screen shown (`app.screen`) and every move between screens."""

    def __init__(self, app: App):
        self.app = app
        self._last_fault: str | None = None

    def show(self, screen: Screen) -> None:
        self.app.screen = screen
        self.app.dirty = True

    def go_menu(self, paused: int | None = None) -> None:
        self.show(MenuScreen(self.app, paused))
        offer_assignment(self.app)  # club nights: the café's assignment for this table, if one waits

    def resume(self) -> None:
        if self.app.log is None:
            return
        try:  # the game in progress, else the results of the game that ended on screen (issue #22)
            controller = TableController.resume(self.app.log) or TableController.ended(self.app.log)
        except Exception as error:
            if not self._storage_error(error):
                raise
            return
        if controller is not None:
            self._show_table(controller)

    def start_game(self, game_id: str, players: list[str], dealer: str | None, options: dict,
                   seat_players: dict[str, str], assignment: dict | None = None) -> None:
        try:
            controller = TableController.new_game(self.app.log, game_id, players, dealer, options, seat_players,
                                                  assignment)
        except Exception as error:
            if not self._storage_error(error):
                raise
            return
        self._show_table(controller)

    def _show_table(self, controller: TableController) -> None:
        controller.on_fault = self.app.storage_fault
        self.show(TableScreen(self.app, controller))

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
        self.show(SetupScreen(self.app, header["game"], names=list(header["players"])))

    def resume_game(self, game_id: int) -> None:
        """A paused game taken up again from the history."""
        if self.app.log is None:
            return
        self.show(TableScreen(self.app, TableController.reopen(self.app.log, game_id)))

    # --- storage faults (kiosk/eventlog/storage.py)

    def _storage_error(self, error: Exception) -> bool:
        fault = fault_of(error)
        if fault is not None:
            self.storage_fault(fault)
        return fault is not None

    def storage_fault(self, fault: StorageFault | None) -> None:
        """The log failed (or works again: None). A full disk during a game stays on the table screen, whose
        verdict says so and whose next event tries again; everything else shows the fault screen."""
        from kiosk.screens.fault import FaultScreen

        app = self.app
        app.dirty = True
        if fault is None:
            if self._last_fault is not None:
                logger.info("event log writable again")
                app.status("table screen up")
            self._last_fault = None
            return
        if str(fault) != self._last_fault:  # the fault screen retries every 3 s: one line per new fault
            logger.error("event log %s: %s", app.settings.log_path, fault)
            app.status(f"storage fault ({fault.kind}): {fault.detail}")
        self._last_fault = str(fault)
        if fault.kind == FULL and isinstance(app.screen, TableScreen):
            return
        if isinstance(app.screen, FaultScreen) and app.screen.fault is not None:
            app.screen.fault = fault
            return
        self.show(FaultScreen(app, fault))

    def retry_storage(self) -> bool:
        """Open the log afresh (the fault screen's retry); True when the screen changed."""
        from kiosk.screens.fault import FaultScreen

        app = self.app
        opened = open_log(app.settings.log_path, table=app.cafe.config.table if app.cafe is not None else None)
        if opened.log is None:
            changed = isinstance(app.screen, FaultScreen) and app.screen.fault != opened.fault
            self.storage_fault(opened.fault)
            return changed
        if app.log is not None:
            with contextlib.suppress(Exception):
                app.log.close()
        app.log = opened.log
        if app.cafe is not None:  # its publisher follows the log (a fresh one has its own file and key)
            app.cafe.adopt(opened.log)
        self.storage_fault(None)
        if opened.notice:
            self.show(FaultScreen(app, notice=opened.notice))
        else:
            self.after_storage_fault()
        return True

    def after_storage_fault(self) -> None:
        """Back to the game in progress, or the menu."""
        self.go_menu()
        self.resume()
