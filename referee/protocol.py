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

from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeGuard, TypeVar

from referee import messages
from referee.cards import Card, CardCodeError, CardTally, Deck
from referee.hints import Hints, PublicState
from referee.seats import Seats


class RefereeError(Exception):
    """Root of the referee's exceptions."""


class Rejection(RefereeError):
    """An event the rules do not allow: a stable code, and a sentence made on demand.

    `key` selects the sentence (defaults to the code); `params` fill it in.
    """

    def __init__(self, code: str, key: str | None = None, **params: Any):
        super().__init__(code)
        self.code = code
        self.key = key or code
        self.params = params

    def message(self, lang: str = "en", rules: bool = True) -> str:
        """The sentence in `lang`; `rules=False` leaves out the rule references (a guest's screen)."""
        return messages.render(self.key, self.params, lang, rules)

    def detail(self) -> str:
        """The rule references and the code, for staff: "AO-R5 · no-match"."""
        refs = messages.rules_of(self.key)
        return f"{', '.join(refs)} · {self.code}" if refs else self.code

    def __str__(self) -> str:
        return f"{self.code}: {self.message()}"

    def __repr__(self) -> str:
        return f"Rejection({self.code!r}, key={self.key!r}, **{self.params!r})"


class HeaderError(RefereeError):
    """The transcript header is not valid (`bad-header`); nothing else is read.

    Like a `Rejection`, it carries a code and values, no words: `what` names the sentence
    (`bad-header.<what>` in the `reasons` catalogue), `params` fill it in. A tuple of numbers among the
    values (the player counts a game allows) reads as "2 or 4" / "2 oder 4".
    """

    code = "bad-header"

    def __init__(self, what: str, **params: Any):
        super().__init__(f"bad-header.{what}")
        self.key = f"bad-header.{what}"
        self.params = params

    def reason(self, lang: str = "en") -> str:
        """Why the header is not valid, in `lang` (the part after "The header is not valid: ")."""
        either = messages.render("bad-header.or", {}, lang)
        params = {name: either.join(str(v) for v in value) if isinstance(value, tuple) else value
                  for name, value in self.params.items()}
        return messages.render(self.key, params, lang)

    def message(self, lang: str = "en") -> str:
        return messages.render("bad-header", {"reason": self.reason(lang)}, lang)

    def __str__(self) -> str:
        return f"{self.code}: {self.message()}"

    def __repr__(self) -> str:
        return f"HeaderError({self.key!r}, **{self.params!r})"


@dataclass(frozen=True, slots=True)
class Answer:
    """The referee's verdict on one event."""

    ok: bool
    rejection: Rejection | HeaderError | None = field(default=None)

    @property
    def error(self) -> str | None:
        return None if self.rejection is None else self.rejection.code

    def message(self, lang: str = "en", rules: bool = True) -> str | None:
        if isinstance(self.rejection, Rejection):
            return self.rejection.message(lang, rules)
        return None if self.rejection is None else self.rejection.message(lang)


ACCEPTED = Answer(True)


# --- shape helpers: every game checks its event fields with these, so `bad-event` reads the same


def bad_field(name: str) -> Rejection:
    """The one `bad-event` answer for a field that is missing, of the wrong type or out of its range."""
    return Rejection("bad-event", "bad-event.field", field=name)


def need_str(event: Mapping[str, Any], name: str) -> str:
    value = event.get(name)
    if type(value) is not str:
        raise bad_field(name)
    return value


def need_choice(event: Mapping[str, Any], name: str, choices: Container[str]) -> str:
    """A string field that must be one of `choices` (a button, a spoken word, ...)."""
    value = need_str(event, name)
    if value not in choices:
        raise bad_field(name)
    return value


def opt_str(event: Mapping[str, Any], name: str) -> str | None:
    """A field that may be absent; present means given, whatever its value (null included)."""
    if name not in event:
        return None
    value = event[name]
    if type(value) is not str:
        raise bad_field(name)
    return value


def need_str_list(event: Mapping[str, Any], name: str, allow_empty: bool = False) -> list[str]:
    value = event.get(name)
    if type(value) is not list or (not value and not allow_empty) or any(type(v) is not str for v in value):
        raise bad_field(name)
    return value


def forbid(event: Mapping[str, Any], name: str) -> None:
    if name in event:
        raise Rejection("bad-event", "bad-event.forbidden", field=name)


