"""How much one table may store at the hub per day: a table whose key is in the wrong hands (a Pi taken) can
sign whatever it likes, and without a bound it could fill the hub's disk at the broker's pace (500 records of
60 KB went in in 0.7 s before signing).

DAILY_BYTES of record text per table per day (UTC days of the hub's clock) is forty times what a busy table
writes (a game is a few hundred records of a few hundred bytes). A record beyond it is dropped with the reason
`quota`: counted per table on /api/health, named on the staff page, logged at a limited rate; the table keeps
it in its own log, and the hub asks for it again (replay) like any missing record, so the next day it is stored.
"""

from __future__ import annotations

import sqlite3

DAY_S = 86400
DAILY_BYTES = 64 * 1024 * 1024


class DailyQuota:
    def __init__(self, limit: int = DAILY_BYTES):
        self.limit = limit
        self.used: dict[tuple[str, str], tuple[int, int]] = {}  # (café, table) → (day, bytes stored that day)

    def take(self, db: sqlite3.Connection, cafe: str, table: str, size: int, received: float) -> bool:
        """Count `size` bytes for the table's day if they fit (True), else count nothing (False)."""
        day = int(received // DAY_S)
        known_day, used = self.used.get((cafe, table), (-1, 0))
        if known_day != day:
            (used,) = db.execute("SELECT COALESCE(SUM(LENGTH(body)), 0) FROM records WHERE cafe=? AND tbl=? AND "
                                 "received >= ? AND received < ?", (cafe, table, day * DAY_S, (day + 1) * DAY_S)
                                 ).fetchone()
        fits = used + size <= self.limit
        self.used[(cafe, table)] = (day, used + size if fits else used)
        return fits

    def forget(self) -> None:
        """After a rolled-back batch: counted bytes may not be in the store."""
        self.used.clear()
