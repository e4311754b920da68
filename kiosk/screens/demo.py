"""Attract mode: the table simulator plays a game on screen by itself; a touch ends it."""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import replace

from hw.inputs import Input
from kiosk import games
from kiosk.app.controller import TableController
from kiosk.drawing.render import ink_for, measure
from kiosk.drawing.view import BG, DARK_INK, TURN_FILL, Grid, View, ui_scale
from kiosk.i18n import tr
from kiosk.screens import Host, Screen
from kiosk.screens.table import TableScreen
from referee import sim
from referee.table import Referee
from referee.words import DEFAULT_NAME

STEP_S = 1.2


class DemoScreen(Screen):
    name = "demo"
    takes_scans = False  # a scan ends the demo (and says by ear that it was not judged)

    def __init__(self, app: Host, seed: int | None = None):
        super().__init__(app)
        self.seed = int(time.time()) if seed is None else seed
        playable = [g for g in games.ids() if g in sim.ids()]
        self.games = itertools.cycle(playable)
        self._new_game()

    def _new_game(self) -> None:
        game_id = next(self.games)
        self.seed += 1
        cls = sim.get(game_id)  # the seats' default names: the simulator's own (Cem …) read like a seat's in the config
        players = [tr(DEFAULT_NAME, n=i + 1) for i in range(cls.default_players)]
        table = cls(random.Random(self.seed), players, None, None)
        referee = Referee(table.header)
        self.controller = TableController(referee, None, None)
        self.table = TableScreen(self.app, self.controller)
        self.moves = sim.play(table, Referee(table.header))
        self.next_at = time.monotonic() + STEP_S

    def view(self, width: int, height: int) -> View:
        """The table screen of the game being played, its buttons shown but not live, and a banner naming the game;
        a touch anywhere leaves."""
        table = self.table.view(width, height)
        g = Grid(width, height)
        v = View(width, height)
        for e in table.elements:
            if e.kind == "button":  # drawn as they would be, but a touch anywhere only ends the demo
                v.add(replace(e, kind="box", action=None, color=ink_for(e.fill or BG)))
            elif e.tag != "title":
                v.add(e)
        words = tr("DEMO: {game} — touch to play", game=self.controller.ui.title)
        pad = max(4, round(6 * ui_scale(width, height)))
        high = max(g.r(0.0, 0.0, 1.0, 0.12 if not g.portrait else 0.07)[3],
                   measure.height(words, width, v.limits.cap, pad) + 6)  # over the top bar, wrapped where needed
        v.text((0, 0, width, high), words, size=0.9, color=DARK_INK, fill=TURN_FILL, align="center", tag="demo")
        v.anywhere = "exit"
        return v

    def on_action(self, action: str) -> None:
        self.app.go_menu()

    def on_input(self, item: Input) -> None:
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
