"""A game's facts — players, status, scores, winners, and whether the table's answers hold — from its records
replayed through the referee: the one place the hub learns what happened in a game.

Nothing a record claims becomes a fact by being claimed: the players are the header the referee was started
with, the scores and winners are the referee's after every event, the status is the referee's (finished) or,
when the table ended the game before that, abandoned. An `end` record only says when the table ended the game;
one that disagrees with the replay (another score, other winners, "finished" for a game the referee has not
finished, "abandoned" for one it has) makes the game disputed, as does a table's answer to an event that the
hub's referee answers otherwise, or a second `start` for the same game. Until the records from the start to the
last end are all stored, the game is playing and pending. Nothing here does I/O.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hub.identities import guests_of
from hub.verify import DISPUTED, VERIFIED, Verdict, verify

PENDING = "pending"
PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the hub holds true about one game (its row in `games`)."""

    game: str
    players: list[str]
    start_n: int
    status: str  # playing | finished | abandoned
    check: str  # pending | verified | disputed
    scores: dict[str, Any] | None = None
    winners: tuple[str, ...] = ()
    dispute: dict[str, Any] | None = None
    end_n: int | None = None
    started_at: str | None = None
    ended_at: str | None = None
    ended: float | None = None  # the hub's receive time of the last end
    chain: int = 0
    signed: bool = True
    guests: tuple[str, ...] = ()  # seats that kept their default names (`hub.identities`): never rated
    kind: str | None = None  # what the game ranks by (`referee.ranking`), from its definition and options
    ranked: dict[str, int] | None = None  # each player's number it ranks by (tasks, points …), by the replay

    def row(self) -> dict[str, Any]:
        """The `games` columns (`hub.store.Store.write_game`)."""
        return {"game": self.game, "players": json.dumps(self.players, ensure_ascii=False), "start_n": self.start_n,
                "end_n": self.end_n, "status": self.status, "checked": self.check,
                "dispute": json.dumps(self.dispute) if self.dispute else None,
                "scores": None if self.scores is None else json.dumps(self.scores, ensure_ascii=False),
                "winners": json.dumps(list(self.winners), ensure_ascii=False) if self.scores is not None else None,
                "started_at": self.started_at, "ended_at": self.ended_at, "ended": self.ended,
                "chain": self.chain, "signed": int(self.signed),
                "guests": json.dumps(list(self.guests), ensure_ascii=False), "kind": self.kind,
                "ranked": None if self.ranked is None else json.dumps(self.ranked, ensure_ascii=False)}


def started(start: Mapping[str, Any], chain: int, signed: bool = True) -> GameFacts:
    """A game as its `start` record begins it: its header's game and seats, nothing played yet."""
    header = start.get("header") if isinstance(start.get("header"), Mapping) else {}
    players = header.get("players") if isinstance(header.get("players"), list) else []  # type: ignore[union-attr]
    return GameFacts(str(header.get("game", "?")), [str(p) for p in players], int(start["n"]), PLAYING,  # type: ignore[union-attr]
                     PENDING, started_at=start.get("at"), chain=chain, signed=signed, guests=tuple(guests_of(start)))


def derive(records: Sequence[Mapping[str, Any]], complete: bool, chain: int = 0,
           ended: float | None = None) -> GameFacts | None:
    """The facts of one game from its records in order of n (`_signed` marks the signed ones); `complete`: no
    record between the first and the last is missing; `ended`: the hub's receive time of the last end."""
    starts = [r for r in records if r.get("kind") == "start"]
    if not starts:
        return None
    start = starts[0]
    signed = all(r.get("_signed", True) for r in records)
    facts = started(start, chain, signed)
    ends = [r for r in records if r.get("kind") == "end"]
    if not ends:
        return facts
    end = ends[-1]  # an undo after the end reopened the game: the last end counts
    facts = _with(facts, end_n=int(end["n"]), ended_at=end.get("at"), ended=ended)
    if not complete:
        return facts
    events = [r for r in records if r.get("kind") == "event" and int(r["n"]) > int(start["n"])]
    verdict = verify(start, events, end)
    final = verdict.final
    finished = bool(final.get("finished"))
    status = FINISHED if finished else ABANDONED
    if verdict.status == VERIFIED and end.get("status") == ABANDONED and finished:
        verdict = Verdict(DISPUTED, end.get("n"), None, {"finished": False}, {"finished": True}, final)
    verdict = _second_start(verdict, starts) or _early_event(verdict, records, start) or verdict
    return _with(facts, status=status, check=verdict.status, scores=dict(final.get("scores") or {}),
                 winners=tuple(final.get("winners") or ()), kind=final.get("kind"), ranked=final.get("ranked"),
                 dispute=verdict.to_json() if verdict.status == DISPUTED else None)


def _second_start(verdict: Verdict, starts: Sequence[Mapping[str, Any]]) -> Verdict | None:
    """A second `start` for the game: a conflict (kept aside by the admission), and the game disputed there."""
    if len(starts) < 2 or verdict.status == DISPUTED:
        return None
    return Verdict(DISPUTED, starts[1].get("n"), None, {"ok": True}, {"ok": False, "error": "second-start"},
                   verdict.final)


def _early_event(verdict: Verdict, records: Sequence[Mapping[str, Any]], start: Mapping[str, Any]) -> Verdict | None:
    """An event of the game logged before its start: no table writes one."""
    early = next((r for r in records if r.get("kind") == "event" and int(r["n"]) < int(start["n"])), None)
    if early is None or verdict.status == DISPUTED:
        return None
    return Verdict(DISPUTED, early.get("n"), None, {"ok": True}, {"ok": False, "error": "before-start"},
                   verdict.final)


def _with(facts: GameFacts, **changes: Any) -> GameFacts:
    return replace(facts, **changes)
