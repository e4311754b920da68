"""Club nights: the café's assignment for this table — "Runde 2 · Tisch 3: Anna, Ben, Cleo" — and its start.

The hub draws the seats and sends them to the table (`assign` in
`shared/cafe-protocol.md`). This screen names the players in the seat order
drawn; each presses their own seat button when the screen calls their name,
then the game starts with exactly the assignment's header
(`cafe.contract.assignment_header`) and its `start` record carries the
assignment. The log is the outbox, so a table offline plays on and its result
reaches the hub when it reconnects.
"""

from __future__ import annotations

from typing import Any

from cafe import contract
from hw.inputs import Input
from kiosk.drawing.view import ACCENT, BAD, GOOD, MUTED, PANEL, Grid, View
from kiosk.eventlog.store import EventLog
from kiosk.i18n import language, tr
from kiosk.screens import Host, Screen
from kiosk.screens.cells import cols, gap_of, rows, seat_name
from kiosk.screens.menu import MenuScreen
from referee import games
from referee.answers import HeaderError

SHOWN_OVER = ("menu", "demo")  # screens an arriving assignment replaces; a game or a set-up in progress is left be


class AssignmentScreen(Screen):
    name = "assignment"

    def __init__(self, app: Host, assignment: dict[str, Any], table: str):
        super().__init__(app)
        self.assignment = assignment
        self.table = table
        self.players: list[str] = list(assignment["players"])
        self.claimed: dict[str, int] = {}  # seat id → index of the player who pressed it
        self.error = ""

    def headline(self) -> str:
        """"Runde 2 · Tisch 3: Anna, Ben, Cleo" in the kiosk's language."""
        return tr("Round {round} · Table {table}: {players}", round=self.assignment["round"], table=self.table,
                  players=", ".join(self.players))

    def _next(self) -> int | None:
        free = [i for i in range(len(self.players)) if i not in self.claimed.values()]
        return free[0] if free else None

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        gap = gap_of(v)
        title = contract.assignment_title(self.assignment, language()) or tr("Club night")
        if g.portrait:  # the title over the two buttons, both in the top tenth
            v.text(g.r(0.04, 0.005, 0.92, 0.05), title, size=1.1, color=ACCENT, tag="title")
            lang, other = g.r(0.04, 0.057, 0.44, 0.058), g.r(0.52, 0.057, 0.44, 0.058)
        else:
            v.text(g.r(0.04, 0.005, 0.47, 0.12), title, size=1.1, color=ACCENT, tag="title")  # two lines if long
            lang, other = g.r(0.52, 0.015, 0.19, 0.1), g.r(0.73, 0.015, 0.24, 0.1)
        v.button(lang, "English" if language() == "de" else "Deutsch", "lang", tag="lang", group="top")
        v.button(other, tr("Other game"), "other", tag="other", group="top")
        v.text(g.r(0.04, 0.13, 0.92, 0.12), self.headline(), size=1.0, tag="assignment")
        nxt = self._next()
        if self.error:
            line, color = self.error, BAD
        elif nxt is not None:
            line, color = tr("{name}: press your seat button.", name=self.players[nxt]), ACCENT
        else:
            line, color = tr("Everyone is seated. Start the game!"), GOOD
        v.text(g.r(0.04, 0.255, 0.92, 0.095), line, size=0.7, color=color, tag="call")
        self._seats(v, g, gap)
        start = g.r(0.5, 0.86, 0.47, 0.12)
        v.button(start, tr("Start"), "start", fill=GOOD if nxt is None else PANEL, tag="start")
        game = games.GAMES.get(self.assignment["game"])
        v.text(g.r(0.04, 0.86, 0.44, 0.12), game.title if game else self.assignment["game"], size=0.8, color=MUTED,
               tag="game")
        return v

    def _seats(self, v: View, g: Grid, gap: int) -> None:
        """One row per player in the seat order drawn: the name, the seat claimed, the dealer; touch to free it."""
        seat_of = {index: seat for seat, index in self.claimed.items()}
        dealer = self.assignment.get("dealer")
        area = g.r(0.04, 0.36, 0.93, 0.47)
        columns = 2 if len(self.players) > 4 and not g.portrait else 1
        per_col = -(-len(self.players) // columns)
        cells = [cell for col in cols(area, columns, gap * 2) for cell in rows(col, per_col, gap)]
        for i, cell in zip(range(len(self.players)), cells, strict=False):
            where = seat_name(self.app.seats, seat_of[i]) if i in seat_of else tr("no seat yet")
            mark = " · " + tr("Dealer") if self.players[i] == dealer else ""
            v.button(cell, f"{i + 1}. {self.players[i]} · {where}{mark}", f"free:{i}",
                     fill=GOOD if i in seat_of else PANEL, tag=f"player:{i}")

    def on_action(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        if kind == "lang":
            self.app.toggle_language()
        elif kind == "other":  # the table plays a game of its own; the assignment comes back with the menu
            self.app.show(MenuScreen(self.app))
        elif kind == "free":
            self.claimed = {s: i for s, i in self.claimed.items() if i != int(arg)}
            self.error = ""
        elif kind == "start":
            self.start()

    def on_input(self, item: Input) -> None:
        seat = getattr(item, "seat", None)
        nxt = self._next()
        if seat is None or seat in self.claimed or nxt is None:
            return
        self.claimed[seat] = nxt
        self.error = ""

    def start(self) -> None:
        if self._next() is not None:
            self.error = tr("Every player presses their own seat button first.")
            return
        header = contract.assignment_header(self.assignment)
        seat_players = {seat: self.players[i] for seat, i in self.claimed.items()}
        try:
            self.app.start_game(header["game"], header["players"], header.get("dealer"), header.get("options", {}),
                                seat_players, assignment=self.assignment)
        except HeaderError as error:
            self.error = error.message(self.app.lang)

    def model(self) -> dict[str, Any]:
        return {"screen": self.name, "evening": self.assignment["evening"], "round": self.assignment["round"],
                "players": list(self.players), "claimed": dict(self.claimed), "headline": self.headline()}


def pending(assignment: dict[str, Any] | None, log: EventLog | None) -> dict[str, Any] | None:
    """The café's assignment for this table (`assignment`, the link's), unless a game was already started from it."""
    if assignment is None or (log is not None and log.played_assignment(assignment)):
        return None
    return assignment


def offer(host: Host, screen: Screen, assignment: dict[str, Any] | None, table: str) -> Screen | None:
    """After café news or on the way to the menu, the screen to show for the café's `pending` assignment over
    `screen`: a new one over the menu (or demo), the menu for a cleared one, a replaced one's successor; None to
    leave the screen as it is. A game or a set-up in progress is never interrupted."""
    if isinstance(screen, AssignmentScreen):
        if assignment is None:
            return MenuScreen(host)
        if assignment != screen.assignment:
            return AssignmentScreen(host, assignment, screen.table)
        return None
    if assignment is not None and screen.name in SHOWN_OVER:
        return AssignmentScreen(host, assignment, table)
    return None
