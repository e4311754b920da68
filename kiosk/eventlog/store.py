"""The event log: SQLite in WAL mode with synchronous FULL — the truth the kiosk resumes from, and the café's outbox.

Every accepted event is committed before the screen confirms it, so a power cut
loses nothing that a player was shown. A game's rows are its header and its
accepted events (undo included, as the operator gave it); resuming is a replay.
Finished and abandoned games stay and export as transcripts.

The same transaction also writes the game's café log record (`records`): a
`start` per game, an `event` per answered event (accepted or rejected, with the
referee's answer) and an `end` when the game leaves play. Each record gets the
table-wide number `n` (AUTOINCREMENT: strictly increasing, never reused, across
games and restarts), so the café publisher can send the log from the first
record the broker has not acknowledged (`shared/cafe-protocol.md`). A log opened
for a café table (`table=`) also seals each record in that transaction: `prev`,
`h`, `sig`, kept byte for byte as it is sent (`kiosk.eventlog.chain`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from cafe.contract import assignment_ref
from cafe.signing import RecordSigner
from kiosk.eventlog import chain
from referee.ranking import ranked_values, score_kind
from referee.transcript import write_transcript
from referee.words import is_default_name

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',   -- playing | paused | finished | abandoned
    seats TEXT NOT NULL DEFAULT '{}',         -- config seat id -> player, as claimed at set-up
    started REAL NOT NULL,
    ended REAL,
    uid TEXT,                                 -- the game's id in the café (game_uid)
    assignment TEXT                           -- club nights: the café's assignment the game was started from
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS results_left (
    game_id INTEGER PRIMARY KEY REFERENCES games(id)  -- a finished game whose results screen the guests left
);
"""

# The café log, added in one transaction with its migration (see `_migrate_records`).
RECORDS_SCHEMA = """
CREATE TABLE records (
    n INTEGER PRIMARY KEY AUTOINCREMENT,      -- table-wide, never reused
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL CHECK (kind IN ('start', 'event', 'end')),
    seq INTEGER,                              -- event: counts the game's answered events from 1
    ok INTEGER,                               -- event: 1 accepted, 0 rejected
    error TEXT,                               -- event: the rejection's code
    body TEXT NOT NULL,                       -- start: header, event: the event, end: status + scores + winners
    at REAL NOT NULL,
    sealed TEXT,                              -- the signed payload as it is sent (NULL: not sealed yet)
    h TEXT                                    -- its hash: the next record's prev
);
CREATE INDEX records_by_game ON records (game_id, kind, seq);
CREATE TABLE IF NOT EXISTS cafe_acked (
    destination TEXT PRIMARY KEY,             -- broker/café/table the records went to
    n INTEGER NOT NULL                        -- the highest n that broker acknowledged (PUBACK)
);
"""


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    header: dict[str, Any]
    status: str
    started: float
    ended: float | None
    events: int


@dataclass(frozen=True, slots=True)
class Attempt:
    """One event answered during a game, accepted or not: a transcript line and the referee's answer."""

    n: int
    seq: int
    event: dict[str, Any]
    ok: bool
    error: str | None
    at: float


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One café log record (`shared/cafe-protocol.md`, "Log records") as the store keeps it."""

    n: int
    game_row: int
    game_uid: str
    kind: str  # start | event | end
    at: float
    fields: dict[str, Any]  # start: header; event: event, answer; end: status, scores, winners
    sealed: str | None = None  # the signed payload as sent (JSON), once the record is sealed

    @property
    def data(self) -> bytes:
        """The sealed payload's bytes: what the publisher sends, the same every time (cafe.outbox)."""
        if self.sealed is None:
            raise ValueError(f"record {self.n} is not sealed")
        return self.sealed.encode("utf-8")

    def payload(self, table: str) -> dict[str, Any]:
        """The record's MQTT payload: the sealed one as sent, else what the protocol names, `v` and `table`
        included (the payload a seal is made over)."""
        if self.sealed is not None:
            sealed: dict[str, Any] = json.loads(self.sealed)
            return sealed
        return {"v": 1, "table": table, "n": self.n, "at": iso_time(self.at), "game_uid": self.game_uid,
                "kind": self.kind, **self.fields}


def iso_time(at: float) -> str:
    """Wall-clock seconds as ISO 8601 with the local offset (the protocol's `at`)."""
    return datetime.fromtimestamp(at).astimezone().isoformat(timespec="milliseconds")


