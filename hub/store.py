"""The hub's SQLite store: every log record once by (café, table, n), the games they make, the tables' statuses.

WAL with synchronous FULL, like the kiosk's log: a batch is acknowledged to the
broker only after its commit returned, so a kill of the hub at any instant loses
nothing the broker let go of. One writer (the ingest thread); readers (the web
pages) open their own connections, which WAL lets run beside the writer.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hub.identities import guests_of

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    cafe TEXT NOT NULL, tbl TEXT NOT NULL, n INTEGER NOT NULL,
    game_uid TEXT, kind TEXT NOT NULL, ok INTEGER,          -- ok: an event's answer (NULL for start/end)
    body TEXT NOT NULL, at TEXT, received REAL NOT NULL,
    PRIMARY KEY (cafe, tbl, n)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_game ON records (game_uid, n);
CREATE INDEX IF NOT EXISTS records_rejected ON records (cafe, tbl, ok) WHERE ok = 0;
CREATE TABLE IF NOT EXISTS games (
    uid TEXT NOT NULL, cafe TEXT NOT NULL, tbl TEXT NOT NULL, game TEXT NOT NULL,
    players TEXT NOT NULL, start_n INTEGER NOT NULL, end_n INTEGER,
    status TEXT NOT NULL DEFAULT 'playing',                -- playing | finished | abandoned
    checked TEXT NOT NULL DEFAULT 'pending',               -- pending | verified | disputed
    dispute TEXT, scores TEXT, winners TEXT,
    started_at TEXT, ended_at TEXT, ended REAL,
    guests TEXT NOT NULL DEFAULT '[]',                     -- players with a seat's default name (hub.identities)
    PRIMARY KEY (cafe, tbl, uid)
);
CREATE INDEX IF NOT EXISTS games_uid ON games (uid);
CREATE INDEX IF NOT EXISTS games_ended ON games (ended);
CREATE TABLE IF NOT EXISTS tables (
    cafe TEXT NOT NULL, tbl TEXT NOT NULL, status TEXT NOT NULL, online INTEGER NOT NULL, seen REAL NOT NULL,
    PRIMARY KEY (cafe, tbl)
);
CREATE TABLE IF NOT EXISTS aliases (alias TEXT PRIMARY KEY, name TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS alias_log (                    -- every merge and its undo, for the record
    at REAL NOT NULL, action TEXT NOT NULL, alias TEXT NOT NULL, name TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class Record:
    """One log record as received: `body` is the payload (a dict, `v` and `table` included)."""

    cafe: str
    table: str
    body: dict[str, Any]
    received: float

    @property
    def n(self) -> int:
        return int(self.body["n"])

    @property
    def kind(self) -> str:
        return str(self.body["kind"])

    @property
    def game_uid(self) -> str:
        return str(self.body.get("game_uid"))


@dataclass(frozen=True, slots=True)
class Status:
    """A table's retained status (or its last will) as received."""

    cafe: str
    table: str
    body: dict[str, Any]
    received: float


def connect(path: Path | str, readonly: bool = False) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    if readonly:
        db.execute("PRAGMA query_only=ON")
    return db


