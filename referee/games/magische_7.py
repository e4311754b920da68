"""Die magische 7 (`../shared/rules/magische-7.md`): two-card tricks, pairs to 7 and three special cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from referee import messages
from referee.cards import Card, CardTally, Deck
from referee.decks.magische_7 import pack
from referee.games import register
from referee.protocol import Game, HeaderError, Rejection, bool_option, forbid, known_options, need_str, opt_str

messages.register({
    "target-needed": (
        "With four players the lead names the opponent it is played against (M7-R8).",
        "Zu viert nennt der Ausspielende den Gegner, gegen den er spielt (M7-R8).",
    ),
    "bad-target": (
        "{target} cannot be the opponent of this lead (M7-R8).",
        "{target} kann nicht der Gegner dieses Ausspiels sein (M7-R8).",
    ),
    "bad-target.not-allowed": (
        "Only a lead with four players names an opponent (M7-R1).",
        "Nur beim Ausspiel zu viert wird ein Gegner genannt (M7-R1).",
    ),
    "target-has-no-cards": (
        "{target} holds no card, so the lead cannot go against them (M7-R8).",
        "{target} hat keine Karte mehr, gegen sie oder ihn kann nicht gespielt werden (M7-R8).",
    ),
    "same-target-twice": (
        "{player} led the last trick against {target} too: choose the other opponent (M7-R9).",
        "{player} hat den letzten Stich schon gegen {target} gespielt: wähle den anderen Gegner (M7-R9).",
    ),
})


@dataclass(frozen=True, slots=True)
class Face:
    kind: str  # "points", "JOKER", "MIRROR" or "CROSS"
    value: int = 0

    def __deepcopy__(self, memo: dict) -> Face:
        return self


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


def trick_winner_is_follower(lead: Face, follow: Face) -> bool:
    """M7-R3: the lead wins unless the follower's Joker, a led Cross, or a pair to 7."""
    return (
        follow.kind == "JOKER"
        or lead.kind == "CROSS"
        or (lead.kind == "points" and follow.kind == "points" and lead.value + follow.value == 7)
    )


def card_points(card: Face, other: Face, mirror: str) -> int:
    """M7-R4: a points card its value, Joker and Cross 0, the Mirror copies a points card (option)."""
    if card.kind == "points":
        return card.value
    if card.kind == "MIRROR" and mirror == "copy" and other.kind == "points":
        return other.value
    return 0


