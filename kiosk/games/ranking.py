"""The end of a game as a ranking for the kiosk's results screen and export: who came first, second, third …
with the number they are ranked by. The ranking itself is `referee.ranking`, so the café hub ranks a game as the
table does: points, penalty points, finishing places or (Profi-Sort's beginner game) tasks, as the game's
definition declares; ties share a place (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.ranking import FEWER_WINS, MORE_WINS, PLACES, TASKS, places, ranked_values, score_kind

__all__ = ["FEWER_WINS", "MORE_WINS", "PLACES", "TASKS", "Place", "rank", "score_kind"]


@dataclass(frozen=True, slots=True)
class Place:
    player: str
    place: int  # 1-based; tied players share it
    score: int  # the number the game scores by (points, penalty points, finishing place, tasks)
    kind: str


def rank(game_id: str, options: Mapping[str, Any], players: Sequence[str], state: Mapping[str, Any]) -> list[Place]:
    """The players best first; equal scores share a place (1, 1, 3); seat order breaks display ties only."""
    kind = score_kind(game_id, options)
    values = ranked_values(kind, players, state)
    placed = places(kind, players, values)
    ordered = sorted(players, key=lambda p: (placed[p], players.index(p)))
    return [Place(p, placed[p], values[p], kind) for p in ordered]