class Store:
    """The writer's side; `Reader` is the web's."""

    def __init__(self, path: Path | str, checkpoint_every_s: float = 5.0):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = connect(self.path)
        self.db.executescript(SCHEMA)
        self._add_guests()
        # Checkpoints copy the WAL into the database file and sync it: off the writer's commits (which would
        # otherwise now and then pay for one), on a thread of their own that never blocks a writer (PASSIVE).
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoints, args=(checkpoint_every_s,),
                                              name="hub-checkpoint", daemon=True)
        self._checkpointer.start()

    def _add_guests(self) -> None:
        """A store from before #35 gets its games' guests, from their start records."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
        if "guests" in columns:
            return
        with self.transaction() as db:
            db.execute("ALTER TABLE games ADD COLUMN guests TEXT NOT NULL DEFAULT '[]'")
            rows = db.execute("SELECT g.rowid, r.body FROM games g JOIN records r ON r.cafe=g.cafe AND r.tbl=g.tbl "
                              "AND r.n=g.start_n").fetchall()
            for rowid, body in rows:
                db.execute("UPDATE games SET guests=? WHERE rowid=?",
                           (json.dumps(guests_of(json.loads(body)), ensure_ascii=False), rowid))

    def _checkpoints(self, every_s: float) -> None:
        db = connect(self.path)
        try:
            while not self._stop.wait(every_s):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join(timeout=5)
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT: the commit returns once the WAL is on disk (synchronous=FULL)."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    # ------------------------------------------------------------------ writing

    def write(self, records: Sequence[Record], statuses: Sequence[Status] = ()) -> tuple[list[Record], list[dict]]:
        """Store every record not stored yet and the statuses, in one transaction (one sync to disk).

        Returns the new records (duplicates dropped) and each status as kept (a last will keeps the
        table's last known game)."""
        new: list[Record] = []
        kept: list[dict[str, Any]] = []
        with self.transaction() as db:
            for record in records:
                body = record.body
                answer = body.get("answer")
                ok = int(bool(answer.get("ok"))) if record.kind == "event" and isinstance(answer, dict) else None
                cur = db.execute(
                    "INSERT OR IGNORE INTO records (cafe, tbl, n, game_uid, kind, ok, body, at, received) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (record.cafe, record.table, record.n, body.get("game_uid"), record.kind, ok,
                     json.dumps(body, ensure_ascii=False), body.get("at"), record.received))
                if cur.rowcount:
                    new.append(record)
                    self._game_row(db, record)
            for status in statuses:
                kept.append(self._status_row(db, status))
        return new, kept

    def add(self, records: Sequence[Record]) -> list[Record]:
        return self.write(records)[0]

    @staticmethod
    def _status_row(db: sqlite3.Connection, status: Status) -> dict[str, Any]:
        row = db.execute("SELECT status FROM tables WHERE cafe=? AND tbl=?", (status.cafe, status.table)).fetchone()
        merged = dict(json.loads(row[0])) if row and status.body.get("online") is False else {}
        merged.update(status.body)
        db.execute("INSERT INTO tables (cafe, tbl, status, online, seen) VALUES (?, ?, ?, ?, ?) "
                   "ON CONFLICT DO UPDATE SET status=excluded.status, online=excluded.online, seen=excluded.seen",
                   (status.cafe, status.table, json.dumps(merged, ensure_ascii=False),
                    int(bool(merged.get("online"))), status.received))
        return merged

    @staticmethod
    def _game_row(db: sqlite3.Connection, record: Record) -> None:
        body = record.body
        if record.kind == "start":
            header = body.get("header") or {}
            db.execute(
                "INSERT INTO games (uid, cafe, tbl, game, players, start_n, started_at, guests) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT DO UPDATE SET game=excluded.game, players=excluded.players, start_n=excluded.start_n, "
                "started_at=excluded.started_at, guests=excluded.guests",
                (record.game_uid, record.cafe, record.table, str(header.get("game", "?")),
                 json.dumps(header.get("players", []), ensure_ascii=False), record.n, body.get("at"),
                 json.dumps(guests_of(body), ensure_ascii=False)))
        elif record.kind == "end":
            # An end may arrive before its start (a replay fills the gap): the start's values come later. After an
            # undo at the end the table finishes the game again with another end record: the last one counts.
            db.execute(
                "INSERT INTO games (uid, cafe, tbl, game, players, start_n, status, end_n, scores, winners, ended_at, "
                "ended) VALUES (?, ?, ?, '?', '[]', 0, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET "
                "status=excluded.status, end_n=excluded.end_n, scores=excluded.scores, winners=excluded.winners, "
                "ended_at=excluded.ended_at, ended=excluded.ended "
                "WHERE games.end_n IS NULL OR games.end_n < excluded.end_n",
                (record.game_uid, record.cafe, record.table, str(body.get("status")), record.n,
                 json.dumps(body.get("scores", {}), ensure_ascii=False),
                 json.dumps(body.get("winners", []), ensure_ascii=False), body.get("at"), record.received))

    def checked(self, cafe: str, table: str, uid: str) -> str | None:
        row = self.db.execute("SELECT checked FROM games WHERE cafe=? AND tbl=? AND uid=?",
                              (cafe, table, uid)).fetchone()
        return row[0] if row else None

    def set_checked(self, cafe: str, table: str, uid: str, checked: str, dispute: Mapping[str, Any] | None) -> None:
        with self.transaction() as db:
            db.execute("UPDATE games SET checked=?, dispute=? WHERE cafe=? AND tbl=? AND uid=?",
                       (checked, json.dumps(dispute) if dispute else None, cafe, table, uid))

    def merge_player(self, alias: str, name: str, at: float) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO aliases (alias, name, at) VALUES (?, ?, ?) "
                       "ON CONFLICT DO UPDATE SET name=excluded.name, at=excluded.at", (alias, name, at))
            db.execute("INSERT INTO alias_log VALUES (?, 'merge', ?, ?)", (at, alias, name))

    def unmerge_player(self, alias: str, at: float) -> str | None:
        """Undo a merge: `alias` counts on its own again. The name it was merged into, or None if it was not."""
        with self.transaction() as db:
            row = db.execute("SELECT name FROM aliases WHERE alias=?", (alias,)).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM aliases WHERE alias=?", (alias,))
            db.execute("INSERT INTO alias_log VALUES (?, 'undo', ?, ?)", (at, alias, row[0]))
        return str(row[0])

    # ------------------------------------------------------------------ what the writer reads

    def numbers(self) -> Iterator[tuple[str, str, int]]:
        """Every stored (café, table, n), in order: the gap tracker starts from these."""
        yield from self.db.execute("SELECT cafe, tbl, n FROM records ORDER BY cafe, tbl, n")

    def game_records(self, cafe: str, table: str, uid: str) -> tuple[dict | None, list[dict], dict | None, bool]:
        """(start, events, end, complete): complete when no n between start and the last end is missing.

        The events are every event record of the game, also those after an end that an undo reopened."""
        rows = self.db.execute("SELECT body FROM records WHERE cafe=? AND tbl=? AND game_uid=? ORDER BY n",
                               (cafe, table, uid)).fetchall()
        bodies = [json.loads(b) for (b,) in rows]
        start = next((b for b in bodies if b.get("kind") == "start"), None)
        end = next((b for b in reversed(bodies) if b.get("kind") == "end"), None)  # the last end counts
        events = [b for b in bodies if b.get("kind") == "event"]
        complete = False
        if start is not None and end is not None:
            (count,) = self.db.execute("SELECT COUNT(*) FROM records WHERE cafe=? AND tbl=? AND n BETWEEN ? AND ?",
                                       (cafe, table, start["n"], end["n"])).fetchone()
            complete = count == end["n"] - start["n"] + 1
        return start, events, end, complete

    def aliases(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT alias, name FROM aliases"))

    def verified_results(self) -> Iterable[tuple[str, list[str], dict[str, Any], list[str], list[str]]]:
        """(game, players, scores, winners, guests) of every verified finished game, in the order they ended."""
        rows = self.db.execute("SELECT game, players, scores, winners, guests FROM games "
                               "WHERE checked='verified' AND status='finished' ORDER BY ended, uid")
        for game, players, scores, winners, guests in rows:
            yield (game, json.loads(players), json.loads(scores or "{}"), json.loads(winners or "[]"),
                   json.loads(guests or "[]"))

    def unchecked(self, cafe: str | None = None, table: str | None = None) -> list[tuple[str, str, str]]:
        """(café, table, uid) of the ended games not verified yet (their records may be complete now)."""
        sql = "SELECT cafe, tbl, uid FROM games WHERE end_n IS NOT NULL AND checked='pending'"
        args: tuple = ()
        if cafe is not None:
            sql += " AND cafe=? AND tbl=?"
            args = (cafe, table)
        return [tuple(r) for r in self.db.execute(sql, args)]  # type: ignore[misc]
