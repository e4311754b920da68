"""The event log: SQLite in WAL mode with synchronous FULL — the truth the kiosk resumes from.

Every accepted event is committed before the screen confirms it, so a power cut
loses nothing that a player was shown. A game's rows are its header and its
accepted events (undo included, as the operator gave it); resuming is a replay.
Finished and abandoned games stay and export as transcripts.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from referee.transcript import write_transcript

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',   -- playing | paused | finished | abandoned
    seats TEXT NOT NULL DEFAULT '{}',         -- config seat id -> player, as claimed at set-up
    started REAL NOT NULL,
    ended REAL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    event TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
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


class EventLog:
    """One SQLite file per kiosk; one writer (the kiosk's loop)."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
        if "seats" not in columns:  # a log written before seats were kept
            self.db.execute("ALTER TABLE games ADD COLUMN seats TEXT NOT NULL DEFAULT '{}'")

    def close(self) -> None:
        self.db.close()

    def new_game(self, header: Mapping[str, Any], seats: Mapping[str, str] | None = None) -> int:
        """Start a game (with the seats its players claimed); a game still playing is abandoned."""
        now = time.time()
        with self._tx():
            self.db.execute("UPDATE games SET status='abandoned', ended=? WHERE status='playing'", (now,))
            cur = self.db.execute("INSERT INTO games (header, started, seats) VALUES (?, ?, ?)",
                                  (json.dumps(header, ensure_ascii=False), now, json.dumps(dict(seats or {}))))
        return int(cur.lastrowid)

    def seats(self, game_id: int) -> dict[str, str]:
        row = self.db.execute("SELECT seats FROM games WHERE id=?", (game_id,)).fetchone()
        return json.loads(row[0]) if row else {}

    def append(self, game_id: int, event: Mapping[str, Any]) -> int:
        """Durably record one accepted event; returns its 1-based position in the game."""
        with self._tx():
            (count,) = self.db.execute("SELECT COUNT(*) FROM events WHERE game_id=?", (game_id,)).fetchone()
            self.db.execute("INSERT INTO events (game_id, seq, event, at) VALUES (?, ?, ?, ?)",
                            (game_id, count + 1, json.dumps(event, ensure_ascii=False), time.time()))
        return count + 1

    def set_status(self, game_id: int, status: str) -> None:
        ended = None if status == "playing" else time.time()
        with self._tx():
            self.db.execute("UPDATE games SET status=?, ended=? WHERE id=?", (status, ended, game_id))

    def current(self) -> tuple[int, dict[str, Any], list[dict[str, Any]]] | None:
        """The game in progress (to resume after a restart), or None. A paused game waits to be chosen."""
        row = self.db.execute("SELECT id, header FROM games WHERE status='playing' ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        return row[0], json.loads(row[1]), self.events(row[0])

    def load(self, game_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """One game's header and accepted events (any status), e.g. to resume a paused game."""
        row = self.db.execute("SELECT header FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(game_id)
        return json.loads(row[0]), self.events(game_id)

    def events(self, game_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT event FROM events WHERE game_id=? ORDER BY seq", (game_id,))
        return [json.loads(text) for (text,) in rows]

    def games(self) -> list[GameRecord]:
        rows = self.db.execute(
            "SELECT g.id, g.header, g.status, g.started, g.ended, COUNT(e.seq) FROM games g "
            "LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id")
        return [GameRecord(r[0], json.loads(r[1]), r[2], r[3], r[4], r[5]) for r in rows]

    def export(self, game_id: int, out: IO[str]) -> None:
        """The game as a `tabletop-referee/1` transcript."""
        row = self.db.execute("SELECT header FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(game_id)
        write_transcript(json.loads(row[0]), self.events(game_id), out)

    def _tx(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT: the commit returns only once the WAL is synced (synchronous=FULL)."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


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
