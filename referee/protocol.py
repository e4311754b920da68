"""The common game protocol: what every game module provides and what the reducer expects.

A game is a class: constructed from the parsed header, it is the game state;
`check_shape` and `step` look at one event and either mutate the state or raise a
`Rejection` *before* changing anything; `public` returns the public state dict
with exactly the keys of its rules file. The shared bookkeeping (header, the
event's type, undo, game over) lives in `referee.table`, once for all games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee import messages
from referee.cards import Card, CardCodeError, CardTally, Deck


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


def need_str(event: Mapping[str, Any], name: str) -> str:
    value = event.get(name)
    if type(value) is not str:
        raise Rejection("bad-event", "bad-event.field", field=name)
    return value


def opt_str(event: Mapping[str, Any], name: str) -> str | None:
    """A field that may be absent; present means given, whatever its value (null included)."""
    if name not in event:
        return None
    value = event[name]
    if type(value) is not str:
        raise Rejection("bad-event", "bad-event.field", field=name)
    return value


def need_str_list(event: Mapping[str, Any], name: str, allow_empty: bool = False) -> list[str]:
    value = event.get(name)
    if type(value) is not list or (not value and not allow_empty) or any(type(v) is not str for v in value):
        raise Rejection("bad-event", "bad-event.field", field=name)
    return value


def forbid(event: Mapping[str, Any], name: str) -> None:
    if name in event:
        raise Rejection("bad-event", "bad-event.forbidden", field=name)


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


class Game:
    """Base of every game: seat bookkeeping and the common checks, called in each game's own order."""

    id: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[Sequence[int]]
    event_types: ClassVar[frozenset[str]]
    # True where the rules file checks the event's shape before `game-over` (alles-klar,
    # magische-7, profi-sort); False where `game-over` comes first (alcasan, annaotto).
    shape_first: ClassVar[bool] = True

    deck: Deck
    players: tuple[str, ...]
    finished: bool
    turn: str | None

    def __init__(self, players: Sequence[str], dealer: str, options: Any):
        self.players = tuple(players)
        self.seats = {name: i for i, name in enumerate(self.players)}
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

    def check_shape(self, event: Mapping[str, Any]) -> None:
        """Raise `bad-event` for a missing or wrongly typed field (the type is already known)."""

    def step(self, event: Mapping[str, Any]) -> None:
        """Check the event in the rules file's order, then apply it; raise Rejection first, mutate after."""
        raise NotImplementedError

    @classmethod
    def judges(cls) -> Mapping[str, Callable[[Any, Mapping[str, Any]], None]]:
        """Per event type, what runs after the reducer's checks (the event's type, `undo`, and
        `game-over` where the rules file checks it before the fields): by default `judge`.

        A game whose per-event cost matters returns one function per type instead; its checks must
        still run in the order its rules file gives, all before the first mutation.
        """
        return dict.fromkeys(cls.event_types, cls.judge)

    def judge(self, event: Mapping[str, Any]) -> None:
        """The fields, `game-over` where it comes after them (`shape_first`), then `step`."""
        self.check_shape(event)
        if self.shape_first and self.finished:
            raise Rejection("game-over")
        self.step(event)

    def public(self) -> dict[str, Any]:
        """The public state: exactly the keys the rules file names."""
        raise NotImplementedError

    def card_places(self) -> dict[str, int]:
        """Where the deck's cards are, as counts that add up to the deck (for conservation tests)."""
        raise NotImplementedError

    # --- the common checks

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
        return self.players[(self.seats[player] + step) % len(self.players)]

    def winners_by(self, scores: Mapping[str, int], best: str = "max") -> list[str]:
        """Every player with the best score, in seat order."""
        target = max(scores.values()) if best == "max" else min(scores.values())
        return [p for p in self.players if scores[p] == target]
