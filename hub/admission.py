"""What the hub stores of a table's log: only records signed with the key the staff accepted, each extending the
chain it holds (`shared/cafe-protocol.md`, "Delivery", "Integrity"). Runs inside the writer's transaction.

For each record, in this order:
1. The signature. A table without an accepted key: its records are held (bounded) until the staff decide —
   dropped if they are signed by a key the staff refused. A table with one: a record its key does not sign is
   held when a key the table showed later signs it (a key change waiting for the staff), else dropped.
2. The chain. Each accepted key signs one chain (a table's log); a key accepted after another either goes on
   with the old chain (its records link to it: a log restored without its key) or starts a new one (a new log:
   its record 1 is not the stored record 1). Until a record shows which, its records wait and the hub asks for
   the log from 1.
3. The place. n at or below what the chain holds: the same `h` is a duplicate (ignored), another `h` a conflict
   (kept aside, never stored). n beyond the next: waits (bounded) until the gap is replayed. The next n: stored
   when its `prev` is the stored `h` of n − 1, else dropped. A `start` for a game the hub holds is a conflict.

A record that fails is counted per table and reason and shown to the staff; nothing it says is stored or rated.
An unsigned record stored by an earlier hub at the same place is confirmed when it says what the signed one
says (it may lack fields added since), else set aside as a conflict and the signed one takes its place.
"""

from __future__ import annotations

import functools
import json
import logging
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cafe.signing import parse_public, signed_by
from hub import facts
from hub.pairing import ACCEPTED, REFUSED, RETIRED, WAITING, Decision, Pairing, TableKey
from hub.quota import DailyQuota
from hub.ratelog import RateLimitedLog
from hub.store import Record, Status, Store, Stored

log = logging.getLogger("hub.admission")
noted = RateLimitedLog(log)  # a flood of forged records: a few lines, not one per record

HELD_LIMIT = 2000  # records one table may have waiting (for the staff or a gap); the table keeps its log anyway

# Why a record was dropped (counted per table; `hub.texts` says each to the staff).
SIGNATURE = "signature"  # not signed by the table's accepted key (nor by a key it showed since)
REFUSED_KEY = "refused"  # signed by a key the staff refused
RETIRED_KEY = "retired"  # signed by a key the staff replaced with another (the table's old log)
CHAIN = "chain"  # its prev is not the stored h of n − 1
HELD_FULL = "held-full"  # more waiting than HELD_LIMIT (sent again on replay)
CONTRACT = "contract"  # not a record of the contract at all (`hub.topics`)
UNSIGNED = "unsigned"  # a record without prev/h/sig: a table of an earlier version
QUOTA = "quota"  # beyond the table's daily storage quota (hub/quota.py; asked for again, stored the next day)
REASONS = (SIGNATURE, REFUSED_KEY, RETIRED_KEY, CHAIN, HELD_FULL, CONTRACT, UNSIGNED, QUOTA)

PAIRING, GAP = "pairing", "gap"  # why a record is held


@dataclass
class Outcome:
    """What one batch did, for the writer to act on after its commit."""

    stored: list[tuple[Record, int]] = field(default_factory=list)  # (record, chain), in the order stored
    games: set[tuple[str, str, str]] = field(default_factory=set)  # (café, table, uid) to derive again
    replay: dict[tuple[str, str], int] = field(default_factory=dict)  # first n to ask each table for
    decisions: list[Decision] = field(default_factory=list)  # keys trusted on first sight
    trouble: list[dict[str, Any]] = field(default_factory=list)  # drops and conflicts, for the live staff page


def _same(stored: Stored, record: Record) -> bool:
    """Does the stored record say what `record` says? A signed one by its hash; an unsigned one (an earlier hub's)
    when each of its fields is the signed record's (the signed may hold fields added since)."""
    if stored.h is not None:
        return stored.h == record.h
    return all(record.body.get(k) == v for k, v in stored.body.items())


