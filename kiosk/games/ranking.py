"""The end of a game as a ranking: who came first, second, third … with their scores, ties sharing a place.

How a game's `scores` read differs (its rules file says so, its definition declares it): points where more
is better, penalty points where fewer is better (a beginner game may count tasks done), and finishing places
where `scores` already is the place (0 = not out = last).
Places are "standard competition" ranks: two players tied for first are both 1st, the next is 3rd.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.registry import DEFINITIONS, FEWER_WINS, MORE_WINS, PLACES, TASKS

__all__ = ["FEWER_WINS", "MORE_WINS", "PLACES", "TASKS", "Place", "rank", "score_kind"]


@dataclass(frozen=True, slots=True)
class Place:
    player: str
    place: int  # 1-based; tied players share it
    score: int  # the number the game scores by (points, penalty points, finishing place, tasks)
    kind: str


def score_kind(game_id: str, options: Mapping[str, Any]) -> str:
    """As the game declares it (`GameDefinition.score`); KeyError for a game nobody declared."""
    return DEFINITIONS[game_id].score_kind(options)


def rank(game_id: str, options: Mapping[str, Any], players: Sequence[str], state: Mapping[str, Any]) -> list[Place]:
    """The players best first; equal scores share a place (1, 1, 3); seat order breaks display ties only."""
    kind = score_kind(game_id, options)
    scores = dict(state.get("scores") or {})
    if kind == TASKS:
        scores = {p: len((state.get("tasks_done") or {}).get(p, ())) for p in players}
    last = len(players) + 1

    def key(player: str) -> int:
        value = int(scores.get(player) or 0)
        if kind in (MORE_WINS, TASKS):
            return -value
        if kind == PLACES:
            return value or last
        return value

    ordered = sorted(players, key=lambda p: (key(p), players.index(p)))
    places: list[Place] = []
    for i, player in enumerate(ordered):
        place = places[-1].place if places and key(places[-1].player) == key(player) else i + 1
        places.append(Place(player, place, int(scores.get(player) or 0), kind))
    return places
