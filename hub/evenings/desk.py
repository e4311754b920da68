"""A club night's desk: what staff do (create, check in, start and close rounds, accept or enter a result, end),
kept as a log of actions in the hub's data folder, and the evening's state folded from that log.

Why a log of actions: every staff action is kept (who did what, with the note), and
"undo" simply marks the last action undone — possible until the next round starts —
so the state is always a fold over what was done; nothing to repair. The results
come from the hub's own store: a game counts for a round when its `start` record
names the evening and round (`assignment`), it was played by the assigned players,
and it is verified (or staff accepted it, or entered the result themselves).
A restarted hub folds the same log again: nothing is lost, the round goes on.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cafe import contract
from hub.evenings.seating import Draw, draw_round, encounters
from hub.evenings.standings import Line, TableResult, standings
from referee import games as referee_games

SCHEMA = """
CREATE TABLE IF NOT EXISTS actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, evening TEXT NOT NULL, what TEXT NOT NULL,
    detail TEXT NOT NULL, at REAL NOT NULL, undone INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS actions_evening ON actions (evening, id);
"""
SEATINGS = ("mixing", "standings", "random")
GUESTS_PER_ADDRESS = 3  # guest check-ins one address may make per evening
UNDOABLE_AFTER_START = ("check_in", "remove", "drop", "accept", "enter", "replay", "close_round", "checkin")

Publish = Callable[[str, str, dict[str, Any] | None], None]  # (café, table, assignment or None to clear)


class DeskError(ValueError):
    """A staff action that does not fit the evening's state; the message says why (in English, for the log)."""


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
    scores: dict[str, Any] | None = None
    winners: list[str] = field(default_factory=list)
    note: str = ""
    assigned_at: str = ""
    accepted: list[str] = field(default_factory=list)  # game uids staff accepted as played
    void: list[str] = field(default_factory=list)  # game uids staff sent back to be played again

    @property
    def counts(self) -> bool:
        return self.state in ("verified", "accepted", "entered")


@dataclass
class Round:
    number: int
    tables: list[TableOutcome]
    byes: tuple[str, ...]
    closed: bool = False


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
    entrants: dict[str, Entrant] = field(default_factory=dict)
    played: list[Round] = field(default_factory=list)
    checkin_open: bool = True
    ended: bool = False
    actions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    def active(self, number: int) -> list[str]:
        """Who may be seated in round `number`: joined by then and not dropped out before it."""
        return [e.name for e in self.entrants.values()
                if e.joined <= number and (e.dropped is None or e.dropped > number)]

    def results(self) -> list[TableResult]:
        return [TableResult(r.number, t.players, t.scores or {}, tuple(t.winners))
                for r in self.played for t in r.tables if t.counts]

    def standings(self) -> list[Line]:
        byes = [name for r in self.played for name in r.byes]
        return standings(self.results(), byes, self.entrants, scoring=self.scoring)


