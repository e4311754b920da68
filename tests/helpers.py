"""Small helpers to drive a Referee from a test."""

from __future__ import annotations

from typing import Any

from referee.table import FORMAT, Referee


def table(game: str, players: list[str], **header: Any) -> Referee:
    return Referee({"format": FORMAT, "game": game, "players": players, **header})


def play(referee: Referee, player: str, card: str, **fields: Any) -> Any:
    return referee.apply({"type": "play", "player": player, "card": card, **fields})


def ok(answer: Any) -> None:
    assert answer.ok, f"{answer.error}: {answer.message()}"