def need_one_card(event: Mapping[str, Any]) -> tuple[str, str]:
    """`player` and `card` of a game that lays one card at a time: both strings, and no `cards` field."""
    player = need_str(event, "player")
    code = need_str(event, "card")
    forbid(event, "cards")
    return player, code


def known_options(options: Mapping[str, Any], *names: str) -> None:
    """`bad-header` for an option key the game does not define (every rules file: "any other option key")."""
    for key in options:
        if key not in names:
            raise HeaderError("unknown-option", option=key)


def bool_option(options: Mapping[str, Any], name: str, default: bool) -> bool:
    """A JSON boolean option (`0`, `1`, strings and `null` are not booleans)."""
    value = options.get(name, default)
    if type(value) is not bool:
        raise HeaderError("not-boolean", option=name)
    return value


def is_int(value: Any) -> TypeGuard[int]:
    """A JSON integer: not a bool, not a float (`4.0` is no integer in the rules files)."""
    return type(value) is int


# --- how a game declares its rules


Step = Callable[[Any, Any], None]
"""A check or an effect: called with the game and the event's move (see `On`)."""

F = TypeVar("F", bound=Callable[..., Any])


def rule(*ids: str) -> Callable[[F], F]:
    """Mark a check or effect as the home of these rule ids of the game's rules file.

    Each id that governs play has exactly one home in its game's code (module or package)
    (tests/test_rule_homes.py reads the rules files and checks this).
    """

    def mark(fn: F) -> F:
        fn.rule_ids = ids  # type: ignore[attr-defined]
        return fn

    return mark


def rule_ids(step: Any) -> tuple[str, ...]:
    """The rule ids a check or effect carries (`@rule`); () for a step that is no rule's home."""
    return getattr(step, "rule_ids", ())


@dataclass(frozen=True)
class On:
    """What one event type does, in the rules file's words.

    - `read`: the event's fields → the game's move value (raises `bad-event`);
    - `checks`: in the rules file's checking order; each looks at the game and the move
      and raises a `Rejection`, changing nothing (a check may note what it looked up,
      such as the card, on the move);
    - `effects`: run in order after every check passed; only they change the game.

    Every entry is a function `(game, move) -> None`: a method of the game, or a shared check
    such as `Game.player_on_turn`. A step that is the home of a rule carries its id by `@rule`.
    """

    read: Callable[[Mapping[str, Any]], Any]
    checks: tuple[Step, ...] = ()
    effects: tuple[Step, ...] = ()


Judge = Callable[[Any, Mapping[str, Any]], Any]


def judges_for(on: On, over_after_fields: bool) -> tuple[Judge, Judge]:
    """The two functions the reducer calls for one event type: `apply` (checks, then effects) and `check`.

    `over_after_fields`: the rules file checks `game-over` after the fields (else the reducer does first).
    """
    return (_judge(on.read, on.checks + on.effects, over_after_fields),
            _judge(on.read, on.checks, over_after_fields))


def _judge(read: Callable[[Mapping[str, Any]], Any], steps: tuple[Step, ...], over_after_fields: bool) -> Judge:
    """`read`, `game-over` if the rules file checks it after the fields, then every step in order."""

    def judge(game: Game, event: Mapping[str, Any]) -> Any:
        move = read(event)
        if over_after_fields and game.finished:
            raise Rejection("game-over")
        for step in steps:
            step(game, move)
        return move

    return judge


def variant_judges_for(name: str, cases: Mapping[str, On], over_after_fields: bool) -> tuple[Judge, Judge]:
    """`judges_for` for an event type whose checks and effects depend on the move's field `name`.

    Every case reads the event the same way (its `read` raises `bad-event` for a value with no case);
    the case the move names then runs its steps.
    """
    read = next(iter(cases.values())).read
    applies = {value: on.checks + on.effects for value, on in cases.items()}
    checks = {value: on.checks for value, on in cases.items()}
    return (_variant_judge(read, name, applies, over_after_fields),
            _variant_judge(read, name, checks, over_after_fields))


def _variant_judge(read: Callable[[Mapping[str, Any]], Any], name: str, steps: Mapping[str, tuple[Step, ...]],
                   over_after_fields: bool) -> Judge:
    """`_judge` whose steps are those of the case `getattr(move, name)`."""

    def judge(game: Game, event: Mapping[str, Any]) -> Any:
        move = read(event)
        if over_after_fields and game.finished:
            raise Rejection("game-over")
        for step in steps[getattr(move, name)]:
            step(game, move)
        return move

    return judge


T = TypeVar("T")