class Desk:
    """The club nights of one hub: actions in `evenings.sqlite`, games read from the hub's store (read-only)."""

    def __init__(self, data_dir: Path, hub_db: Path, publish: Publish, clock: Callable[[], float] = time.time):
        self.path = Path(data_dir) / "evenings.sqlite"
        self.hub_db = hub_db
        self.publish = publish
        self.clock = clock
        self.lock = threading.RLock()
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)

    # ------------------------------------------------------------------ reading

    def ids(self) -> list[str]:
        return [row[0] for row in self.db.execute(
            "SELECT evening FROM actions WHERE what='create' AND undone=0 ORDER BY id DESC")]

    def evening(self, evening_id: str) -> Evening:
        """The evening folded from its actions, with each table's game looked up in the hub's store."""
        with self.lock:
            rows = self.db.execute("SELECT id, what, detail, at, undone FROM actions WHERE evening=? ORDER BY id",
                                   (evening_id,)).fetchall()
        live = [(i, what, json.loads(detail), at) for i, what, detail, at, undone in rows if not undone]
        if not live or live[0][1] != "create":
            raise KeyError(evening_id)
        evening = _created(evening_id, live[0][2])
        for action_id, what, detail, at in live[1:]:
            _apply(evening, what, detail)
            evening.actions.append({"id": action_id, "what": what, "detail": detail, "at": at})
        evening.actions.insert(0, {"id": live[0][0], "what": "create", "detail": live[0][2], "at": live[0][3]})
        self._games(evening)
        return evening

    def _games(self, evening: Evening) -> None:
        """Fill each table's state from the games whose start record names this evening and round."""
        if not self.hub_db.exists():
            return
        db = sqlite3.connect(f"file:{self.hub_db}?mode=ro", uri=True)
        try:
            rows = db.execute(
                "SELECT g.tbl, g.uid, g.players, g.status, g.checked, g.scores, g.winners, r.body, r.received "
                "FROM games g JOIN records r ON r.cafe=g.cafe AND r.tbl=g.tbl AND r.n=g.start_n "
                "WHERE g.cafe=? AND r.body LIKE ? ORDER BY g.start_n", (evening.cafe, f'%"{evening.id}"%')).fetchall()
        finally:
            db.close()
        for tbl, uid, players, status, checked, scores, winners, body, _received in rows:
            ref = json.loads(body).get("assignment") or {}
            if ref.get("evening") != evening.id or not 1 <= int(ref.get("round", 0)) <= len(evening.played):
                continue
            round_ = evening.played[int(ref["round"]) - 1]
            table = next((t for t in round_.tables if t.table == tbl), None)
            if table is None or table.state == "entered" or uid in table.void:
                continue
            if tuple(json.loads(players)) != table.players:
                continue  # not the assigned seats: not this round's game
            table.game_uid = uid
            table.scores = json.loads(scores) if scores else None
            table.winners = json.loads(winners) if winners else []
            if status == "playing":
                table.state = "playing"
            elif uid in table.accepted:
                table.state = "accepted"
            elif status == "abandoned":
                table.state = "abandoned"
            else:
                table.state = {"verified": "verified", "disputed": "disputed"}.get(checked, "playing")

    # ------------------------------------------------------------------ staff actions

    def _act(self, evening_id: str, what: str, detail: dict[str, Any]) -> int:
        with self.lock:
            cur = self.db.execute("INSERT INTO actions (evening, what, detail, at) VALUES (?, ?, ?, ?)",
                                  (evening_id, what, json.dumps(detail, ensure_ascii=False), self.clock()))
            return int(cur.lastrowid)

    def create(self, evening_id: str, *, cafe: str, game: str, rounds: int, tables: list[str],
               seating: str = "mixing", scoring: str = "places", options: dict[str, Any] | None = None,
               title: dict[str, str] | None = None) -> Evening:
        contract.check_id(evening_id, "evening")
        contract.check_id(cafe, "café")
        if evening_id in self.ids():
            raise DeskError(f"evening {evening_id!r} exists")
        if referee_games.get(game) is None:
            raise DeskError(f"no game {game!r}")
        if seating not in SEATINGS or scoring not in ("places", "score") or not 1 <= rounds <= 20:
            raise DeskError("seating, scoring or rounds out of range")
        tables = list(dict.fromkeys(contract.check_id(t, "table") for t in tables))
        if not tables:
            raise DeskError("name at least one table")
        self._act(evening_id, "create", {"cafe": cafe, "game": game, "options": dict(options or {}),
                                         "rounds": rounds, "tables": tables, "seating": seating,
                                         "scoring": scoring, "title": dict(title or {})})
        return self.evening(evening_id)

    def check_in(self, evening_id: str, name: str, via: str = "staff", address: str = "") -> Evening:
        evening = self._open(evening_id)
        name = " ".join(name.split())
        if not name or len(name) > 40:
            raise DeskError("a name of 1-40 characters")
        if name in evening.entrants:
            raise DeskError(f"{name} is checked in already")
        if via == "guest":
            if not evening.checkin_open:
                raise DeskError("check-in is closed")
            if sum(1 for e in evening.entrants.values() if e.address == address) >= GUESTS_PER_ADDRESS:
                raise DeskError("too many check-ins from this address")
        joined = len(evening.played) + 1  # a late arrival plays from the next round
        self._act(evening_id, "check_in", {"name": name, "joined": joined, "via": via, "address": address})
        return self.evening(evening_id)

    def remove(self, evening_id: str, name: str) -> Evening:
        evening = self._open(evening_id)
        if name not in evening.entrants:
            raise DeskError(f"{name} is not checked in")
        if any(name in t.players or name in r.byes for r in evening.played for t in r.tables):
            raise DeskError(f"{name} has played: let them drop out instead")
        self._act(evening_id, "remove", {"name": name})
        return self.evening(evening_id)

    def drop(self, evening_id: str, name: str) -> Evening:
        evening = self._open(evening_id)
        if name not in evening.entrants or evening.entrants[name].dropped is not None:
            raise DeskError(f"{name} is not playing")
        self._act(evening_id, "drop", {"name": name, "from": len(evening.played) + 1})
        return self.evening(evening_id)

    def set_checkin(self, evening_id: str, open_: bool) -> Evening:
        self._open(evening_id)
        self._act(evening_id, "checkin", {"open": bool(open_)})
        return self.evening(evening_id)

    def start_round(self, evening_id: str, seed: int | None = None) -> Evening:
        evening = self._open(evening_id)
        number = len(evening.played) + 1
        if evening.current is not None and not evening.current.closed:
            raise DeskError("close the round first")
        if number > evening.rounds:
            raise DeskError("every round has been played")
        seed = random.SystemRandom().randrange(2**32) if seed is None else seed
        draw = self._draw(evening, number, random.Random(seed))
        if not draw.tables:
            raise DeskError("not enough players for a table")
        at = contract.now_iso()
        tables = [{"table": table, "players": list(seat.players), "dealer": seat.dealer}
                  for table, seat in zip(evening.tables, draw.tables, strict=False)]
        self._act(evening_id, "start_round", {"number": number, "seed": seed, "tables": tables,
                                              "byes": list(draw.byes), "at": at})
        evening = self.evening(evening_id)
        for table in evening.played[-1].tables:
            self.publish(evening.cafe, table.table, self.assignment(evening, number, table))
        return evening

    def _draw(self, evening: Evening, number: int, rng: random.Random) -> Draw:
        counts = referee_games.get(evening.game).player_counts
        points = {line.player: float(line.points) for line in evening.standings()}
        met = encounters([[t.players for t in r.tables] for r in evening.played])
        byes_had: dict[str, int] = {}
        for r in evening.played:
            for name in r.byes:
                byes_had[name] = byes_had.get(name, 0) + 1
        method = "random" if number == 1 else evening.seating
        return draw_round(evening.active(number), counts, method=method, rng=rng, points=points, met=met,
                          byes_had=byes_had, max_tables=len(evening.tables))

    def assignment(self, evening: Evening, number: int, table: TableOutcome) -> dict[str, Any]:
        title = {lang: evening.title.get(lang) or evening.title.get("de") or evening.title.get("en") or evening.id
                 for lang in contract.LANGUAGES}
        return contract.assign_payload(evening.id, number, evening.game, list(table.players),
                                       options=evening.options, dealer=table.dealer, title=title,
                                       at=table.assigned_at or None)

    def close_round(self, evening_id: str) -> Evening:
        evening = self._open(evening_id)
        current = evening.current
        if current is None or current.closed:
            raise DeskError("no round in play")
        self._act(evening_id, "close_round", {"number": current.number})
        for table in current.tables:
            self.publish(evening.cafe, table.table, None)
        return self.evening(evening_id)

    def _table(self, evening: Evening, number: int, table: str) -> TableOutcome:
        if not 1 <= number <= len(evening.played):
            raise DeskError(f"no round {number}")
        found = next((t for t in evening.played[number - 1].tables if t.table == table), None)
        if found is None:
            raise DeskError(f"no table {table} in round {number}")
        return found

    def accept(self, evening_id: str, number: int, table: str, note: str = "") -> Evening:
        """A disputed or abandoned game counts as it was played (its end record's scores)."""
        evening = self._open(evening_id)
        outcome = self._table(evening, number, table)
        if outcome.state not in ("disputed", "abandoned") or outcome.game_uid is None:
            raise DeskError("only a disputed or abandoned game is accepted")
        self._act(evening_id, "accept", {"round": number, "table": table, "game_uid": outcome.game_uid,
                                         "note": note})
        return self.evening(evening_id)

    def enter(self, evening_id: str, number: int, table: str, places: dict[str, int], note: str) -> Evening:
        """Staff enter a table's result themselves, as places (1 the best; ties allowed), kept with the note and
        shown as entered by staff. The game's score for tie-breaks is then the number of players beaten."""
        evening = self._open(evening_id)
        outcome = self._table(evening, number, table)
        size = len(outcome.players)
        if set(places) != set(outcome.players) or not all(1 <= v <= size for v in places.values()) \
                or not note.strip():
            raise DeskError("a place for every player of the table, and a note")
        scores = {p: sum(1 for q in places.values() if q > v) for p, v in places.items()}
        winners = [p for p, v in places.items() if v == min(places.values())]
        self._act(evening_id, "enter", {"round": number, "table": table, "scores": scores, "winners": winners,
                                        "places": places, "note": note.strip()})
        return self.evening(evening_id)

    def replay(self, evening_id: str, number: int, table: str, note: str = "") -> Evening:
        """The table plays its game of the round again: the old game no longer counts, the assignment goes out
        anew (a new `at`, so the table offers it again)."""
        evening = self._open(evening_id)
        outcome = self._table(evening, number, table)
        if number != len(evening.played):
            raise DeskError("only a table of the current round plays again")
        at = contract.now_iso()
        self._act(evening_id, "replay", {"round": number, "table": table, "game_uid": outcome.game_uid,
                                         "at": at, "note": note})
        evening = self.evening(evening_id)
        self.publish(evening.cafe, table, self.assignment(evening, number, self._table(evening, number, table)))
        return evening

    def end(self, evening_id: str) -> Evening:
        evening = self._open(evening_id)
        if evening.current is not None and not evening.current.closed:
            self.close_round(evening_id)
        self._act(evening_id, "end", {})
        return self.evening(evening_id)

    def undo(self, evening_id: str) -> dict[str, Any]:
        """Take back the last action, as long as no round started after it (a round's start is final)."""
        evening = self.evening(evening_id)
        last = evening.actions[-1]
        if last["what"] not in (*UNDOABLE_AFTER_START, "end"):
            raise DeskError("nothing to take back since the round started")
        with self.lock:
            self.db.execute("UPDATE actions SET undone=1 WHERE id=?", (last["id"],))
        after = self.evening(evening_id)
        current = after.current
        if last["what"] == "close_round" and current is not None:  # the round is open again: its assignments too
            for table in current.tables:
                if not table.counts:
                    self.publish(after.cafe, table.table, self.assignment(after, current.number, table))
        return last

    def _open(self, evening_id: str) -> Evening:
        evening = self.evening(evening_id)
        if evening.ended:
            raise DeskError("the evening has ended")
        return evening

    # ------------------------------------------------------------------ news from the tables

    def on_news(self, news: dict[str, Any]) -> None:
        """The writer thread's news: a game of the current round ended at a table, so its assignment is cleared."""
        if news.get("type") != "record" or news.get("kind") != "end":
            return
        with self.lock:
            ended = {row[0] for row in self.db.execute("SELECT evening FROM actions WHERE what='end' AND undone=0")}
        for evening_id in (i for i in self.ids() if i not in ended):  # months of evenings: only the open ones
            try:
                evening = self.evening(evening_id)
            except KeyError:
                continue
            current = evening.current
            if evening.ended or current is None or current.closed or news.get("cafe") != evening.cafe:
                continue
            for table in current.tables:
                if table.table == news.get("table") and table.game_uid == news.get("game_uid"):
                    self.publish(evening.cafe, table.table, None)


