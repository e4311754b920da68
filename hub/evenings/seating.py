"""Drawing the seats of one round of a club night: pure functions over names, with a seeded random source.

A round is split into tables whose sizes the game allows, as even as possible;
only when no split of everyone exists does someone sit out (a bye), and byes go
to those who have had the fewest. Round 1 is drawn at random; later rounds
either by standings (the leaders play each other, Swiss-style) or by mixing
(as few repeated encounters as possible). The seat order at each table and its
dealer are drawn too. The same seed and the same inputs give the same round, so
the hub can store the seed and show how a round came about.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

METHODS = ("random", "standings", "mixing")
_MIX_RESTARTS = 4
_MIX_PASSES = 30


@dataclass(frozen=True, slots=True)
class Seat:
    """One table of a round: `players` in seat order (clockwise from the first seat) and its dealer."""

    players: tuple[str, ...]
    dealer: str


@dataclass(frozen=True, slots=True)
class Draw:
    """A drawn round: its tables, in the order they are handed to the café's tables, and who has a bye."""

    tables: tuple[Seat, ...]
    byes: tuple[str, ...]


def table_sizes(players: int, counts: Iterable[int], max_tables: int | None = None) -> list[int]:
    """The sizes of the tables for `players` people at a game for `counts` players, largest first.

    Fewest byes first (none whenever a split exists), then the smallest difference
    between the largest and the smallest table. Then, when the evening names its
    tables (`max_tables`), as many of them as the split allows (every kiosk busy,
    shorter games); without a limit, the fewest tables. With too few tables more
    sit out. An empty list when not even one table can be filled.
    """
    allowed = sorted({c for c in counts if c >= 1})
    if not allowed or players < 0:
        raise ValueError("a game needs at least one allowed table size")
    limit = players if max_tables is None else max_tables
    for seated in range(players, 0, -1):
        best = _even_split(seated, allowed, limit, most=max_tables is not None)
        if best is not None:
            return best
    return []


def _even_split(total: int, allowed: list[int], limit: int, most: bool) -> list[int] | None:
    """`total` as a sum of at most `limit` allowed sizes with the smallest spread, then the most or fewest tables."""
    spreads = sorted({hi - lo for lo in allowed for hi in allowed if hi >= lo})
    for spread in spreads:
        found: list[list[int]] = []
        for lo in allowed:
            window = [s for s in allowed if lo <= s <= lo + spread]
            split = _parts(total, window, limit, most)
            if split is not None:
                found.append(split)
        if found:
            return min(found, key=lambda split: (-len(split) if most else len(split), [-s for s in split]))
    return None


def _parts(total: int, sizes: list[int], limit: int, most: bool) -> list[int] | None:
    """The sum `total` from `sizes` (repeats allowed) in at most `limit` parts, the most or the fewest parts;
    largest parts first. A table of reachable (sum, parts) with the last size taken, then walked back."""
    last: dict[tuple[int, int], int] = {(0, 0): 0}
    for parts in range(1, limit + 1):
        for value in range(1, total + 1):
            for size in sizes:
                if size <= value and (value - size, parts - 1) in last and (value, parts) not in last:
                    last[(value, parts)] = size
    options = [k for k in range(1, limit + 1) if (total, k) in last]
    if not options:
        return None
    k = max(options) if most else min(options)
    split, value = [], total
    while k:
        size = last[(value, k)]
        split.append(size)
        value, k = value - size, k - 1
    return sorted(split, reverse=True)


def choose_byes(players: Sequence[str], count: int, byes_had: Mapping[str, int], rng: random.Random,
                points: Mapping[str, float] | None = None) -> list[str]:
    """Who sits out: those with the fewest byes so far, then (by standings) the lowest placed, then by lot."""
    lots = {p: rng.random() for p in players}
    order = sorted(players, key=lambda p: (byes_had.get(p, 0), (points or {}).get(p, 0), lots[p]))
    return order[:count]


def encounters(rounds: Iterable[Iterable[Sequence[str]]]) -> Counter[frozenset[str]]:
    """How often each pair of players has sat at one table, over the given rounds' tables."""
    met: Counter[frozenset[str]] = Counter()
    for tables in rounds:
        for table in tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    return met


def repeats(tables: Iterable[Sequence[str]], met: Mapping[frozenset[str], int]) -> int:
    """Repeated encounters a set of tables adds: each pair that has met before counts once per earlier meeting."""
    return sum(met.get(frozenset(pair), 0) for table in tables for pair in itertools.combinations(table, 2))


