"""The hub's SQLite store: each table's signed chain of records, what waits beside it, the games, the statuses.

WAL with synchronous FULL, like the kiosk's log: a batch is acknowledged to the
broker only after its commit returned, so a kill of the hub at any instant loses
nothing the broker let go of. One writer (the ingest thread); readers (the web
pages) open their own connections, which WAL lets run beside the writer.

What is stored is decided in `hub.admission` (signature, chain); here are the tables and their rows:
- `records`: a table's records by (café, table, chain, n); `h` NULL marks a record stored before records were
  signed (kept readable, shown as unsigned; see `_migrate`). A table has one chain per log: a new log (a new SD
  card) is a new chain, the old one stays as it was.
- `held`: records waiting — for the staff to accept their table's key, or for a gap before them to be filled.
- `conflicts`: records that would have replaced one stored (never done), kept aside with their receive time.
- `drops`: records that failed a check, counted per table and reason, the latest kept as a sample.
- `games`: one row per game, written only from its facts as replayed through the referee (`hub.facts`).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hub.ratings import Result

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    cafe TEXT NOT NULL, tbl TEXT NOT NULL, chain INTEGER NOT NULL DEFAULT 0, n INTEGER NOT NULL,
    game_uid TEXT, kind TEXT NOT NULL, ok INTEGER,          -- ok: an event's answer (NULL for start/end)
    body TEXT NOT NULL, at TEXT, received REAL NOT NULL,
    h TEXT,                                                -- the record's hash, NULL: stored before signing
    PRIMARY KEY (cafe, tbl, chain, n)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_game ON records (game_uid, n);
CREATE INDEX IF NOT EXISTS records_rejected ON records (cafe, tbl, ok) WHERE ok = 0;
CREATE TABLE IF NOT EXISTS games (
    uid TEXT NOT NULL, cafe TEXT NOT NULL, tbl TEXT NOT NULL, game TEXT NOT NULL,
    players TEXT NOT NULL, start_n INTEGER NOT NULL, end_n INTEGER,
    status TEXT NOT NULL DEFAULT 'playing',                -- playing | finished | abandoned (by the replay)
    checked TEXT NOT NULL DEFAULT 'pending',               -- pending | verified | disputed
    dispute TEXT, scores TEXT, winners TEXT,
    started_at TEXT, ended_at TEXT, ended REAL,
    chain INTEGER NOT NULL DEFAULT 0,
    signed INTEGER NOT NULL DEFAULT 1,                     -- 0: its records were stored before signing
    guests TEXT NOT NULL DEFAULT '[]',                     -- players with a seat's default name (hub.identities)
    kind TEXT, ranked TEXT,                                -- what it ranks by, each player's number (referee.ranking)
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
CREATE TABLE IF NOT EXISTS table_keys (                   -- every key a table showed, and what the staff said
    cafe TEXT NOT NULL, tbl TEXT NOT NULL, key TEXT NOT NULL,
    state TEXT NOT NULL,                                   -- waiting | accepted | refused | retired
    chain INTEGER,                                         -- the chain its records extend (NULL: not known yet)
    first_seen REAL NOT NULL, last_seen REAL NOT NULL, decided REAL,
    PRIMARY KEY (cafe, tbl, key)
);
CREATE TABLE IF NOT EXISTS held (                         -- waiting for the staff (pairing) or for a gap (gap)
    cafe TEXT NOT NULL, tbl TEXT NOT NULL, n INTEGER NOT NULL, h TEXT NOT NULL,
    reason TEXT NOT NULL, body TEXT NOT NULL, received REAL NOT NULL,
    PRIMARY KEY (cafe, tbl, n, h)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS conflicts (                    -- never replaced what is stored: kept aside
    cafe TEXT NOT NULL, tbl TEXT NOT NULL, chain INTEGER NOT NULL, n INTEGER NOT NULL, h TEXT,
    kind TEXT NOT NULL,                                    -- same-n | second-start | legacy
    body TEXT NOT NULL, received REAL NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS conflicts_once ON conflicts (cafe, tbl, chain, n, h, kind);
CREATE TABLE IF NOT EXISTS drops (                        -- failed a check: counted, the latest kept
    cafe TEXT NOT NULL, tbl TEXT NOT NULL, reason TEXT NOT NULL, count INTEGER NOT NULL,
    first REAL NOT NULL, last REAL NOT NULL, sample TEXT,
    PRIMARY KEY (cafe, tbl, reason)
);
"""

MAX_SAMPLE = 2000  # characters of a dropped record kept for the staff


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

    @property
    def h(self) -> str | None:
        return self.body.get("h")


@dataclass(frozen=True, slots=True)
class Status:
    """A table's retained status (or its last will) as received."""

    cafe: str
    table: str
    body: dict[str, Any]
    received: float


