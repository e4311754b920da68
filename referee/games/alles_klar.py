"""Alles klar? (`../shared/rules/alles-klar.md`): tricks decided by the last open ranking card."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from referee import messages
from referee.cards import Card, CardTally, Deck
from referee.decks.alles_klar import NUMERALS, default_faces
from referee.games import register
from referee.protocol import Game, HeaderError, Rejection, forbid, known_options, need_str, opt_str

_FACE = re.compile(r"AK:(1[01]|[1-9])((?:\.(?:III|II|IV|I|V)){0,2})")

messages.register({
    "rank-choice-needed": (
        "{card} shows two numerals: choose which one turns its ranking card (AK-R6).",
        "{card} zeigt zwei Ziffern: wähle, welche ihre Reihungskarte umdreht (AK-R6).",
    ),
    "bad-rank-choice": (
        "{choice} is not one of the two numerals of {card} (AK-R6).",
        "{choice} ist keine der beiden Ziffern von {card} (AK-R6).",
    ),
    "bad-rank-choice.single": (
        "{card} does not show two numerals, so there is nothing to choose (AK-R6).",
        "{card} zeigt keine zwei Ziffern, es gibt nichts zu wählen (AK-R6).",
    ),
})


@dataclass(frozen=True, slots=True)
class Face:
    value: int
    numerals: tuple[int, ...]  # 1 … 5, ascending

    def __deepcopy__(self, memo: dict) -> Face:
        return self


def parse_face(face: str) -> Face | None:
    """The meaning of a well-formed face (`AK:7.II.III`), or None."""
    match = _FACE.fullmatch(face)
    if not match:
        return None
    names = [n for n in match.group(2).split(".") if n]
    numerals = tuple(NUMERALS.index(n) + 1 for n in names)
    if len(numerals) == 2 and numerals[0] >= numerals[1]:
        return None
    return Face(int(match.group(1)), numerals)


@dataclass(frozen=True)
class Options:
    deck: tuple[str, ...]


DEFAULT_DECK = tuple(default_faces())


@lru_cache(maxsize=32)
def build_deck(faces: tuple[str, ...]) -> Deck[Face]:
    """The deck in use; decks are immutable, so games with the same list share one."""
    copies: dict[str, int] = {}
    for face in faces:
        copies[face] = copies.get(face, 0) + 1
    return Deck(copies, {face: parse_face(face) for face in copies})


@register
class AllesKlar(Game):
    id = "alles-klar"
    title = "Alles klar?"
    player_counts = (2, 3, 4, 5)
    event_types = frozenset({"play"})
    shape_first = True
    HAND = 4

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
        known_options(options, "deck")
        deck = options.get("deck")
        if deck is None and "deck" not in options:
            return Options(DEFAULT_DECK)
        if not isinstance(deck, list) or any(not isinstance(f, str) or parse_face(f) is None for f in deck):
            raise HeaderError(
                "deck must be a list of well-formed faces such as 'AK:7.II'",
                "deck muss eine Liste gültiger Kartenbilder wie 'AK:7.II' sein",
            )
        if len(deck) < cls.HAND * len(players):
            raise HeaderError(
                f"the deck must hold at least {cls.HAND * len(players)} cards",
                f"das Spiel muss mindestens {cls.HAND * len(players)} Karten haben",
            )
        return Options(tuple(deck))

    def __init__(self, players: Sequence[str], dealer: str, options: Options):
        super().__init__(players, dealer, options)
        self.deck = build_deck(options.deck)
        self.tally = CardTally()
        self.ranking = [True] * 5  # open ranking cards I … V
        self.table: dict[str, list[str]] = {p: [] for p in self.players}
        self.face_up: dict[int, tuple[str, str]] = {}  # value → (owner, face) of the face-up card
        self.trick_size = 0
        self.last_trick: dict[str, Any] | None = None
        self.stock = self.deck.size - self.HAND * len(self.players)
        self.hands = dict.fromkeys(self.players, self.HAND)
        self.scores = dict.fromkeys(self.players, 0)
        self.removed = 0
        self.tricks_played = 0
        self.winners: list[str] = []
        self.turn = self.next_seat(dealer)  # the seat after the dealer starts (section 3)

    def check_shape(self, event: Mapping[str, Any]) -> None:
        need_str(event, "player")
        need_str(event, "card")
        forbid(event, "cards")
        opt_str(event, "rank_choice")

    def step(self, event: Mapping[str, Any]) -> None:
        player = self.seat(event["player"])
        self.on_turn(player)
        card, face = self.card(event["card"])
        self.not_exhausted(self.tally, (card,))
        numeral = self._ranking_numeral(card, face, event.get("rank_choice"))
        self._play(player, card, face, numeral)

    def _ranking_numeral(self, card: Card, face: Face, choice: str | None) -> int | None:
        """AK-R4 … AK-R6: which ranking card this play turns (None: none)."""
        if len(face.numerals) == 2:
            if choice is None:
                raise Rejection("rank-choice-needed", card=card.face)
            if choice not in NUMERALS or NUMERALS.index(choice) + 1 not in face.numerals:
                raise Rejection("bad-rank-choice", choice=choice, card=card.face)
            return NUMERALS.index(choice) + 1
        if choice is not None:
            raise Rejection("bad-rank-choice", "bad-rank-choice.single", choice=choice, card=card.face)
        return face.numerals[0] if face.numerals else None

    def _play(self, player: str, card: Card, face: Face, numeral: int | None) -> None:
        self.tally.add(card)
        self.hands[player] -= 1
        self.trick_size += 1
        earlier = self.face_up.get(face.value)  # AK-R3: the earlier card of this value turns face down
        if earlier is not None:
            self.table[earlier[0]].remove(earlier[1])
        self.face_up[face.value] = (player, card.face)
        self.table[player].append(card.face)
        if numeral is not None:  # AK-R4 / AK-R6; an already closed ranking card stays closed
            self.ranking[numeral - 1] = False
        if self.stock:  # AK-R2
            self.stock -= 1
            self.hands[player] += 1
        self._decide(player)

    def _decide(self, player: str) -> None:
        """AK-R7: blind trick first, then a won trick, else the trick goes on."""
        open_cards = [n for n in range(1, 6) if self.ranking[n - 1]]
        if not open_cards:  # AK-R9
            self._end_trick(None, "blind", leader=player)
        elif len(open_cards) == 1 and len(self.face_up) >= open_cards[0]:  # AK-R8
            ordered = sorted(self.face_up, reverse=True)
            winner = self.face_up[ordered[open_cards[0] - 1]][0]
            self._end_trick(winner, "won", leader=winner)
        else:  # AK-R10, AK-R12
            following = self._next_holder(player)
            if following is None:
                self._end_trick(None, "unfinished", leader=None)
            else:
                self.turn = following

    def _next_holder(self, player: str) -> str | None:
        n = len(self.players)
        start = self.seats[player]
        for step in range(1, n + 1):
            candidate = self.players[(start + step) % n]
            if self.hands[candidate]:
                return candidate
        return None

    def _end_trick(self, winner: str | None, outcome: str, leader: str | None) -> None:
        cards = self.trick_size
        if winner is None:
            self.removed += cards
        else:
            self.scores[winner] += cards
        self.last_trick = {"winner": winner, "cards": cards, "outcome": outcome}
        self.tricks_played += 1
        self.trick_size = 0
        self.face_up.clear()
        for cards_in_front in self.table.values():
            cards_in_front.clear()
        self.ranking = [True] * 5
        if outcome == "unfinished" or not self.stock:  # AK-R11, AK-R12
            self._finish()
        else:
            self.turn = leader

    def _finish(self) -> None:
        self.finished = True
        self.turn = None
        self.winners = self.winners_by(self.scores)  # AK-R13, D9

    def public(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "finished": self.finished,
            "scores": dict(self.scores),
            "winners": list(self.winners),
            "ranking": [NUMERALS[i] for i in range(5) if self.ranking[i]],
            "table": {p: list(cards) for p, cards in self.table.items()},
            "trick_size": self.trick_size,
            "last_trick": None if self.last_trick is None else dict(self.last_trick),
            "stock": self.stock,
            "hands": dict(self.hands),
            "removed": self.removed,
            "tricks_played": self.tricks_played,
        }

    def card_places(self) -> dict[str, int]:
        return {
            "hands": sum(self.hands.values()),
            "stock": self.stock,
            "trick": self.trick_size,
            "won": sum(self.scores.values()),
            "removed": self.removed,
        }
