"""Which key the hub pins for each table: the keys tables show, the staff's accept and refuse, and the hook for
whoever acts on those decisions (`shared/cafe-protocol.md`, "Integrity", "Pairing").

A table's status carries its public key. A key the hub has not seen for that table waits for the staff ("waiting
to join", with its fingerprint, which the table shows on its own Café screen); staff accept or refuse it. One key
per table is accepted at a time: accepting another (a replaced SD card) retires the old one, whose records stay
as they are. A refused key stays refused until the staff accept it after all. Until a table's key is accepted its
records are held, not stored (`hub.admission`).

`trust_first_key` (off by default; for a laptop, a demo or a benchmark, never a café's shared network) accepts
the first key a table that the hub has never seen shows; a key change still waits for the staff.

The hook: `Pairing.on_decision(listener)` calls `listener(Decision)` after each accept or refuse has been
committed — the broker users of the pairing handover are made there (branch `pair`).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from cafe.signing import fingerprint, is_public_text
from hub.store import Store

log = logging.getLogger("hub.pairing")

WAITING, ACCEPTED, REFUSED, RETIRED = "waiting", "accepted", "refused", "retired"
MAX_WAITING = 4  # keys one table may have waiting for the staff at once (each record is checked against them)



@dataclass(frozen=True, slots=True)
class TableKey:
    """One key one table showed, and where it stands."""

    cafe: str
    table: str
    key: str  # ed25519:<base64url>
    state: str
    chain: int | None
    first_seen: float
    last_seen: float
    decided: float | None

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


@dataclass(frozen=True, slots=True)
class Decision:
    """What the staff decided about a table's key (or `trust_first_key` did): the pairing handover's hook."""

    cafe: str
    table: str
    key: str
    fingerprint: str
    accepted: bool
    at: float


DecisionListener = Callable[[Decision], None]


class PairingError(ValueError):
    """A decision about a key that is not an Ed25519 key of the contract."""


class Pairing:
    """The keys of every table, read once from the store and kept in memory (the writer asks per record); every
    change is written through the store. Thread-safe: the writer reports keys, the staff decide."""

    def __init__(self, store: Store, trust_first_key: bool = False):
        self.store = store
        self.trust_first_key = trust_first_key
        self._lock = threading.Lock()
        self._listeners: list[DecisionListener] = []
        with store.transaction() as db:  # the table is the store's (hub.store.SCHEMA)
            rows = db.execute("SELECT cafe, tbl, key, state, chain, first_seen, last_seen, decided FROM table_keys")
            self._tables = _by_table(TableKey(*r) for r in rows)

    def reload(self) -> None:
        """Read the keys again from the store (after a writer's batch was rolled back)."""
        rows = self.store.db.execute("SELECT cafe, tbl, key, state, chain, first_seen, last_seen, decided "
                                     "FROM table_keys").fetchall()
        with self._lock:
            self._tables = _by_table(TableKey(*r) for r in rows)

    # ------------------------------------------------------------------ the hook

    def on_decision(self, listener: DecisionListener) -> None:
        """Call `listener(decision)` after every accept or refuse (on the deciding thread; it must not block)."""
        self._listeners.append(listener)

    def _tell(self, decision: Decision) -> None:
        for listener in list(self._listeners):
            try:
                listener(decision)
            except Exception:  # one listener's failure must not undo the staff's decision
                log.exception("a pairing listener failed for %s/%s", decision.cafe, decision.table)

    # ------------------------------------------------------------------ reading

    def keys(self, cafe: str, table: str) -> list[TableKey]:
        with self._lock:
            return sorted(self._tables.get((cafe, table), {}).values(), key=lambda k: k.first_seen)

    def pinned(self, cafe: str, table: str) -> TableKey | None:
        """The table's accepted key, if it has one (asked for every record and status: no sorting)."""
        with self._lock:
            return next((k for k in self._tables.get((cafe, table), {}).values() if k.state == ACCEPTED), None)

    def state(self, cafe: str, table: str, key: str) -> str | None:
        with self._lock:
            found = self._tables.get((cafe, table), {}).get(key)
        return None if found is None else found.state

    def listed(self, *states: str) -> list[TableKey]:
        """Every key in one of `states` (all when none given), by café, table and when first seen."""
        with self._lock:
            found = [k for keys in self._tables.values() for k in keys.values() if not states or k.state in states]
        return sorted(found, key=lambda k: (k.cafe, k.table, k.first_seen))

    def accepted_tables(self) -> set[tuple[str, str]]:
        with self._lock:
            return {t for t, keys in self._tables.items() if any(k.state == ACCEPTED for k in keys.values())}

    # ------------------------------------------------------------------ the writer's side

    def saw(self, db: sqlite3.Connection, cafe: str, table: str, key: str, at: float) -> Decision | None:
        """A status (inside the writer's transaction) showed this key. New keys wait for the staff — or, with
        `trust_first_key`, the very first key of a table never seen is accepted (the decision is returned, to be
        told once the transaction is committed)."""
        with self._lock:
            known = self._tables.get((cafe, table), {}).get(key)
            if known is not None:
                if at - known.last_seen >= 60:  # "last seen" to the minute: no write per status
                    self._put(db, replace(known, last_seen=at))
                return None
            mine = list(self._tables.get((cafe, table), {}).values())
            trusted = not mine and self.trust_first_key
            waiting = sorted((k for k in mine if k.state == WAITING), key=lambda k: k.last_seen)
            for old in waiting[:max(0, len(waiting) - MAX_WAITING + 1)]:  # a flood of keys keeps only the newest
                db.execute("DELETE FROM table_keys WHERE cafe=? AND tbl=? AND key=?", (cafe, table, old.key))
                del self._tables[(cafe, table)][old.key]
            self._put(db, TableKey(cafe, table, key, ACCEPTED if trusted else WAITING, None, at, at,
                                   at if trusted else None))
        if trusted:
            log.warning("table %s/%s: its first key %s accepted without the staff (trust_first_key)", cafe, table,
                        fingerprint(key))
            return Decision(cafe, table, key, fingerprint(key), True, at)
        log.info("table %s/%s shows key %s: waiting for the staff", cafe, table, fingerprint(key))
        return None

    def saw_key(self, cafe: str, table: str, key: str, at: float) -> None:
        """A table showed this key by another path than its status (the pairing handover's hello): listed for the
        staff like a key a status carried (`PairingError` for a key that is not one of the contract)."""
        self._check(key)
        with self.store.transaction() as db:
            decision = self.saw(db, cafe, table, key, at)
        self.told(decision)

    def set_chain(self, db: sqlite3.Connection, cafe: str, table: str, key: str, chain: int) -> None:
        """The chain an accepted key's records extend, once known (`hub.admission`)."""
        with self._lock:
            self._put(db, replace(self._tables[(cafe, table)][key], chain=chain))

    def _put(self, db: sqlite3.Connection, key: TableKey) -> None:
        db.execute("INSERT INTO table_keys (cafe, tbl, key, state, chain, first_seen, last_seen, decided) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET state=excluded.state, "
                   "chain=excluded.chain, last_seen=excluded.last_seen, decided=excluded.decided",
                   (key.cafe, key.table, key.key, key.state, key.chain, key.first_seen, key.last_seen, key.decided))
        self._tables.setdefault((key.cafe, key.table), {})[key.key] = key

    # ------------------------------------------------------------------ the staff's side

    def accept(self, cafe: str, table: str, key: str, at: float) -> Decision:
        """Pin `key` for the table (a key it never showed too: the pairing handover may bring it first); the key
        accepted before is retired, its chain kept as it is."""
        self._check(key)
        with self.store.transaction() as db, self._lock:
            for old in list(self._tables.get((cafe, table), {}).values()):
                if old.state == ACCEPTED and old.key != key:
                    self._put(db, replace(old, state=RETIRED, decided=at))
            known = self._tables.get((cafe, table), {}).get(key)
            if known is None:
                known = TableKey(cafe, table, key, WAITING, None, at, at, None)
            if known.state != ACCEPTED:
                self._put(db, replace(known, state=ACCEPTED, decided=at))
        decision = Decision(cafe, table, key, fingerprint(key), True, at)
        log.info("staff accepted table %s/%s with key %s", cafe, table, decision.fingerprint)
        self._tell(decision)
        return decision

    def refuse(self, cafe: str, table: str, key: str, at: float) -> Decision:
        """Refuse `key` for the table: its records are dropped from now on, until the staff accept it after all."""
        self._check(key)
        with self.store.transaction() as db, self._lock:
            known = self._tables.get((cafe, table), {}).get(key) or TableKey(cafe, table, key, WAITING, None, at, at,
                                                                             None)
            self._put(db, replace(known, state=REFUSED, decided=at))
        decision = Decision(cafe, table, key, fingerprint(key), False, at)
        log.info("staff refused key %s of table %s/%s", decision.fingerprint, cafe, table)
        self._tell(decision)
        return decision

    def told(self, decision: Decision | None) -> None:
        """Tell the listeners a decision `saw` made (after the writer's commit)."""
        if decision is not None:
            self._tell(decision)

    @staticmethod
    def _check(key: str) -> None:
        if not is_public_text(key):
            raise PairingError("not an ed25519 key of the contract")


def _by_table(keys: Iterable[TableKey]) -> dict[tuple[str, str], dict[str, TableKey]]:
    out: dict[tuple[str, str], dict[str, TableKey]] = {}
    for key in keys:
        out.setdefault((key.cafe, key.table), {})[key.key] = key
    return out
