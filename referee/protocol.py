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
from typing import Any, ClassVar, TypeVar

from referee import messages
from referee.cards import Card, CardCodeError, CardTally, Deck
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

    def message(self, lang: str = "en") -> str:
        return messages.render(self.key, self.params, lang)

    def __str__(self) -> str:
        return f"{self.code}: {self.message()}"

    def __repr__(self) -> str:
        return f"Rejection({self.code!r}, key={self.key!r}, **{self.params!r})"


class HeaderError(RefereeError):
    """The transcript header is not valid (`bad-header`); nothing else is read."""

    code = "bad-header"

    def __init__(self, reason_en: str, reason_de: str | None = None):
        super().__init__(reason_en)
        self.reason_en = reason_en
        self.reason_de = reason_de or reason_en

    def message(self, lang: str = "en") -> str:
        reason = self.reason_de if lang == "de" else self.reason_en
        return messages.render("bad-header", {"reason": reason}, lang)


@dataclass(frozen=True, slots=True)
class Answer:
    """The referee's verdict on one event."""

    ok: bool
    rejection: Rejection | HeaderError | None = field(default=None)

    @property
    def error(self) -> str | None:
        return None if self.rejection is None else self.rejection.code

    def message(self, lang: str = "en") -> str | None:
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
            raise HeaderError(f"unknown option {key!r}", f"unbekannte Option {key!r}")


def bool_option(options: Mapping[str, Any], name: str, default: bool) -> bool:
    """A JSON boolean option (`0`, `1`, strings and `null` are not booleans)."""
    value = options.get(name, default)
    if type(value) is not bool:
        raise HeaderError(f"{name} must be true or false", f"{name} muss true oder false sein")
    return value


def is_int(value: Any) -> bool:
    """A JSON integer: not a bool, not a float (`4.0` is no integer in the rules files)."""
    return type(value) is int


# --- how a game declares its rules


Step = Callable[[Any, Any], None]
"""A check or an effect: called with the game and the event's move (see `On`)."""

F = TypeVar("F", bound=Callable[..., Any])


def rule(*ids: str) -> Callable[[F], F]:
    """Mark a check or effect as the home of these rule ids of the game's rules file.

    Each id that governs play has exactly one home in its game's module
    (tests/test_rule_homes.py reads the rules files and checks this).
    """

    def mark(fn: F) -> F:
        fn.rule_ids = ids  # type: ignore[attr-defined]
        return fn

    return mark


def rule_ids(step: Any) -> tuple[str, ...]:
    """The rule ids a check or effect (or a `(rule_id, function)` table entry) carries."""
    if isinstance(step, tuple):
        return (step[0],)
    return getattr(step, "rule_ids", ())


@dataclass(frozen=True)
class On:
    """What one event type does, in the rules file's words.

    - `read`: the event's fields → the game's move value (raises `bad-event`);
    - `checks`: in the rules file's checking order; each looks at the game and the move
      and raises a `Rejection`, changing nothing (a check may note what it looked up,
      such as the card, on the move);
    - `effects`: run in order after every check passed; only they change the game.

    An entry is a function `(game, move) -> None` (a method), carrying its rule id by
    `@rule`, or a pair `(rule_id, function)` for a shared helper such as `Game.on_turn_check`.
    """

    read: Callable[[Mapping[str, Any]], Any]
    checks: tuple[Any, ...] = ()
    effects: tuple[Any, ...] = ()

    def check_steps(self) -> tuple[Step, ...]:
        return tuple(_function(step) for step in self.checks)

    def effect_steps(self) -> tuple[Step, ...]:
        return tuple(_function(step) for step in self.effects)


def _function(step: Any) -> Step:
    return step[1] if isinstance(step, tuple) else step


Judge = Callable[[Any, Mapping[str, Any]], None]


def compile_on(on: On, over_after_fields: bool) -> tuple[Judge, Judge]:
    """The two functions the reducer calls for one event type: `apply` (checks, then effects) and `check`.

    `over_after_fields`: the rules file checks `game-over` after the fields (else the reducer does first).
    """
    checks, effects = on.check_steps(), on.effect_steps()
    return (_unrolled("apply", on.read, checks + effects, over_after_fields),
            _unrolled("check", on.read, checks, over_after_fields))


