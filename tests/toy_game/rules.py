"""Higher's rules (`rules.md` beside this file): the game's own checks and effects, nothing else.

In the project a game's rules module is `referee/games/<game>.py` and registers itself with
`@referee.games.register`; this one is registered by the test suite's fixture (`tests/toy_game`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from referee.answers import Rejection
from referee.cards import CardTally, Deck
from referee.fields import bool_option, known_options, need_one_card, need_str
from referee.hints import FinishedHints, Hints, PublicState, names, say
from referee.protocol import CardMove, Game
from referee.rules import On, of_field, rule
from tests.toy_game.deck import GAME_ID, faces

HAND = 6


# The shared checks this game applies to its moves' fields (`referee.rules.of_field`).
SEATED = of_field("player", Game.seated)
ON_TURN = of_field("player", Game.turn_is)
CARD_LEFT = of_field("card", Game.not_exhausted)


@dataclass(slots=True)
class Knock:
    player: str

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Knock:
        return cls(need_str(event, "player"))


@dataclass(slots=True)
class Play(CardMove):
    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Play:
        return cls(*need_one_card(event))


@dataclass(slots=True)
class HigherState(PublicState):
    """Section 5: the pile (faces, bottom first) and the hand counts, besides the common keys."""

    game = GAME_ID
    pile: list[str]
    hands: dict[str, int]


class HigherHints(NamedTuple):
    """The top card to beat (None on an empty pile)."""

    top: str | None

    def sentence(self, hints: Hints, lang: str) -> str:
        player = names(hints.actors, lang)
        if self.top is None:
            return say("hint.higher.lead", lang, player=player)
        return say("hint.higher.play", lang, player=player, top=self.top.partition(":")[2])


class Higher(Game):
    game_id = GAME_ID
    title = "Higher"
    player_counts = (2,)

    def __init__(self, players: Sequence[str], dealer: str, options: Any):
        super().__init__(players, dealer, options)
        self.deck = Deck(faces(), {face: int(face.partition(":")[2]) for face in faces()})
        self.tally = CardTally()
        self.hands = dict.fromkeys(self.players, HAND)  # HI-R1
        self.pile: list[tuple[str, int]] = []  # (face, value)
        self.taken = dict.fromkeys(self.players, 0)
        self.winners: list[str] = []
        self.turn = self.next_seat(dealer)

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> bool:
        """`strict` (HI-R2), its default the definition's alone."""
        known_options(options, "strict")
        return bool_option(options, "strict", cls.default("strict"))

    @rule("HI-R2")
    def not_lower(self, move: Play) -> None:
        if self.pile and (move.face < self.pile[-1][1] or (self.options and move.face == self.pile[-1][1])):
            raise Rejection("too-low", card=move.code, top=self.pile[-1][0].partition(":")[2])

    def lay(self, move: Play) -> None:
        self.tally.add(move.card)
        self.hands[move.player] -= 1
        self.pile.append((move.card.face, move.face))
        self.pass_turn(move.player)

    @rule("HI-R3")
    def knock(self, move: Knock) -> None:
        other = self.next_seat(move.player)
        self.taken[other] += len(self.pile)
        self.pile = []
        self.turn = other if self.hands[other] else move.player

    @rule("HI-R4")
    def pass_turn(self, player: str) -> None:
        other = self.next_seat(player)
        self.turn = other if self.hands[other] else player
        if not any(self.hands.values()):
            self.finish(player)

    @rule("HI-R5")
    def finish(self, last: str) -> None:
        self.taken[last] += len(self.pile)
        self.pile = []
        self.finished = True
        self.turn = None
        self.winners = self.winners_by(self.taken)

    rules: ClassVar[Mapping[str, On]] = {
        "play": On(Play.read, (SEATED, ON_TURN, Game.note_card, CARD_LEFT, not_lower),
                   (lay,)),
        "knock": On(Knock.read, (SEATED, ON_TURN), (knock,)),
    }

    def public_state(self) -> HigherState:
        return HigherState(turn=self.turn, finished=self.finished, scores=dict(self.taken),
                           winners=list(self.winners), pile=[face for face, _ in self.pile], hands=dict(self.hands))

    def hints(self) -> Hints:
        detail = HigherHints(self.pile[-1][0] if self.pile else None)
        if self.finished:
            return Hints(self.game_id, (), (), FinishedHints(tuple(self.winners), detail))
        return Hints(self.game_id, (self.turn,), ("play", "knock") if self.pile else ("play",), detail)

    def card_places(self) -> dict[str, int]:
        return {"hands": sum(self.hands.values()), "pile": len(self.pile), "taken": sum(self.taken.values())}
