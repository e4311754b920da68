"""Seat set-up: how many players, their names, who sits where (each seat claimed by its own button), the dealer."""

from __future__ import annotations

from kiosk import games as game_uis
from kiosk.i18n import tr
from kiosk.screens import Host, Screen
from kiosk.screens.help import HelpScreen
from kiosk.screens.keyboard import KeyboardScreen
from kiosk.view import ACCENT, GOOD, MUTED, PANEL, Grid, View
from referee import games
from referee.protocol import HeaderError


class SetupScreen(Screen):
    name = "setup"

    def __init__(self, app: Host, game_id: str, names: list[str] | None = None):
        super().__init__(app)
        self.game_id = game_id
        self.cls = games.get(game_id)
        counts = list(self.cls.player_counts)
        self.count = 4 if 4 in counts else counts[0]
        self.names = [tr("Player {n}", n=i + 1) for i in range(6)]
        if names and len(names) in counts:  # "Neues Spiel" from a game: the same players again
            self.count = len(names)
            self.names[: len(names)] = names
        self.claimed: dict[str, int] = {}  # seat id → player index
        self.dealer = None  # index; default: the last player
        self.error = ""
        self.settings = game_uis.get(game_id).settings if game_id in game_uis.available() else ()
        self.picked = dict.fromkeys((s.option for s in self.settings), 0)  # option → index of its value

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        v.text(g.r(0.04, 0.02, 0.62, 0.1), self.cls.title, size=1.3, color=ACCENT, tag="title")
        v.button(g.r(0.68, 0.02, 0.1, 0.1), "?", "help", tag="help")
        v.button(g.r(0.8, 0.02, 0.17, 0.1), tr("Back"), "back")
        v.text(g.r(0.04, 0.13, 0.3, 0.08), tr("Players"), color=MUTED)
        counts = list(self.cls.player_counts)
        for i, n in enumerate(counts):
            fill = GOOD if n == self.count else PANEL
            v.button(g.r(0.22 + i * 0.11, 0.12, 0.1, 0.1), str(n), f"count:{n}", fill=fill, tag=f"count:{n}")
        v.text(g.r(0.04, 0.24, 0.92, 0.07), tr("Press your seat button to claim a seat; touch a name to change it."),
               size=0.6, color=MUTED)
        dealer = self.count - 1 if self.dealer is None or self.dealer >= self.count else self.dealer
        seat_of = {index: seat for seat, index in self.claimed.items()}
        row_h = (0.45 if self.settings else 0.52) / max(self.count, 1)
        for i in range(self.count):
            y = 0.32 + i * row_h
            v.button(g.r(0.04, y, 0.42, row_h - 0.015), self.names[i], f"name:{i}", fill=PANEL, tag=f"player:{i}")
            is_dealer = i == dealer
            v.button(g.r(0.47, y, 0.17, row_h - 0.015), tr("dealer") if is_dealer else "-", f"dealer:{i}",
                     fill=GOOD if is_dealer else PANEL, tag=f"dealer:{i}")
            where = tr("seat {seat}", seat=seat_of[i]) if i in seat_of else tr("no seat yet")
            v.text(g.r(0.66, y, 0.32, row_h - 0.015), where, size=0.7, color=GOOD if i in seat_of else MUTED)
        width = 0.6 / max(len(self.settings), 1)
        for i, setting in enumerate(self.settings):  # one button per game option, cycling through its values
            label = tr(setting.values[self.picked[setting.option]][0])
            v.button(g.r(0.04 + i * width, 0.86, width - 0.01, 0.12), label, f"opt:{setting.option}", fill=PANEL,
                     tag=f"opt:{setting.option}")
        if self.error:
            v.text(g.r(0.04, 0.78 if self.settings else 0.84, 0.6, 0.07), self.error, size=0.6, color=(235, 90, 80),
                   tag="error")
        v.button(g.r(0.66, 0.86, 0.3, 0.12), tr("Start"), "start", fill=GOOD, tag="start")
        return v

    def on_action(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        if kind == "back":
            self.app.go_menu()
        elif kind == "help":
            self.app.show(HelpScreen(self.app, self, self.game_id))
        elif kind == "count":
            self.count = int(arg)
            self.claimed = {s: i for s, i in self.claimed.items() if i < self.count}
        elif kind == "dealer":
            self.dealer = int(arg)
        elif kind == "name":
            index = int(arg)
            self.app.show(KeyboardScreen(self.app, self, tr("Name of player {n}", n=index + 1), self.names[index],
                                         lambda text: self.rename(index, text)))
        elif kind == "opt":
            setting = next(s for s in self.settings if s.option == arg)
            self.picked[arg] = (self.picked[arg] + 1) % len(setting.values)
        elif kind == "start":
            self.start()

    def rename(self, index: int, text: str) -> None:
        if text in self.names[: self.count] and self.names[index] != text:
            self.error = tr("{name} is already playing.", name=text)
            return
        self.names[index] = text
        self.error = ""

    def on_input(self, item) -> None:
        seat = getattr(item, "seat", None)
        if seat is None or seat in self.claimed:
            return
        free = [i for i in range(self.count) if i not in self.claimed.values()]
        if free:
            self.claimed[seat] = free[0]

    def start(self) -> None:
        players = self.names[: self.count]
        dealer = self.count - 1 if self.dealer is None or self.dealer >= self.count else self.dealer
        seat_players = {seat: players[i] for seat, i in self.claimed.items()}
        try:
            self.app.start_game(self.game_id, players, players[dealer], self.options(), seat_players)
        except HeaderError as error:
            self.error = error.message(self.app.lang)

    def options(self) -> dict:
        """The header's options as picked; an option left at its first value (the game's default) is left out."""
        return {s.option: s.values[self.picked[s.option]][1] for s in self.settings if self.picked[s.option]}

    def model(self) -> dict:
        return {"screen": self.name, "game": self.game_id, "count": self.count, "claimed": dict(self.claimed),
                "options": self.options()}
