"""A table simulated from transcripts or from the referee's simulator: the log records a kiosk publishes.

Each record is what `shared/cafe-protocol.md` says a table sends on its `log` topic:
the start (the transcript header), every event with the referee's answer (rejected
ones included), the end. `n` counts on across games like a real table's log.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


class SimTable:
    """A table's durable log, made record by record as a kiosk makes it."""

    def __init__(self, table: str, first_n: int = 1):
        self.table = table
        self.n = first_n - 1
        self.games = 0

    def _record(self, uid: str, kind: str, **fields: Any) -> dict[str, Any]:
        self.n += 1
        return {"v": 1, "table": self.table, "n": self.n, "at": now_iso(), "game_uid": uid, "kind": kind} | fields

    def game(self, header: dict[str, Any], events: list[Any], falsify: int | None = None,
             end: str | None = None) -> Iterator[dict[str, Any]]:
        """Every record of one game; `falsify` = the seq whose answer the table reports wrongly."""
        self.games += 1
        uid = f"{self.table}-{self.games}"
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


def random_records(table: SimTable, game: str, seed: int, players: int | None = None,
                   falsify: int | None = None) -> list[dict[str, Any]]:
    header, events = random_game(game, seed, players)
    return list(table.game(header, events, falsify=falsify))


def status(table: str, n: int, **fields: Any) -> dict[str, Any]:
    return {"v": 1, "table": table, "online": True, "screen": "table", "game": None, "game_uid": None,
            "players": [], "turn": None, "scores": {}, "finished": False, "n": n, "at": now_iso()} | fields
