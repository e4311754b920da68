"""A table simulated from transcripts or from the referee's simulator: the log records a kiosk publishes.

Each record is what `shared/cafe-protocol.md` says a table sends on its `log` topic:
the start (the transcript header), every event with the referee's answer (rejected
ones included), the end. `n` counts on across games like a real table's log.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cafe.signing import RecordSigner, new_private_key
from referee.sim import random_game
from referee.table import Referee
from referee.transcript import content_lines, judge, parse

TRANSCRIPTS = Path(__file__).resolve().parents[1] / ".." / "shared" / "transcripts"


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).astimezone().isoformat(timespec="milliseconds")


def transcript(path: Path) -> tuple[dict[str, Any], list[Any]]:
    """A transcript file's header and event lines (`expect` lines dropped)."""
    lines = [parse(t) for t in content_lines(path.read_text(encoding="utf-8").splitlines())]
    events = [e for e in lines[1:] if not (isinstance(e, dict) and e.get("type") == "expect")]
    return lines[0], events


class LoggedTable:
    """A table's durable log, made record by record as a kiosk makes it."""

    def __init__(self, table: str, first_n: int = 1, signer: RecordSigner | None = None, log: str = ""):
        self.table = table
        self.log = log  # names a second log of the same table (a new SD card) in its games' uids
        self.n = first_n - 1
        self.games = 0
        self.signer = signer or RecordSigner(new_private_key())
        self.prev: str | None = None if first_n == 1 else "A" * 43  # a log whose first records went elsewhere

    @property
    def key(self) -> str:
        """The table's public key, as its status carries it."""
        return self.signer.public

    def seal(self, record: dict[str, Any]) -> dict[str, Any]:
        """The record sealed as the next of this table's chain (`prev` = the last record's `h`)."""
        sealed = self.signer.seal(record, self.prev)
        self.prev = sealed["h"]
        return sealed

    def reseal(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The table's latest records sealed again after a test changed them (a uid, a clock, a field): what a
        kiosk would have written had they been so from the start."""
        self.prev = records[0].get("prev")
        return [self.seal({k: v for k, v in r.items() if k not in ("h", "sig", "prev")}) for r in records]

    def _record(self, uid: str, kind: str, **fields: Any) -> dict[str, Any]:
        self.n += 1
        return self.seal({"v": 1, "table": self.table, "n": self.n, "at": now_iso(), "game_uid": uid, "kind": kind}
                         | fields)

    def game(self, header: dict[str, Any], events: list[Any], falsify: int | None = None,
             end: str | None = None) -> Iterator[dict[str, Any]]:
        """Every record of one game; `falsify` = the seq whose answer the table reports wrongly."""
        self.games += 1
        uid = f"{self.table}{self.log}-{self.games}"
        referee = Referee(header)
        yield self._record(uid, "start", header=header)
        for seq, event in enumerate(events, 1):
            answer = judge(referee, event)
            said = {"seq": seq, "ok": answer.ok, "error": answer.error}
            if seq == falsify:
                said = {"seq": seq, "ok": not answer.ok, "error": None if not answer.ok else "not-your-turn"}
            yield self._record(uid, "event", event=json.loads(json.dumps(event)), answer=said)
        state = referee.state()
        status = end or ("finished" if state.get("finished") else "abandoned")
        yield self._record(uid, "end", status=status, scores=state.get("scores", {}),
                           winners=state.get("winners", []))


def random_records(table: LoggedTable, game: str, seed: int, players: int | None = None,
                   falsify: int | None = None) -> list[dict[str, Any]]:
    header, events = random_game(game, seed, players)
    return list(table.game(header, events, falsify=falsify))


def status(table: str, n: int, **fields: Any) -> dict[str, Any]:
    return {"v": 1, "table": table, "online": True, "screen": "table", "game": None, "game_uid": None,
            "players": [], "turn": None, "scores": {}, "finished": False, "n": n, "at": now_iso()} | fields


def paired(ingest: Any, cafe: str, *tables: LoggedTable) -> None:
    """The staff accepted these tables' keys (as the staff page does: `hub.pairing.Pairing.accept`); whatever the
    hub held of them is looked at again."""
    from hub.ingest import Incoming

    for table in tables:
        decision = ingest.pairing.accept(cafe, table.table, table.key, time.time())
        ingest.process([Incoming("decided", cafe, table.table, {"key": decision.key}, decision.at)])
    while not ingest.queue.empty():  # the decisions the pairing queued for the writer: done just now
        ingest.queue.get_nowait()
