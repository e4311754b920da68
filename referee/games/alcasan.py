"""alcasan (`../shared/rules/alcasan.md`): climb a discard pile, burn it, shed hand, face-up and face-down cards.

The referee sees only scanned cards; it keeps counts per player (hand, face-up,
face-down), the discard pile, the burned count and the draw pile. The pile's
requirement is kept as one small integer, `need`: 0 = any face, -1 = "4 or
lower" (Wasser), N ≥ 1 = "N or higher". Luft leaves it as it is (transparent,
AC-R12), so the effective card under any number of Luft cards costs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee import messages
from referee.cards import Card, CardCodeError, CardTally, Deck
from referee.decks.alcasan import DEFAULT_COPIES, NUMBERS, PREFIX, SHORT_FACES, WASSER_VALUE, faces
from referee.games import register
from referee.protocol import Game, HeaderError, Rejection, bool_option, is_int, known_options, need_str, need_str_list

HAND = 3  # AC-R4: the hand is refilled to 3
DEALT = 9  # section 3: 3 face-down, 3 face-up, 3 in the hand
RUN = 4  # AC-R13: four identical faces burn the pile

# `need` values besides "N or higher"
ANY = 0
AT_MOST_4 = -1

# Message keys carry the suffix ".ac" so that another game's sentence for the same code never collides.
messages.register({
    "event-not-used.ac": (
        "alcasan has no '{type}' event: hands are refilled automatically and no button is used (AC-D11, AC-D20).",
        "alcasan kennt kein Ereignis „{type}“: nachgezogen wird automatisch, Knöpfe werden nicht benutzt "
        "(AC-D11, AC-D20).",
    ),
    "bad-event.ac-card-or-cards": (
        "A play names exactly one of 'card' (one card) or 'cards' (a list of cards).",
        "Ein Ausspiel nennt genau eines von „card“ (eine Karte) oder „cards“ (eine Liste von Karten).",
    ),
    "mixed-faces.ac": (
        "Several cards at once must all show the same face, not {faces} (AC-R2).",
        "Mehrere Karten auf einmal müssen alle dasselbe Bild zeigen, nicht {faces} (AC-R2).",
    ),
    "too-many-cards.ac-hand": (
        "{player} has only {have} hand card(s), not {count} (AC-R3).",
        "{player} hat nur {have} Handkarte(n), nicht {count} (AC-R3).",
    ),
    "too-many-cards.ac-up": (
        "{player} has only {have} face-up card(s) left, not {count} (AC-R3).",
        "{player} hat nur noch {have} offene Karte(n), nicht {count} (AC-R3).",
    ),
    "too-low.ac": (
        "{face} is lower than the {need} on the pile (AC-R8).",
        "{face} ist niedriger als die {need} auf dem Stapel (AC-R8).",
    ),
    "too-high.ac": (
        "Wasser lies on the pile: only 4 or lower may follow, not {face} (AC-R9).",
        "Auf dem Stapel liegt Wasser: nur 4 oder weniger darf folgen, nicht {face} (AC-R9).",
    ),
    "wasser-blocked.ac": (
        "Wasser counts 4 and cannot go on the {need} (AC-R9).",
        "Wasser zählt 4 und darf nicht auf die {need} (AC-R9).",
    ),
    "pile-empty.ac": (
        "The discard pile is empty: there is nothing to take (AC-R6, AC-D9).",
        "Der Ablegestapel ist leer: es gibt nichts aufzunehmen (AC-R6, AC-D9).",
    ),
    "must-reveal.ac": (
        "{player} has no hand or face-up cards left and must turn over a face-down card (AC-R16).",
        "{player} hat keine Hand- oder offenen Karten mehr und muss eine verdeckte Karte umdrehen (AC-R16).",
    ),
    "not-face-down.ac": (
        "{player} still has hand or face-up cards: face-down cards come last (AC-R16).",
        "{player} hat noch Hand- oder offene Karten: die verdeckten Karten kommen zuletzt (AC-R16).",
    ),
})

_NOT_USED = frozenset({"draw", "press"})


class Face:
    """One face's meaning: its short name, what it makes the pile require, and its verdict per requirement."""

    __slots__ = ("burns", "is_luft", "name", "sets_need", "verdict")

    def __init__(self, name: str):
        self.name = name  # "7", "WASSER" …
        self.burns = name == "FEUER"  # AC-R10
        self.is_luft = name == "LUFT"  # AC-R12: transparent
        # what `need` becomes when this face is the effective card (None: Luft and Feuer do not set it)
        self.sets_need: int | None
        if name.isdigit():
            self.sets_need = int(name)
        else:
            self.sets_need = {"WASSER": AT_MOST_4, "ERDE": ANY}.get(name)
        self.verdict: dict[int, str | None] = {need: _verdict(name, need) for need in (ANY, AT_MOST_4, *NUMBERS)}

    def __deepcopy__(self, memo: dict) -> Face:
        return self

    def __repr__(self) -> str:
        return f"Face({self.name!r})"


