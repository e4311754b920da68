"""Standings of a club night (#27): place points with shared ties, normalised scores, tie-breaks, byes."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from hub.evenings.standings import TableResult, normalised, places, standings

NAMES = ["Anna", "Ben", "Cleo", "Dana", "Emil", "Fritz", "Gabi", "Hans"]


def test_ties_share_the_points_of_the_places_they_cover() -> None:
    game = TableResult(1, ("Anna", "Ben", "Cleo", "Dana"), {"Anna": 10, "Ben": 10, "Cleo": 5, "Dana": 1},
                       ("Anna", "Ben"))
    assert places(game) == {"Anna": 1, "Ben": 1, "Cleo": 3, "Dana": 4}
    lines = {line.player: line for line in standings([game])}
    assert [lines[p].points for p in ("Anna", "Ben", "Cleo", "Dana")] == [Fraction(5, 2), Fraction(5, 2), 1, 0]
    assert lines["Anna"].rank == lines["Ben"].rank == 1 and lines["Cleo"].rank == 3


def test_a_penalty_game_counts_the_fewest_points_best() -> None:
    game = TableResult(1, ("Anna", "Ben", "Cleo"), {"Anna": 30, "Ben": 2, "Cleo": 12}, ("Ben",))
    assert places(game) == {"Ben": 1, "Cleo": 2, "Anna": 3}
    assert normalised(game) == {"Ben": 1, "Cleo": Fraction(18, 28), "Anna": 0}
    line = standings([game], scoring="score")[0]
    assert (line.player, line.points) == ("Ben", 1)


def test_byes_and_opponents_points_break_ties() -> None:
    games = [TableResult(1, ("Anna", "Ben"), {"Anna": 5, "Ben": 1}, ("Anna",)),
             TableResult(1, ("Cleo", "Dana"), {"Cleo": 5, "Dana": 1}, ("Cleo",)),
             TableResult(2, ("Anna", "Dana"), {"Anna": 1, "Dana": 5}, ("Dana",)),
             TableResult(2, ("Cleo", "Ben"), {"Cleo": 1, "Ben": 5}, ("Ben",))]
    lines = standings(games, byes=["Emil"], players=["Fritz"])
    by = {line.player: line for line in lines}
    assert by["Emil"].points == Fraction(3, 2) and by["Emil"].byes == 1 and by["Emil"].played == 0
    assert by["Fritz"].points == 0 and lines[-1].player == "Fritz"
    # Anna, Ben, Cleo, Dana: 3 + 2 points, a score sum of 1, opponents 10 each: a four-way tie
    assert {by[p].rank for p in ("Anna", "Ben", "Cleo", "Dana")} == {1}


def _independent(games: list[tuple[list[str], dict[str, int]]]) -> dict[str, tuple[float, float, float]]:
    """Points (3/2/1/0, ties shared), sum of normalised scores, opponents' points — most points win, written anew."""
    scheme = [3, 2, 1, 0, 0, 0]
    pts: dict[str, float] = {}
    norm: dict[str, float] = {}
    met: dict[str, list[str]] = {}
    for players, scores in games:
        for p in players:
            better = sum(1 for q in players if scores[q] > scores[p])
            same = sum(1 for q in players if scores[q] == scores[p])
            pts[p] = pts.get(p, 0) + sum(scheme[better:better + same]) / same
            lo, hi = min(scores.values()), max(scores.values())
            norm[p] = norm.get(p, 0) + (0.5 if lo == hi else (scores[p] - lo) / (hi - lo))
            met.setdefault(p, []).extend(q for q in players if q != p)
    return {p: (pts[p], norm[p], sum(pts[q] for q in met[p])) for p in pts}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.permutations(NAMES).map(lambda names: names[:4]),
                          st.lists(st.integers(0, 6), min_size=4, max_size=4)), min_size=1, max_size=8))
def test_standings_equal_an_independent_computation(raw: list[tuple[list[str], list[int]]]) -> None:
    games = [(players, dict(zip(players, scores, strict=True))) for players, scores in raw]
    results = [TableResult(i, tuple(players), scores, tuple(p for p in players if scores[p] == max(scores.values())))
               for i, (players, scores) in enumerate(games, 1)]
    lines = standings(results)
    expected = _independent(games)
    assert {line.player for line in lines} == set(expected)
    for line in lines:
        want = expected[line.player]
        assert abs(float(line.points) - want[0]) < 1e-9
        assert abs(float(line.score) - want[1]) < 1e-9
        assert abs(float(line.opponents) - want[2]) < 1e-9
    keys = [tuple(round(x, 9) for x in expected[line.player]) for line in lines]
    assert keys == sorted(keys, reverse=True)
    for a, b in itertools.pairwise(lines):
        assert (a.rank == b.rank) == (keys[lines.index(a)] == keys[lines.index(b)])
