"""Attract mode: the table simulator plays a game on screen by itself; a touch ends it."""

from __future__ import annotations

import itertools
import time

from kiosk import games as game_uis
from kiosk.controller import TableController
from kiosk.i18n import tr
from kiosk.screens import Host, Screen
from kiosk.screens.table import TableScreen
from kiosk.view import ACCENT, Grid, View
from referee import sim
from referee.table import Referee

STEP_S = 1.2


class DemoScreen(Screen):
    name = "demo"

    def __init__(self, app: Host, seed: int | None = None):
        super().__init__(app)
        self.seed = int(time.time()) if seed is None else seed
        playable = [g for g in game_uis.available() if g in sim.registered()]
        self.games = itertools.cycle(playable)
        self._new_game()

    def _new_game(self) -> None:
        game_id = next(self.games)
        self.seed += 1
        table = sim.new_table(game_id, self.seed)
        referee = Referee(table.header)
        self.controller = TableController(referee, None, None)
        self.table = TableScreen(self.app, self.controller)
        self.moves = sim.play(table, Referee(table.header))
        self.next_at = time.monotonic() + STEP_S

    def view(self, width: int, height: int) -> View:
        v = self.table.view(width, height)
        g = Grid(width, height)
        v.text(g.r(0.02, 0.01, 0.55, 0.1), tr("DEMO — touch to play"), size=1.0, color=ACCENT, fill=(60, 30, 30),
               tag="demo")
        v.button(g.r(0, 0, 1, 1), "", "exit")  # the whole screen: any touch ends the demo
        return v

    def on_action(self, action: str) -> None:
        self.app.go_menu()

    def on_input(self, item) -> None:
        self.app.go_menu()

    def on_tick(self, now: float) -> bool:
        if now < self.next_at:
            return False
        self.next_at = now + STEP_S
        if self.controller.finished:
            self._new_game()
            return True
        event = next(self.moves, None)
        if event is None:
            self._new_game()
        else:
            self.controller.submit(event)
        return True

    def next_wakeup(self) -> float | None:
        return self.next_at