def draw_round(players: Sequence[str], counts: Iterable[int], *, method: str, rng: random.Random,
               points: Mapping[str, float] | None = None, met: Mapping[frozenset[str], int] | None = None,
               byes_had: Mapping[str, int] | None = None, max_tables: int | None = None) -> Draw:
    """One round's tables for `players` (the checked-in, not dropped-out players of this round).

    `method` is "random", "standings" (needs `points`) or "mixing" (needs `met`, the
    encounters of earlier rounds). Seat order and dealer are drawn at every table.
    """
    if method not in METHODS:
        raise ValueError(f"seating method {method!r} is not one of {', '.join(METHODS)}")
    people = sorted(dict.fromkeys(players))
    sizes = table_sizes(len(people), counts, max_tables)
    byes = choose_byes(people, len(people) - sum(sizes), byes_had or {}, rng, points)
    seated = [p for p in people if p not in set(byes)]
    rng.shuffle(seated)
    if method == "standings":
        groups = _by_standings(seated, sizes, points or {}, rng)
    elif method == "mixing":
        groups = _mixing(seated, sizes, met or {}, rng)
    else:
        groups = _chunks(seated, sizes)
    return Draw(tuple(_seat(group, rng) for group in groups), tuple(sorted(byes)))


def _chunks(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    groups, at = [], 0
    for size in sizes:
        groups.append(list(order[at:at + size]))
        at += size
    return groups


def _seat(group: Sequence[str], rng: random.Random) -> Seat:
    order = list(group)
    rng.shuffle(order)
    return Seat(tuple(order), rng.choice(order))


def _by_standings(seated: list[str], sizes: list[int], points: Mapping[str, float],
                  rng: random.Random) -> list[list[str]]:
    """Leaders together: sorted by points (ties by lot, `seated` is already shuffled), cut into tables in order."""
    order = sorted(seated, key=lambda p: -points.get(p, 0))
    return _chunks(order, sizes)


def _mixing(seated: list[str], sizes: list[int], met: Mapping[frozenset[str], int],
            rng: random.Random) -> list[list[str]]:
    """Fewest repeated encounters: a few random starts, each improved by swapping two players of different
    tables while that lowers the repeats (first improvement), the best kept."""
    best: list[list[str]] | None = None
    best_cost = -1
    for _ in range(_MIX_RESTARTS):
        order = list(seated)
        rng.shuffle(order)
        groups = _chunks(order, sizes)
        cost = _improve(groups, met, rng)
        if best is None or cost < best_cost:
            best, best_cost = groups, cost
        if best_cost == 0:
            break
    assert best is not None
    return best


def _cost_with(group: Sequence[str], player: str, met: Mapping[frozenset[str], int], without: str) -> int:
    return sum(met.get(frozenset((player, other)), 0) for other in group if other not in (player, without))


def _improve(groups: list[list[str]], met: Mapping[frozenset[str], int], rng: random.Random) -> int:
    for _ in range(_MIX_PASSES):
        improved = False
        pairs = [(a, b) for a in range(len(groups)) for b in range(a + 1, len(groups))]
        rng.shuffle(pairs)
        for a, b in pairs:
            for i, j in itertools.product(range(len(groups[a])), range(len(groups[b]))):
                x, y = groups[a][i], groups[b][j]
                now = _cost_with(groups[a], x, met, x) + _cost_with(groups[b], y, met, y)
                after = _cost_with(groups[a], y, met, x) + _cost_with(groups[b], x, met, y)
                if after < now:
                    groups[a][i], groups[b][j] = y, x
                    improved = True
        if not improved:
            break
    return repeats(groups, met)


def repeat_lower_bound(players: int, rounds: Sequence[Sequence[int]]) -> int:
    """A simple lower bound on repeated encounters over whole rounds of the given table sizes.

    Every round's table of s players holds C(s, 2) meetings of pairs; there are only
    C(n, 2) different pairs, so every meeting beyond that is a repeat, however the
    seats are drawn. (It ignores who sat out; the benchmark passes the sizes drawn.)
    """
    pair_meetings = sum(s * (s - 1) // 2 for sizes in rounds for s in sizes)
    return max(0, pair_meetings - players * (players - 1) // 2)
