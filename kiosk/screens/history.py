"""History for disputes: one game's every event in plain words (rejected ones greyed with the reason),
scrolling through the whole game; and the list of earlier games with players, scores, status and time.

A paused game is resumed from its history by the players (one touch, then a question naming them);
staff abandon it from the admin menu opened over its history.
"""

from __future__ import annotations

import time
from typing import Any

from hw.inputs import CardScan, Input
from kiosk.app.controller import TableController
from kiosk.drawing.view import ACCENT, BUTTON, GOOD, INK, MUTED, PANEL, Grid, View
from kiosk.eventlog.export import GameSummary, summarise
from kiosk.eventlog.store import GameRecord
from kiosk.games import history as game_history
from kiosk.games.event_words import describe
from kiosk.games.history import Line
from kiosk.i18n import tr
from kiosk.screens import Host, Screen
from kiosk.screens.confirm import Answer, ConfirmScreen
from referee import games

ROW = 0.085  # of the screen height per line (landscape)
ROW_PORTRAIT = 0.05


def status_word(status: str) -> str:
    return {"playing": tr("playing"), "paused": tr("paused"), "finished": tr("finished"),
            "abandoned": tr("abandoned")}.get(status, status)


def clock(at: float) -> str:
    return time.strftime("%H:%M", time.localtime(at)) if at else ""


def rows_for(top: float, bottom: float, row: float) -> int:
    return max(3, int((bottom - top) / row))


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
        self._shown, self._capacity = (0, 0), 1  # the lines on screen (first, after last), rows that fit
        self._per_row = 68  # characters a row holds (about 40 in portrait)

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
                self._lines = [Line(i, logged.at, describe(logged.event, face), True)
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
        g = Grid(width, height)
        v = View(width, height)
        bar = 0.07 if g.portrait else 0.1
        paused = self.status == "paused"
        if g.portrait:  # the title beside Back; a paused game's Resume gets a row of its own under them
            v.text(g.r(0.03, 0.02, 0.64, bar), tr("History: {game}", game=self.title()), size=1.0, color=ACCENT,
                   tag="title")
            v.button(g.r(0.7, 0.02, 0.28, bar), tr("Back"), "back", tag="back")
            if paused:
                v.button(g.r(0.03, 0.03 + bar, 0.95, bar), tr("Resume"), "resume", fill=GOOD, tag="resume")
        else:
            v.text(g.r(0.03, 0.02, 0.33, bar), tr("History: {game}", game=self.title()), size=1.0, color=ACCENT,
                   tag="title")
            v.button(g.r(0.76, 0.02, 0.22, bar), tr("Back"), "back", tag="back")
            if paused:
                v.button(g.r(0.38, 0.02, 0.36, bar), tr("Resume"), "resume", fill=GOOD, tag="resume")
        lines = self.lines()
        row = ROW_PORTRAIT if g.portrait else ROW
        top, bottom = 0.04 + bar + (bar + 0.01 if g.portrait and paused else 0), 0.96 - bar - 0.02
        capacity = rows_for(top, bottom, row)
        px = v.limits.cap / 0.73  # the smallest text's font size: a row holds about this many characters
        self._per_row = max(20, int(0.94 * width / (px * 0.6)) - 2)
        first = self._first_of_last_page(lines, capacity) if self.first is None else self.first
        used, last = 0, first
        for line in lines[first:]:
            units = self._units(line)
            if used + units > capacity:
                break
            rect = g.r(0.03, top + used * row, 0.94, units * row - 0.006)
            when = clock(line.at)
            text = f"{line.seq}. {when + '  ' if when else ''}{line.text}"
            if line.ok:
                v.text(rect, text, size=0.7, color=INK, tag="line:ok")
            else:
                v.text(rect, "✗ " + text + " – " + line.reason, size=0.7, color=MUTED, fill=PANEL,
                       tag="line:rejected")
            used += units
            last += 1
        if not lines:
            v.text(g.r(0.03, top, 0.94, 0.1), tr("No events yet."), size=0.8, color=MUTED, tag="line:none")
        shown = f"{first + 1}–{last} / {len(lines)}" if lines else ""
        v.text(g.r(0.3, 0.98 - bar, 0.4, bar), shown, size=0.8, color=MUTED, align="center", tag="position")
        if first > 0:
            v.button(g.r(0.03, 0.98 - bar, 0.25, bar), tr("Earlier"), "up", fill=BUTTON, tag="up", group="pager")
        if last < len(lines):
            v.button(g.r(0.72, 0.98 - bar, 0.25, bar), tr("Later"), "down", fill=BUTTON, tag="down", group="pager")
        self._shown, self._capacity = (first, last), capacity
        return v

    def _units(self, line: Line) -> int:
        """Rows a line takes: long ones (a Profi-Sort task's cards) wrap; a rejected one adds the reason."""
        per_row = self._per_row
        length = len(line.text) + (len(line.reason) + 5 if not line.ok else 0) + 11  # "12. 01:03  " before it
        return max(1 if line.ok else 2, min(4, -(-length // per_row)))

    def _first_fitting(self, lines: list[Line], end: int, capacity: int) -> int:
        """The first line of the page that ends just before `end`."""
        used, first = 0, end
        while first > 0 and used + self._units(lines[first - 1]) <= capacity:
            first -= 1
            used += self._units(lines[first])
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
        v.text(g.r(0.03, 0.02, 0.7, bar), tr("Earlier games"), size=1.0, color=ACCENT, tag="title")
        v.button(g.r(0.76, 0.02, 0.22, bar), tr("Back"), "back", tag="back")
        gap = round(v.limits.gap) + 2
        each = v.lines_height(3) + 4  # a game's button holds three lines: game and status, when, the players' scores
        top, bottom = round((0.04 + bar) * height), round((0.96 - bar) * height)
        rows = max(1, (bottom - top + gap) // (each + gap))
        for i, record in enumerate(self.records[self.first:self.first + rows]):
            item = self.summary(record)
            title = games.get(item.game).title if item.game in games.GAMES else item.game
            scores = " · ".join(f"{p.player}: {p.score}" for p in item.places) if record.events else \
                ", ".join(item.players)
            day = time.strftime("%d.%m. %H:%M", time.localtime(record.started))
            label = f"{title} · {status_word(record.status)} · {day} · {scores}"
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
