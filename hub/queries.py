"""What the web pages and the JSON API read from the store, each on its own read-only connection.

Rows come back as plain dicts (the API's JSON as is); nothing here writes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hub.identities import named
from hub.store import connect

# `started` and `ended` are the hub's receive times of the start and the (last) end record: the hub's own clock.
# `started_at` and `ended_at` are the table's clock as it wrote them, which may be wrong (cafe-protocol.md).
STARTED = ("(SELECT r.received FROM records r WHERE r.cafe=g.cafe AND r.tbl=g.tbl AND r.chain=g.chain "
           "AND r.n=g.start_n)")
GAME_COLUMNS = ("g.uid, g.cafe, g.tbl, g.game, g.players, g.start_n, g.end_n, g.status, g.checked, g.dispute, "
                f"g.scores, g.winners, g.started_at, g.ended_at, {STARTED}, g.ended, g.guests, g.signed, g.kind, "
                "g.ranked")
# A table shows on the guests' pages once the staff accepted its key (pairing); its records come from its chains.
PAIRED = "EXISTS (SELECT 1 FROM table_keys k WHERE k.cafe=t.cafe AND k.tbl=t.tbl AND k.state='accepted')"


def _game(row: tuple) -> dict[str, Any]:
    (uid, cafe, tbl, game, players, start_n, end_n, status, checked, dispute, scores, winners,
     started_at, ended_at, started, ended, guests, signed, kind, ranked) = row
    return {"game_uid": uid, "cafe": cafe, "table": tbl, "game": game, "players": json.loads(players),
            "start_n": start_n, "end_n": end_n, "status": status, "check": checked,
            "dispute": json.loads(dispute) if dispute else None,
            "scores": json.loads(scores) if scores else None, "winners": json.loads(winners) if winners else [],
            "started_at": started_at, "ended_at": ended_at, "started": started, "ended": ended,
            "guests": json.loads(guests or "[]"), "signed": bool(signed), "kind": kind,
            "ranked": json.loads(ranked) if ranked else None,
            "url": f"/games/{cafe}/{tbl}/{uid}", "api": f"/api/games/{cafe}/{tbl}/{uid}"}


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
        """Every paired table with its status and its last event record."""
        where, args = ("AND t.cafe=?", (cafe,)) if cafe else ("", ())
        rows = self.db.execute(
            f"SELECT t.cafe, t.tbl, t.status, t.online, t.seen, "
            f"(SELECT body FROM records r WHERE r.cafe=t.cafe AND r.tbl=t.tbl AND r.kind='event' "
            f" ORDER BY r.chain DESC, r.n DESC LIMIT 1), "
            f"(SELECT received FROM records r WHERE r.cafe=t.cafe AND r.tbl=t.tbl ORDER BY r.chain DESC, r.n DESC "
            f" LIMIT 1), "
            # the last finished game: the game of the table's newest end record (a few dozen records back)
            f"(SELECT json_array(g.uid, g.status, json(COALESCE(g.winners, '[]'))) FROM games g "
            f" WHERE g.cafe=t.cafe AND g.tbl=t.tbl AND g.uid=(SELECT r.game_uid FROM records r "
            f"  WHERE r.cafe=t.cafe AND r.tbl=t.tbl AND r.kind='end' ORDER BY r.chain DESC, r.n DESC LIMIT 1)) "
            f"FROM tables t WHERE {PAIRED} {where} ORDER BY t.cafe, t.tbl", args).fetchall()
        out = []
        for cafe_id, tbl, status, online, seen, last, last_received, ended in rows:
            uid, how, winners = json.loads(ended) if ended else (None, None, [])
            out.append({"cafe": cafe_id, "table": tbl, "online": bool(online), "seen": seen,
                        "status": json.loads(status), "last": json.loads(last) if last else None,
                        "last_received": last_received,
                        "last_game": None if uid is None else {"game_uid": uid, "status": how, "winners": winners,
                                                               "url": f"/games/{cafe_id}/{tbl}/{uid}"}})
        return out

    def cafes(self) -> list[str]:
        rows = self.db.execute("SELECT cafe FROM tables UNION SELECT cafe FROM games ORDER BY 1")
        return [c for (c,) in rows]

    def games(self, cafe: str | None = None, table: str | None = None, game: str | None = None,
              status: str | None = None, limit: int = 500, uid: str | None = None, offset: int = 0,
              players: Iterable[str] = (), received: tuple[float, float] | None = None) -> list[dict[str, Any]]:
        """Games newest first by the hub's receive time; `status` filters by how they ended or by their check
        (verified, disputed …); `players`: games any of these names played; `received`: ended in [from, to)."""
        clauses: list[str] = []
        args: list[Any] = []
        for column, value in (("g.cafe", cafe), ("g.tbl", table), ("g.game", game), ("g.uid", uid)):
            if value:
                clauses.append(f"{column}=?")
                args.append(value)
        names = list(players)
        if names:
            marks = ", ".join("?" * len(names))
            clauses.append(f"EXISTS (SELECT 1 FROM json_each(g.players) WHERE value IN ({marks}))")
            args += names
        if received:
            clauses.append("g.ended >= ? AND g.ended < ?")
            args += received
        if status in ("playing", "finished", "abandoned"):
            clauses.append("g.status=?")
            args.append(status)
        elif status in ("verified", "disputed", "pending"):
            clauses.append("g.checked=?")
            args.append(status)
        where = ("WHERE " + " AND ".join(clauses)) if clauses else ""
        # sort on the receive time alone (the start's only for games without an end: COALESCE stops at the
        # first value), then read the columns of the few rows shown
        rows = self.db.execute(
            f"SELECT {GAME_COLUMNS} FROM (SELECT g.rowid AS id, COALESCE(g.ended, {STARTED}) AS latest FROM games g "
            f"{where} ORDER BY latest DESC, g.cafe, g.tbl, g.uid LIMIT ? OFFSET ?) AS top JOIN games g "
            f"ON g.rowid = top.id ORDER BY top.latest DESC, g.cafe, g.tbl, g.uid", (*args, limit, offset))
        return [_game(r) for r in rows]

    def game(self, cafe: str, table: str, uid: str) -> dict[str, Any] | None:
        """One game: a uid is a table's own, so the same uid may name a game at another table."""
        row = self.db.execute(f"SELECT {GAME_COLUMNS} FROM games g WHERE g.cafe=? AND g.tbl=? AND g.uid=?",
                              (cafe, table, uid)).fetchone()
        return _game(row) if row else None

    def verified_after(self, after: tuple[float, str] | None) -> list[dict[str, Any]]:
        """The verified finished games in the order the leaderboards fold them (`Store.verified_results`: ended,
        uid), after `after` (such a key) or from the first; what a rating needs and where the game is."""
        where, args = ("AND (ended, uid) > (?, ?)", after) if after else ("", ())
        rows = self.db.execute("SELECT ended, cafe, tbl, uid, game, players, scores, winners, guests, kind, ranked "
                               "FROM games "
                               f"WHERE checked='verified' AND status='finished' AND ended IS NOT NULL {where} "
                               "ORDER BY ended, uid", args)
        return [{"ended": ended, "cafe": cafe, "table": tbl, "game_uid": uid, "game": game,
                 "players": json.loads(players), "scores": json.loads(scores or "{}"),
                 "winners": json.loads(winners or "[]"), "guests": json.loads(guests or "[]"), "kind": kind,
                 "ranked": json.loads(ranked) if ranked else None, "url": f"/games/{cafe}/{tbl}/{uid}"}
                for ended, cafe, tbl, uid, game, players, scores, winners, guests, kind, ranked in rows]

    def verified_up_to(self, key: tuple[float, str]) -> int:
        """How many verified finished games sort at or before `key`: a game verified late (its records came
        after a gap) lands before the last one folded, and the count shows it."""
        (count,) = self.db.execute("SELECT COUNT(*) FROM games WHERE checked='verified' AND status='finished' "
                                   "AND ended IS NOT NULL AND (ended, uid) <= (?, ?)", key).fetchone()
        return int(count)

    def records(self, cafe: str, table: str, uid: str) -> list[dict[str, Any]]:
        """A game's records in order; `signed` is false for one an earlier hub stored before signing."""
        rows = self.db.execute("SELECT body, received, h FROM records WHERE cafe=? AND tbl=? AND game_uid=? "
                               "ORDER BY chain, n", (cafe, table, uid))
        return [json.loads(body) | {"received": received, "signed": h is not None} for body, received, h in rows]

    def errors(self, cafe: str, table: str, limit: int = 50) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT body, received FROM records WHERE cafe=? AND tbl=? AND ok=0 "
                               "ORDER BY chain DESC, n DESC LIMIT ?", (cafe, table, limit))
        return [json.loads(body) | {"received": received} for body, received in rows]

    def table(self, cafe: str, table: str) -> dict[str, Any] | None:
        return next((t for t in self.tables(cafe) if t["table"] == table), None)

    def aliases(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT alias, name FROM aliases ORDER BY alias"))

    def players(self) -> list[str]:
        """Every name that played here, guests left out (a seat's default name is nobody's)."""
        names: set[str] = set()
        for players, guests in self.db.execute("SELECT DISTINCT players, guests FROM games"):
            names.update(named(json.loads(players), json.loads(guests or "[]")))
        return sorted(names, key=str.casefold)

    def counts(self) -> dict[str, int]:
        """Records per table, for the fleet benchmark's lost/duplicate check and the staff page."""
        rows = self.db.execute("SELECT cafe || '/' || tbl, COUNT(*) FROM records GROUP BY cafe, tbl")
        return dict(rows)

    # ------------------------------------------------------------------ what the staff must look at

    def conflicts(self, limit: int = 100) -> list[dict[str, Any]]:
        """Records kept aside (they never replaced what is stored), newest first."""
        rows = self.db.execute("SELECT cafe, tbl, chain, n, kind, body, received FROM conflicts "
                               "ORDER BY received DESC LIMIT ?", (limit,))
        out = []
        for cafe, tbl, chain, n, kind, body, received in rows:
            record = json.loads(body)
            out.append({"cafe": cafe, "table": tbl, "chain": chain, "n": n, "kind": kind, "received": received,
                        "record_kind": record.get("kind"), "game_uid": record.get("game_uid")})
        return out

    def drops(self) -> list[dict[str, Any]]:
        """Records dropped, per table and reason: how many, first and last time, the latest one (its start)."""
        rows = self.db.execute("SELECT cafe, tbl, reason, count, first, last, sample FROM drops "
                               "ORDER BY last DESC")
        return [{"cafe": c, "table": t, "reason": r, "count": n, "first": f, "last": la, "sample": s}
                for c, t, r, n, f, la, s in rows]

    def integrity(self) -> dict[str, dict[str, Any]]:
        """Per table ("café/table"): records held (for the staff, for a gap), conflicts, drops by reason."""
        out: dict[str, dict[str, Any]] = {}

        def entry(cafe: str, tbl: str) -> dict[str, Any]:
            return out.setdefault(f"{cafe}/{tbl}", {"held": {"pairing": 0, "gap": 0}, "conflicts": 0, "dropped": {}})

        for cafe, tbl, reason, count in self.db.execute("SELECT cafe, tbl, reason, COUNT(*) FROM held "
                                                        "GROUP BY cafe, tbl, reason"):
            entry(cafe, tbl)["held"][reason] = count
        for cafe, tbl, count in self.db.execute("SELECT cafe, tbl, COUNT(*) FROM conflicts GROUP BY cafe, tbl"):
            entry(cafe, tbl)["conflicts"] = count
        for cafe, tbl, reason, count in self.db.execute("SELECT cafe, tbl, reason, count FROM drops"):
            entry(cafe, tbl)["dropped"][reason] = count
        return out

    def held_counts(self) -> dict[tuple[str, str], int]:
        """Records held for the staff's decision, per table."""
        rows = self.db.execute("SELECT cafe, tbl, COUNT(*) FROM held WHERE reason='pairing' GROUP BY cafe, tbl")
        return {(c, t): n for c, t, n in rows}