def _unrolled(name: str, read: Callable[[Mapping[str, Any]], Any], steps: tuple[Step, ...],
              over_after_fields: bool) -> Judge:
    """`read`, `game-over` if it comes after the fields, then every step in order, one call per line.

    Written out rather than looped: each call then has its own call site, which CPython specialises
    for the one function it calls (a loop's single call site sees them all, and stays generic). This
    is what keeps a table of named checks as fast as hand-inlined code on every scan.
    """
    lines = [f"def {name}(game, event):", "    move = event" if read is _given else "    move = read(event)"]
    if over_after_fields:
        lines.append("    if game.finished:\n        raise Rejection('game-over')")
    lines += [f"    step{i}(game, move)" for i in range(len(steps))]
    lines.append("    return move")
    scope: dict[str, Any] = {"read": read, "Rejection": Rejection, **{f"step{i}": s for i, s in enumerate(steps)}}
    exec("\n".join(lines), scope)  # only the lines above, naming the table's own functions
    return scope[name]


def compile_variants(name: str, cases: Mapping[str, On], over_after_fields: bool) -> tuple[Judge, Judge]:
    """`compile_on` for an event type whose checks and effects depend on the move's field `name`.

    Every case reads the event the same way (its `read` raises `bad-event` for a value with no case);
    the chosen case then runs on the move already read.
    """
    read = next(iter(cases.values())).read
    compiled = {value: compile_on(On(_given, on.checks, on.effects), over_after_fields)
                for value, on in cases.items()}

    applies = {value: pair[0] for value, pair in compiled.items()}
    checks = {value: pair[1] for value, pair in compiled.items()}

    def apply(game: Game, event: Mapping[str, Any]) -> None:
        move = read(event)
        applies[getattr(move, name)](game, move)

    def check(game: Game, event: Mapping[str, Any]) -> Any:
        move = read(event)
        return checks[getattr(move, name)](game, move)

    return apply, check


def _given(move: Any) -> Any:
    """The `read` of a variant: the move was read by the event type's own `read` (`_unrolled` then
    takes the move as it is, without a call)."""
    return move


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
    event_types: ClassVar[frozenset[str]]
    # True where the rules file checks the event's shape before `game-over` (alles-klar,
    # magische-7, profi-sort); False where `game-over` comes first (alcasan, annaotto).
    shape_first: ClassVar[bool] = True
    # Per event type: read, checks, effects (see `On`).
    rules: ClassVar[Mapping[str, On]] = {}
    # Event types whose rules depend on one field's value: type → field. Their `rules` keys are
    # `"type:value"` (ANNAOTTO's `press:confirm`, `press:slap`), all with the same `read`.
    variants: ClassVar[Mapping[str, str]] = {}
    _compiled_rules: ClassVar[tuple[Mapping[str, Judge], Mapping[str, Judge]] | None] = None

    deck: Deck
    players: tuple[str, ...]
    finished: bool
    turn: str | None

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
            raise HeaderError(f"unknown option {sorted(options)[0]!r}", f"unbekannte Option {sorted(options)[0]!r}")
        return None

    @classmethod
    def judges(cls) -> Mapping[str, Judge]:
        """Per event type, what `apply` runs after the reducer's checks (the event's type, `undo`,
        and `game-over` where the rules file checks it before the fields): the `rules` table's
        read, checks and effects."""
        return cls._compiled()[0]

    @classmethod
    def _compiled(cls) -> tuple[Mapping[str, Judge], Mapping[str, Judge]]:
        """The `rules` table made into the reducer's functions (`apply`'s, `check`'s), once per game class:
        shared by every referee of the game (a plain dict is the fastest lookup per event), never changed."""
        cached = cls.__dict__.get("_compiled_rules")
        if cached is not None:
            return cached
        compiled = {kind: compile_on(on, cls.shape_first) for kind, on in cls.rules.items() if ":" not in kind}
        for kind, name in cls.variants.items():
            cases = {key.partition(":")[2]: on for key, on in cls.rules.items() if key.startswith(kind + ":")}
            compiled[kind] = compile_variants(name, cases, cls.shape_first)
        cls._compiled_rules = cached = ({kind: pair[0] for kind, pair in compiled.items()},
                                        {kind: pair[1] for kind, pair in compiled.items()})
        return cached

    @classmethod
    def checkers(cls) -> Mapping[str, Judge]:
        """Per event type, the same without the effects: `Referee.check`'s dry run."""
        return cls._compiled()[1]

    def public(self) -> dict[str, Any]:
        """The public state as the transcript writes it: exactly the keys the rules file names."""
        return self.public_state().to_json()

    def public_state(self) -> Any:
        """The public state, typed: the game's `referee.hints.PublicState` dataclass."""
        raise NotImplementedError

    def hints(self) -> Any:
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

    def next_seat(self, player: str, step: int = 1) -> str:
        return self.seats.after(player, step)

    def winners_by(self, scores: Mapping[str, int], best: str = "max") -> list[str]:
        """Every player with the best score, in seat order."""
        target = max(scores.values()) if best == "max" else min(scores.values())
        return [p for p in self.players if scores[p] == target]
