"""What the web pages and the JSON API read from the store, each on its own read-only connection.

Rows come back as plain dicts (the API's JSON as is); nothing here writes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from hub.store import connect

GAME_COLUMNS = ("uid, cafe, tbl, game, players, start_n, end_n, status, checked, dispute, scores, winners, "
                "started_at, ended_at")


def _game(row: tuple) -> dict[str, Any]:
    (uid, cafe, tbl, game, players, start_n, end_n, status, checked, dispute, scores, winners,
     started_at, ended_at) = row
    return {"game_uid": uid, "cafe": cafe, "table": tbl, "game": game, "players": json.loads(players),
            "start_n": start_n, "end_n": end_n, "status": status, "check": checked,
            "dispute": json.loads(dispute) if dispute else None,
            "scores": json.loads(scores) if scores else None, "winners": json.loads(winners) if winners else [],
            "started_at": started_at, "ended_at": ended_at}


class Reader:
    """One read-only SQLite connection per thread (the server's worker threads)."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._local = threading.local()

    @property
    def db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = connect(self.path, readonly=True)
        return db

    def tables(self, cafe: str | None = None) -> list[dict[str, Any]]:
        """Every table with its status and its last event record."""
        where, args = ("WHERE t.cafe=?", (cafe,)) if cafe else ("", ())
        rows = self.db.execute(
            f"SELECT t.cafe, t.tbl, t.status, t.online, t.seen, "
            f"(SELECT body FROM records r WHERE r.cafe=t.cafe AND r.tbl=t.tbl AND r.kind='event' "
            f" ORDER BY n DESC LIMIT 1), "
            f"(SELECT received FROM records r WHERE r.cafe=t.cafe AND r.tbl=t.tbl ORDER BY n DESC LIMIT 1) "
            f"FROM tables t {where} ORDER BY t.cafe, t.tbl", args).fetchall()
        out = []
        for cafe_id, tbl, status, online, seen, last, last_received in rows:
            out.append({"cafe": cafe_id, "table": tbl, "online": bool(online), "seen": seen,
                        "status": json.loads(status), "last": json.loads(last) if last else None,
                        "last_received": last_received})
        return out

    def cafes(self) -> list[str]:
        rows = self.db.execute("SELECT cafe FROM tables UNION SELECT cafe FROM games ORDER BY 1")
        return [c for (c,) in rows]

    def games(self, cafe: str | None = None, table: str | None = None, game: str | None = None,
              status: str | None = None, limit: int = 500) -> list[dict[str, Any]]:
        """Games newest first; `status` filters by how they ended or by their check (verified, disputed …)."""
        clauses, args = [], []
        for column, value in (("cafe", cafe), ("tbl", table), ("game", game)):
            if value:
                clauses.append(f"{column}=?")
                args.append(value)
        if status in ("playing", "finished", "abandoned"):
            clauses.append("status=?")
            args.append(status)
        elif status in ("verified", "disputed", "pending"):
            clauses.append("checked=?")
            args.append(status)
        where = ("WHERE " + " AND ".join(clauses)) if clauses else ""
        rows = self.db.execute(f"SELECT {GAME_COLUMNS} FROM games {where} "
                               f"ORDER BY COALESCE(ended_at, started_at) DESC, uid LIMIT ?", (*args, limit))
        return [_game(r) for r in rows]

    def game(self, uid: str) -> dict[str, Any] | None:
        row = self.db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE uid=? LIMIT 1", (uid,)).fetchone()
        return _game(row) if row else None

    def records(self, cafe: str, table: str, uid: str) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT body, received FROM records WHERE cafe=? AND tbl=? AND game_uid=? ORDER BY n",
                               (cafe, table, uid))
        return [json.loads(body) | {"received": received} for body, received in rows]

    def errors(self, cafe: str, table: str, limit: int = 50) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT body, received FROM records WHERE cafe=? AND tbl=? AND ok=0 "
                               "ORDER BY n DESC LIMIT ?", (cafe, table, limit))
        return [json.loads(body) | {"received": received} for body, received in rows]

    def table(self, cafe: str, table: str) -> dict[str, Any] | None:
        return next((t for t in self.tables(cafe) if t["table"] == table), None)

    def aliases(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT alias, name FROM aliases ORDER BY alias"))

    def players(self) -> list[str]:
        names: set[str] = set()
        for (players,) in self.db.execute("SELECT DISTINCT players FROM games"):
            names.update(json.loads(players))
        return sorted(names, key=str.casefold)

    def counts(self) -> dict[str, int]:
        """Records per table, for the fleet benchmark's lost/duplicate check and the staff page."""
        rows = self.db.execute("SELECT cafe || '/' || tbl, COUNT(*) FROM records GROUP BY cafe, tbl")
        return dict(rows)
