"""Die magische 7 (`../shared/rules/magische-7.md`): two-card tricks, pairs to 7 and three special cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple

from referee.answers import HeaderError, Rejection
from referee.cards import CardTally, Deck
from referee.decks.magische_7 import pack
from referee.fields import bool_option, known_options, need_one_card, opt_str
from referee.games import register
from referee.hints import FinishedHints, Hints, Part, PublicState, names, say
from referee.protocol import CardMove, Game
from referee.rules import On, of_field, rule


@dataclass(frozen=True, slots=True)
class Face:
    kind: str  # "points", "JOKER", "MIRROR" or "CROSS"
    value: int = 0


def _face(face: str) -> Face:
    name = face.partition(":")[2]
    return Face(name) if name in ("JOKER", "MIRROR", "CROSS") else Face("points", int(name))


@lru_cache(maxsize=2)
def build_deck(packs: int) -> Deck[Face]:
    """One pack for two players, two for four (D1); shared, since decks are immutable."""
    copies = {face: n * packs for face, n in pack().items()}
    return Deck(copies, {face: _face(face) for face in copies})


@dataclass(frozen=True)
class Options:
    mirror: str = "copy"
    no_repeat_target: bool = True


@rule("M7-R3")
def trick_winner_is_follower(lead: Face, follow: Face) -> bool:
    """M7-R3: the lead wins unless the follower's Joker, a led Cross, or a pair to 7."""
    return (
        follow.kind == "JOKER"
        or lead.kind == "CROSS"
        or (lead.kind == "points" and follow.kind == "points" and lead.value + follow.value == 7)
    )


@rule("M7-R4")
def card_points(card: Face, other: Face, mirror: str) -> int:
    """M7-R4: a points card its value, Joker and Cross 0, the Mirror copies a points card (option)."""
    if card.kind == "points":
        return card.value
    if card.kind == "MIRROR" and mirror == "copy" and other.kind == "points":
        return other.value
    return 0


@dataclass(slots=True)
class Play(CardMove):
    """A `play` (section 9): who plays which code, and on a 4-player lead the opponent (`target`)."""

    target: str | None = None

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Play:
        """`bad-event` for a missing or non-string `player`/`card`, a `cards` field, a non-string `target`."""
        player, code = need_one_card(event)
        return cls(player, code, target=opt_str(event, "target"))


@dataclass(frozen=True)
class Lead(Part):
    """The lead card of the trick in progress: who led which face against whom."""

    player: str
    card: str
    target: str


@dataclass(frozen=True)
class Trick(Part):
    """The most recently completed trick: both players, their faces, the winner and the points."""

    leader: str
    follower: str
    cards: dict[str, str]
    winner: str
    points: int


@dataclass(slots=True)
class Magische7State(PublicState):
    """Section 10's state keys, besides the common ones (`scores`: points per player, a team's sum with 4).

    - `lead`: the lead card waiting for its answer, None between tricks;
    - `last_trick`: the most recently completed trick, None before the first;
    - `tricks_played`: completed tricks; `stock`: cards left to draw; `hands`: player → cards in hand.
    """

    game = "magische-7"
    lead: Lead | None
    last_trick: Trick | None
    tricks_played: int
    stock: int
    hands: dict[str, int]


class Magische7Hints(NamedTuple):
    """What the next play is.

    - `lead`: the lead face to answer, None when the next play leads;
    - `leader`: who led it (None when the next play leads);
    - `targets`: on a 4-player lead, the opponents the lead may go against (M7-R8, M7-R9); else `()`;
    - `seven`: the value that makes a pair to 7 with a led points card (M7-R3), else None.
    """

    lead: str | None
    leader: str | None
    targets: tuple[str, ...]
    seven: int | None

    def sentence(self, hints: Hints, lang: str) -> str:
        player = names(hints.actors, lang)
        if self.lead is None:
            if self.targets:
                return say("hint.magische-7.lead-against", lang, player=player, targets=names(self.targets, lang))
            return say("hint.magische-7.lead", lang, player=player)
        card = self.lead.partition(":")[2]
        if self.seven is None:
            return say("hint.magische-7.follow-special", lang, player=player, card=card)
        return say("hint.magische-7.follow", lang, player=player, card=card, seven=self.seven)


