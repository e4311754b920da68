"""Re-check a finished game: replay its `start` and `event` records through the referee core.

A table reports, with every event, the answer its referee gave. The hub asks its own
referee the same questions in the same order; the game is `verified` when every
answer (seq, ok, error) and, for a finished game, the final scores and winners agree,
else `disputed` at the first record where they differ. Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.answers import HeaderError
from referee.ranking import ranked_values, score_kind
from referee.table import Referee
from referee.transcript import judge

VERIFIED = "verified"
DISPUTED = "disputed"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The hub's verdict on one game; `n`/`seq` name the first record that differs (disputed only)."""

    status: str
    n: int | None = None
    seq: int | None = None
    said: dict[str, Any] = field(default_factory=dict)
    says: dict[str, Any] = field(default_factory=dict)
    final: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "n": self.n, "seq": self.seq, "said": self.said, "says": self.says}


def _said(answer: Any) -> dict[str, Any]:
    if not isinstance(answer, Mapping):
        return {"seq": None, "ok": None, "error": None}
    return {"seq": answer.get("seq"), "ok": answer.get("ok"), "error": answer.get("error")}


def ranked_by(header: Mapping[str, Any], players: Sequence[str], state: Mapping[str, Any]) -> dict[str, Any]:
    """What the game ranks by as its definition says (`kind`) and each player's number (`ranked`), from the
    replayed state: Profi-Sort's beginner game by the tasks laid, not by its penalty scores (all 0)."""
    try:
        kind = score_kind(str(header.get("game")), header.get("options") or {})
    except KeyError:
        return {}
    return {"kind": kind, "ranked": ranked_values(kind, list(players), state)}


def verify(start: Mapping[str, Any], events: Sequence[Mapping[str, Any]], end: Mapping[str, Any]) -> Verdict:
    """Replay one game's records (`events` in order of `n`) and compare every answer the table gave. The replay
    goes on past the first answer that differs, so `final` is always the referee's end of the game."""
    try:
        referee = Referee(start.get("header"))  # type: ignore[arg-type]
    except HeaderError as error:
        return Verdict(DISPUTED, start.get("n"), 0, {"ok": True}, {"ok": False, "error": error.code})
    first: Verdict | None = None
    for seq, record in enumerate(events, 1):
        answer = judge(referee, record.get("event"))
        says = {"seq": seq, "ok": answer.ok, "error": answer.error}
        said = _said(record.get("answer"))
        if said != says and first is None:
            first = Verdict(DISPUTED, record.get("n"), seq, said, says)
    state = referee.state()
    final = {"scores": state.get("scores", {}), "winners": state.get("winners", []),
             "finished": bool(state.get("finished"))} | ranked_by(referee.header, referee.players, state)
    if first is not None:
        return Verdict(first.status, first.n, first.seq, first.said, first.says, final)
    if end.get("status") == "finished":
        said = {"finished": True, "scores": end.get("scores"), "winners": end.get("winners")}
        says = {"finished": final["finished"], "scores": final["scores"], "winners": final["winners"]}
        if said != says:
            return Verdict(DISPUTED, end.get("n"), None, said, says, final)
    return Verdict(VERIFIED, final=final)