class Admission:
    def __init__(self, store: Store, pairing: Pairing, limit: int = HELD_LIMIT, quota: DailyQuota | None = None):
        self.store, self.pairing, self.limit, self.quota = store, pairing, limit, quota
        self._tip: dict[tuple[str, str, int], tuple[int, str | None]] = {}  # each chain's last (n, h): 1 … n held
        self._unsigned: dict[tuple[str, str, int], int] = {}  # the highest n of a chain's records from before signing
        self._waiting: dict[tuple[str, str], int] = {}  # how many records of a table wait for a gap

    def forget(self) -> None:
        """After a rolled-back batch: what was cached may be ahead of the store."""
        self._tip.clear()
        self._unsigned.clear()
        self._waiting.clear()
        if self.quota is not None:
            self.quota.forget()

    def waiting(self, db: sqlite3.Connection, cafe: str, table: str) -> int:
        """How many records of the table wait for a gap (asked after every batch for every table: kept in memory)."""
        if (cafe, table) not in self._waiting:
            (count,) = db.execute("SELECT COUNT(*) FROM held WHERE cafe=? AND tbl=? AND reason=?",
                                  (cafe, table, GAP)).fetchone()
            self._waiting[(cafe, table)] = int(count)
        return self._waiting[(cafe, table)]

    def upto(self, db: sqlite3.Connection, cafe: str, table: str, chain: int) -> int:
        """The highest n the chain holds signed (1 … n, none missing)."""
        return self._last(db, cafe, table, chain)[0]

    def _last(self, db: sqlite3.Connection, cafe: str, table: str, chain: int) -> tuple[int, str | None]:
        """The chain's last signed record (n, h), kept in memory: every record asks for it."""
        key = (cafe, table, chain)
        if key not in self._tip:
            self._tip[key] = self.store.tip(db, cafe, table, chain)
        return self._tip[key]

    def _unsigned_top(self, db: sqlite3.Connection, cafe: str, table: str, chain: int) -> int:
        key = (cafe, table, chain)
        if key not in self._unsigned:
            self._unsigned[key] = self.store.unsigned_top(db, cafe, table, chain)
        return self._unsigned[key]

    # ------------------------------------------------------------------ statuses

    def status(self, db: sqlite3.Connection, status: Status, out: Outcome) -> dict[str, Any] | None:
        """Note the key a status shows; keep the status unless it shows a key other than the accepted one (a
        table's live state comes from its own key's statuses; a last will carries none and is kept)."""
        key = status.body.get("key")
        if isinstance(key, str):
            decision = self.pairing.saw(db, status.cafe, status.table, key, status.received)
            if decision is not None:
                out.decisions.append(decision)
        pinned = self.pairing.pinned(status.cafe, status.table)
        if pinned is not None and status.body.get("online") is not False and key != pinned.key:
            return None
        return self.store.status_row(db, status)

    # ------------------------------------------------------------------ records

    def record(self, db: sqlite3.Connection, record: Record, out: Outcome) -> None:
        """Admit one record, then whatever waited behind it."""
        pending = [record]
        while pending:
            admitted = self._one(db, pending.pop(0), out)
            if admitted is not None:
                pending += self._next_waiting(db, admitted)

    def release(self, db: sqlite3.Connection, cafe: str, table: str, out: Outcome) -> None:
        """After the staff's decision on a key of this table: its held records (for the staff, and for a gap of
        a chain whose key may just have been retired), in order, admitted again."""
        held = sorted(self.store.held(db, cafe, table, PAIRING) + self.store.held(db, cafe, table, GAP),
                      key=lambda r: r.n)
        for record in held:
            self.store.unhold(db, record)
        self._waiting.pop((cafe, table), None)
        for record in held:
            self.record(db, record, out)

    def drop(self, db: sqlite3.Connection, cafe: str, table: str, reason: str, sample: str, at: float,
             out: Outcome) -> None:
        self.store.count_drop(db, cafe, table, reason, sample, at)
        out.trouble.append({"type": "dropped", "cafe": cafe, "table": table, "reason": reason})
        noted.warning(f"drop:{cafe}/{table}:{reason}", "table %s/%s: a record dropped (%s)", cafe, table, reason)

    def _one(self, db: sqlite3.Connection, record: Record, out: Outcome) -> tuple[Record, int] | None:
        """One record through the three checks; (record, chain) when it was stored."""
        key = self._signer(db, record, out)
        if key is None:
            return None
        chain = key.chain if key.chain is not None else self._decide_chain(db, record, key, out)
        if chain is None:
            return None
        return self._place(db, record, chain, out)

    def _signer(self, db: sqlite3.Connection, record: Record, out: Outcome) -> TableKey | None:
        """The accepted key that signed the record; None when it is held or dropped instead."""
        keys = self.pairing.keys(record.cafe, record.table)
        pinned = next((k for k in keys if k.state == ACCEPTED), None)
        if pinned is not None and signed_by(record.body, _public(pinned.key)):
            return pinned
        signer = next((k for k in keys if k.state in (WAITING, REFUSED, RETIRED)
                       and signed_by(record.body, _public(k.key))), None)
        if signer is not None and signer.state in (REFUSED, RETIRED):
            self._drop(db, record, REFUSED_KEY if signer.state == REFUSED else RETIRED_KEY, out)
        elif signer is not None or pinned is None:  # a key change, or a table not paired yet: the staff decide
            self._hold(db, record, PAIRING, out)
        else:
            self._drop(db, record, SIGNATURE, out)
        return None

    def _decide_chain(self, db: sqlite3.Connection, record: Record, key: TableKey, out: Outcome) -> int | None:
        """Which chain a newly accepted key's records extend: the table's newest, when this record links to it or
        repeats one of it; a new one, when it is a record 1 of another log; unknown (asked from 1) otherwise."""
        last = self.store.last_chain(db, record.cafe, record.table)
        chain: int | None
        if last is None:
            chain = 0
        else:
            here = self.store.stored(db, record.cafe, record.table, last, record.n)
            before = self.store.stored(db, record.cafe, record.table, last, record.n - 1) if record.n > 1 else None
            if here is not None and _same(here, record):
                chain = last
            elif record.n == 1:
                chain = last + 1 if here is not None else last
            elif before is not None and before.h is not None and before.h == record.body.get("prev"):
                chain = last
            else:
                chain = None
        if chain is None:
            self._hold(db, record, GAP, out)
            out.replay[(record.cafe, record.table)] = 1
            return None
        self.pairing.set_chain(db, record.cafe, record.table, key.key, chain)
        log.info("table %s/%s: key %s signs chain %d", record.cafe, record.table, key.fingerprint, chain)
        return chain

    def _place(self, db: sqlite3.Connection, record: Record, chain: int, out: Outcome) -> tuple[Record, int] | None:
        cafe, table, n = record.cafe, record.table, record.n
        upto, last_h = self._last(db, cafe, table, chain)
        if n <= upto:
            stored = self.store.stored(db, cafe, table, chain, n)
            if stored is not None and stored.h != record.h and self.store.conflict(db, record, chain, "same-n"):
                self._conflict(record, "same-n", out)
            return None
        if n > upto + 1:
            self._hold(db, record, GAP, out)
            out.replay[(cafe, table)] = min(out.replay.get((cafe, table), upto + 1), upto + 1)
            return None
        if n > 1 and last_h != record.body.get("prev"):  # n − 1 is the chain's last record
            self._drop(db, record, CHAIN, out)
            return None
        if self.quota is not None and not self.quota.take(db, cafe, table, len(_text(record.body)), record.received):
            self._drop(db, record, QUOTA, out)
            return None
        self._store(db, record, chain, out)
        self._tip[(cafe, table, chain)] = (n, record.h)
        return record, chain

    def _store(self, db: sqlite3.Connection, record: Record, chain: int, out: Outcome) -> None:
        """Into the chain's place; an unsigned record of an earlier hub there is confirmed or set aside."""
        cafe, table, n = record.cafe, record.table, record.n
        there = None
        if n <= self._unsigned_top(db, cafe, table, chain):  # a record of an earlier hub may stand there
            there = self.store.stored(db, cafe, table, chain, n)
        if there is not None:  # unsigned (a signed one would be at or below upto)
            out.games.add((cafe, table, str(there.body.get("game_uid"))))
            if not _same(there, record):
                self.store.set_aside_legacy(db, cafe, table, chain, n, record.received)
                self._conflict(record, "legacy", out)
        if record.kind == "start":
            held = db.execute("SELECT chain, start_n FROM games WHERE cafe=? AND tbl=? AND uid=?",
                              (cafe, table, record.game_uid)).fetchone()
            if held is None:
                self.store.write_game(db, cafe, table, record.game_uid, facts.started(record.body, chain).row())
            elif tuple(held) != (chain, n):  # a start for a game the hub holds: a conflict, not an update
                self.store.conflict(db, record, chain, "second-start")
                self._conflict(record, "second-start", out)
                out.games.add((cafe, table, record.game_uid))
        self.store.insert(db, record, chain, replace=there is not None)
        if record.kind == "end" or there is not None:
            out.games.add((cafe, table, record.game_uid))
        out.stored.append((record, chain))

    def _next_waiting(self, db: sqlite3.Connection, admitted: tuple[Record, int]) -> list[Record]:
        """The records that waited for the one just stored (held at the next n)."""
        record, _ = admitted
        if not self.waiting(db, record.cafe, record.table):
            return []
        waiting = self.store.held(db, record.cafe, record.table, GAP, record.n + 1)
        for held in waiting:
            self.store.unhold(db, held)
        self._waiting[(record.cafe, record.table)] -= len(waiting)
        return waiting

    def _hold(self, db: sqlite3.Connection, record: Record, reason: str, out: Outcome) -> None:
        before = self.waiting(db, record.cafe, record.table) if reason == GAP else 0
        held = self.store.hold(db, record, reason, self.limit)
        if held is None:
            self._drop(db, record, HELD_FULL, out)
        elif reason == GAP:  # the same record held twice is one row
            self._waiting[(record.cafe, record.table)] = before + held

    def _drop(self, db: sqlite3.Connection, record: Record, reason: str, out: Outcome) -> None:
        self.drop(db, record.cafe, record.table, reason, _sample(record.body), record.received, out)

    @staticmethod
    def _conflict(record: Record, kind: str, out: Outcome) -> None:
        out.trouble.append({"type": "conflict", "cafe": record.cafe, "table": record.table, "n": record.n,
                            "kind": kind})
        noted.warning(f"conflict:{record.cafe}/{record.table}", "table %s/%s: record %d is a conflict (%s), kept aside",
                      record.cafe, record.table, record.n, kind)

    # ------------------------------------------------------------------ gaps

    def missing(self, db: sqlite3.Connection, cafe: str, table: str, announced: int = 0) -> int | None:
        """The first n to ask the table for: behind a held record or below what its status announced."""
        key = self.pairing.pinned(cafe, table)
        if key is None:
            return None
        if key.chain is None:  # which chain its records extend is not known yet: they show it from record 1
            return 1 if announced > 0 or self.waiting(db, cafe, table) else None
        upto = self.upto(db, cafe, table, key.chain)
        if self.waiting(db, cafe, table) or announced > upto:
            return upto + 1
        return None


def _text(body: Mapping[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False)


def _sample(body: Mapping[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False, default=repr)[:2000]


@functools.lru_cache(maxsize=4096)
def _public(key: str) -> Any:
    return parse_public(key)
