"""Seat set-up: how many players, their names, who sits where (each seat claimed by its own button), the dealer."""

from __future__ import annotations

from hw.inputs import Input
from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BAD, BUTTON, GOOD, MUTED, PANEL, Grid, View
from kiosk.i18n import tr
from kiosk.screens import Host, Screen
from kiosk.screens.cells import cols, gap_of, rows, seat_name
from kiosk.screens.help import HelpScreen
from kiosk.screens.keyboard import KeyboardScreen
from referee import games
from referee.answers import HeaderError
from referee.registry import DEFINITIONS
from referee.words import is_default_name


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
        self.dealer: int | None = None  # index; default: the last player
        self.error = ""
        definition = DEFINITIONS.get(game_id)
        self.settings = definition.options if definition is not None else ()  # the game's own, with defaults
        self.picked = {s.option: s.default_index() for s in self.settings}  # option → index of its value

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        gap = gap_of(v)
        margin = round(0.02 * min(width, height))
        x, w = round(0.04 * width), round(0.93 * width)
        bar = max(round(v.limits.touch), round(height * (0.07 if g.portrait else 0.1)))
        line = v.lines_height(1)
        y = margin
        top = cols((x, y, w, bar), 7, gap)
        v.text((top[0][0], y, top[3][0] + top[3][2] - top[0][0], bar), self.cls.title, size=1.3, color=ACCENT,
               tag="title")
        v.button(top[4], "?", "help", tag="help", group="top")
        v.button((top[5][0], y, top[6][0] + top[6][2] - top[5][0], bar), tr("Back"), "back", group="top")
        y += bar + gap
        label_w = round(w * (0.3 if g.portrait else 0.2))
        v.text((x, y, label_w, bar), tr("Players"), color=MUTED)
        counts = list(self.cls.player_counts)
        span = min(w - label_w - gap, round(len(counts) * 0.14 * w))
        for n, rect in zip(counts, cols((x + label_w + gap, y, span, bar), len(counts), gap), strict=True):
            v.button(rect, str(n), f"count:{n}", fill=GOOD if n == self.count else PANEL, tag=f"count:{n}",
                     group="counts")
        y += bar + gap
        said = self.error or tr("Press your seat button to sit; touch a name to change it.")
        hint_h = measure.height(said, w, v.limits.cap)
        v.text((x, y, w, hint_h), said, color=BAD if self.error else MUTED, tag="error" if self.error else "how")
        y += hint_h + gap // 2
        bottom = height - margin
        if self.settings and not g.portrait:  # players on the left, the options beside them, Start under those
            left_w = round(w * 0.55)
            right = (x + left_w + 2 * gap, y, w - left_w - 2 * gap, bottom - y)
            self._players(v, g, (x, y, left_w, bottom - y), gap, line)
            self._options(v, right, gap, bar)
            return v
        start = (x + w // 2, bottom - bar, w - w // 2, bar)
        players_bottom = start[1] - gap
        if self.settings:  # portrait: the options in rows of their own over Start
            need = len(self.settings) * (bar + gap)
            self._options(v, (x, players_bottom - need + gap, w, need + bar), gap, bar)
            players_bottom -= need
        else:
            v.button(start, tr("Start"), "start", fill=GOOD, tag="start")
        self._players(v, g, (x, y, w, players_bottom - y), gap, line)
        return v

    def _options(self, v: View, area: tuple[int, int, int, int], gap: int, bar: int) -> None:
        """One button per option, "label: value" (the state in words, not by colour only), Start under them."""
        x, y, w, h = area
        each = min(bar, (h - bar - gap * len(self.settings)) // max(1, len(self.settings)))
        for i, setting in enumerate(self.settings):
            picked = self.picked[setting.option]
            value = tr(setting.values[picked][0])
            text = tr("{option}: {value}", option=tr(setting.label), value=value) if setting.label else value
            v.button((x, y + i * (each + gap), w, each), text, f"opt:{setting.option}",
                     fill=BUTTON if picked != setting.default_index() else PANEL, tag=f"opt:{setting.option}",
                     group="options")
        v.button((x, y + h - bar, w, bar), tr("Start"), "start", fill=GOOD, tag="start")

    def _players(self, v: View, g: Grid, area: tuple[int, int, int, int], gap: int, line: int) -> None:
        """One row per player under the column headings: the name (with the seat it claimed) and whether they
        deal; two columns of players for 5–6 in landscape."""
        dealer = self.count - 1 if self.dealer is None or self.dealer >= self.count else self.dealer
        seat_of = {index: seat for seat, index in self.claimed.items()}
        x, y, w, h = area
        columns = 2 if self.count > 4 and not g.portrait else 1
        per_col = -(-self.count // columns)
        bottom = y + h
        places = cols((x, y, w, line), columns, gap * 2)
        for place in places:  # the headings: "Name · seat" over the names, "Dealer" over its column
            name_h, deal_h = self._split(place, gap)
            v.text(name_h, tr("Name · seat"), color=MUTED, tag="heading:name")
            v.text(deal_h, tr("Dealer"), color=MUTED, align="center", tag="heading:dealer")
        y += line + gap // 2
        cells = [cell for col in cols((x, y, w, bottom - y), columns, gap * 2) for cell in rows(col, per_col, gap)]
        for i, cell in zip(range(self.count), cells, strict=False):
            where = seat_name(self.app.seats, seat_of[i]) if i in seat_of else tr("no seat yet")
            name_rect, mark = self._split(cell, gap)
            v.button(name_rect, f"{self.names[i]} · {where}", f"name:{i}", fill=PANEL, tag=f"player:{i}",
                     group="names")
            is_dealer = i == dealer
            v.button(mark, "✓" if is_dealer else "○", f"dealer:{i}", fill=GOOD if is_dealer else PANEL,
                     tag=f"dealer:{i}", group="dealer", size=1.6)

    @staticmethod
    def _split(rect: tuple[int, int, int, int], gap: int) -> tuple[tuple[int, int, int, int], ...]:
        """A player's row: the name on the left two thirds, the dealer mark on the right third."""
        x, y, w, h = rect
        name_w = round((w - gap) * 0.68)
        return (x, y, name_w, h), (x + name_w + gap, y, w - name_w - gap, h)

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
            name = self.names[index]  # a default name is the empty field's placeholder, a typed one is there to correct
            typed = "" if is_default_name(name) else name
            self.app.show(KeyboardScreen(self.app, self, tr("Name of player {n}", n=index + 1), typed,
                                         lambda text: self.rename(index, text), placeholder=name))
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

    def on_input(self, item: Input) -> None:
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
        """The header's options as picked; an option left at the game's default (its definition's) is left out."""
        return {s.option: s.values[self.picked[s.option]][1] for s in self.settings
                if self.picked[s.option] != s.default_index()}

    def model(self) -> dict:
        return {"screen": self.name, "game": self.game_id, "count": self.count, "claimed": dict(self.claimed),
                "options": self.options()}
