"""The standings of a club night: tournament points from each table's places, tie-breaks, ranks. Pure.

Two ways of scoring, chosen by staff when they create the evening:
- "places": points by place from a scheme (default 3/2/1/0, places beyond the
  scheme score 0); players tied for a place share the points of the places they
  cover (two tied first at a 4-player table: (3 + 2) / 2 each).
- "score": the game's own score normalised at the table to 0..1 (the best 1, the
  worst 0, everyone equal 1/2), in the direction the game counts (most points or
  fewest penalty points, as the winners show).
Tie-breaks, in order: tournament points, the sum of normalised game scores,
opponents' points (the sum of the final points of everyone met at a table, once
per game). A bye scores half of the best place's points (½ in "score" mode) and
a normalised score of ½; it adds no opponents. Only results the caller passes
count: the hub passes verified games and those staff accepted or entered.
Numbers are exact fractions, so ties are real ties.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from hub.ratings import Result, ranks
from referee.ranking import sort_key

SCORINGS = ("places", "score")
DEFAULT_SCHEME = (3, 2, 1, 0)


@dataclass(frozen=True, slots=True)
class TableResult:
    """One counted game of an evening: who played, their scores, the winners (as the end record says)."""

    round: int
    players: tuple[str, ...]
    scores: Mapping[str, float]
    winners: tuple[str, ...]
    kind: str | None = None  # what the game ranks by (`referee.ranking`), when known
    ranked: Mapping[str, int] | None = None  # the number each player is ranked by


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line in the standings; `rank` is shared by players equal on every tie-break."""

    rank: int
    player: str
    points: Fraction
    score: Fraction
    opponents: Fraction
    played: int
    byes: int


def places(result: TableResult) -> dict[str, int]:
    """Competition places (1, 1, 3, …) at one table, in the direction the game counts."""
    rank = dict(zip(result.players, ranks(Result("", result.players, result.scores, result.winners,
                                                 kind=result.kind, ranked=result.ranked)), strict=True))
    return {p: 1 + sum(1 for q in result.players if rank[q] < rank[p]) for p in result.players}


def place_points(placed: Mapping[str, int], scheme: Sequence[float] = DEFAULT_SCHEME) -> dict[str, Fraction]:
    """Points by place; a tie shares the points of the places it covers."""
    def at(place: int) -> Fraction:
        return Fraction(scheme[place - 1]).limit_denominator() if place <= len(scheme) else Fraction(0)

    tied: dict[int, int] = defaultdict(int)
    for place in placed.values():
        tied[place] += 1
    return {p: sum((at(place + k) for k in range(tied[place])), Fraction(0)) / tied[place]
            for p, place in placed.items()}


def normalised(result: TableResult) -> dict[str, Fraction]:
    """Each player's game score scaled to 0..1 at the table, 1 the best: in the direction the game's kind says
    (`referee.ranking.sort_key`), else as the winners show it."""
    if result.kind is not None:
        values = result.ranked or result.scores
        keys = {p: Fraction(sort_key(result.kind, int(values.get(p) or 0), len(result.players)))
                for p in result.players}
        low, high = min(keys.values()), max(keys.values())
        return {p: Fraction(1, 2) if low == high else (high - k) / (high - low) for p, k in keys.items()}
    exact = {p: Fraction(result.scores.get(p, 0)).limit_denominator() for p in result.players}
    least, most = min(exact.values()), max(exact.values())
    if least == most:
        return {p: Fraction(1, 2) for p in exact}
    winners = [exact[p] for p in result.winners if p in exact]
    others = [exact[p] for p in exact if p not in result.winners]
    fewest_wins = bool(winners and others) and sum(winners) / len(winners) < sum(others) / len(others)
    return {p: (most - v) / (most - least) if fewest_wins else (v - least) / (most - least) for p, v in exact.items()}


def standings(results: Iterable[TableResult], byes: Iterable[str] = (), players: Iterable[str] = (), *,
              scoring: str = "places", scheme: Sequence[float] = DEFAULT_SCHEME) -> list[Line]:
    """Everyone's line, best first. `byes` lists one name per bye had; `players` adds those without a game yet."""
    if scoring not in SCORINGS:
        raise ValueError(f"scoring {scoring!r} is not one of {', '.join(SCORINGS)}")
    points: dict[str, Fraction] = defaultdict(Fraction)
    score: dict[str, Fraction] = defaultdict(Fraction)
    played: dict[str, int] = defaultdict(int)
    met: dict[str, list[str]] = defaultdict(list)
    bye_count: dict[str, int] = defaultdict(int)
    for name in players:
        points[name] += 0
    for result in results:
        norm = normalised(result)
        gained = place_points(places(result), scheme) if scoring == "places" else norm
        for p in result.players:
            points[p] += gained[p]
            score[p] += norm[p]
            played[p] += 1
            met[p] += [q for q in result.players if q != p]
    top = Fraction(scheme[0]).limit_denominator() if scoring == "places" else Fraction(1)
    for name in byes:
        points[name] += top / 2
        score[name] += Fraction(1, 2)
        bye_count[name] += 1
    opponents = {p: sum((points[q] for q in met[p]), Fraction(0)) for p in points}
    key = {p: (points[p], score[p], opponents[p]) for p in points}
    order = sorted(points, key=lambda p: (tuple(-v for v in key[p]), p.casefold(), p))
    lines: list[Line] = []
    for i, p in enumerate(order):
        rank = lines[-1].rank if lines and key[lines[-1].player] == key[p] else i + 1
        lines.append(Line(rank, p, points[p], score[p], opponents[p], played[p], bye_count[p]))
    return lines
