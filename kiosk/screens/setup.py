"""Seat set-up: how many players, their names, who sits where (each seat claimed by its own button), the dealer."""

from __future__ import annotations

import kiosk.games
from kiosk.drawing.view import ACCENT, BAD, GOOD, MUTED, PANEL, Grid, View
from kiosk.i18n import tr
from kiosk.screens import Host, Screen
from kiosk.screens.cells import cols, gap_of, rows
from kiosk.screens.help import HelpScreen
from kiosk.screens.keyboard import KeyboardScreen
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
        self.settings = kiosk.games.get(game_id).settings if game_id in kiosk.games.available() else ()
        self.picked = dict.fromkeys((s.option for s in self.settings), 0)  # option → index of its value

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        gap = gap_of(v)
        top = cols(g.r(0.04, 0.015, 0.93, 0.1), 7, gap)
        v.text((top[0][0], top[0][1], top[3][0] + top[3][2] - top[0][0], top[0][3]), self.cls.title, size=1.3,
               color=ACCENT, tag="title")
        v.button(top[4], "?", "help", tag="help")
        v.button((top[5][0], top[5][1], top[6][0] + top[6][2] - top[5][0], top[5][3]), tr("Back"), "back")
        v.text(g.r(0.04, 0.14, 0.17, 0.1), tr("Players"), color=MUTED)
        counts = list(self.cls.player_counts)
        for n, rect in zip(counts, cols(g.r(0.22, 0.14, 0.12 * len(counts), 0.1), len(counts), gap), strict=True):
            v.button(rect, str(n), f"count:{n}", fill=GOOD if n == self.count else PANEL, tag=f"count:{n}")
        how = tr("Press your seat button to claim a seat; touch a name to change it.")
        if self.error:
            v.text(g.r(0.04, 0.255, 0.92, 0.095), self.error, size=0.6, color=BAD, tag="error")
        else:
            v.text(g.r(0.04, 0.255, 0.92, 0.095), how, size=0.6, color=MUTED)
        self._players(v, g, gap)
        bottom = g.r(0.04, 0.86, 0.93, 0.12)
        parts = cols(bottom, len(self.settings) + 2, gap) if self.settings else cols(bottom, 3, gap)
        for rect, setting in zip(parts, self.settings, strict=False):  # one button per option, cycling its values
            label = tr(setting.values[self.picked[setting.option]][0])
            v.button(rect, label, f"opt:{setting.option}", fill=PANEL, tag=f"opt:{setting.option}")
        start = (parts[-2][0], parts[-2][1], parts[-1][0] + parts[-1][2] - parts[-2][0], parts[-1][3])
        v.button(start, tr("Start"), "start", fill=GOOD, tag="start")
        return v

    def _players(self, v: View, g: Grid, gap: int) -> None:
        """One row per player: the name (with the seat it claimed) and the dealer mark; two columns for 5–6."""
        dealer = self.count - 1 if self.dealer is None or self.dealer >= self.count else self.dealer
        seat_of = {index: seat for seat, index in self.claimed.items()}
        area = g.r(0.04, 0.36, 0.93, 0.47)
        columns = 2 if self.count > 4 and not g.portrait else 1
        per_col = -(-self.count // columns)
        cells = [cell for col in cols(area, columns, gap * 2) for cell in rows(col, per_col, gap)]
        for i, cell in zip(range(self.count), cells, strict=False):
            name, mark = cols(cell, 3, gap)[0:2], cols(cell, 3, gap)[2]
            where = tr("seat {seat}", seat=seat_of[i]) if i in seat_of else tr("no seat yet")
            name_rect = (name[0][0], cell[1], name[1][0] + name[1][2] - name[0][0], cell[3])
            v.button(name_rect, f"{self.names[i]} · {where}", f"name:{i}", fill=PANEL, tag=f"player:{i}")
            is_dealer = i == dealer
            v.button(mark, tr("dealer") if is_dealer else "-", f"dealer:{i}", fill=GOOD if is_dealer else PANEL,
                     tag=f"dealer:{i}")

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
