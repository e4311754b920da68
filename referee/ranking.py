"""The end of a game as places: who came first, second, third …, by what the game's definition says its scores
mean (`GameDefinition.score`): points where more is better, penalty points where fewer is better, finishing
places where `scores` already is the place (0 = not out = last), or — Profi-Sort's beginner game — the tasks
each player laid. One place for the kiosk's results screen and export and for the café hub's ratings and club
nights, so a table and the hub rank a game alike. Places are "standard competition" ranks: two players tied
for first are both 1st, the next is 3rd. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.registry import DEFINITIONS, FEWER_WINS, MORE_WINS, PLACES, SCORE_KINDS, TASKS

__all__ = ["FEWER_WINS", "MORE_WINS", "PLACES", "SCORE_KINDS", "TASKS", "places", "ranked_values", "score_kind",
           "sort_key"]


def score_kind(game_id: str, options: Mapping[str, Any]) -> str:
    """As the game declares it; KeyError for a game nobody declared."""
    return DEFINITIONS[game_id].score_kind(options)


def ranked_values(kind: str, players: Sequence[str], state: Mapping[str, Any]) -> dict[str, int]:
    """The number each player is ranked by, from a game's public state: the tasks laid (TASKS), else the
    score."""
    if kind == TASKS:
        done = state.get("tasks_done") or {}
        return {p: len(done.get(p, ())) for p in players}
    scores = state.get("scores") or {}
    return {p: int(scores.get(p) or 0) for p in players}


def sort_key(kind: str, value: int, players: int) -> int:
    """Smaller is better: more points or tasks, fewer penalty points, an earlier finishing place (0 = last)."""
    if kind in (MORE_WINS, TASKS):
        return -value
    if kind == PLACES:
        return value or players + 1
    return value


def places(kind: str, players: Sequence[str], values: Mapping[str, float]) -> dict[str, int]:
    """Each player's competition place (1, 1, 3 …) by `values` read as `kind`."""
    key = {p: sort_key(kind, int(values.get(p) or 0), len(players)) for p in players}
    return {p: 1 + sum(1 for q in players if key[q] < key[p]) for p in players}
