"""History for disputes: one game's every event in plain words (rejected ones greyed with the reason),
scrolling through the whole game; and the list of earlier games with players, scores, status and time.

A paused game is resumed from its history by the players (one touch, then a question naming them);
staff abandon it from the admin menu opened over its history.
"""

from __future__ import annotations

import time
from typing import Any

import kiosk.games as kiosk_games
from hw.inputs import CardScan, Input
from kiosk.app.controller import TableController
from kiosk.drawing import cards as pictures
from kiosk.drawing.render import measure
from kiosk.drawing.view import BUTTON, GOOD, INK, MUTED, PANEL, Color, Grid, View, ui_scale
from kiosk.eventlog.export import GameSummary, summarise
from kiosk.eventlog.store import GameRecord
from kiosk.games import GameUI, Shown
from kiosk.games import history as game_history
from kiosk.games.event_words import describe
from kiosk.games.history import Line, laid
from kiosk.games.ranking import PLACES
from kiosk.i18n import tr
from kiosk.screens import Host, Screen
from kiosk.screens.cells import top_bar
from kiosk.screens.confirm import Answer, ConfirmScreen
from referee import games

NBSP = "\u00a0"  # keeps a player's name and score together on one line


def status_word(status: str) -> str:
    return {"playing": tr("playing"), "paused": tr("paused"), "finished": tr("finished"),
            "abandoned": tr("abandoned")}.get(status, status)


def clock(at: float) -> str:
    return time.strftime("%H:%M", time.localtime(at)) if at else ""