def _verdict(name: str, need: int) -> str | None:
    """AC-R8 … AC-R12: None if `name` may be laid while the pile requires `need`, else the error code."""
    if name in ("FEUER", "ERDE", "LUFT") or need == ANY:
        return None
    value = WASSER_VALUE if name == "WASSER" else int(name)
    if need == AT_MOST_4:  # AC-R9: 1, 2, 3 or Wasser
        return None if value <= WASSER_VALUE else "too-high"
    if name == "WASSER":
        return None if need <= WASSER_VALUE else "wasser-blocked"
    return None if value >= need else "too-low"


def need_text(need: int) -> str:
    """The state key `need` (section 8)."""
    if need == ANY:
        return "any"
    if need == AT_MOST_4:
        return "<=4"
    return f">={need}"


_FACES = {f"{PREFIX}:{name}": Face(name) for name in SHORT_FACES}
_DECKS: dict[int, Deck] = {}  # by copies: a deck never changes, so games share it (and its lookup cache)


def deck(copies: int) -> Deck:
    found = _DECKS.get(copies)
    if found is None:
        found = _DECKS[copies] = Deck(faces(copies), _FACES)
    return found


@dataclass(frozen=True)
class Options:
    copies: int = DEFAULT_COPIES
    stop_at_first: bool = False


