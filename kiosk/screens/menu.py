"""The game menu the kiosk boots into; after a while without a touch, demo mode starts."""

from __future__ import annotations

import time

import kiosk.games
from kiosk.drawing.view import ACCENT, MUTED, Grid, View
from kiosk.i18n import language, tr
from kiosk.screens import Host, Screen
from kiosk.screens.demo import DemoScreen
from kiosk.screens.history import GamesScreen
from kiosk.screens.setup import SetupScreen
from referee import games


class MenuScreen(Screen):
    name = "menu"

    def __init__(self, app: Host):
        super().__init__(app)
        self.since = time.monotonic()

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        v.text(g.r(0.04, 0.03, 0.46, 0.14), "Tabletop Referee", size=1.5, color=ACCENT, tag="title")
        v.button(g.r(0.52, 0.04, 0.24, 0.11), tr("Earlier games"), "games", tag="games")
        v.button(g.r(0.78, 0.04, 0.18, 0.11), "English" if language() == "de" else "Deutsch", "lang", tag="lang")
        v.text(g.r(0.04, 0.17, 0.9, 0.08), tr("Choose a game"), size=0.9, color=MUTED)
        ids = kiosk.games.available()
        rows = max(1, len(ids))
        for i, game_id in enumerate(ids):
            cls = games.get(game_id)
            counts = cls.player_counts
            span = f"{counts[0]}–{counts[-1]}" if list(counts) == list(range(counts[0], counts[-1] + 1)) \
                else " / ".join(map(str, counts))
            players = tr("{players} players", players=span)
            label = f"{cls.title}  ·  {players}"
            v.button(g.r(0.1, 0.27 + i * 0.7 / rows, 0.8, 0.7 / rows - 0.025), label, f"game:{game_id}",
                     tag=f"game:{game_id}")
        return v

    def on_action(self, action: str) -> None:
        self.since = time.monotonic()
        if action == "lang":
            self.app.toggle_language()
        elif action == "games":
            self.app.show(GamesScreen(self.app, self))
        elif action.startswith("game:"):
            self.app.show(SetupScreen(self.app, action.split(":", 1)[1]))

    def on_tick(self, now: float) -> bool:
        idle = self.app.settings.demo_after_s
        if idle and now - self.since >= idle:
            self.app.show(DemoScreen(self.app))
            return True
        return False

    def next_wakeup(self) -> float | None:
        idle = self.app.settings.demo_after_s
        return self.since + idle if idle else None
