"""Alles klar? (`../shared/rules/alles-klar.md`): tricks decided by the last open ranking card."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple

from referee.answers import HeaderError, Rejection
from referee.cards import CardTally, Deck
from referee.decks.alles_klar import NUMERALS, default_faces
from referee.fields import known_options, need_one_card, opt_str
from referee.games import register
from referee.hints import FinishedHints, Hints, Part, PublicState, names, say
from referee.protocol import CardMove, Game
from referee.rules import On, of_field, rule

_FACE = re.compile(r"AK:(1[01]|[1-9])((?:\.(?:III|II|IV|I|V)){0,2})")

@dataclass(frozen=True, slots=True)
class Face:
    value: int
    numerals: tuple[int, ...]  # 1 … 5, ascending


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
    return Deck(copies, {face: _meaning(face) for face in copies})


def _meaning(face: str) -> Face:
    """A face of a deck the header's options let through (they refuse every face `parse_face` does not read)."""
    meaning = parse_face(face)
    if meaning is None:
        raise ValueError(f"not an Alles klar? face: {face!r}")
    return meaning


@dataclass(slots=True)
class Play(CardMove):
    """A `play` (section 9): who plays which code, and the numeral chosen on a two-numeral card."""

    rank_choice: str | None = None

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Play:
        """`bad-event` for a missing or non-string `player`/`card`, a `cards` field, a non-string `rank_choice`."""
        player, code = need_one_card(event)
        return cls(player, code, rank_choice=opt_str(event, "rank_choice"))


@dataclass(frozen=True)
class LastTrick(Part):
    """The most recently ended trick: its winner (None unless won), its cards, and how it ended."""

    winner: str | None
    cards: int
    outcome: str  # "won", "blind" or "unfinished"


@dataclass(slots=True)
class AllesKlarState(PublicState):
    """Section 10's state keys, besides the common ones (`scores`: cards won in tricks).

    - `ranking`: the ranking cards still face up, in the order I … V;
    - `table`: player → the faces of their face-up cards in the current trick, in the order played;
    - `trick_size`: cards in the current trick, face up and face down;
    - `last_trick`: the most recently ended trick, None before the first ends;
    - `stock`: cards left in the draw pile; `hands`: player → cards in hand;
    - `removed`: cards taken out by blind and unfinished tricks; `tricks_played`: tricks ended so far.
    """

    game = "alles-klar"
    ranking: list[str]
    table: dict[str, list[str]]
    trick_size: int
    last_trick: LastTrick | None
    stock: int
    hands: dict[str, int]
    removed: int
    tricks_played: int


class AllesKlarHints(NamedTuple):
    """What the next play meets (AK-R7).

    - `ranking`: the open ranking cards (numerals `I` … `V`);
    - `face_up`: the face-up values in the trick, highest first (AK-R8 counts among these);
    - `deciding`: when exactly one ranking card N is open, N (the N-th highest face-up card
      wins once there are N of them), else None.
    """

    ranking: tuple[str, ...]
    face_up: tuple[int, ...]
    deciding: int | None

    def sentence(self, hints: Hints, lang: str) -> str:
        if not hints.actors:
            return ""
        player = names(hints.actors, lang)
        if self.deciding is not None:
            return say("hint.alles-klar.decides", lang, player=player, numeral=NUMERALS[self.deciding - 1],
                       rank=self.deciding)
        return say("hint.alles-klar", lang, player=player, ranking=", ".join(self.ranking))