@register
class Alcasan(Game):
    id = "alcasan"
    title = "alcasan"
    player_counts = (2, 3, 4)
    event_types = frozenset({"play", "take_pile", "reveal", "draw", "press"})
    shape_first = False  # section 7: `game-over` comes before the field checks

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
        known_options(options, "copies", "stop_at_first")
        copies = options.get("copies", DEFAULT_COPIES)
        if not is_int(copies) or copies < 1:
            raise HeaderError("copies must be an integer of at least 1", "copies muss eine ganze Zahl ab 1 sein")
        size = len(SHORT_FACES) * copies
        if size < DEALT * len(players):
            raise HeaderError(
                f"{copies} copies make {size} cards, fewer than the {DEALT * len(players)} dealt",
                f"{copies} Exemplare ergeben {size} Karten, weniger als die {DEALT * len(players)} ausgeteilten",
            )
        return Options(copies, bool_option(options, "stop_at_first", False))

    def __init__(self, players: Sequence[str], dealer: str, options: Options):
        super().__init__(players, dealer, options)
        self.deck = deck(options.copies)
        self._lookup = self.deck.lookup
        self._after = {p: [self.next_seat(p, k) for k in range(1, len(self.players))] for p in self.players}
        self.tally = CardTally()  # AC-D19: the table is the pile plus the burned cards
        self._fits_one = self.tally.fits_one
        self.hands = dict.fromkeys(self.players, HAND)
        self.up = dict.fromkeys(self.players, HAND)
        self.down = dict.fromkeys(self.players, HAND)
        self.draw_pile = self.deck.size - DEALT * len(self.players)
        self.pile: list[Card] = []
        self.top: Face | None = None
        self.need = ANY
        self.run_face: Face | None = None  # AC-R13: the face of the identical cards on top, and how many
        self.run = 0
        self.burned = 0
        self.out: list[str] = []
        self.places = dict.fromkeys(self.players, 0)
        self.holding = len(self.players)  # players who still hold cards
        self.winners: list[str] = []
        self.turn = self.next_seat(dealer)

    # --- checks, in the order of section 7

    def check_shape(self, event: Mapping[str, Any]) -> None:
        kind = event["type"]
        if kind in _NOT_USED:  # check 4
            raise Rejection("event-not-used", "event-not-used.ac", type=kind)
        if type(event.get("player")) is not str:  # check 5
            need_str(event, "player")
        if kind == "play":
            if "card" in event:
                if "cards" in event:
                    raise Rejection("bad-event", "bad-event.ac-card-or-cards")
                if type(event["card"]) is not str:
                    need_str(event, "card")
            elif "cards" in event:
                need_str_list(event, "cards")
            else:
                raise Rejection("bad-event", "bad-event.ac-card-or-cards")
        elif kind == "reveal":
            need_str(event, "card")

    def step(self, event: Mapping[str, Any]) -> None:
        kind = event["type"]
        player = event["player"]
        if player not in self.seats:  # check 6
            raise Rejection("unknown-player", player=player)
        if kind == "play":
            code = event.get("card")
            if code is not None:
                card, face = self._card(code)  # check 7
                if not self._fits_one(card, self.deck):  # check 8
                    self.not_exhausted(self.tally, (card,))
                cards: Sequence[Card] = (card,)
                faces_: Sequence[Face] = (face,)
            else:
                looked = [self._card(code) for code in event["cards"]]
                cards = [c for c, _ in looked]
                faces_ = [f for _, f in looked]
                face = faces_[0]
                self.not_exhausted(self.tally, cards)
            if player != self.turn:  # check 9
                self.on_turn(player)
            source = self._check_play(player, cards, faces_, face)  # check 10
            source[player] -= len(cards)  # AC-R3: from the hand, or else from the face-up cards
            self._lay(player, cards, face)
        elif kind == "take_pile":
            self.on_turn(player)  # check 9
            self._check_take(player)
            self._take_pile(player)
        else:  # reveal
            card, face = self._card(event["card"])
            self.not_exhausted(self.tally, (card,))
            self.on_turn(player)
            if self.hands[player] or self.up[player]:
                raise Rejection("not-face-down", "not-face-down.ac", player=player)
            self._reveal(player, card, face)

    def _card(self, code: str) -> tuple[Card, Face]:
        try:
            return self._lookup(code)
        except CardCodeError:
            raise Rejection("unknown-card", card=code) from None

    def _check_take(self, player: str) -> None:
        if not self.hands[player] and not self.up[player]:  # AC-R16, AC-D15
            raise Rejection("must-reveal", "must-reveal.ac", player=player)
        if not self.pile:  # AC-D9
            raise Rejection("pile-empty", "pile-empty.ac")

    def _check_play(
        self, player: str, cards: Sequence[Card], faces_: Sequence[Face], face: Face
    ) -> dict[str, int]:
        """AC-R2, AC-R3, AC-R8 … AC-R12 for a play; the counts the cards come from (hand or face-up)."""
        counts = self.hands
        have = counts[player]
        source = "hand"
        if not have:
            counts = self.up
            have = counts[player]
            source = "up"
            if not have:
                raise Rejection("must-reveal", "must-reveal.ac", player=player)
        if len(cards) > 1:
            for other in faces_:
                if other is not face:
                    names = ", ".join(dict.fromkeys(f.name for f in faces_))
                    raise Rejection("mixed-faces", "mixed-faces.ac", faces=names)
            if len(cards) > have:
                raise Rejection(
                    "too-many-cards", f"too-many-cards.ac-{source}", player=player, have=have, count=len(cards)
                )
        error = face.verdict[self.need]
        if error is not None:
            raise Rejection(error, f"{error}.ac", face=face.name, need=need_text(self.need)[2:])
        return counts

    # --- mutations, after every check passed

    def _reveal(self, player: str, card: Card, face: Face) -> None:
        """AC-R16: a legal face counts as a play of that card; else card and pile go to the hand."""
        self.down[player] -= 1
        if face.verdict[self.need] is None:
            self._lay(player, (card,), face)
            return
        self.hands[player] += len(self.pile) + 1  # the revealed card never joined the table
        self._clear_pile()
        self._pass_turn(player)

    def _take_pile(self, player: str) -> None:
        """AC-R6, AC-D10: the whole pile into the hand; the next player starts a new pile."""
        self.hands[player] += len(self.pile)
        self._clear_pile()
        self._pass_turn(player)

    def _clear_pile(self) -> None:
        """The pile goes back to a hand: its cards leave the table (AC-D19)."""
        remove = self.tally.remove
        for card in self.pile:
            remove(card)
        self._empty_pile()

    def _empty_pile(self) -> None:
        self.pile = []
        self.top = None
        self.need = ANY
        self.run_face = None
        self.run = 0

    def _lay(self, player: str, cards: Sequence[Card], face: Face) -> None:
        """The cards join the pile; Feuer or four identical burn it (AC-R10, AC-R13); refill; who is next."""
        counts = self.tally.counts  # the table grows by these cards (AC-D19), as CardTally.add does
        named = self.tally.copies
        for card in cards:
            counts[card.face] = counts.get(card.face, 0) + 1
            if card.copy is not None:
                named.add((card.face, card.copy))
        pile = self.pile
        pile.extend(cards)
        self.top = face
        if face.sets_need is not None:  # Luft and Feuer leave the requirement of the card below
            self.need = face.sets_need
        if face is self.run_face:
            self.run += len(cards)
        else:
            self.run_face = face
            self.run = len(cards)
        burn = face.burns or self.run >= RUN
        if burn:
            self.burned += len(pile)
            self._empty_pile()
        hands = self.hands
        if self.draw_pile and hands[player] < HAND:  # AC-R4: refill to 3 while the draw pile lasts
            drawn = min(HAND - hands[player], self.draw_pile)
            hands[player] += drawn
            self.draw_pile -= drawn
        if hands[player] or self.up[player] or self.down[player]:
            if not burn:  # AC-R14: after a burn the same player lays again
                self._pass_turn(player)
            return
        self._player_out(player)

    def _pass_turn(self, player: str) -> None:
        """AC-R5: the next player clockwise who still holds cards."""
        places = self.places
        for nxt in self._after[player]:
            if not places[nxt]:
                self.turn = nxt
                return
        raise AssertionError("nobody holds cards in a running game")

    def _player_out(self, player: str) -> None:
        """AC-R17, AC-R18: the player is out; the game ends with the first out or the last one holding cards."""
        self.out.append(player)
        self.places[player] = len(self.out)
        self.holding -= 1
        if self.options.stop_at_first:
            self._finish(2)
        elif self.holding == 1:
            self._finish(len(self.players))
        else:
            self._pass_turn(player)

    def _finish(self, place: int) -> None:
        for p in self.players:
            if not self.places[p]:
                self.places[p] = place
        self.finished = True
        self.turn = None
        self.winners = [self.out[0]]

    # --- reading

    def public(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "finished": self.finished,
            "scores": dict(self.places),
            "winners": list(self.winners),
            "pile": len(self.pile),
            "top": None if self.top is None else self.top.name,
            "need": need_text(self.need),
            "burned": self.burned,
            "draw_pile": self.draw_pile,
            "hands": dict(self.hands),
            "up": dict(self.up),
            "down": dict(self.down),
            "out": list(self.out),
        }

    def card_places(self) -> dict[str, int]:
        return {
            "hands": sum(self.hands.values()),
            "up": sum(self.up.values()),
            "down": sum(self.down.values()),
            "draw_pile": self.draw_pile,
            "pile": len(self.pile),
            "burned": self.burned,
        }