class EventLog:
    """One SQLite file per kiosk; one writer of games (the kiosk's loop), plus the café publisher's own connection
    (the log is the café's `cafe.outbox.Outbox`: `records`, `last_n`, `acked`, `set_acked`; see `outbox`).

    `durable=False` is for the publisher: its only write, the acknowledged `n`,
    may be lost in a power cut (the records are then simply sent again), so its
    commits skip the fsync and never hold the display loop's writes up for long.
    """

    def __init__(self, path: Path | str, durable: bool = True, table: str | None = None):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30.0)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
        if "seats" not in columns:  # a log written before seats were kept
            self.db.execute("ALTER TABLE games ADD COLUMN seats TEXT NOT NULL DEFAULT '{}'")
        if "uid" not in columns:  # a log written before the café
            self.db.execute("ALTER TABLE games ADD COLUMN uid TEXT")
        if "assignment" not in columns:  # a log written before club nights
            self.db.execute("ALTER TABLE games ADD COLUMN assignment TEXT")
        self.db.execute(chain.META_SCHEMA)
        self._listeners: list[Callable[[int], None]] = []
        self.table = table  # the café table the records are sealed for; None: an island, nothing sealed
        self.signer: RecordSigner | None = None
        self._migrate_records()
        if table is not None:
            self._seal_from_now(table, None if str(path) == ":memory:" else self.path)

    def _seal_from_now(self, table: str, path: Path | None) -> None:
        """Seal the records written so far (in order, one transaction) and every record from now on."""
        with self._tx():
            the_log_id = chain.log_id(self.db)
        self.signer = chain.signer_for(path, the_log_id)
        with self._tx():
            chain.seal_backlog(self.db, self.signer, table, self._payload)

    def seal_for(self, table: str) -> None:
        """The table just joined a café as `table` (admin → Café): its records are sealed for it from now on,
        the ones written so far first (`kiosk/app/joining.py`)."""
        if self.table != table or self.signer is None:
            self.table = table
            self._seal_from_now(table, None if str(self.path) == ":memory:" else self.path)

    def own_signer(self) -> RecordSigner:
        """The log's key, made on first use, without sealing anything: an island table shows its fingerprint on
        its Café screen before it asks to join, and signs its claim with it."""
        if self.signer is not None:
            return self.signer
        with self._tx():
            the_log_id = chain.log_id(self.db)
        return chain.signer_for(None if str(self.path) == ":memory:" else self.path, the_log_id)

    def _payload(self, row: chain.Row) -> dict[str, Any]:
        return _log_record(*row[:10]).payload(self.table or "")

    def close(self) -> None:
        self.db.close()

    def on_record(self, listener: Callable[[int], None]) -> None:
        """Call `listener(n)` after each commit that wrote records (n: the last one); it must return at once."""
        self._listeners.append(listener)

    # --- games

    def new_game(self, header: Mapping[str, Any], seats: Mapping[str, str] | None = None,
                 assignment: Mapping[str, Any] | None = None) -> int:
        """Start a game (with the seats its players claimed, and the café's assignment it was started from, whose
        `{evening, round}` its start record carries); a game still playing is abandoned — or finished, when
        its events finish it (its end did not reach the log: the table controller writes it after the last event)."""
        now = time.time()
        with self._tx():
            for (old,) in self.db.execute("SELECT id FROM games WHERE status='playing'").fetchall():
                state = self._replayed_state(old)
                outcome = dict(state.get("scores", {})), list(state.get("winners", []))
                self._end(old, "finished" if state.get("finished") else "abandoned", outcome, now)
            cur = self.db.execute("INSERT INTO games (header, started, seats, uid, assignment) VALUES (?, ?, ?, ?, ?)",
                                  (json.dumps(header, ensure_ascii=False), now, json.dumps(dict(seats or {})),
                                   uuid.uuid4().hex,
                                   None if assignment is None else json.dumps(dict(assignment), ensure_ascii=False)))
            game_row = _inserted(cur)
            self._record(game_row, "start", json.dumps(header, ensure_ascii=False), now)
        self._notify()
        return game_row

    def played_assignment(self, assignment: Mapping[str, Any]) -> bool:
        """Whether a game was started from this assignment (the same evening, round and time the hub set it)."""
        key = (assignment.get("evening"), assignment.get("round"), assignment.get("at"))
        for (text,) in self.db.execute("SELECT assignment FROM games WHERE assignment IS NOT NULL"):
            old = json.loads(text)
            if (old.get("evening"), old.get("round"), old.get("at")) == key:
                return True
        return False

    def seats(self, game_row: int) -> dict[str, str]:
        row = self.db.execute("SELECT seats FROM games WHERE id=?", (game_row,)).fetchone()
        return json.loads(row[0]) if row else {}

    def append(self, game_row: int, event: Mapping[str, Any], status: str | None = None,
               scores: Mapping[str, Any] | None = None, winners: list[str] | None = None) -> int:
        """Durably record one accepted event; returns its 1-based position among the game's accepted events.
        With `status`, the game's status moves in the same transaction (an undo reopens the game): a kill between
        the two can never leave a finished game ending in an undo."""
        now = time.time()
        text = json.dumps(event, ensure_ascii=False)
        with self._tx():
            (count,) = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id=?",
                                       (game_row,)).fetchone()
            self.db.execute("INSERT INTO events (game_id, seq, event, at) VALUES (?, ?, ?, ?)",
                            (game_row, count + 1, text, now))
            self._record_event(game_row, text, None, now)
            if status is not None:
                self._set_status(game_row, status, scores, winners, now)
        self._notify()
        return count + 1

    def append_rejected(self, game_row: int, event: Mapping[str, Any], error: str) -> int:
        """Durably record an event the referee rejected, with its error code; returns its record's n."""
        now = time.time()
        with self._tx():
            n = self._record_event(game_row, json.dumps(event, ensure_ascii=False), error, now)
        self._notify()
        return n

    def set_status(self, game_row: int, status: str, scores: Mapping[str, Any] | None = None,
                   winners: list[str] | None = None) -> None:
        """Mark a game playing, paused, finished or abandoned; leaving play writes its `end` record (with
        scores/winners, replayed from the log when not given). A finished game stays finished: abandoning it
        changes nothing. A pause is no end (the café log has none): a paused game ends when abandoned."""
        with self._tx():
            self._set_status(game_row, status, scores, winners, time.time())
        self._notify()

    def _set_status(self, game_row: int, status: str, scores: Mapping[str, Any] | None, winners: list[str] | None,
                    now: float) -> None:
        row = self.db.execute("SELECT status FROM games WHERE id=?", (game_row,)).fetchone()
        if row is None or row[0] == status or (row[0] == "finished" and status == "abandoned"):
            return
        if status == "playing":
            self.db.execute("UPDATE games SET status='playing', ended=NULL WHERE id=?", (game_row,))
        elif status == "paused" and row[0] == "playing":
            self.db.execute("UPDATE games SET status='paused', ended=? WHERE id=?", (now, game_row))
        elif row[0] in ("playing", "paused"):
            outcome = (dict(scores), list(winners or [])) if scores is not None else self._outcome(game_row)
            self._end(game_row, status, outcome, now)
        else:
            self.db.execute("UPDATE games SET status=?, ended=? WHERE id=?", (status, now, game_row))

    def current(self) -> tuple[int, dict[str, Any], list[dict[str, Any]]] | None:
        """The game in progress (to resume after a restart), or None. A paused game waits to be chosen."""
        row = self.db.execute("SELECT id, header FROM games WHERE status='playing' ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        return row[0], json.loads(row[1]), self.events(row[0])

    def results_on_screen(self) -> int | None:
        """The last game, when it finished and the guests have not left its results screen (a restart shows
        those results again, issue #22); else None."""
        row = self.db.execute("SELECT id, status FROM games ORDER BY id DESC LIMIT 1").fetchone()
        if row is None or row[1] != "finished":
            return None
        left = self.db.execute("SELECT 1 FROM results_left WHERE game_id=?", (row[0],)).fetchone()
        return None if left else int(row[0])

    def leave_results(self, game_row: int) -> None:
        """The guests left a finished game's results screen (Menü, or the table was left alone)."""
        with self._tx():
            self.db.execute("INSERT OR IGNORE INTO results_left (game_id) VALUES (?)", (game_row,))

    def load(self, game_row: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """One game's header and accepted events (any status), e.g. to resume a paused game."""
        row = self.db.execute("SELECT header FROM games WHERE id=?", (game_row,)).fetchone()
        if row is None:
            raise KeyError(game_row)
        return json.loads(row[0]), self.events(game_row)

    def events(self, game_row: int) -> list[dict[str, Any]]:
        """The game's accepted events in order (what a resume replays)."""
        rows = self.db.execute("SELECT event FROM events WHERE game_id=? ORDER BY seq", (game_row,))
        return [json.loads(text) for (text,) in rows]

    def game_uid(self, game_row: int) -> str | None:
        """The game's id in the café log (`game_uid`)."""
        row = self.db.execute("SELECT uid FROM games WHERE id=?", (game_row,)).fetchone()
        return row[0] if row else None

    def attempts(self, game_row: int) -> list[Attempt]:
        """Every event answered during the game, rejected ones included, in order (seq as in a transcript answer)."""
        rows = self.db.execute("SELECT n, seq, body, ok, error, at FROM records "
                               "WHERE game_id=? AND kind='event' ORDER BY n", (game_row,))
        return [Attempt(n, seq, json.loads(body), bool(ok), error, at) for n, seq, body, ok, error, at in rows]

    def games(self) -> list[GameRecord]:
        rows = self.db.execute(
            "SELECT g.id, g.header, g.status, g.started, g.ended, COUNT(e.seq) FROM games g "
            "LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id")
        return [GameRecord(r[0], json.loads(r[1]), r[2], r[3], r[4], r[5]) for r in rows]

    def export(self, game_row: int, out: IO[str]) -> None:
        """The game as a `tabletop-referee/1` transcript."""
        row = self.db.execute("SELECT header FROM games WHERE id=?", (game_row,)).fetchone()
        if row is None:
            raise KeyError(game_row)
        write_transcript(json.loads(row[0]), self.events(game_row), out)

    # --- the café log (outbox)

    def records(self, after_n: int = 0, limit: int | None = None) -> list[LogRecord]:
        """The café log records with n > after_n, in order of n (at most `limit`), sealed or not."""
        rows = self.db.execute(chain.RECORD_ROWS + "WHERE r.n > ? ORDER BY r.n LIMIT ?",
                               (after_n, -1 if limit is None else limit))
        return [_log_record(*row) for row in rows]

    def sealed(self, after_n: int = 0, limit: int | None = None) -> list[LogRecord]:
        """What the publisher may send (`cafe.outbox.Outbox`): the sealed records with n > after_n, in order,
        up to the first one not sealed yet."""
        records = self.records(after_n, limit)
        for index, record in enumerate(records):
            if record.sealed is None:
                return records[:index]
        return records

    def last_n(self) -> int:
        """The highest record number written so far (0 for an empty log)."""
        (n,) = self.db.execute("SELECT COALESCE(MAX(n), 0) FROM records").fetchone()
        return int(n)

    def acked(self, destination: str) -> int:
        """The highest n the broker at `destination` acknowledged (0: none yet)."""
        row = self.db.execute("SELECT n FROM cafe_acked WHERE destination=?", (destination,)).fetchone()
        return int(row[0]) if row else 0

    def set_acked(self, destination: str, n: int) -> None:
        """Remember that the broker acknowledged every record up to n (never moves back)."""
        with self._tx():
            self.db.execute("INSERT INTO cafe_acked (destination, n) VALUES (?, ?) ON CONFLICT (destination) "
                            "DO UPDATE SET n = MAX(n, excluded.n)", (destination, n))

    # --- inside

    def _tx(self) -> _Transaction:
        return _Transaction(self.db)

    def _record(self, game_row: int, kind: str, body: str, at: float, seq: int | None = None,
                ok: bool | None = None, error: str | None = None) -> int:
        cur = self.db.execute("INSERT INTO records (game_id, kind, seq, ok, error, body, at) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (game_row, kind, seq, None if ok is None else int(ok), error, body, at))
        n = _inserted(cur)
        if self.signer is not None:
            chain.seal(self.db, self.signer, n, self._payload)
        return n

    def _record_event(self, game_row: int, text: str, error: str | None, at: float) -> int:
        (seq,) = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM records WHERE game_id=? AND kind='event'",
                                 (game_row,)).fetchone()
        return self._record(game_row, "event", text, at, seq + 1, error is None, error)

    def _end(self, game_row: int, status: str, outcome: tuple[dict[str, Any], list[str]], at: float) -> None:
        self.db.execute("UPDATE games SET status=?, ended=? WHERE id=?", (status, at, game_row))
        scores, winners = outcome
        body = {"status": status, "scores": scores, "winners": winners} | self._ranked_by(game_row)
        self._record(game_row, "end", json.dumps(body, ensure_ascii=False), at)

    def _ranked_by(self, game_row: int) -> dict[str, Any]:
        """What the game ranks by, as its definition says (`referee.ranking`), and each player's number: the end
        record carries it (`score_kind`, `ranked`: added for #35), so a receiver need not guess from the scores
        (Profi-Sort's beginner game counts tasks, not the penalty points in `scores`)."""
        row = self.db.execute("SELECT header FROM games WHERE id=?", (game_row,)).fetchone()
        header = json.loads(row[0]) if row else {}
        try:
            kind = score_kind(str(header.get("game")), header.get("options") or {})
        except KeyError:  # a game this version does not know
            return {}
        state = self._replayed_state(game_row)
        return {"score_kind": kind, "ranked": ranked_values(kind, list(header.get("players", [])), state)}

    def _outcome(self, game_row: int) -> tuple[dict[str, Any], list[str]]:
        """Scores and winners of a logged game, by replaying it (for an end nobody handed them to)."""
        state = self._replayed_state(game_row)
        return dict(state.get("scores", {})), list(state.get("winners", []))

    def _replayed_state(self, game_row: int) -> dict[str, Any]:
        """A logged game's public state, by replaying its events ({} for a log no referee of this version reads)."""
        from referee.table import Referee

        row = self.db.execute("SELECT header FROM games WHERE id=?", (game_row,)).fetchone()
        try:
            referee = Referee(json.loads(row[0]))
            for event in effective_events(self.events(game_row)):
                referee.apply(event)
            return referee.state()
        except Exception:  # the end record still goes out, without scores
            return {}

    def _notify(self) -> None:
        if self._listeners:
            n = self.last_n()
            for listener in self._listeners:
                listener(n)

    def _migrate_records(self) -> None:
        """Give a log written before the café its records: start, accepted events, end — in one transaction."""
        exists = self.db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='records'").fetchone()
        if exists:
            columns = {row[1] for row in self.db.execute("PRAGMA table_info(records)")}
            for column in ("sealed", "h"):  # a café log written before records were signed
                if column not in columns:
                    self.db.execute(f"ALTER TABLE records ADD COLUMN {column} TEXT")
            return
        with self._tx():
            if self.db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='records'").fetchone():
                return  # another connection migrated it meanwhile
            for statement in RECORDS_SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            games = self.db.execute("SELECT id, header, status, started, ended FROM games ORDER BY id").fetchall()
            for game_row, header, status, started, ended in games:
                self.db.execute("UPDATE games SET uid=? WHERE id=? AND uid IS NULL", (uuid.uuid4().hex, game_row))
                self._record(game_row, "start", header, started)
                rows = self.db.execute("SELECT seq, event, at FROM events WHERE game_id=? ORDER BY seq",
                                       (game_row,)).fetchall()
                for seq, event, at in rows:
                    self._record(game_row, "event", event, at, seq, True, None)
                if status != "playing":
                    self._end(game_row, status, self._outcome(game_row), ended if ended is not None else started)


def _log_record(n: int, game_row: int, uid: str, kind: str, seq: int | None, ok: int | None, error: str | None,
                body: str, at: float, assignment: str | None = None, sealed: str | None = None) -> LogRecord:
    data = json.loads(body)
    if kind == "start":
        fields: dict[str, Any] = {"header": data}
        # the seats that kept their default names ("Spieler 3"): guests, whom the café never rates (#35)
        fields["guests"] = [p for p in data.get("players", []) if isinstance(p, str) and is_default_name(p)]
        if assignment is not None:
            fields["assignment"] = assignment_ref(json.loads(assignment))
    elif kind == "event":
        fields = {"event": data, "answer": {"seq": seq, "ok": bool(ok), "error": error}}
    else:
        fields = data
    return LogRecord(n, game_row, uid, kind, at, fields, sealed)


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT: the commit returns only once the WAL is synced (synchronous=FULL)."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error:
                self._rollback()  # e.g. a full disk at commit: nothing of the transaction stays
                raise
        self._rollback()

    def _rollback(self) -> None:
        # SQLite may already have rolled back by itself (SQLITE_FULL, I/O errors): nothing left to undo then.
        if self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")


def outbox(path: Path | str) -> Callable[[], EventLog]:
    """How the café publisher opens this log as its outbox (`cafe.outbox.OpenOutbox`): a connection of its own,
    whose commits (only the acknowledged n) skip the fsync."""
    return functools.partial(EventLog, Path(path), durable=False)


def effective_events(events: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The log's events with every undo applied: what a resume must replay (linear, not quadratic)."""
    kept: list[dict[str, Any]] = []
    for event in events:
        if event.get("type") == "undo":
            if kept:
                kept.pop()
        else:
            kept.append(event)
    return iter(kept)


def _inserted(cur: sqlite3.Cursor) -> int:
    """The row an INSERT just made."""
    if cur.lastrowid is None:
        raise sqlite3.DatabaseError("the INSERT made no row")
    return cur.lastrowid