class HistoryScreen(Screen):
    """One game's events. `controller` is the live game when opened from the table (None from the list)."""

    name = "history"

    @property
    def takes_scans(self) -> bool:  # type: ignore[override]
        return self.controller is not None  # over a live game a scan goes on to the table

    def __init__(self, app: Host, back: Screen, game_row: int | None, controller: TableController | None = None):
        super().__init__(app)
        self.back = back
        self.game_row = game_row
        self.controller = controller
        self.first: int | None = None  # index of the top line; None: scrolled to the end
        self._lines: list[Line] | None = None
        self._status: str | None = None
        self._shown, self._capacity = (0, 0), 1  # the lines on screen (first, after last), the px they may fill
        self._size, self._text_w = (800, 480), 760  # the screen as last drawn, the lines' width
        self._ui: GameUI | None = None  # the game's panel, for its card words and pictures (a game from the log)

    @property
    def status(self) -> str:
        """The game's status in the log (read once per screen: the log only changes by leaving it)."""
        if self._status is None:
            records = self.app.log.games() if self.game_row is not None and self.app.log is not None else []
            self._status = next((g.status for g in records if g.id == self.game_row), "playing")
        return self._status

    def lines(self) -> list[Line]:
        if self._lines is None:
            if self.game_row is not None and self.app.log is not None:
                self._lines = game_history.lines(self.app.log, self.game_row)
            elif self.controller is not None:  # no log (demo): the accepted events this screen knows
                face = self.controller.ui.face
                self._lines = [Line(i, logged.at, describe(logged.event, face), True, cards=laid(logged.event))
                               for i, logged in enumerate(self.controller.history, start=1)]
            else:
                self._lines = []
        return self._lines

    def header(self) -> dict[str, Any]:
        if self.controller is not None:
            return self.controller.referee.header
        if self.app.log is not None and self.game_row is not None:
            return self.app.log.load(self.game_row)[0]
        return {}

    def title(self) -> str:
        game = str(self.header().get("game"))
        return games.get(game).title if game in games.GAMES else game

    def view(self, width: int, height: int) -> View:
        """The title and the buttons at the top, the lines of one page under them (each as high as its words or
        its card pictures need), the pager at the bottom."""
        v = View(width, height)
        lim = v.limits
        margin, gap = round(0.03 * width), round(lim.gap)
        top = top_bar(v, tr("History: {game}", game=self.title()), self._buttons(), margin, gap)
        bar = max(round(lim.touch), v.lines_height(1))
        bottom = height - margin // 2 - bar - gap
        lines = self.lines()
        self._size, self._text_w = (width, height), width - 2 * margin
        capacity = bottom - top
        first = self._first_of_last_page(lines, capacity) if self.first is None else self.first
        y, last = top, first
        for line in lines[first:]:
            h = self._height(v, line)
            if y + h > bottom and last > first:
                break
            self._line(v, line, (margin, y, width - 2 * margin, h))
            y += h + gap // 2
            last += 1
        if not lines:
            v.text((margin, top, width - 2 * margin, v.lines_height(1)), tr("No events yet."), size=0.8, color=MUTED,
                   tag="line:none")
        self._pager(v, (margin, height - margin // 2 - bar, width - 2 * margin, bar), first, last, len(lines))
        self._shown, self._capacity = (first, last), capacity
        return v

    def _buttons(self) -> list[tuple[str, str, Color]]:
        """Back, and for a paused game Resume (the players take it up again here)."""
        if self.status == "paused":
            return [(tr("Resume"), "resume", GOOD), (tr("Back"), "back", BUTTON)]
        return [(tr("Back"), "back", BUTTON)]

    def _line(self, v: View, line: Line, rect: tuple[int, int, int, int]) -> None:
        """One line: its card pictures (an accepted event's cards), then its words; a rejected one greyed."""
        x, y, w, h = rect
        shown = self._cards(line)
        if shown:
            m = pictures.metrics(v.width, v.height)
            for card in shown:
                cw, ch = pictures.card_size(card.face, m, words=False)
                v.card((x, y + (h - ch) // 2, cw, ch), card.label, tag="line-card", face=card.face)
                x += cw + round(v.limits.gap) // 2
                w -= cw + round(v.limits.gap) // 2
        when = clock(line.at)
        text = f"{line.seq}. {when + '  ' if when else ''}{line.text}"
        if line.ok:
            v.text((x, y, w, h), text, size=0.7, color=INK, tag="line:ok")
        else:
            v.text((x, y, w, h), "✗ " + text + " – " + line.reason, size=0.7, color=MUTED, fill=PANEL,
                   tag="line:rejected")

    def _cards(self, line: Line) -> list[Shown]:
        """The card pictures of a line: an accepted event's few cards, where their game draws faces."""
        if not line.ok or not line.cards or len(line.cards) > 3:
            return []
        face = self._face_source()
        shown = [face.shown(code) for code in line.cards] if face is not None else []
        return shown if all(card.face is not None for card in shown) else []

    def _face_source(self) -> GameUI | None:
        """The game's panel, for its card words and pictures (None: a game the kiosk has no panel for)."""
        if self.controller is not None:
            return self.controller.ui
        if self._ui is None:
            header = self.header()
            game = str(header.get("game"))
            if game in kiosk_games.UIS:
                self._ui = kiosk_games.get(game)(tuple(header.get("players", ())), header.get("options") or {})
        return self._ui

    def _height(self, v: View, line: Line) -> int:
        """How high a line is drawn: its words wrapped beside its cards, at least its cards' height."""
        shown = self._cards(line)
        m = pictures.metrics(v.width, v.height)
        beside = sum(pictures.card_size(c.face, m, False)[0] + round(v.limits.gap) // 2 for c in shown)
        when = clock(line.at)
        text = f"{line.seq}. {when + '  ' if when else ''}{line.text}"
        if not line.ok:
            text = "✗ " + text + " – " + line.reason
        pad = max(4, round(6 * ui_scale(v.width, v.height))) if not line.ok else 2
        words = measure.height(text, self._text_w - beside, v.limits.cap, pad)
        return max(words, pictures.height(m, False) if shown else 0)

    def _pager(self, v: View, rect: tuple[int, int, int, int], first: int, last: int, total: int) -> None:
        x, y, w, h = rect
        gap = round(v.limits.gap)
        third = (w - 2 * gap) // 3
        if total:  # said shorter where a long game's numbers do not fit between the buttons (800×480: "251 / 259")
            said = next((text for text in (f"{first + 1}–{last} / {total}", f"{last} / {total}")
                         if measure.lines(text, third, v.limits.cap) == 1), str(last))
            v.text((x + third + gap, y, third, h), said, size=0.8, color=MUTED, align="center", tag="position")
        if first > 0:
            v.button((x, y, third, h), tr("Earlier"), "up", fill=BUTTON, tag="up", group="pager")
        if last < total:
            v.button((x + w - third, y, third, h), tr("Later"), "down", fill=BUTTON, tag="down", group="pager")

    def _first_fitting(self, lines: list[Line], end: int, capacity: int) -> int:
        """The first line of the page that ends just before `end`."""
        v = View(*self._size)
        gap = round(v.limits.gap) // 2
        used, first = 0, end
        while first > 0 and used + self._height(v, lines[first - 1]) <= capacity:
            first -= 1
            used += self._height(v, lines[first]) + gap
        return first

    def _first_of_last_page(self, lines: list[Line], capacity: int) -> int:
        return self._first_fitting(lines, len(lines), capacity)

    def on_action(self, action: str) -> None:
        lines = self.lines()
        first, last = self._shown
        if action == "back":
            self.app.show(self.back)
        elif action == "up":  # the page before, keeping this page's first line in sight
            self.first = min(first - 1, self._first_fitting(lines, first + 1, self._capacity))
            self.first = max(0, self.first)
        elif action == "down":
            following = max(first + 1, last - 1)
            end = self._first_of_last_page(lines, self._capacity)
            self.first = None if following >= end else following
        elif action == "resume" and self.game_row is not None:
            self.app.show(self.resume_question(self.game_row))

    def resume_question(self, game_row: int) -> ConfirmScreen:
        header = self.header()
        return ConfirmScreen(self.app, self, tr("Resume {game} with {players}?", game=self.title(),
                                                players=", ".join(header["players"])),
                             [Answer(tr("Resume"), lambda: self.app.resume_game(game_row))],
                             detail=tr("For the players of this game: it goes on where it stopped."), danger=False)

    def on_input(self, item: Input) -> None:
        if self.controller is not None and isinstance(item, CardScan):
            self.app.show(self.back)  # the table goes on: a scan returns to it
            self.back.on_input(item)

    def model(self) -> dict:
        lines = self.lines()
        return {"screen": self.name, "game_row": self.game_row, "status": self.status, "lines": len(lines),
                "rejected": sum(1 for line in lines if not line.ok),
                "details": [line.detail for line in lines if line.detail]}  # for staff: rule ids and error ids


class GamesScreen(Screen):
    """Earlier games, newest first: game, players with scores, status, when. A touch opens its history."""

    name = "games"

    def __init__(self, app: Host, back: Screen):
        super().__init__(app)
        self.back = back
        self.first = 0
        self.records = list(reversed(app.log.games())) if app.log is not None else []
        self._summaries: dict[int, GameSummary] = {}  # replayed when first shown: a long log opens at once
        self._rows = 5  # games per page, as last drawn

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        bar = 0.07 if g.portrait else 0.1
        margin, gap = round(0.03 * width), round(v.limits.gap) + 2
        top = top_bar(v, tr("Earlier games"), [(tr("Back"), "back", BUTTON)], margin, gap)
        each = v.lines_height(3) + 4  # a game's button holds three lines: game and status, when, the players' scores
        bottom = round((0.96 - bar) * height)
        rows = max(1, (bottom - top + gap) // (each + gap))
        for i, record in enumerate(self.records[self.first:self.first + rows]):
            label = self._label(record)
            v.button((round(0.03 * width), top + i * (each + gap), round(0.94 * width), each), label,
                     f"game:{record.id}", fill=GOOD if record.status == "paused" else BUTTON,
                     tag=f"game:{record.status}", group="games")
        if not self.records:
            v.text(g.r(0.03, 0.14, 0.94, 0.1), tr("No games yet."), size=0.8, color=MUTED, tag="none")
        if self.first > 0:
            v.button(g.r(0.03, 0.98 - bar, 0.25, bar), tr("Previous"), "up", fill=BUTTON, tag="up", group="pager")
        if self.first + rows < len(self.records):
            v.button(g.r(0.72, 0.98 - bar, 0.25, bar), tr("Next"), "down", fill=BUTTON, tag="down", group="pager")
        self._rows = rows
        return v

    def _label(self, record: GameRecord) -> str:
        """Game, status and when; then the players: with their scores, or their places where the game ranks by
        finishing order ("1. Anna"). A player and a score never part across lines (no-break spaces)."""
        item = self.summary(record)
        title = games.get(item.game).title if item.game in games.GAMES else item.game
        if record.events:
            players = " · ".join((f"{p.place}. {p.player}" if p.kind == PLACES else f"{p.player}: {p.score}")
                                 .replace(" ", NBSP) for p in item.places)
        else:
            players = ", ".join(name.replace(" ", NBSP) for name in item.players)
        day = time.strftime("%d.%m. %H:%M", time.localtime(record.started))
        return f"{title} · {status_word(record.status)} · {day} · {players}"

    def on_action(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        rows = self._rows
        if kind == "back":
            self.app.show(self.back)
        elif kind == "up":
            self.first = max(0, self.first - rows)
        elif kind == "down":
            self.first = min(max(0, len(self.records) - 1), self.first + rows)
        elif kind == "game":
            self.app.show(HistoryScreen(self.app, self, int(arg)))

    def summary(self, record: GameRecord) -> GameSummary:
        if record.id not in self._summaries and self.app.log is not None:
            self._summaries[record.id] = summarise(self.app.log, record)
        return self._summaries[record.id]

    def model(self) -> dict:
        return {"screen": self.name,
                "games": [(r.id, r.header.get("game"), r.status) for r in self.records]}
