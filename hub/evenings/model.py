"""A club night as data: its settings, entrants, rounds and each table's outcome, folded from the desk's log of
staff actions (`hub.evenings.desk`). Pure: no storage, no network.

Why a fold: every staff action is kept (who did what, with the note) and "undo" marks the last one undone, so
the state is always what the actions not undone make of it; a restarted hub folds the same log again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hub.evenings.standings import Line, TableResult, standings

COUNTED = ("verified", "accepted", "entered")


@dataclass
class Entrant:
    name: str
    joined: int  # the first round they can be seated in
    dropped: int | None = None  # the first round they are no longer seated in
    via: str = "staff"
    address: str = ""


@dataclass
class TableOutcome:
    """One table of a round: the seats drawn and what became of its game."""

    table: str
    players: tuple[str, ...]
    dealer: str
    state: str = "waiting"  # waiting | playing | verified | disputed | abandoned | accepted | entered
    game_uid: str | None = None
    ended: bool = False  # the game's end record arrived
    scores: dict[str, Any] | None = None
    winners: list[str] = field(default_factory=list)
    note: str = ""
    assigned_at: str = ""
    kind: str | None = None  # what the game ranks by (`referee.ranking`), from the hub's replay
    ranked: dict[str, int] | None = None  # each player's number it ranks by (tasks, points …)
    accepted: list[str] = field(default_factory=list)  # game uids staff accepted as played
    void: list[str] = field(default_factory=list)  # game uids staff sent back to be played again

    @property
    def counts(self) -> bool:
        return self.state in COUNTED

    @property
    def started(self) -> bool:
        """A game of this round began here (or staff settled the table): the round's seats are final."""
        return self.game_uid is not None or self.counts


@dataclass
class Round:
    number: int
    tables: list[TableOutcome]
    byes: tuple[str, ...]
    closed: bool = False
    seed: int = 0

    @property
    def started(self) -> bool:
        return any(t.started for t in self.tables)


@dataclass
class Evening:
    id: str
    cafe: str
    game: str
    options: dict[str, Any]
    rounds: int
    tables: list[str]
    seating: str
    scoring: str
    title: dict[str, str]
    created: float = 0.0
    entrants: dict[str, Entrant] = field(default_factory=dict)
    played: list[Round] = field(default_factory=list)
    checkin_open: bool = True
    ended: bool = False
    deleted: bool = False
    actions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    @property
    def round_open(self) -> bool:
        return self.current is not None and not self.current.closed

    def active(self, number: int) -> list[str]:
        """Who may be seated in round `number`: joined by then and not dropped out before it."""
        return [e.name for e in self.entrants.values()
                if e.joined <= number and (e.dropped is None or e.dropped > number)]

    def playing(self) -> list[Entrant]:
        """The entrants still in the evening (not dropped out)."""
        return [e for e in self.entrants.values() if e.dropped is None]

    def has_played(self, name: str) -> bool:
        return any(name in t.players or name in r.byes for r in self.played for t in r.tables)

    def results(self) -> list[TableResult]:
        return [TableResult(r.number, t.players, t.scores or {}, tuple(t.winners), t.kind, t.ranked)
                for r in self.played for t in r.tables if t.counts]

    def standings(self) -> list[Line]:
        byes = [name for r in self.played for name in r.byes]
        return standings(self.results(), byes, self.entrants, scoring=self.scoring)

    def any_result(self) -> bool:
        return any(t.counts or t.ended for r in self.played for t in r.tables)

    def title_in(self, lang: str) -> str:
        return self.title.get(lang) or self.title.get("de") or self.title.get("en") or self.id


SETTINGS = ("game", "options", "rounds", "tables", "seating", "scoring", "title")


def created(evening_id: str, detail: dict[str, Any], at: float) -> Evening:
    return Evening(evening_id, detail["cafe"], detail["game"], detail["options"], detail["rounds"],
                   detail["tables"], detail["seating"], detail["scoring"], detail["title"], created=at)


def apply(evening: Evening, what: str, d: dict[str, Any]) -> None:
    """One action onto the evening's state (the fold)."""
    if what in ("check_in", "remove", "drop", "back", "checkin"):
        _entrants(evening, what, d)
    elif what in ("start_round", "redraw"):
        _seats(evening, what, d)
    elif what == "close_round":
        evening.played[d["number"] - 1].closed = True
    elif what in ("accept", "enter", "replay"):
        _settle(evening, what, d)
    elif what == "edit":
        for key in SETTINGS:
            if key in d:
                setattr(evening, key, d[key])
    elif what == "end":
        evening.ended = True
    elif what == "delete":
        evening.deleted = True


def _entrants(evening: Evening, what: str, d: dict[str, Any]) -> None:
    if what == "check_in":
        evening.entrants[d["name"]] = Entrant(d["name"], d["joined"], None, d["via"], d["address"])
    elif what == "remove":
        evening.entrants.pop(d["name"], None)
    elif what == "drop":
        evening.entrants[d["name"]].dropped = d["from"]
    elif what == "back":
        entrant = evening.entrants[d["name"]]
        entrant.dropped = None
        entrant.joined = max(entrant.joined, d["from"])
    else:
        evening.checkin_open = d["open"]


def _seats(evening: Evening, what: str, d: dict[str, Any]) -> None:
    """A round's seats: drawn at its start, or drawn again before its first game (those seated now play it,
    whenever they checked in; those dropped out since are not seated)."""
    tables = [TableOutcome(t["table"], tuple(t["players"]), t["dealer"], assigned_at=d["at"]) for t in d["tables"]]
    drawn = Round(d["number"], tables, tuple(d["byes"]), seed=d.get("seed", 0))
    if what == "start_round":
        evening.played.append(drawn)
        return
    evening.played[d["number"] - 1] = drawn
    seated = {p for t in tables for p in t.players} | set(drawn.byes)
    for entrant in evening.entrants.values():
        if entrant.name in seated:
            entrant.joined = min(entrant.joined, d["number"])
        elif entrant.dropped == d["number"] + 1:
            entrant.dropped = d["number"]


def _settle(evening: Evening, what: str, d: dict[str, Any]) -> None:
    table = next(t for t in evening.played[d["round"] - 1].tables if t.table == d["table"])
    if what == "accept":
        table.accepted.append(d["game_uid"])
        table.note = d.get("note", "")
    elif what == "enter":
        table.state, table.scores, table.winners, table.note = "entered", d["scores"], d["winners"], d["note"]
        table.kind, table.ranked = None, None  # places by hand: the tie-break score is the players beaten
    else:
        if d.get("game_uid"):
            table.void.append(d["game_uid"])
        table.state, table.game_uid, table.scores, table.winners, table.ended = "waiting", None, None, [], False
        table.kind, table.ranked = None, None
        table.assigned_at, table.note = d["at"], d.get("note", "")
