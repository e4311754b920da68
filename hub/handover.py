"""The hub's side of pairing without a shell (`cafe/handover.py` says the protocol): a table's request to join,
the one-time code when staff accept it, the sealed bundle for the table that proves it knows the code.

- `POST /pair/hello` (a table without broker user asks, and asks again to learn where it stands): noted as
  waiting in the hub's key list (`hub.pairing`, whose staff page shows "waiting to join" with the fingerprint),
  answered with the state; once staff accepted the key and its code is ready, with the code's salt.
- Staff accept (the key list's decision hook calls `decided`): on a worker thread the hub makes the table's
  broker user `table-<id>` with a fresh password through the dynamic security plugin (`hub.dynsec`) and a code
  of 12 digits, valid `CODE_LIFETIME_S`, shown on the staff page. Refused: any code of that key is void.
- `POST /pair/claim`: the table's signature over its claim (its own key), then its proof of the code; the
  answer is the bundle sealed with the code. Five wrong proofs make the code void; a used code answers 410.

Only a key that asked through `/pair/hello` gets a code: a table that reached the broker with a password of
its own (the file-based way) keeps it when staff accept its key. What is kept (`DATA_DIR/handover.sqlite`,
mode 600): who asked (address, times) and each code with the password it hands over, until it is used.
"""

from __future__ import annotations

import logging
import queue
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from cryptography.exceptions import InvalidSignature

from cafe import contract, handover
from cafe.access import table_user
from cafe.signing import fingerprint, is_public_text, parse_public, unb64url
from hub.config import HubConfig
from hub.dynsec import BrokerUserError
from hub.pairing import Decision

log = logging.getLogger("hub.handover")

FILE = "handover.sqlite"
MAX_WAITING = 64  # tables that asked and were not decided yet, at once
MAX_PER_ADDRESS = 4  # of them from one address within FORGET_S
FORGET_S = 3600.0  # an undecided request that did not ask again for this long is forgotten
SCHEMA = """
CREATE TABLE IF NOT EXISTS asked (cafe TEXT, tbl TEXT, key TEXT, address TEXT, first_at REAL, last_at REAL,
                                  PRIMARY KEY (cafe, tbl, key));
CREATE TABLE IF NOT EXISTS codes (cafe TEXT, tbl TEXT, key TEXT, state TEXT, code TEXT, salt TEXT, password TEXT,
                                  made_at REAL, until REAL, tries_left INTEGER, problem TEXT,
                                  PRIMARY KEY (cafe, tbl, key));
"""
MAKING, LIVE, SPENT, VOID, FAILED = "making", "live", "spent", "void", "failed"


class Keys(Protocol):
    """The hub's list of table keys (`hub.pairing`): where a key stands, and a table asking to join with one."""

    def state(self, cafe: str, table: str, key: str) -> str | None: ...

    def saw_key(self, cafe: str, table: str, key: str, at: float) -> None: ...


def open_desk(config: HubConfig, data_dir: Path, keys: Keys, add_user: Callable[[str, str, str], None]
              ) -> Handover | None:
    """The hub's handover, when its config says where tables find the broker (`table_broker`, `table_ca_file`);
    None otherwise, and when the café's CA cannot be read (logged: the hub runs on, pairing no tables)."""
    broker, ca = config.table_broker, config.table_ca_file
    if not config.pairing or broker is None or ca is None:  # (pairing is on only with both)
        return None
    try:
        return Handover(data_dir, config.cafe, keys, add_user, broker, Path(ca))
    except (OSError, ValueError) as error:
        log.error("pairing is off: the café's CA %s cannot be used: %s", ca, error)
        return None


@dataclass(frozen=True, slots=True)
class Reply:
    """An HTTP answer to a table: status and JSON body."""

    status: int
    body: dict[str, Any]


def refusal(status: int, error: str, **more: Any) -> Reply:
    return Reply(status, {"v": handover.VERSION, "error": error, **more})