@register
class AllesKlar(Game):
    game_id = "alles-klar"
    title = "Alles klar?"
    player_counts = (2, 3, 4, 5)
    shape_first = True
    HAND = 4

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
        known_options(options, "deck")
        deck = options.get("deck")
        if deck is None and "deck" not in options:
            return Options(DEFAULT_DECK)
        if not isinstance(deck, list) or any(not isinstance(f, str) or parse_face(f) is None for f in deck):
            raise HeaderError("ak-deck")
        if len(deck) < cls.HAND * len(players):
            raise HeaderError("too-few-cards", least=cls.HAND * len(players))
        return Options(tuple(deck))

    def __init__(self, players: Sequence[str], dealer: str, options: Options):
        super().__init__(players, dealer, options)
        self.deck = build_deck(options.deck)
        self.tally = CardTally()  # every card played so far (D12)
        self.open_ranks: set[int] = set(range(1, 6))  # open ranking cards, I = 1 … V = 5
        self.table: dict[str, list[str]] = {p: [] for p in self.players}
        self.face_up: dict[int, tuple[str, str]] = {}  # value → (owner, face) of the face-up card
        self.trick_size = 0
        self.last_trick: LastTrick | None = None
        self.stock = self.deck.size - self.HAND * len(self.players)
        self.hands = dict.fromkeys(self.players, self.HAND)
        self.scores = dict.fromkeys(self.players, 0)
        self.removed = 0
        self.tricks_played = 0
        self.winners: list[str] = []
        self.turn = self.next_seat(dealer)  # the seat after the dealer starts (section 3)

    # --- checks (section 9, "Checking order", after `bad-event` and `game-over`)

    @rule("AK-R6")
    def rank_choice_fits(self, move: Play) -> None:
        """A two-numeral card names one of its numerals; any other card names none."""
        choice, numerals = move.rank_choice, move.face.numerals
        if len(numerals) == 2:
            if choice is None:
                raise Rejection("rank-choice-needed", card=move.card.face)
            if choice not in NUMERALS or NUMERALS.index(choice) + 1 not in numerals:
                raise Rejection("bad-rank-choice", choice=choice, card=move.card.face)
        elif choice is not None:
            raise Rejection("bad-rank-choice", "bad-rank-choice.single", choice=choice, card=move.card.face)

    # --- effects, in the order of AK-R1 … AK-R7

    @rule("AK-R3")
    def turn_down_same_value(self, move: Play) -> None:
        """The earlier face-up card of this value, whoever's, turns face down and stays in the trick."""
        earlier = self.face_up.get(move.face.value)
        if earlier is not None:
            self.table[earlier[0]].remove(earlier[1])

    @rule("AK-R1")
    def lay_face_up(self, move: Play) -> None:
        """The player lays the card face up in front of themselves."""
        self.tally.add(move.card)
        self.hands[move.player] -= 1
        self.trick_size += 1
        self.face_up[move.face.value] = (move.player, move.card.face)
        self.table[move.player].append(move.card.face)

    @rule("AK-R4", "AK-R5")
    def turn_ranking_card(self, move: Play) -> None:
        """The card's numeral (the chosen one of two, AK-R6) closes its ranking card; no numeral, none."""
        numerals = move.face.numerals
        if len(numerals) == 2:
            self.open_ranks.discard(NUMERALS.index(move.rank_choice) + 1)
        elif numerals:
            self.open_ranks.discard(numerals[0])

    @rule("AK-R2")
    def draw(self, move: Play) -> None:
        """The player draws one card while the stock lasts."""
        if self.stock:
            self.stock -= 1
            self.hands[move.player] += 1

    @rule("AK-R7")
    def decide(self, move: Play) -> None:
        """Blind trick first, then a won trick, else the trick goes on."""
        open_ranks = self.open_ranks
        if not open_ranks:
            self.blind_trick(move.player)
        elif len(open_ranks) == 1 and len(self.face_up) >= min(open_ranks):
            self.won_trick(min(open_ranks))
        else:
            self.next_player(move.player)

    @rule("AK-R8")
    def won_trick(self, rank: int) -> None:
        """The owner of the rank-th highest face-up card wins every card of the trick and leads."""
        winner = self.face_up[sorted(self.face_up, reverse=True)[rank - 1]][0]
        self.scores[winner] += self.trick_size
        self.end_trick(LastTrick(winner, self.trick_size, "won"), leader=winner)

    @rule("AK-R9")
    def blind_trick(self, player: str) -> None:
        """No ranking card open: the trick leaves the game, the player who caused it leads."""
        self.removed += self.trick_size
        self.end_trick(LastTrick(None, self.trick_size, "blind"), leader=player)

    @rule("AK-R10")
    def next_player(self, player: str) -> None:
        """The trick goes on with the next player who holds a card."""
        following = self.seats.next_holder(player, self.hands)
        if following is None:
            self.unfinished_trick()
        else:
            self.turn = following

    @rule("AK-R12")
    def unfinished_trick(self) -> None:
        """The trick goes on but nobody holds a card: it leaves the game unscored and the game ends."""
        self.removed += self.trick_size
        self.end_trick(LastTrick(None, self.trick_size, "unfinished"), leader=None)

    def end_trick(self, last: LastTrick, leader: str | None) -> None:
        """All five ranking cards open again, the table clears; the next trick or the end (AK-R11)."""
        self.last_trick = last
        self.tricks_played += 1
        self.trick_size = 0
        self.face_up.clear()
        for cards_in_front in self.table.values():
            cards_in_front.clear()
        self.open_ranks = set(range(1, 6))
        if leader is None or self.last_trick_played():
            self.finish()
        else:
            self.turn = leader

    @rule("AK-R11")
    def last_trick_played(self) -> bool:
        """A trick ended with the stock empty (after the draw of AK-R2) was the last one."""
        return not self.stock

    @rule("AK-R13")
    def finish(self) -> None:
        """The game is over: the players with the most cards won (D9)."""
        self.finished = True
        self.turn = None
        self.winners = self.winners_by(self.scores)

    rules: ClassVar[Mapping[str, On]] = {
        "play": On(
            Play.read,
            checks=(
                of_field("player", Game.seated),
                of_field("player", Game.turn_is),
                Game.note_card,
                of_field("card", Game.not_exhausted),
                rank_choice_fits,
            ),
            effects=(turn_down_same_value, lay_face_up, turn_ranking_card, draw, decide),
        ),
    }

    # --- reading

    def public_state(self) -> AllesKlarState:
        return AllesKlarState(
            turn=self.turn,
            finished=self.finished,
            scores=dict(self.scores),
            winners=list(self.winners),
            ranking=[NUMERALS[n - 1] for n in sorted(self.open_ranks)],
            table={p: list(cards) for p, cards in self.table.items()},
            trick_size=self.trick_size,
            last_trick=self.last_trick,
            stock=self.stock,
            hands=dict(self.hands),
            removed=self.removed,
            tricks_played=self.tricks_played,
        )

    def hints(self) -> Hints:
        open_ranks = sorted(self.open_ranks)
        detail = AllesKlarHints(
            ranking=tuple(NUMERALS[n - 1] for n in open_ranks),
            face_up=tuple(sorted(self.face_up, reverse=True)),
            deciding=open_ranks[0] if len(open_ranks) == 1 else None,
        )
        if self.finished:
            return Hints(self.game_id, (), (), FinishedHints(tuple(self.winners), detail))
        return Hints(self.game_id, self.turn_actors(), ("play",), detail)

    def card_places(self) -> dict[str, int]:
        return {
            "hands": sum(self.hands.values()),
            "stock": self.stock,
            "trick": self.trick_size,
            "won": sum(self.scores.values()),
            "removed": self.removed,
        }
