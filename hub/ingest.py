"""The hub's one writer: takes what the subscriber received, stores it in batches, then tells everyone.

For each batch: one transaction (records and statuses), then the broker's PUBACKs
(manual acks, so nothing is acknowledged before it is on disk), then gap checks
(`replay` requests), verification of games that are now complete, the ratings, and
the live pages. Runs in its own thread; the MQTT network thread only enqueues.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hub.describe import describe, verdict
from hub.gaps import Gaps
from hub.identities import guests_of
from hub.ratelog import RateLimitedLog
from hub.ratings import Ladder, Result, fold
from hub.store import Record, Status, Store
from hub.verify import verify

log = logging.getLogger("hub.ingest")
problems = RateLimitedLog(log)

BATCH = 500
REPLAY_EVERY_S = 2.0  # at most one replay request per table in this time (a table replays everything from `from`)
STATUS_GRACE_S = 1.0  # a status may announce records still on their way: wait this long before asking
GAP_GIVE_UP_S = 600.0  # a gap no replay filled in this time is left to the staff (shown on /staff, /api/health)


@dataclass(frozen=True, slots=True)
class Incoming:
    """One received message: a log record or a status (`kind`), with its broker acknowledgement."""

    kind: str
    cafe: str
    table: str
    body: dict[str, Any]
    received: float
    ack: Callable[[], None] | None = None


Listener = Callable[[dict[str, Any]], None]
ReplayRequest = Callable[[str, str, int], None]


class Ingest:
    def __init__(self, store: Store, request_replay: ReplayRequest):
        self.store = store
        self.request_replay = request_replay
        self.queue: queue.SimpleQueue[Incoming | None] = queue.SimpleQueue()
        self.listeners: list[Listener] = []
        self.gaps = Gaps()
        self.gaps.load(((c, t), n) for c, t, n in store.numbers())
        self.announced: dict[tuple[str, str], tuple[int, float]] = {}  # status n and when it came
        self.asked: dict[tuple[str, str], tuple[int, float]] = {}  # last replay request: (upto then, when)
        self.gap_since: dict[tuple[str, str], tuple[int, float]] = {}  # (first missing n, since when)
        self.given_up: dict[tuple[str, str], tuple[int, float]] = {}  # gaps the hub stopped asking about
        self.dropped = 0  # messages or records the writer could not store (each acknowledged and logged)
        self.ladder_lock = threading.Lock()
        self.ladder = self._fold()
        self.stored = 0
        for cafe, table, uid in store.unchecked():
            self._guarded(self._check, cafe, table, uid)

    # ------------------------------------------------------------------ the loop

    def put(self, item: Incoming) -> None:
        self.queue.put(item)

    def stop(self) -> None:
        self.queue.put(None)

    def run(self) -> None:
        """Until `stop()`: wait for a message, take whatever else is queued (up to BATCH), write it as one."""
        while True:
            try:
                first = self.queue.get(timeout=0.5)
            except queue.Empty:
                self._guarded(self.tick, time.time())
                continue
            if first is None:
                return
            batch = [first]
            while len(batch) < BATCH:
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._guarded(self.process, batch)
                    return
                batch.append(item)
            self._guarded(self.process, batch)
            self._guarded(self.tick, time.time())

    @staticmethod
    def _guarded(step: Callable[..., None], *args: Any) -> None:
        """One step of the loop; whatever goes wrong in it is logged and the writer goes on with the next."""
        try:
            step(*args)
        except Exception as error:  # the writer must outlive any one batch
            problems.warning(f"step:{step.__name__}", "the writer's %s failed: %r", step.__name__, error)

    def process(self, batch: list[Incoming]) -> None:
        new, kept, statuses, to_check = self._store(batch)
        stored = time.time()
        for item in batch:  # on disk (or dropped as unstorable): now the broker may forget them
            self._ack(item)
        self.stored += len(new)
        for record in new:
            self.gaps.saw((record.cafe, record.table), record.n)
        for record in new:
            self._guarded(self._tell_record, record, stored)
        for status, body in zip(statuses, kept, strict=True):
            self.announced[(status.cafe, status.table)] = (int(body.get("n") or 0), status.received)
            self._guarded(self._tell, {"type": "status", "cafe": status.cafe, "table": status.table, "status": body,
                                       "online": bool(body.get("online")), "seen": status.received})
        for cafe, table, uid in to_check:
            self._guarded(self._check, cafe, table, uid)
        for cafe, table in {(r.cafe, r.table) for r in new}:
            self._guarded(self._ask_if_missing, cafe, table, time.time(), False)

    def _store(self, batch: list[Incoming]) -> tuple[list[Record], list[dict], list[Status], set]:
        """Write the batch in one transaction; when that fails, item by item, dropping (and logging) each
        item that cannot be stored, so one poisoned record costs only itself."""
        try:
            return self._write(batch)
        except Exception as error:
            problems.warning("batch", "a batch of %d could not be stored (%r): storing one by one", len(batch), error)
        new: list[Record] = []
        kept: list[dict] = []
        statuses: list[Status] = []
        to_check: set[tuple[str, str, str]] = set()
        for item in batch:
            try:
                one_new, one_kept, one_status, one_check = self._write([item])
            except Exception as error:
                self.dropped += 1
                problems.warning(f"record:{item.cafe}/{item.table}", "dropped a %s of %s/%s that cannot be "
                                 "stored: %r", item.kind, item.cafe, item.table, error)
                continue
            new += one_new
            kept += one_kept
            statuses += one_status
            to_check |= one_check
        return new, kept, statuses, to_check

    def _write(self, batch: list[Incoming]) -> tuple[list[Record], list[dict], list[Status], set]:
        records = [Record(i.cafe, i.table, i.body, i.received) for i in batch if i.kind == "log"]
        statuses = [Status(i.cafe, i.table, i.body, i.received) for i in batch if i.kind == "status"]
        to_check: set[tuple[str, str, str]] = set()
        for record in records:
            key = (record.cafe, record.table)
            if record.kind == "end" or self.gaps.behind(key, record.n):
                to_check.add((record.cafe, record.table, record.game_uid))
        new, kept = self.store.write(records, statuses)
        return new, kept, statuses, to_check

    @staticmethod
    def _ack(item: Incoming) -> None:
        if item.ack is None:
            return
        try:
            item.ack()
        except Exception as error:  # the connection it came on is gone: the broker sends it again
            problems.warning("ack", "could not acknowledge a message: %r", error)

    def tick(self, now: float) -> None:
        """Ask for records a status announced that never came (the last ones before a broker restart)."""
        for (cafe, table), (_, at) in list(self.announced.items()):
            if now - at >= STATUS_GRACE_S:
                self._guarded(self._ask_if_missing, cafe, table, now, True)

    # ------------------------------------------------------------------ gaps

    def _ask_if_missing(self, cafe: str, table: str, now: float, from_status: bool) -> None:
        key = (cafe, table)
        announced = self.announced.get(key, (0, 0.0))[0] if from_status else 0
        first = self.gaps.missing(key, announced)
        if first is None:
            self.gap_since.pop(key, None)
            self.given_up.pop(key, None)
            return
        if self._gave_up(key, first, now):
            return
        _, when = self.asked.get(key, (-1, 0.0))
        if now - when < REPLAY_EVERY_S:  # the table is answering the last request: give it time
            return
        self.asked[key] = (self.gaps.upto(key), now)
        log.info("table %s/%s: asking for a replay from n=%d", cafe, table, first)
        self.request_replay(cafe, table, first)
        # Records stored later than the first missing one also come again: the store ignores them.

    def _gave_up(self, key: tuple[str, str], first: int, now: float) -> bool:
        """A gap that replays have not filled for GAP_GIVE_UP_S (the table lost those records, or never had
        them): stop asking, say so once, and leave it to the staff. A gap that moves on starts afresh."""
        since = self.gap_since.get(key)
        if since is None or since[0] != first:
            self.gap_since[key] = (first, now)
            self.given_up.pop(key, None)
            return False
        if now - since[1] < GAP_GIVE_UP_S:
            return False
        if key not in self.given_up:
            self.given_up[key] = (first, since[1])
            log.warning("table %s/%s: records from n=%d still missing after %d s of replay requests; no longer "
                        "asking (shown on the staff page)", key[0], key[1], first, int(now - since[1]))
        return True

    def gaps_given_up(self) -> list[dict[str, Any]]:
        """The gaps the hub stopped asking about, for the staff page and /api/health."""
        out = []
        for (cafe, table), (first, since) in sorted(list(self.given_up.items())):
            out.append({"cafe": cafe, "table": table, "missing_from": first, "upto": self.gaps.upto((cafe, table)),
                        "since": since})
        return out

    # ------------------------------------------------------------------ verification and ratings

    def _check(self, cafe: str, table: str, uid: str) -> None:
        start, events, end, complete = self.store.game_records(cafe, table, uid)
        if not complete or start is None or end is None:
            return
        result = verify(start, events, end)
        before = self.store.checked(cafe, table, uid)
        self.store.set_checked(cafe, table, uid, result.status, result.to_json() if result.n is not None else None)
        header = start.get("header") or {}
        if before != "pending":  # finished again after an undo: its old result leaves the ratings
            ladder = self._fold()
            with self.ladder_lock:
                self.ladder = ladder
        elif result.status == "verified" and end.get("status") == "finished":
            with self.ladder_lock:
                self.ladder.add(Result(str(header.get("game")), list(header.get("players", [])),
                                       dict(end.get("scores") or {}), list(end.get("winners") or []),
                                       guests_of(start)))
        self._tell({"type": "game", "cafe": cafe, "table": table, "game_uid": uid, "game": header.get("game"),
                    "status": end.get("status"), "check": result.status, "dispute": result.to_json()})

    def _fold(self) -> Ladder:
        results = (Result(g, p, s, w, guests) for g, p, s, w, guests in self.store.verified_results())
        return fold(results, self.store.aliases())

    def merge_player(self, alias: str, name: str) -> None:
        """A staff action: `alias` is another spelling of `name`; every rating is folded again."""
        self.store.merge_player(alias, name, time.time())
        self._refold()

    def unmerge_player(self, alias: str) -> str | None:
        """Undo a merge (the name `alias` had been merged into, or None); every rating is folded again."""
        name = self.store.unmerge_player(alias, time.time())
        self._refold()
        return name

    def _refold(self) -> None:
        with self.store.lock:  # the writer's connection: read while no batch is half written
            ladder = self._fold()
        with self.ladder_lock:
            self.ladder = ladder

    def board(self, game: str) -> list[dict[str, Any]]:
        with self.ladder_lock:
            return [{"player": s.player, "rating": round(s.rating, 2), "mu": round(s.mu, 2),
                     "sigma": round(s.sigma, 2), "played": s.played, "wins": s.wins}
                    for s in self.ladder.board(game)]

    # ------------------------------------------------------------------ live news

    def _record_news(self, record: Record) -> dict[str, Any]:
        body = record.body
        news = {"type": "record", "cafe": record.cafe, "table": record.table, "n": record.n, "kind": record.kind,
                "game_uid": body.get("game_uid"), "at": body.get("at"), "received": record.received}
        if record.kind == "event":
            answer = body.get("answer") or {}
            news |= {"ok": bool(answer.get("ok")), "error": answer.get("error"), "seq": answer.get("seq"),
                     "text": {lang: describe(body.get("event"), lang) for lang in ("de", "en")},
                     "verdict": {lang: verdict(answer, lang, body.get("event")) for lang in ("de", "en")}}
        elif record.kind == "start":
            header = body.get("header") or {}
            news |= {"game": header.get("game"), "players": header.get("players", [])}
        else:
            news |= {"status": body.get("status"), "scores": body.get("scores"), "winners": body.get("winners")}
        return news

    def _tell_record(self, record: Record, stored: float) -> None:
        self._tell(self._record_news(record) | {"stored": stored})

    def _tell(self, news: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(news)
            except Exception:  # a page that went away must not stop the writer
                log.exception("listener failed")