@register
class MagischeSieben(Game):
    game_id = "magische-7"
    title = "Die magische 7"
    player_counts = (2, 4)
    shape_first = True
    HAND = 7

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
        known_options(options, "mirror", "no_repeat_target")
        mirror = options.get("mirror", "copy")
        if mirror not in ("copy", "zero") or type(mirror) is not str:
            raise HeaderError("one-of", option="mirror", values=("'copy'", "'zero'"))
        return Options(mirror, bool_option(options, "no_repeat_target", True))

    def __init__(self, players: Sequence[str], dealer: str, options: Options):
        super().__init__(players, dealer, options)
        self.deck = build_deck(len(self.players) // 2)
        self.tally = CardTally()  # every card played so far
        self.four = len(self.players) == 4
        self.hands = dict.fromkeys(self.players, self.HAND)
        self.stock = self.deck.size - self.HAND * len(self.players)
        self.points = dict.fromkeys(self.players, 0)  # per player; teams add up in `scores`
        self.lead: tuple[Lead, Face] | None = None  # the lead card waiting for its answer, and its meaning
        self.last_trick: Trick | None = None
        self.tricks_played = 0
        self.previous: tuple[str, str] | None = None  # (leader, target) of the last completed trick
        self.winners: list[str] = []
        self.turn = self.next_seat(dealer)

    def partner(self, player: str) -> str:
        return self.seats.after(player, 2)

    def opponents(self, player: str) -> tuple[str, str]:
        return self.seats.after(player, 1), self.seats.after(player, 3)

    # --- checks (section 9, "Checking order", step 8; steps 4 … 7 are the shared ones)

    @rule("M7-R1")
    def target_only_on_a_four_player_lead(self, move: Play) -> None:
        """With 2 players the other player is the opponent, and a follow names nobody."""
        if move.target is not None and (self.lead is not None or not self.four):
            raise Rejection("bad-target", "bad-target.not-allowed", target=move.target)

    @rule("M7-R8")
    def target_is_an_opponent_with_cards(self, move: Play) -> None:
        """A 4-player lead names one of the two opponents, who holds a card."""
        if self.lead is not None or not self.four:
            return
        if move.target is None:
            raise Rejection("target-needed")
        if move.target not in self.opponents(move.player):
            raise Rejection("bad-target", target=move.target)
        if not self.hands[move.target]:
            raise Rejection("target-has-no-cards", target=move.target)

    @rule("M7-R9")
    def target_not_the_same_twice(self, move: Play) -> None:
        """Not the previous trick's target again, unless the other opponent holds no card (option)."""
        if self.lead is not None or not self.four or not self.options.no_repeat_target:
            return
        first, second = self.opponents(move.player)
        other = second if move.target == first else first
        if self.previous == (move.player, move.target) and self.hands[other]:
            raise Rejection("same-target-twice", player=move.player, target=move.target)

    # --- effects

    def play_card(self, move: Play) -> None:
        """The card leaves the hand; it leads (M7-R1) or answers (M7-R2)."""
        self.tally.add(move.card)
        self.hands[move.player] -= 1
        if self.lead is None:
            self.lead_card(move)
        else:
            self.answer_lead(move)

    def lead_card(self, move: Play) -> None:
        """The lead waits for the opponent: the target, or with 2 players the other player."""
        target = self.seats.after(move.player)
        if self.four:
            assert move.target is not None, "target_is_an_opponent_with_cards checked it"
            target = move.target
        self.lead = (Lead(move.player, move.card.face, target), move.face)
        self.turn = target

    @rule("M7-R2")
    def answer_lead(self, move: Play) -> None:
        """The opponent answers: the trick is decided, scored, drawn after, and the next lead named."""
        assert self.lead is not None
        lead, lead_face = self.lead
        winner = move.player if trick_winner_is_follower(lead_face, move.face) else lead.player
        mirror = self.options.mirror
        points = card_points(lead_face, move.face, mirror) + card_points(move.face, lead_face, mirror)
        self.points[winner] += points
        self.last_trick = Trick(lead.player, move.player, {lead.player: lead.card, move.player: move.card.face},
                                winner, points)
        self.tricks_played += 1
        self.previous = (lead.player, move.player)
        self.lead = None
        self.draw_after_trick(lead.player, move.player)
        self.next_lead(winner)

    @rule("M7-R5")
    def draw_after_trick(self, leader: str, follower: str) -> None:
        """While the stock lasts both players of the trick draw one card."""
        if self.stock:
            self.stock -= 2
            self.hands[leader] += 1
            self.hands[follower] += 1

    @rule("M7-R6")
    def next_lead(self, winner: str) -> None:
        """The winner leads the next trick (M7-R7 with 4 players), unless every hand is empty (M7-R10)."""
        if not any(self.hands.values()):
            self.finish()
        elif self.hands[winner] or not self.four:
            self.turn = winner
        else:
            self.turn = self.partner_leads(winner)

    @rule("M7-R7")
    def partner_leads(self, winner: str) -> str:
        """With 4 players a winner without cards hands the lead to their partner."""
        return self.partner(winner)

    @rule("M7-R10")
    def finish(self) -> None:
        """Every hand is empty: the game is over, the highest score wins."""
        self.finished = True
        self.turn = None
        self.winners = self.winners_by(self.scores())

    @rule("M7-R11")
    def scores(self) -> dict[str, int]:
        """With 2 players each player's points; with 4 each player shows their team's sum."""
        if not self.four:
            return dict(self.points)
        return {p: self.points[p] + self.points[self.partner(p)] for p in self.players}

    rules: ClassVar[Mapping[str, On]] = {
        "play": On(
            Play.read,
            checks=(
                of_field("player", Game.seated),
                of_field("player", Game.turn_is),
                Game.note_card,
                of_field("card", Game.not_exhausted),
                target_only_on_a_four_player_lead,
                target_is_an_opponent_with_cards,
                target_not_the_same_twice,
            ),
            effects=(play_card,),
        ),
    }

    # --- reading

    def public_state(self) -> Magische7State:
        return Magische7State(
            turn=self.turn,
            finished=self.finished,
            scores=self.scores(),
            winners=list(self.winners),
            lead=None if self.lead is None else self.lead[0],
            last_trick=self.last_trick,
            tricks_played=self.tricks_played,
            stock=self.stock,
            hands=dict(self.hands),
        )

    def allowed_targets(self, leader: str) -> tuple[str, ...]:
        """M7-R8, M7-R9: the opponents a 4-player lead by `leader` may name now."""
        return tuple(t for t in self.opponents(leader)
                     if self.check_target(leader, t))

    def check_target(self, leader: str, target: str) -> bool:
        move = Play(leader, "", target=target)
        try:
            self.target_is_an_opponent_with_cards(move)
            self.target_not_the_same_twice(move)
        except Rejection:
            return False
        return True

    def hints(self) -> Hints:
        if self.lead is None:
            targets = self.allowed_targets(self.turn) if self.four and self.turn is not None else ()
            detail = Magische7Hints(None, None, targets, None)
        else:
            lead, face = self.lead
            seven = 7 - face.value if face.kind == "points" else None
            detail = Magische7Hints(lead.card, lead.player, (), seven)
        if self.finished:
            return Hints(self.game_id, (), (), FinishedHints(tuple(self.winners), detail))
        return Hints(self.game_id, self.turn_actors(), ("play",), detail)

    def card_places(self) -> dict[str, int]:
        return {
            "hands": sum(self.hands.values()),
            "stock": self.stock,
            "lead": 0 if self.lead is None else 1,
            "tricks": 2 * self.tricks_played,
        }
