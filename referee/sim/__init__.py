"""The table simulator: the physical table the referee never sees, playing random legal games.

A `SimPlayers` holds the shuffled deck and the hidden hands, proposes the events
players at the table could physically make now (legal or not; the referee
decides), and moves the physical cards when the referee accepts one. Random
play shuffles the proposals and takes the first one the referee accepts, so the
simulator never needs its own copy of the rules. Randomness is always seeded.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple

from referee.cards import Deck
from referee.errors import RefereeError
from referee.registry import Registry
from referee.table import FORMAT, Referee


def shuffled(rng: random.Random, items: Sequence[Any]) -> list[Any]:
    """A new list of `items` in a uniform random order drawn from the seeded `rng`."""
    out = list(items)
    rng.shuffle(out)
    return out


class Opening(NamedTuple):
    """What the referee says about a game before its first event: the deck in use, and how many
    cards it assumes each player was dealt (its public state's `hands`)."""

    deck: Deck[Any]
    dealt: Mapping[str, int]


def opening(header: Mapping[str, Any]) -> Opening:
    """The referee's opening facts for this header (one referee per distinct header)."""
    return _opening(json.dumps(header, sort_keys=True))


@lru_cache(maxsize=64)
def _opening(header_json: str) -> Opening:
    referee = Referee(json.loads(header_json))
    return Opening(referee.deck, MappingProxyType(referee.state()["hands"]))


class SimulationStuck(RefereeError, RuntimeError):
    """No proposed event was accepted: the simulator or the referee is wrong."""


class SimPlayers:
    """Base of a game's simulated table."""

    game_id: ClassVar[str]
    default_players: ClassVar[int] = 3
    # A careful table makes no deliberate mistakes (forgotten calls, cards laid without looking …):
    # the tests want the mistakes, a like-for-like benchmark against other engines' legal-move agents not.
    careful: bool = False
    mistakes: ClassVar[bool] = False  # does this table make deliberate mistakes unless careful?

    def __init__(
        self,
        rng: random.Random,
        players: Sequence[str],
        options: Mapping[str, Any] | None = None,
        dealer: str | None = None,
    ):
        self.rng = rng
        self.players = list(players)
        self.options = dict(options or {})
        self.header: dict[str, Any] = {"format": FORMAT, "game": self.game_id, "players": self.players}
        if dealer is not None:
            self.header["dealer"] = dealer
        if self.options:
            self.header["options"] = self.options

    def candidates(self, referee: Referee) -> list[dict[str, Any]]:
        """Events the table could make now; the referee accepts at least one while the game runs."""
        raise NotImplementedError

    def accepted(self, event: Mapping[str, Any], referee: Referee) -> None:
        """Move the physical cards as the table does after the referee accepted `event`."""

    def check(self, referee: Referee) -> None:
        """Raise AssertionError when the hidden table disagrees with the referee's public counts."""

    @staticmethod
    def on_turn(referee: Referee) -> str:
        """The player on turn, for a table asked while one is (SimulationStuck when nobody is)."""
        if referee.turn is None:
            raise SimulationStuck(f"nobody is on turn; state {referee.state()}")
        return referee.turn

    def first_events(self) -> list[dict[str, Any]]:
        """Events the operator makes before the first turn (e.g. scanning a start card)."""
        return []


SIMS: Registry[type[SimPlayers]] = Registry(__name__, __path__, "game_id")
register = SIMS.register


def get(game_id: str) -> type[SimPlayers]:
    return SIMS[game_id]


def ids() -> list[str]:
    """Every game with a simulated table, in menu order."""
    return SIMS.ids()


def names(count: int) -> list[str]:
    return ["Anna", "Ben", "Cem", "Dora", "Emil", "Fiona"][:count]


def new_table(
    game_id: str,
    seed: int,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    dealer: str | None = None,
    careful: bool = False,
) -> SimPlayers:
    cls = get(game_id)
    rng = random.Random(seed)
    table = cls(rng, names(players or cls.default_players), options, dealer)
    table.careful = careful
    return table


def play(sim: SimPlayers, referee: Referee | None = None, max_events: int = 200_000) -> Iterator[dict[str, Any]]:
    """Play `sim` to the end through `referee`, yielding every accepted event."""
    referee = referee or Referee(sim.header)
    for event in sim.first_events():
        answer = referee.apply(event)
        if not answer.ok:
            raise SimulationStuck(f"first event {event} rejected: {answer.error}")
        sim.accepted(event, referee)
        yield event
    for _ in range(max_events):
        if referee.finished:
            return
        proposals = sim.candidates(referee)
        # Uniform over the accepted proposals: draw without replacement until one is accepted.
        while proposals:
            event = proposals.pop(sim.rng.randrange(len(proposals)))
            if referee.apply(event).ok:
                sim.accepted(event, referee)
                yield event
                break
        else:
            raise SimulationStuck(f"no proposed event was accepted; state {referee.state()}")
    raise SimulationStuck(f"game not finished after {max_events} events")


def random_game(game_id: str, seed: int, players: int | None = None, **kw: Any
                ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A complete random game: its header and accepted events."""
    sim = new_table(game_id, seed, players, **kw)
    return sim.header, list(play(sim))
