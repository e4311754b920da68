"""The hub's one writer: takes what the subscriber received, stores it in batches, then tells everyone.

For each batch: one transaction in which `hub.admission` decides what of it is stored (signature, chain), held,
kept aside or dropped; then the broker's PUBACKs (manual acks, so nothing is acknowledged before it is on disk),
`replay` requests for gaps, the facts of games that ended (`hub.facts`: replayed through the referee), the
ratings, and the live pages. Runs in its own thread; the MQTT network thread only enqueues. The staff's
decisions on a table's key come in through the same queue, so only this thread writes records.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hub import facts
from hub.admission import Admission, Outcome
from hub.describe import describe, verdict
from hub.pairing import Decision, Pairing
from hub.quota import DAILY_BYTES, DailyQuota
from hub.ratelog import RateLimitedLog
from hub.ratings import Ladder, Result, fold
from hub.store import Record, Status, Store

log = logging.getLogger("hub.ingest")
problems = RateLimitedLog(log)

BATCH = 500
REPLAY_EVERY_S = 2.0  # at most one replay request per table in this time (a table replays everything from `from`)
STATUS_GRACE_S = 1.0  # a status may announce records still on their way: wait this long before asking
GAP_GIVE_UP_S = 600.0  # a gap no replay filled in this time is left to the staff (shown on /staff, /api/health)


@dataclass(frozen=True, slots=True)
class Incoming:
    """One received message — a log record or a status (`kind`), with its broker acknowledgement — or what else
    the writer must do: `bad` (a message on a table's log topic that is no record of the contract; `body` says
    why), `decided` (the staff decided on one of the table's keys: its held records are looked at again)."""

    kind: str
    cafe: str
    table: str
    body: dict[str, Any]
    received: float
    ack: Callable[[], None] | None = None


Listener = Callable[[dict[str, Any]], None]
ReplayRequest = Callable[[str, str, int], None]


class Ingest:
    def __init__(self, store: Store, request_replay: ReplayRequest, pairing: Pairing | None = None,
                 daily_quota: int = DAILY_BYTES):
        self.store = store
        self.request_replay = request_replay
        self.pairing = pairing or Pairing(store)
        self.pairing.on_decision(self._decided)
        self.admission = Admission(store, self.pairing, quota=DailyQuota(daily_quota))
        self.queue: queue.SimpleQueue[Incoming | None] = queue.SimpleQueue()
        self.listeners: list[Listener] = []
        self.announced: dict[tuple[str, str], tuple[int, float]] = {}  # status n and when it came
        self.asked: dict[tuple[str, str], tuple[int, float]] = {}  # last replay request: (from, when)
        self.gap_since: dict[tuple[str, str], tuple[int, float]] = {}  # (first missing n, since when)
        self.given_up: dict[tuple[str, str], tuple[int, float]] = {}  # gaps the hub stopped asking about
        self.dropped = 0  # messages the writer could not store at all (each acknowledged and logged)
        self.ladder_lock = threading.Lock()
        self.stored = 0
        for cafe, table, uid in store.ended_unsettled():  # a migration, or a kill between a commit and a replay
            self._guarded(self._settle, [(cafe, table, uid)], False)
        self.ladder = self._fold()

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

    def _decided(self, decision: Decision) -> None:
        """The staff accepted or refused a key (any thread): the writer looks at the table's held records again."""
        self.put(Incoming("decided", decision.cafe, decision.table, {"key": decision.key}, decision.at))

    def process(self, batch: list[Incoming]) -> None:
        out, statuses = self._store(batch)
        stored = time.time()
        for item in batch:  # on disk (or dropped): now the broker may forget them
            self._ack(item)
        self.stored += len(out.stored)
        for record, _chain in out.stored:
            self._guarded(self._tell_record, record, stored)
        for status, body in statuses:
            self.announced[(status.cafe, status.table)] = (int(body.get("n") or 0), status.received)
            self._guarded(self._tell, {"type": "status", "cafe": status.cafe, "table": status.table, "status": body,
                                       "online": bool(body.get("online")), "seen": status.received})
        for decision in out.decisions:
            self.pairing.told(decision)
        if out.games:
            self._guarded(self._settle, sorted(out.games), True)
        now = time.time()
        for (cafe, table), first in out.replay.items():
            self._guarded(self._ask, cafe, table, first, now)
        for cafe, table in {(r.cafe, r.table) for r, _ in out.stored}:
            self._guarded(self._ask_if_missing, cafe, table, now, False)
        for item in batch:  # a key just accepted: what its status announced and no record brought is asked for
            if item.kind == "decided":
                self._guarded(self._ask_if_missing, item.cafe, item.table, now, True)
        for trouble in out.trouble:
            self._guarded(self._tell, trouble)

    def _store(self, batch: list[Incoming]) -> tuple[Outcome, list[tuple[Status, dict[str, Any]]]]:
        """Write the batch in one transaction; when that fails, item by item, dropping (and logging) each
        item that cannot be stored, so one poisoned record costs only itself."""
        try:
            return self._write(batch)
        except Exception as error:
            self._rolled_back()
            problems.warning("batch", "a batch of %d could not be stored (%r): storing one by one", len(batch), error)
        out, statuses = Outcome(), []
        for item in batch:
            try:
                one, kept = self._write([item])
            except Exception as error:
                self._rolled_back()
                self.dropped += 1
                problems.warning(f"record:{item.cafe}/{item.table}", "dropped a %s of %s/%s that cannot be "
                                 "stored: %r", item.kind, item.cafe, item.table, error)
                continue
            _merge(out, one)
            statuses += kept
        return out, statuses

    def _rolled_back(self) -> None:
        self.admission.forget()
        self.pairing.reload()

    def _write(self, batch: list[Incoming]) -> tuple[Outcome, list[tuple[Status, dict[str, Any]]]]:
        out = Outcome()
        statuses: list[tuple[Status, dict[str, Any]]] = []
        with self.store.transaction() as db:
            for item in batch:
                if item.kind == "log":
                    self.admission.record(db, Record(item.cafe, item.table, item.body, item.received), out)
                elif item.kind == "status":
                    status = Status(item.cafe, item.table, item.body, item.received)
                    kept = self.admission.status(db, status, out)
                    if kept is not None:
                        statuses.append((status, kept))
                elif item.kind == "decided":
                    self.admission.release(db, item.cafe, item.table, out)
                elif item.kind == "bad":
                    self.admission.drop(db, item.cafe, item.table, str(item.body.get("reason")),
                                        str(item.body.get("sample", "")), item.received, out)
        return out, statuses

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
        with self.store.lock:
            first = self.admission.missing(self.store.db, cafe, table, announced)
        if first is None:
            self.gap_since.pop(key, None)
            self.given_up.pop(key, None)
            return
        self._ask(cafe, table, first, now)

    def _ask(self, cafe: str, table: str, first: int, now: float) -> None:
        key = (cafe, table)
        if self._gave_up(key, first, now):
            return
        asked_from, when = self.asked.get(key, (-1, 0.0))
        if now - when < REPLAY_EVERY_S and asked_from <= first:  # the table is answering the last request
            return
        self.asked[key] = (first, now)
        log.info("table %s/%s: asking for a replay from n=%d", cafe, table, first)
        self.request_replay(cafe, table, first)
        # Records stored later than the first missing one also come again: they are duplicates then.

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
            out.append({"cafe": cafe, "table": table, "missing_from": first, "upto": first - 1, "since": since})
        return out

    # ------------------------------------------------------------------ facts and ratings

    def _settle(self, games: list[tuple[str, str, str]], rate: bool) -> None:
        """Derive each game's facts again from its records (`hub.facts`) and write them; the ratings follow: a
        game rated before is folded again from the start, a game newly verified and finished is added."""
        refold = False
        for cafe, table, uid in games:
            records, complete, chain = self.store.game_records(cafe, table, uid)
            found = facts.derive(records, complete, chain, self.store.end_received(cafe, table, uid))
            if found is None:
                continue
            with self.store.transaction() as db:
                before = self.store.write_game(db, cafe, table, uid, found.row())
            refold |= before is not None and before[0] == "verified" and before[1] == "finished"
            if rate and not refold and found.check == "verified" and found.status == "finished":
                with self.ladder_lock:
                    self.ladder.add(Result(found.game, found.players, dict(found.scores or {}), list(found.winners),
                                           list(found.guests), found.kind, found.ranked))
            self._tell({"type": "game", "cafe": cafe, "table": table, "game_uid": uid, "game": found.game,
                        "status": found.status, "check": found.check, "dispute": found.dispute,
                        "winners": list(found.winners), "ended": found.end_n is not None})
        if rate and refold:
            self._refold()

    def _fold(self) -> Ladder:
        return fold(self.store.verified_results(), self.store.aliases())

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
        else:  # the end's time only: its outcome is the game's facts, told once derived
            news |= {"status": None, "scores": None, "winners": None}
        return news

    def _tell_record(self, record: Record, stored: float) -> None:
        self._tell(self._record_news(record) | {"stored": stored})

    def _tell(self, news: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(news)
            except Exception:  # a page that went away must not stop the writer
                log.exception("listener failed")


def _merge(into: Outcome, one: Outcome) -> None:
    into.stored += one.stored
    into.games |= one.games
    for key, first in one.replay.items():
        into.replay[key] = min(into.replay.get(key, first), first)
    into.decisions += one.decisions
    into.trouble += one.trouble
