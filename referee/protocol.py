"""The common game protocol: what every game module provides and what the reducer expects.

A game is a class: constructed from the parsed header, it is the game state. Per
event type it declares one `On` entry in its `rules` table: how the event's fields
are read (`bad-event`), its checks in the order its rules file gives, each a small
named function carrying its rule id, and then its effects. A check looks and
raises a `Rejection`; only effects change the state, and they run only after every
check passed. So `Referee.check` (a dry run) is "read and check", and `apply` is
"read, check, effects". `public` returns the public state with exactly the keys of
its rules file. The shared bookkeeping (header, the event's type, undo, game over)
lives in `referee.table`, once for all games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee import registry
from referee.answers import HeaderError, Rejection
from referee.cards import Card, CardCodeError, CardTally, Deck
from referee.hints import Hints, PublicState
from referee.rules import Judge, On, rule_judges
from referee.seats import Seats


@dataclass(slots=True)
class CardMove:
    """The fields most plays share: who plays which code; the checks fill in the card they look up."""

    player: str
    code: str
    card: Card = field(default=None)  # type: ignore[assignment]  # set by `Game.note_card`
    face: Any = None  # the deck's meaning of the face, set by `Game.note_card`


class Game:
    """Base of every game: its seats, its rules table, and the checks every game shares."""

    game_id: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[Sequence[int]]
    event_types: ClassVar[frozenset[str]]  # derived from `rules` (see `__init_subclass__`)
    # True where the rules file checks the event's shape before `game-over` (alles-klar,
    # magische-7, profi-sort); False where `game-over` comes first (alcasan, annaotto).
    shape_first: ClassVar[bool] = True
    # Per event type: read, checks, effects (see `On`).
    rules: ClassVar[Mapping[str, On]] = {}
    # Event types whose rules depend on one field's value: type → field. Their `rules` keys are
    # `"type:value"` (ANNAOTTO's `press:confirm`, `press:slap`), all with the same `read`.
    variants: ClassVar[Mapping[str, str]] = {}

    deck: Deck[Any]
    players: tuple[str, ...]
    finished: bool
    turn: str | None

    def __init_subclass__(cls, **kwargs: Any):
        """A game's event types are its `rules` keys (a variant's `press:confirm` is the type `press`)."""
        super().__init_subclass__(**kwargs)
        cls.event_types = frozenset(kind.partition(":")[0] for kind in cls.rules)

    def __init__(self, players: Sequence[str], dealer: str, options: Any):
        self.seats = Seats(players)
        self.players = self.seats.order
        self.dealer = dealer
        self.options = options
        self.finished = False
        self.turn = None

    @classmethod
    def default(cls, option: str) -> Any:
        """The value `option` has when the header leaves it out: the game's definition says it, nobody else
        (`referee.registry.GameOption`)."""
        return registry.get(cls.game_id).default(option)

    # --- what each game provides

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Any:
        """Validate the header's options; raise HeaderError for an unknown key or a bad value."""
        if options:
            raise HeaderError("unknown-option", option=sorted(options)[0])
        return None

    @classmethod
    def judges(cls) -> Mapping[str, Judge]:
        """Per event type, what `apply` runs after the reducer's checks (the event's type, `undo`,
        and `game-over` where the rules file checks it before the fields): the `rules` table's
        read, checks and effects."""
        return rule_judges(cls)[0]

    @classmethod
    def checkers(cls) -> Mapping[str, Judge]:
        """Per event type, the same without the effects: `Referee.check`'s dry run."""
        return rule_judges(cls)[1]

    def public(self) -> dict[str, Any]:
        """The public state as the transcript writes it: exactly the keys the rules file names."""
        return self.public_state().to_json()

    def public_state(self) -> PublicState:
        """The public state, typed: the game's `referee.hints.PublicState` dataclass."""
        raise NotImplementedError

    def hints(self) -> Hints:
        """What may come next, for the player(s) who may act now (`referee.hints.Hints`)."""
        raise NotImplementedError

    def card_places(self) -> dict[str, int]:
        """Where the deck's cards are, as counts that add up to the deck (for conservation tests)."""
        raise NotImplementedError

    # --- the checks every game shares, one method each: a rules table applies one to a move's field with
    # `referee.rules.of_field` (`of_field("player", Game.seated)`); `note_card` also notes what it looked up

    tally: CardTally

    def seated(self, name: str) -> str:
        """`unknown-player` (transcript format): the name is one of the seated players."""
        if name not in self.seats:
            raise Rejection("unknown-player", player=name)
        return name

    def turn_is(self, player: str) -> None:
        """`not-your-turn`: the player is the one on turn."""
        if player != self.turn:
            if self.turn is None:
                raise Rejection("not-your-turn", "not-your-turn.nobody", player=player)
            raise Rejection("not-your-turn", turn=self.turn, player=player)

    def card(self, code: str) -> tuple[Card, Any]:
        """`unknown-card`: the code is a card of the deck in use; the card and what its face means."""
        try:
            return self.deck.lookup(code)
        except CardCodeError:
            raise Rejection("unknown-card", card=code) from None

    def not_exhausted(self, cards: Card | Sequence[Card], tally: CardTally | None = None) -> None:
        """`card-exhausted`: the card(s) fit the tally (the game's own unless given: the format's deck limit)."""
        cards = [cards] if isinstance(cards, Card) else list(cards)
        tally = self.tally if tally is None else tally
        ok = tally.fits_one(cards[0], self.deck) if len(cards) == 1 else tally.fits(cards, self.deck)
        if not ok:
            raise Rejection("card-exhausted", card=", ".join(str(c) for c in cards))

    def note_card(self, move: CardMove) -> None:
        """The move's card (`card`, the check), noted on the move with its face for the steps after it."""
        move.card, move.face = self.card(move.code)

    def note_cards(self, move: Any) -> None:
        """`card` for a move of several codes (`move.codes`); notes each card and face on the move (`move.cards`,
        `move.faces`, lists the move starts empty)."""
        for code in move.codes:
            card, face = self.card(code)
            move.cards.append(card)
            move.faces.append(face)

    def turn_actors(self) -> tuple[str, ...]:
        """The actors when only the player on turn may act: that player, or nobody when no one is on turn."""
        return () if self.turn is None else (self.turn,)

    def next_seat(self, player: str, step: int = 1) -> str:
        return self.seats.after(player, step)

    def winners_by(self, scores: Mapping[str, int], best: str = "max") -> list[str]:
        """Every player with the best score, in seat order."""
        target = max(scores.values()) if best == "max" else min(scores.values())
        return [p for p in self.players if scores[p] == target]