def noted(value: T | None, by: str) -> T:
    """A value a check noted on the move (the card it looked up, the task whose rules apply), read by a later
    step: the checks run first and in order, so it is there; `by` names the check that notes it."""
    if value is None:
        raise AssertionError(f"the check {by} notes this before any later step reads it")
    return value


@dataclass(slots=True)
class CardMove:
    """The fields most plays share: who plays which code; the checks fill in the card they look up."""

    player: str
    code: str
    card: Card = field(default=None)  # type: ignore[assignment]  # set by `Game.card_known`
    face: Any = None  # the deck's meaning of the face, set by `Game.card_known`


class Game:
    """Base of every game: its seats, its rules table, and the checks every game shares."""

    id: ClassVar[str]
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

    # --- the checks every game shares, as table entries `(game, move)`

    def player_seated(self, move: Any) -> None:
        """`unknown-player` (transcript format)."""
        if move.player not in self.seats:
            raise Rejection("unknown-player", player=move.player)

    def player_on_turn(self, move: Any) -> None:
        """`not-your-turn`: the move's player is not the one on turn."""
        if move.player != self.turn:
            self.on_turn(move.player)

    def card_known(self, move: CardMove) -> None:
        """`unknown-card`: the code is a card of the deck in use; notes the card and its face on the move."""
        try:
            move.card, move.face = self.deck.lookup(move.code)
        except CardCodeError:
            raise Rejection("unknown-card", card=move.code) from None

    def cards_known(self, move: Any) -> None:
        """`unknown-card` for a move of several codes (`move.codes`); notes each card and face on the move
        (`move.cards`, `move.faces`, lists the move starts empty)."""
        for code in move.codes:
            card, face = self.card(code)
            move.cards.append(card)
            move.faces.append(face)

    def card_left(self, move: CardMove) -> None:
        """`card-exhausted`: the card fits the game's tally (the format's deck limit)."""
        if not self.tally.fits_one(move.card, self.deck):
            raise Rejection("card-exhausted", card=str(move.card))

    # --- the same as plain helpers

    tally: CardTally

    def seat(self, name: str) -> str:
        if name not in self.seats:
            raise Rejection("unknown-player", player=name)
        return name

    def on_turn(self, player: str) -> None:
        if player != self.turn:
            if self.turn is None:
                raise Rejection("not-your-turn", "not-your-turn.nobody", player=player)
            raise Rejection("not-your-turn", turn=self.turn, player=player)

    def card(self, code: str) -> tuple[Card, Any]:
        try:
            return self.deck.lookup(code)
        except CardCodeError:
            raise Rejection("unknown-card", card=code) from None

    def not_exhausted(self, tally: CardTally, cards: Sequence[Card]) -> None:
        ok = tally.fits_one(cards[0], self.deck) if len(cards) == 1 else tally.fits(cards, self.deck)
        if not ok:
            raise Rejection("card-exhausted", card=", ".join(str(c) for c in cards))

    def turn_actors(self) -> tuple[str, ...]:
        """The actors when only the player on turn may act: that player, or nobody when no one is on turn."""
        return () if self.turn is None else (self.turn,)

    def next_seat(self, player: str, step: int = 1) -> str:
        return self.seats.after(player, step)

    def winners_by(self, scores: Mapping[str, int], best: str = "max") -> list[str]:
        """Every player with the best score, in seat order."""
        target = max(scores.values()) if best == "max" else min(scores.values())
        return [p for p in self.players if scores[p] == target]


_JUDGES: dict[type[Game], tuple[dict[str, Judge], dict[str, Judge]]] = {}


def rule_judges(cls: type[Game]) -> tuple[dict[str, Judge], dict[str, Judge]]:
    """A game class's `rules` table made into the reducer's functions (`apply`'s, `check`'s), once per
    class: shared by every referee of the game, never changed."""
    made = _JUDGES.get(cls)
    if made is None:
        made = _JUDGES[cls] = _rule_judges(cls)
    return made


def _rule_judges(cls: type[Game]) -> tuple[dict[str, Judge], dict[str, Judge]]:
    judges = {kind: judges_for(on, cls.shape_first) for kind, on in cls.rules.items() if ":" not in kind}
    for kind, name in cls.variants.items():
        cases = {key.partition(":")[2]: on for key, on in cls.rules.items() if key.startswith(kind + ":")}
        judges[kind] = variant_judges_for(name, cases, cls.shape_first)
    return ({kind: pair[0] for kind, pair in judges.items()}, {kind: pair[1] for kind, pair in judges.items()})