class Handover:
    """Requests, codes and claims of one café's hub. Thread-safe: web requests and the decision worker."""

    def __init__(self, data_dir: Path, cafe: str, keys: Keys, add_user: Callable[[str, str, str], None],
                 broker: str, ca_file: Path):
        self.cafe, self.keys, self.add_user, self.broker = cafe, keys, add_user, broker
        self.ca = Path(ca_file).read_text(encoding="ascii")
        handover.check_ca(self.ca)  # the café's CA, as a table will check it: a wrong file stops the hub at start
        self.path = Path(data_dir) / FILE
        self._lock = threading.Lock()
        self._derived: dict[tuple[str, str, str, str], handover.Keys] = {}
        self._jobs: queue.SimpleQueue[tuple[str, str, str] | None] = queue.SimpleQueue()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.path.chmod(0o600)
        self._db.executescript(SCHEMA)
        self._worker = threading.Thread(target=self._work, name="hub-handover", daemon=True)
        self._worker.start()

    def close(self) -> None:
        self._jobs.put(None)
        self._worker.join(5)
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ a table asks

    def hello(self, message: dict[str, Any], address: str, now: float) -> Reply:
        """A table asks to join, or asks again where it stands."""
        table, key = message.get("table"), message.get("key")
        if not contract.is_id(table) or not is_public_text(key):
            return refusal(400, "table must be a table id and key an ed25519 key")
        table, key = str(table), str(key)
        with self._lock, closing(self._db.cursor()) as db:
            for old in db.execute("SELECT tbl, key FROM asked WHERE last_at < ?", (now - FORGET_S,)).fetchall():
                if self.keys.state(self.cafe, *old) != "accepted":  # an accepted one waits for its code
                    db.execute("DELETE FROM asked WHERE cafe=? AND tbl=? AND key=?", (self.cafe, *old))
            known = db.execute("SELECT 1 FROM asked WHERE cafe=? AND tbl=? AND key=?", (self.cafe, table, key))
            if known.fetchone() is None and self.keys.state(self.cafe, table, key) in (None, "waiting"):
                waiting = [r for r in db.execute("SELECT tbl, key, address FROM asked")
                           if self.keys.state(self.cafe, r[0], r[1]) in (None, "waiting")]
                if len(waiting) >= MAX_WAITING or sum(r[2] == address for r in waiting) >= MAX_PER_ADDRESS:
                    return refusal(429, "too many tables wait to join; ask staff to accept or refuse them first")
            db.execute("INSERT INTO asked VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET last_at=excluded.last_at,"
                       " address=excluded.address", (self.cafe, table, key, address, now, now))
        if self.keys.state(self.cafe, table, key) is None:
            self.keys.saw_key(self.cafe, table, key, now)
        return Reply(200, self.where(table, key, now))

    def where(self, table: str, key: str, now: float) -> dict[str, Any]:
        """Where a table's request stands, as the table is told."""
        answer: dict[str, Any] = {"v": handover.VERSION, "cafe": self.cafe, "table": table, "key": key}
        decided = self.keys.state(self.cafe, table, key)
        if decided in ("refused", "retired"):
            return answer | {"state": "refused"}
        if decided != "accepted":
            return answer | {"state": "waiting"}
        code = self._code(table, key)
        if code is None or code["state"] in (VOID, FAILED) or (code["state"] == LIVE and code["until"] <= now):
            return answer | {"state": "expired"}
        if code["state"] == MAKING:
            return answer | {"state": "waiting"}
        if code["state"] == SPENT:
            return answer | {"state": "paired"}
        return answer | {"state": "accepted", "salt": code["salt"], "tries_left": code["tries_left"]}

    # ------------------------------------------------------------------ staff decide

    def on_decision(self, decision: Decision) -> None:
        """The key list's hook."""
        self.decided(decision.cafe, decision.table, decision.key, decision.accepted)

    def decided(self, cafe: str, table: str, key: str, accepted: bool) -> None:
        """The key list's hook: staff accepted or refused a table's key (returns at once; the work is queued)."""
        if cafe != self.cafe:
            return
        if accepted:
            self.new_code(table, key)
            return
        with self._lock:
            self._db.execute("UPDATE codes SET state=?, password=NULL WHERE cafe=? AND tbl=? AND key=? AND state "
                             "IN (?, ?)", (VOID, cafe, table, key, MAKING, LIVE))

    def new_code(self, table: str, key: str) -> bool:
        """Make the broker user and a code for an accepted key that asked to join (on the worker thread);
        False when that key never asked through /pair/hello (a table with a password of its own)."""
        with self._lock:
            asked = self._db.execute("SELECT 1 FROM asked WHERE cafe=? AND tbl=? AND key=?",
                                     (self.cafe, table, key)).fetchone() is not None
            if not asked and self._code(table, key) is None:
                return False
            self._db.execute("INSERT INTO codes (cafe, tbl, key, state, made_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT "
                             "DO UPDATE SET state=excluded.state, code=NULL, salt=NULL, password=NULL, problem=NULL",
                             (self.cafe, table, key, MAKING, time.time()))
        self._jobs.put((self.cafe, table, key))
        return True

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                self._issue(*job)
            except Exception as error:  # the staff page says it; the worker goes on
                log.exception("pairing: no code for %s/%s", job[0], job[1])
                self._set_failed(job, f"{type(error).__name__}: {error}")

    def _issue(self, cafe: str, table: str, key: str) -> None:
        password = secrets.token_urlsafe(24)
        try:
            self.add_user(cafe, table, password)
        except BrokerUserError as error:
            self._set_failed((cafe, table, key), str(error))
            return
        now = time.time()
        code, salt = handover.new_code(), handover.new_salt()
        with self._lock:
            self._db.execute("UPDATE codes SET state=?, code=?, salt=?, password=?, made_at=?, until=?, tries_left=?,"
                             " problem=NULL WHERE cafe=? AND tbl=? AND key=? AND state=?",
                             (LIVE, code, salt, password, now, now + handover.CODE_LIFETIME_S, handover.CODE_TRIES,
                              cafe, table, key, MAKING))
        log.info("pairing: table %s/%s (key %s) has its broker user and a code", cafe, table, fingerprint(key))

    def _set_failed(self, job: tuple[str, str, str], problem: str) -> None:
        with self._lock:
            self._db.execute("UPDATE codes SET state=?, problem=?, password=NULL WHERE cafe=? AND tbl=? AND key=?",
                             (FAILED, problem[:500], *job))

    def _code(self, table: str, key: str) -> dict[str, Any] | None:
        """The code row of a key (callers hold the lock, or read a consistent single row)."""
        row = self._db.execute("SELECT state, code, salt, password, made_at, until, tries_left, problem FROM codes "
                               "WHERE cafe=? AND tbl=? AND key=?", (self.cafe, table, key)).fetchone()
        names = ("state", "code", "salt", "password", "made_at", "until", "tries_left", "problem")
        return None if row is None else dict(zip(names, row, strict=True))

    # ------------------------------------------------------------------ the table claims its bundle

    def claim(self, message: dict[str, Any], now: float) -> Reply:
        """The bundle for a table that signs its claim with its key and proves it knows the code."""
        table, key, proof, sig = (message.get(k) for k in ("table", "key", "proof", "sig"))
        if not (contract.is_id(table) and is_public_text(key) and isinstance(proof, str) and isinstance(sig, str)):
            return refusal(400, "table, key, proof and signature are needed")
        table, key = str(table), str(key)
        with self._lock:
            code = self._code(table, key)
        if code is None or code["state"] != LIVE or code["until"] <= now:
            return refusal(410, "no code waits for this table: ask staff for a new one",
                           state=self.where(table, key, now)["state"])
        instance = handover.Instance(self.cafe, table, key, code["salt"])
        try:
            parse_public(key).verify(unb64url(sig, 64), instance.claim_bytes(proof))
        except (InvalidSignature, ValueError):
            return refusal(403, "the claim is not signed by the table's key")
        keys = self._keys_for(instance, code["code"])
        with self._lock:
            code = self._code(table, key)  # again: a parallel claim may have used or spent the code meanwhile
            if code is None or code["state"] != LIVE or code["salt"] != instance.salt:
                return refusal(410, "no code waits for this table: ask staff for a new one", state="expired")
            if not handover.proof_holds(keys, instance, proof):
                left = code["tries_left"] - 1
                self._db.execute("UPDATE codes SET tries_left=?, state=? WHERE cafe=? AND tbl=? AND key=?",
                                 (left, LIVE if left > 0 else VOID, self.cafe, table, key))
                log.warning("pairing: a wrong code for table %s/%s (%d tries left)", self.cafe, table, left)
                return refusal(403, "wrong code", tries_left=left)
            self._db.execute("UPDATE codes SET state=?, password=NULL WHERE cafe=? AND tbl=? AND key=?",
                             (SPENT, self.cafe, table, key))
        bundle = handover.Bundle(self.cafe, table, self.broker, table_user(table), code["password"], self.ca)
        log.info("pairing: table %s/%s took its bundle", self.cafe, table)
        return Reply(200, handover.seal(keys, instance, bundle))

    def _keys_for(self, instance: handover.Instance, code: str) -> handover.Keys:
        """scrypt once per code (a claim may come several times with a wrong proof)."""
        cached = (instance.table, instance.key, instance.salt, code)
        found = self._derived.get(cached)
        if found is None:
            found = handover.derive(code, instance)
            self._derived = {cached: found}  # one at a time is plenty: claims follow a staff's typing
        return found

    # ------------------------------------------------------------------ the staff page

    def codes(self, now: float) -> list[dict[str, Any]]:
        """Every accepted table that asked to join and has no bundle yet: its code (or why none), newest first."""
        with self._lock:
            rows = self._db.execute("SELECT tbl, key FROM asked UNION SELECT tbl, key FROM codes").fetchall()
            found = [(tbl, key, self._code(tbl, key)) for tbl, key in rows]
        out = []
        for table, key, code in found:
            if self.keys.state(self.cafe, table, key) != "accepted" or (code and code["state"] == SPENT):
                continue
            state = code["state"] if code else VOID
            if state == LIVE and code and code["until"] <= now:
                state = VOID
            out.append({"table": table, "key": key, "fingerprint": fingerprint(key), "state": state,
                        "code": handover.shown(code["code"]) if state == LIVE and code else None,
                        "until": code["until"] if code else None, "tries_left": code["tries_left"] if code else 0,
                        "problem": code["problem"] if code else None, "made_at": code["made_at"] if code else 0})
        return sorted(out, key=lambda c: -(c["made_at"] or 0))
