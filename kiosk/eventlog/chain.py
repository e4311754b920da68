"""The café log's signed hash chain on the table (`shared/cafe-protocol.md`, "Integrity"), inside the event log.

Each record is sealed (`prev`, `h`, `sig`) in the same SQLite transaction that writes it, and the sealed payload
is kept byte for byte (`records.sealed`): the publisher sends exactly those bytes, after every reconnect and
every replay, so a kill at any instant leaves either the record with its seal or neither. Records written
without a seal — by a kiosk before this version, by a kiosk without a café, or for another table id — are sealed
in order, in one transaction, the next time the log is opened for a café table (`seal_backlog`).

The key belongs to the log, not to the machine: its file is named after the log's own random id (`meta`), so
a fresh log (a new SD card, a damaged log set aside) gets a fresh key, whose new chain the hub's staff accept as
a key change; a log restored without its key file makes a new key and continues its chain. The key file
(`table-<log id>.key`, PKCS#8 PEM, mode 0600) sits beside the log and is never exported, backed up or sent.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cafe.contract import MAX_PAYLOAD, ContractError, encode, safe_text
from cafe.signing import RecordSigner, canonical, load_or_make_key, new_private_key

META_SCHEMA = "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)"
SEAL_ROOM = 256  # bytes a seal adds to a payload (prev, h, sig and their keys): kept free below the 64 KiB
BACKLOG_BATCH = 500

# The columns `_log_record` (store.py) builds a record from, for one n or from an n on.
RECORD_ROWS = ("SELECT r.n, r.game_id, g.uid, r.kind, r.seq, r.ok, r.error, r.body, r.at, g.assignment, r.sealed "
               "FROM records r JOIN games g ON g.id = r.game_id ")

Row = tuple[Any, ...]  # a RECORD_ROWS row
Payload = Callable[[Row], dict[str, Any]]  # a RECORD_ROWS row → the record's payload (v, table, n … fields)


def meta(db: sqlite3.Connection, name: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE name=?", (name,)).fetchone()
    return None if row is None else str(row[0])


def set_meta(db: sqlite3.Connection, name: str, value: str) -> None:
    db.execute("INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value=excluded.value",
               (name, value))


def log_id(db: sqlite3.Connection) -> str:
    """The log's own random id (made once, in its first transaction that asks): it names the log's key file."""
    found = meta(db, "log_id")
    if found is None:
        db.execute("INSERT OR IGNORE INTO meta (name, value) VALUES ('log_id', ?)", (secrets.token_hex(8),))
        found = meta(db, "log_id")
    assert found is not None
    return found


def key_path(log_path: Path, the_log_id: str) -> Path:
    return log_path.with_name(f"table-{the_log_id}.key")


def signer_for(log_path: Path | None, the_log_id: str) -> RecordSigner:
    """The log's signer: its key file, made on first use; an in-memory log gets a key that lives as long."""
    if log_path is None:
        return RecordSigner(new_private_key())
    return RecordSigner(load_or_make_key(key_path(log_path, the_log_id)))


def fitted(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload as it can go out: an event record too large for 64 KiB with its seal, or holding what a
    signed record may not (a float, a control character), keeps its answer and the event's type only."""
    try:
        canonical(payload)
        if len(encode(payload)) <= MAX_PAYLOAD - SEAL_ROOM:
            return payload
    except ContractError:
        pass
    if payload.get("kind") != "event":
        return payload  # a start or an end that cannot go out: sealing it raises, the write is refused
    event = payload.get("event")
    kind = event.get("type") if isinstance(event, dict) else None
    safe = isinstance(kind, str) and len(kind) <= 40 and safe_text(kind)
    return payload | {"event": {"type": kind if safe else "unknown", "oversize": True}}


def seal(db: sqlite3.Connection, signer: RecordSigner, n: int, payload: Payload) -> None:
    """Seal record `n` (just inserted, inside the caller's transaction) with prev = the h of record n − 1."""
    row = db.execute(RECORD_ROWS + "WHERE r.n=?", (n,)).fetchone()
    prev = db.execute("SELECT h FROM records WHERE n=?", (n - 1,)).fetchone() if n > 1 else None
    _seal_row(db, signer, row, None if prev is None else prev[0], payload)


def _seal_row(db: sqlite3.Connection, signer: RecordSigner, row: Row, prev: str | None, payload: Payload) -> str:
    sealed = signer.seal(fitted(payload(row)), prev)
    text = encode(sealed).decode("utf-8")
    db.execute("UPDATE records SET sealed=?, h=? WHERE n=?", (text, sealed["h"], row[0]))
    return str(sealed["h"])


def seal_backlog(db: sqlite3.Connection, signer: RecordSigner, table: str, payload: Payload) -> int:
    """Inside the caller's transaction: seal every record not sealed yet for `table`, in order of n (a log sealed
    for another table id is sealed again from its first record). Returns how many were sealed."""
    if meta(db, "sealed_for") != table:
        db.execute("UPDATE records SET sealed=NULL, h=NULL")
        set_meta(db, "sealed_for", table)
    (first,) = db.execute("SELECT MIN(n) FROM records WHERE sealed IS NULL").fetchone()
    if first is None:
        return 0
    prev_row = db.execute("SELECT h FROM records WHERE n=?", (first - 1,)).fetchone()
    prev = None if prev_row is None else prev_row[0]
    count, after = 0, first - 1
    while True:
        rows = db.execute(RECORD_ROWS + "WHERE r.n>? ORDER BY r.n LIMIT ?", (after, BACKLOG_BATCH)).fetchall()
        if not rows:
            return count
        for row in rows:
            prev = _seal_row(db, signer, row, prev, payload)
            after = row[0]
            count += 1