@register
class MagischeSieben(Game):
    id = "magische-7"
    title = "Die magische 7"
    player_counts = (2, 4)
    event_types = frozenset({"play"})
    shape_first = True
    HAND = 7

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
        known_options(options, "mirror", "no_repeat_target")
        mirror = options.get("mirror", "copy")
        if mirror not in ("copy", "zero") or type(mirror) is not str:
            raise HeaderError("mirror must be 'copy' or 'zero'", "mirror muss 'copy' oder 'zero' sein")
        return Options(mirror, bool_option(options, "no_repeat_target", True))

    def __init__(self, players: Sequence[str], dealer: str, options: Options):
        super().__init__(players, dealer, options)
        self.deck = build_deck(len(self.players) // 2)
        self.tally = CardTally()
        self.four = len(self.players) == 4
        self.hands = dict.fromkeys(self.players, self.HAND)
        self.stock = self.deck.size - self.HAND * len(self.players)
        self.points = dict.fromkeys(self.players, 0)  # per player; teams add up in `scores`
        self.lead: tuple[str, Card, Face, str] | None = None  # leader, card, face, target
        self.last_trick: dict[str, Any] | None = None
        self.tricks_played = 0
        self.previous: tuple[str, str] | None = None  # (leader, target) of the last completed trick
        self.winners: list[str] = []
        self.turn = self.next_seat(dealer)

    def check_shape(self, event: Mapping[str, Any]) -> None:
        need_str(event, "player")
        need_str(event, "card")
        forbid(event, "cards")
        opt_str(event, "target")

    def partner(self, player: str) -> str:
        return self.next_seat(player, 2)

    def step(self, event: Mapping[str, Any]) -> None:
        player = self.seat(event["player"])
        self.on_turn(player)
        card, face = self.card(event["card"])
        self.not_exhausted(self.tally, (card,))
        target = event.get("target")
        if self.lead is None:
            target = self._check_target(player, target)
            self._lead(player, card, face, target)
        else:
            if target is not None:
                raise Rejection("bad-target", "bad-target.not-allowed", target=target)
            self._follow(player, card, face)

    def _check_target(self, leader: str, target: str | None) -> str:
        """M7-R8, M7-R9 in the rules' checking order; with two players the other player."""
        if not self.four:
            if target is not None:
                raise Rejection("bad-target", "bad-target.not-allowed", target=target)
            return self.next_seat(leader)
        if target is None:
            raise Rejection("target-needed")
        opponents = (self.next_seat(leader, 1), self.next_seat(leader, 3))
        if target not in opponents:
            raise Rejection("bad-target", target=target)
        if not self.hands[target]:
            raise Rejection("target-has-no-cards", target=target)
        other = opponents[1] if target == opponents[0] else opponents[0]
        if self.options.no_repeat_target and self.previous == (leader, target) and self.hands[other]:
            raise Rejection("same-target-twice", player=leader, target=target)
        return target

    def _lead(self, leader: str, card: Card, face: Face, target: str) -> None:
        self.tally.add(card)
        self.hands[leader] -= 1
        self.lead = (leader, card, face, target)
        self.turn = target

    def _follow(self, follower: str, card: Card, face: Face) -> None:
        assert self.lead is not None
        leader, lead_card, lead_face, _ = self.lead
        self.tally.add(card)
        self.hands[follower] -= 1
        winner = follower if trick_winner_is_follower(lead_face, face) else leader
        points = card_points(lead_face, face, self.options.mirror) + card_points(face, lead_face, self.options.mirror)
        self.points[winner] += points
        self.last_trick = {
            "leader": leader,
            "follower": follower,
            "cards": {leader: lead_card.face, follower: card.face},
            "winner": winner,
            "points": points,
        }
        self.tricks_played += 1
        self.previous = (leader, follower)
        self.lead = None
        if self.stock:  # M7-R5, D11: the two players of the trick draw
            self.stock -= 2
            self.hands[leader] += 1
            self.hands[follower] += 1
        if not any(self.hands.values()):  # M7-R10
            self.finished = True
            self.turn = None
            self.winners = self.winners_by(self.scores())
        elif self.hands[winner] or not self.four:  # M7-R6
            self.turn = winner
        else:  # M7-R7
            self.turn = self.partner(winner)

    def scores(self) -> dict[str, int]:
        if not self.four:
            return dict(self.points)
        return {p: self.points[p] + self.points[self.partner(p)] for p in self.players}

    def public(self) -> dict[str, Any]:
        lead = None
        if self.lead is not None:
            lead = {"player": self.lead[0], "card": self.lead[1].face, "target": self.lead[3]}
        return {
            "turn": self.turn,
            "finished": self.finished,
            "scores": self.scores(),
            "winners": list(self.winners),
            "lead": lead,
            "last_trick": self._last_trick_public(),
            "tricks_played": self.tricks_played,
            "stock": self.stock,
            "hands": dict(self.hands),
        }

    def _last_trick_public(self) -> dict[str, Any] | None:
        if self.last_trick is None:
            return None
        return {**self.last_trick, "cards": dict(self.last_trick["cards"])}

    def card_places(self) -> dict[str, int]:
        return {
            "hands": sum(self.hands.values()),
            "stock": self.stock,
            "lead": 0 if self.lead is None else 1,
            "tricks": 2 * self.tricks_played,
        }