@dataclass(frozen=True, slots=True)
class Stored:
    """A record as the store holds it at (café, table, chain, n)."""

    h: str | None
    body: dict[str, Any]


def connect(path: Path | str, readonly: bool = False) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    if readonly:
        db.execute("PRAGMA query_only=ON")
    return db


def _text(body: dict[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False)


class MergeRefused(ValueError):
    """A merge that would make a cycle of spellings or merge a spelling twice."""


class Store:
    """The writer's side; `Reader` is the web's."""

    def __init__(self, path: Path | str, checkpoint_every_s: float = 5.0):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = connect(self.path)
        self.lock = threading.Lock()
        self.migrated = self._migrate()
        # Checkpoints copy the WAL into the database file and sync it: off the writer's commits (which would
        # otherwise now and then pay for one), on a thread of their own that never blocks a writer (PASSIVE).
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(target=self._checkpoints, args=(checkpoint_every_s,),
                                              name="hub-checkpoint", daemon=True)
        self._checkpointer.start()

    def _migrate(self) -> bool:
        """Bring a store of an earlier hub to this schema, in one transaction; True when its records were stored
        before records were signed. Those stay as they were (chain 0, `h` NULL: shown as unsigned); their games
        are derived again from their records (`hub.facts`) on this start, and no unsigned record gets in any
        more. Should the table's signed chain bring the same records, they are confirmed (`hub.admission`)."""
        with self.transaction() as db:
            columns = {row[1] for row in db.execute("PRAGMA table_info(records)")}
            legacy = bool(columns) and "h" not in columns
            if legacy:
                db.execute("ALTER TABLE records RENAME TO records_before_signing")
                db.execute("DROP INDEX IF EXISTS records_game")
                db.execute("DROP INDEX IF EXISTS records_rejected")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self._create(db, statement)
            if legacy:
                db.execute("INSERT INTO records (cafe, tbl, chain, n, game_uid, kind, ok, body, at, received, h) "
                           "SELECT cafe, tbl, 0, n, game_uid, kind, ok, body, at, received, NULL "
                           "FROM records_before_signing")
                db.execute("DROP TABLE records_before_signing")
                db.execute("UPDATE games SET signed=0, checked='pending'")
        return legacy

    @staticmethod
    def _create(db: sqlite3.Connection, statement: str) -> None:
        """One statement of the schema; the games of an earlier hub get the columns they lack."""
        db.execute(statement)
        if "CREATE TABLE IF NOT EXISTS games" in statement:
            columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
            for column, kind in (("chain", "INTEGER NOT NULL DEFAULT 0"), ("signed", "INTEGER NOT NULL DEFAULT 1"),
                                 ("guests", "TEXT NOT NULL DEFAULT '[]'"), ("kind", "TEXT"), ("ranked", "TEXT")):
                if column not in columns:
                    db.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")

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

    # ------------------------------------------------------------------ records (inside the writer's transaction)

    @staticmethod
    def stored(db: sqlite3.Connection, cafe: str, table: str, chain: int, n: int) -> Stored | None:
        row = db.execute("SELECT h, body FROM records WHERE cafe=? AND tbl=? AND chain=? AND n=?",
                         (cafe, table, chain, n)).fetchone()
        return None if row is None else Stored(row[0], json.loads(row[1]))

    @staticmethod
    def insert(db: sqlite3.Connection, record: Record, chain: int, replace: bool = False) -> None:
        """Store a record that passed every check (`replace`: in the place of an unsigned one, set aside first)."""
        body = record.body
        answer = body.get("answer")
        ok = int(bool(answer.get("ok"))) if record.kind == "event" and isinstance(answer, dict) else None
        db.execute(f"INSERT {'OR REPLACE ' if replace else ''}INTO records "
                   "(cafe, tbl, chain, n, game_uid, kind, ok, body, at, received, h) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (record.cafe, record.table, chain, record.n, body.get("game_uid"), record.kind, ok, _text(body),
                    body.get("at"), record.received, record.h))

    @staticmethod
    def tip(db: sqlite3.Connection, cafe: str, table: str, chain: int) -> tuple[int, str | None]:
        """The chain's last signed record, (n, h), or (0, None): signed records are stored only in order, so the
        chain holds 1 … n, none missing."""
        row = db.execute("SELECT n, h FROM records WHERE cafe=? AND tbl=? AND chain=? AND h IS NOT NULL "
                         "ORDER BY n DESC LIMIT 1", (cafe, table, chain)).fetchone()
        return (0, None) if row is None else (int(row[0]), str(row[1]))

    @staticmethod
    def unsigned_top(db: sqlite3.Connection, cafe: str, table: str, chain: int) -> int:
        """The highest n of the chain's records stored before signing (0: none)."""
        (n,) = db.execute("SELECT COALESCE(MAX(n), 0) FROM records WHERE cafe=? AND tbl=? AND chain=? "
                          "AND h IS NULL", (cafe, table, chain)).fetchone()
        return int(n)

    @staticmethod
    def last_chain(db: sqlite3.Connection, cafe: str, table: str) -> int | None:
        """The table's newest chain that holds records, None when it has none."""
        (chain,) = db.execute("SELECT MAX(chain) FROM records WHERE cafe=? AND tbl=?", (cafe, table)).fetchone()
        return None if chain is None else int(chain)

    @staticmethod
    def hold(db: sqlite3.Connection, record: Record, reason: str, limit: int) -> int | None:
        """Keep a record waiting (for the staff or a gap): 1 when newly held, 0 when it was already; None when the
        table already has `limit` waiting (it is then dropped: the table keeps its log and sends it on replay)."""
        (count,) = db.execute("SELECT COUNT(*) FROM held WHERE cafe=? AND tbl=?",
                              (record.cafe, record.table)).fetchone()
        if count >= limit:
            return None
        cur = db.execute("INSERT OR IGNORE INTO held (cafe, tbl, n, h, reason, body, received) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)", (record.cafe, record.table, record.n, record.h, reason,
                                                          _text(record.body), record.received))
        return cur.rowcount

    @staticmethod
    def held(db: sqlite3.Connection, cafe: str, table: str, reason: str, n: int | None = None) -> list[Record]:
        """The table's records held for `reason` (those at `n` only, when given), in order of n."""
        sql = "SELECT body, received FROM held WHERE cafe=? AND tbl=? AND reason=?"
        args: tuple[str | int, ...] = (cafe, table, reason)
        if n is not None:
            sql += " AND n=?"
            args += (n,)
        rows = db.execute(sql + " ORDER BY n, received", args).fetchall()
        return [Record(cafe, table, json.loads(body), received) for body, received in rows]

    @staticmethod
    def unhold(db: sqlite3.Connection, record: Record) -> None:
        db.execute("DELETE FROM held WHERE cafe=? AND tbl=? AND n=? AND h=?",
                   (record.cafe, record.table, record.n, record.h))

    @staticmethod
    def conflict(db: sqlite3.Connection, record: Record, chain: int, kind: str) -> bool:
        """Keep aside a record that never replaces what is stored; True when it is new (not seen before)."""
        cur = db.execute("INSERT OR IGNORE INTO conflicts (cafe, tbl, chain, n, h, kind, body, received) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (record.cafe, record.table, chain, record.n, record.h,
                                                             kind, _text(record.body), record.received))
        return bool(cur.rowcount)

    @staticmethod
    def set_aside_legacy(db: sqlite3.Connection, cafe: str, table: str, chain: int, n: int, received: float) -> None:
        """An unsigned record the table's signed chain contradicts: into the conflicts (kept, shown), out of the
        chain's place, which the signed record then takes."""
        db.execute("INSERT OR IGNORE INTO conflicts (cafe, tbl, chain, n, h, kind, body, received) "
                   "SELECT cafe, tbl, chain, n, NULL, 'legacy', body, ? FROM records "
                   "WHERE cafe=? AND tbl=? AND chain=? AND n=? AND h IS NULL", (received, cafe, table, chain, n))

    @staticmethod
    def count_drop(db: sqlite3.Connection, cafe: str, table: str, reason: str, sample: str, at: float) -> None:
        db.execute("INSERT INTO drops (cafe, tbl, reason, count, first, last, sample) VALUES (?, ?, ?, 1, ?, ?, ?) "
                   "ON CONFLICT DO UPDATE SET count=count+1, last=excluded.last, sample=excluded.sample",
                   (cafe, table, reason, at, at, sample[:MAX_SAMPLE]))

    # ------------------------------------------------------------------ statuses

    @staticmethod
    def status_row(db: sqlite3.Connection, status: Status) -> dict[str, Any]:
        row = db.execute("SELECT status FROM tables WHERE cafe=? AND tbl=?", (status.cafe, status.table)).fetchone()
        merged = dict(json.loads(row[0])) if row and status.body.get("online") is False else {}
        merged.update(status.body)
        db.execute("INSERT INTO tables (cafe, tbl, status, online, seen) VALUES (?, ?, ?, ?, ?) "
                   "ON CONFLICT DO UPDATE SET status=excluded.status, online=excluded.online, seen=excluded.seen",
                   (status.cafe, status.table, _text(merged), int(bool(merged.get("online"))), status.received))
        return merged

    # ------------------------------------------------------------------ games

    def game_records(self, cafe: str, table: str, uid: str) -> tuple[list[dict[str, Any]], bool, int]:
        """The game's records (signed or not) in order of n, whether none between its first and its last is
        missing, and its chain. A game whose start is signed is its signed records only: an unsigned record of an
        earlier hub that the table's signed chain does not hold is no part of it."""
        rows = self.db.execute("SELECT chain, n, h, body FROM records WHERE cafe=? AND tbl=? AND game_uid=? "
                               "ORDER BY chain, n", (cafe, table, uid)).fetchall()
        if not rows:
            return [], False, 0
        chain = rows[0][0]
        rows = [r for r in rows if r[0] == chain]
        start = next((r for r in rows if json.loads(r[3]).get("kind") == "start"), None)
        if start is not None and start[2] is not None:
            rows = [r for r in rows if r[2] is not None]
        first, last = rows[0][1], rows[-1][1]
        (count,) = self.db.execute("SELECT COUNT(*) FROM records WHERE cafe=? AND tbl=? AND chain=? AND n BETWEEN ? "
                                   "AND ?", (cafe, table, chain, first, last)).fetchone()
        return [json.loads(r[3]) | {"_signed": r[2] is not None} for r in rows], count == last - first + 1, chain

    def end_received(self, cafe: str, table: str, uid: str) -> float | None:
        """When the hub received the game's last `end` record (its own clock: the order games are rated in)."""
        row = self.db.execute("SELECT received FROM records WHERE cafe=? AND tbl=? AND game_uid=? AND kind='end' "
                              "ORDER BY chain DESC, n DESC LIMIT 1", (cafe, table, uid)).fetchone()
        return None if row is None else float(row[0])

    def write_game(self, db: sqlite3.Connection, cafe: str, table: str, uid: str,
                   row: dict[str, Any]) -> tuple[str, str] | None:
        """The game's row from its facts (the one place a game row is written); returns (check, status) before."""
        before = db.execute("SELECT checked, status FROM games WHERE cafe=? AND tbl=? AND uid=?",
                            (cafe, table, uid)).fetchone()
        columns = ", ".join(row)
        marks = ", ".join("?" * len(row))
        updates = ", ".join(f"{c}=excluded.{c}" for c in row)
        db.execute(f"INSERT INTO games (uid, cafe, tbl, {columns}) VALUES (?, ?, ?, {marks}) "
                   f"ON CONFLICT DO UPDATE SET {updates}", (uid, cafe, table, *row.values()))
        return None if before is None else (str(before[0]), str(before[1]))

    def checked(self, cafe: str, table: str, uid: str) -> str | None:
        row = self.db.execute("SELECT checked FROM games WHERE cafe=? AND tbl=? AND uid=?",
                              (cafe, table, uid)).fetchone()
        return row[0] if row else None

    def merge_player(self, alias: str, name: str, at: float) -> None:
        """`alias` counts as `name` from now on. Refused (MergeRefused) when `name` already counts as `alias`
        (a cycle: two opposite merges would swap two players' histories) or `alias` is merged already: checked
        in the same transaction that writes, so two merges at the same moment cannot both pass."""
        with self.transaction() as db:
            merged = dict(db.execute("SELECT alias, name FROM aliases").fetchall())
            target, seen = name, set()
            while target in merged and target not in seen:
                seen.add(target)
                target = merged[target]
            if target == alias or alias in merged:
                raise MergeRefused(f"{alias!r} cannot be merged into {name!r}")
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

    def aliases(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT alias, name FROM aliases"))

    def verified_results(self) -> Iterable[Result]:
        """Every verified finished game as the ratings take it, in the order they ended."""
        rows = self.db.execute("SELECT game, players, scores, winners, guests, kind, ranked FROM games "
                               "WHERE checked='verified' AND status='finished' ORDER BY ended, uid")
        for game, players, scores, winners, guests, kind, ranked in rows:
            yield Result(game, json.loads(players), json.loads(scores or "{}"), json.loads(winners or "[]"),
                         json.loads(guests or "[]"), kind, json.loads(ranked) if ranked else None)

    def ended_unsettled(self) -> list[tuple[str, str, str]]:
        """(café, table, uid) of the games whose facts lag behind their records: an end stored after the game's
        row was last derived (a kill between a commit and the replay), or a game of an earlier hub (migrated)."""
        rows = self.db.execute(
            "SELECT g.cafe, g.tbl, g.uid FROM games g WHERE (g.signed=0 AND g.checked='pending') OR EXISTS "
            "(SELECT 1 FROM records r WHERE r.game_uid=g.uid AND r.cafe=g.cafe AND r.tbl=g.tbl AND r.kind='end' "
            " AND (g.end_n IS NULL OR r.n > g.end_n))")
        return [(str(cafe), str(tbl), str(uid)) for cafe, tbl, uid in rows]

