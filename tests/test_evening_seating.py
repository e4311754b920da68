"""Seating for club nights (#27): table sizes, byes, random / standings / mixing draws, seeded."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from hub.evenings.seating import (
    draw_round,
    encounters,
    repeat_lower_bound,
    repeats,
    table_sizes,
)
from referee import games

GAME_COUNTS = {game: tuple(games.get(game).player_counts) for game in games.ids()}
counts_strategy = st.sampled_from([*sorted(set(GAME_COUNTS.values())), (3, 4), (3, 4, 5), (2,), (4,)])


def _splits(total: int, allowed: tuple[int, ...]) -> bool:
    """Whether `total` is a sum of allowed sizes (brute force, independent of the module)."""
    reach = {0}
    for _ in range(total):
        reach |= {r + s for r in reach for s in allowed if r + s <= total}
    return total in reach


def test_the_issues_examples() -> None:
    assert table_sizes(14, (3, 4)) == [4, 4, 3, 3]
    assert table_sizes(7, GAME_COUNTS["magische-7"]) == [2, 2, 2]  # an odd count: one bye
    assert table_sizes(8, GAME_COUNTS["magische-7"]) == [4, 4]  # as even, fewer tables
    assert table_sizes(12, (3, 4, 5)) == [4, 4, 4]
    assert table_sizes(1, (2, 3)) == []
    assert table_sizes(13, (3, 4), max_tables=2) == [4, 4]  # not enough tables: more sit out
    assert table_sizes(12, GAME_COUNTS["alles-klar"], max_tables=4) == [3, 3, 3, 3]  # the café's tables all busy
    assert table_sizes(12, GAME_COUNTS["alles-klar"], max_tables=3) == [4, 4, 4]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 80), counts_strategy)
def test_sizes_are_allowed_and_even_and_a_bye_only_without_a_split(players: int, counts: tuple[int, ...]) -> None:
    sizes = table_sizes(players, counts)
    assert all(s in counts for s in sizes)
    assert sum(sizes) <= players
    assert (sum(sizes) == players) == _splits(players, counts)
    if sizes:
        # no split of the same people into allowed sizes is more even (brute force over the allowed pairs)
        spread = max(sizes) - min(sizes)
        for lo, hi in itertools.combinations_with_replacement(sorted(counts), 2):
            if hi - lo < spread:
                window = tuple(c for c in counts if lo <= c <= hi)
                assert not _splits(sum(sizes), window)


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 30), counts_strategy, st.sampled_from(["random", "standings", "mixing"]), st.integers(0, 9999))
def test_a_draw_seats_everyone_once_and_is_seeded(players: int, counts: tuple[int, ...], method: str,
                                                  seed: int) -> None:
    names = [f"P{i}" for i in range(players)]
    points = {n: random.Random(seed).randint(0, 9) for n in names}
    first = draw_round(names, counts, method=method, rng=random.Random(seed), points=points)
    again = draw_round(list(reversed(names)), counts, method=method, rng=random.Random(seed), points=points)
    assert first == again
    seated = [p for t in first.tables for p in t.players]
    assert sorted(seated + list(first.byes)) == sorted(names)
    assert [len(t.players) for t in first.tables] == table_sizes(players, counts)
    assert all(t.dealer in t.players for t in first.tables)


def test_byes_rotate() -> None:
    names = [f"P{i}" for i in range(7)]
    had: Counter[str] = Counter()
    rng = random.Random(3)
    for _ in range(7):
        draw = draw_round(names, (2, 4), method="random", rng=rng, byes_had=had)
        assert len(draw.byes) == 1
        had.update(draw.byes)
    assert set(had.values()) == {1}  # seven rounds, seven players: everyone sat out once


def test_by_standings_puts_the_leaders_together() -> None:
    names = [f"P{i:02}" for i in range(12)]
    points = {n: i for i, n in enumerate(names)}  # P11 leads
    draw = draw_round(names, (4,), method="standings", rng=random.Random(1), points=points)
    assert [sorted(t.players) for t in draw.tables] == [sorted(names[8:]), sorted(names[4:8]), sorted(names[:4])]


def test_mixing_repeats_less_than_random_and_never_below_the_bound() -> None:
    names = [f"P{i}" for i in range(16)]
    totals = {}
    for method in ("random", "mixing"):
        rng = random.Random(5)
        history: list[list[tuple[str, ...]]] = []
        total = 0
        for _ in range(4):
            draw = draw_round(names, (4,), method=method, rng=rng, met=encounters(history))
            tables = [t.players for t in draw.tables]
            total += repeats(tables, encounters(history))
            history.append(tables)
        totals[method] = total
    assert totals["mixing"] == 0 == repeat_lower_bound(16, [[4] * 4] * 4)  # 16 at tables of 4: a perfect 4 rounds
    assert totals["random"] > totals["mixing"]
    eight = repeat_lower_bound(8, [[4, 4]] * 4)
    assert eight == 4 * 12 - 28


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 24), st.integers(0, 999))
def test_no_single_swap_improves_a_mixed_round(players: int, seed: int) -> None:
    names = [f"P{i}" for i in range(players)]
    rng = random.Random(seed)
    history = [[t.players for t in draw_round(names, (3, 4), method="random", rng=rng).tables] for _ in range(2)]
    met = encounters(history)
    tables = [list(t.players) for t in draw_round(names, (3, 4), method="mixing", rng=rng, met=met).tables]
    cost = repeats(tables, met)
    for a, b in itertools.combinations(range(len(tables)), 2):
        for i, j in itertools.product(range(len(tables[a])), range(len(tables[b]))):
            swapped = [list(t) for t in tables]
            swapped[a][i], swapped[b][j] = tables[b][j], tables[a][i]
            assert repeats(swapped, met) >= cost
