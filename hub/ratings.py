"""Player ratings per game with openskill (Plackett–Luce), from verified finished games only.

A player is the name typed at the table, read through the staff's merges (an alias
counts as its canonical name). Ratings are a fold over the games in the order they
ended, so a merge simply folds again from the start: no state to repair.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from referee.ranking import places

_MODEL = PlackettLuce()


@dataclass(slots=True)
class Standing:
    """One player's rating in one game; `rating` (μ − 3σ) is what the leaderboard sorts by."""

    player: str
    mu: float
    sigma: float
    played: int = 0
    wins: int = 0

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class Result:
    """A verified finished game as the ratings need it."""

    game: str
    players: Sequence[str]
    scores: Mapping[str, float]
    winners: Sequence[str]
    guests: Sequence[str] = ()  # players with a seat's default name: kept in the game, never rated
    kind: str | None = None  # what the game ranks by, as its definition says (`referee.ranking`), when known
    ranked: Mapping[str, int] | None = None  # the number each player is ranked by (tasks, points …)


def ranks(result: Result) -> list[int]:
    """Each player's place, by what the game's definition says it ranks by (`result.kind`: points, penalty
    points, places or tasks, ties sharing a place). A game whose kind is not known (a record from before the
    hub knew it): rank 1 for the winners, the others by score in the direction the winners' scores show."""
    if result.kind is not None:
        placed = places(result.kind, list(result.players), result.ranked or result.scores)
        return [placed[p] for p in result.players]
    players, scores, winners = result.players, result.scores, set(result.winners)
    won = [scores.get(p, 0) for p in players if p in winners]
    lost = [scores.get(p, 0) for p in players if p not in winners]
    if won and lost and min(won) > max(lost):
        order = sorted({scores.get(p, 0) for p in players}, reverse=True)
    elif won and lost and max(won) < min(lost):
        order = sorted({scores.get(p, 0) for p in players})
    else:  # no score order agrees with the winners: winners first, everyone else shares second
        return [1 if p in winners else 2 for p in players]
    return [1 if p in winners else 1 + order.index(scores.get(p, 0)) for p in players]


def canonical(name: str, aliases: Mapping[str, str]) -> str:
    """The name an alias was merged into, following chains (a → b → c); a loop stops where it repeats."""
    seen = {name}
    while name in aliases and aliases[name] not in seen:
        name = aliases[name]
        seen.add(name)
    return name


class Ladder:
    """Every game's standings, updated one verified result at a time."""

    def __init__(self, aliases: Mapping[str, str] | None = None):
        self.aliases = dict(aliases or {})
        self.games: dict[str, dict[str, Standing]] = {}

    def add(self, result: Result) -> None:
        """Rate the game's players who are not guests, by their ranks in the whole game (a guest who came first
        still puts the others behind; the guest is not rated); fewer than two such players rate nobody."""
        seats = [i for i, p in enumerate(result.players) if p not in set(result.guests)]
        names = [canonical(result.players[i], self.aliases) for i in seats]
        if len(set(names)) != len(names) or len(names) < 2:  # one person in two seats after a merge, or no rival
            return
        table = self.games.setdefault(result.game, {})
        standings = [table.get(n) or Standing(n, _MODEL.mu, _MODEL.sigma) for n in names]
        teams = [[_MODEL.create_rating([s.mu, s.sigma], s.player)] for s in standings]
        every = ranks(result)
        rated = _MODEL.rate(teams, ranks=[every[i] for i in seats])
        winners = {canonical(w, self.aliases) for w in result.winners}
        for standing, (new,) in zip(standings, rated, strict=True):
            standing.mu, standing.sigma = new.mu, new.sigma
            standing.played += 1
            standing.wins += standing.player in winners
            table[standing.player] = standing

    def board(self, game: str) -> list[Standing]:
        return sorted(self.games.get(game, {}).values(), key=lambda s: (-s.rating, s.player))


def fold(results: Iterable[Result], aliases: Mapping[str, str]) -> Ladder:
    ladder = Ladder(aliases)
    for result in results:
        ladder.add(result)
    return ladder