def _created(evening_id: str, detail: dict[str, Any]) -> Evening:
    return Evening(evening_id, detail["cafe"], detail["game"], detail["options"], detail["rounds"], detail["tables"],
                   detail["seating"], detail["scoring"], detail["title"])


def _apply(evening: Evening, what: str, d: dict[str, Any]) -> None:
    """One action onto the evening's state (the fold)."""
    if what == "check_in":
        evening.entrants[d["name"]] = Entrant(d["name"], d["joined"], None, d["via"], d["address"])
    elif what == "remove":
        evening.entrants.pop(d["name"], None)
    elif what == "drop":
        evening.entrants[d["name"]].dropped = d["from"]
    elif what == "checkin":
        evening.checkin_open = d["open"]
    elif what == "start_round":
        tables = [TableOutcome(t["table"], tuple(t["players"]), t["dealer"], assigned_at=d["at"]) for t in d["tables"]]
        evening.played.append(Round(d["number"], tables, tuple(d["byes"])))
    elif what == "close_round":
        evening.played[d["number"] - 1].closed = True
    elif what in ("accept", "enter", "replay"):
        table = next(t for t in evening.played[d["round"] - 1].tables if t.table == d["table"])
        if what == "accept":
            table.accepted.append(d["game_uid"])
            table.note = d.get("note", "")
        elif what == "enter":
            table.state, table.scores, table.winners, table.note = "entered", d["scores"], d["winners"], d["note"]
        else:
            if d.get("game_uid"):
                table.void.append(d["game_uid"])
            table.state, table.game_uid, table.scores, table.winners = "waiting", None, None, []
            table.assigned_at, table.note = d["at"], d.get("note", "")
    elif what == "end":
        evening.ended = True
