"""ANNAOTTO's moves: each event type's fields (step 4 of section 7's "Order of checks")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.answers import Rejection
from referee.cards import Card
from referee.decks.annaotto import Side
from referee.fields import bad_field, is_int, need_choice, need_str
from referee.games.annaotto.matching import ALLE, ANNA, OTTO
from referee.protocol import CardMove

_WORDS = frozenset((ANNA, OTTO, ALLE))
_BUTTONS = frozenset(("confirm", "slap"))
_WHO = frozenset(("self", "next"))


@dataclass(slots=True)
class StartMove:
    """`start`: the start card's code (`player` is not used)."""

    code: str
    card: Card = field(default=None)  # type: ignore[assignment]
    face: Side = field(default=None)  # type: ignore[assignment]

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> StartMove:
        return cls(need_str(event, "card"))


@dataclass(slots=True)
class PlayMove(CardMove):
    """`play`: `card` (or `cards` with the codes in `codes`) and, for another player's card, `source` (`from`)."""

    source: str | None = None
    codes: list[str] | None = None

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> PlayMove:
        player = event.get("player")
        if type(player) is not str:
            raise bad_field("player")
        code = event.get("card")
        codes = None
        if type(code) is not str or "cards" in event:
            codes = _cards_field(event)
            code = codes[0]
        source = event.get("from")
        if (source is not None or "from" in event) and type(source) is not str:
            raise bad_field("from")
        return cls(player, code, source=source, codes=codes)


def _cards_field(event: Mapping[str, Any]) -> list[str]:
    """A `play` that is not the everyday single string `card`: exactly one of `card`/`cards`."""
    if "card" in event:
        if "cards" in event:
            raise Rejection("bad-event", "bad-event.forbidden", field="cards")
        raise bad_field("card")
    cards = event.get("cards")
    if type(cards) is not list or not cards or any(type(c) is not str for c in cards):
        raise bad_field("cards")
    return cards


@dataclass(slots=True)
class DrawMove:
    """`draw`: who draws, and `count` (absent: 1)."""

    player: str
    count: int = 1

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> DrawMove:
        player = need_str(event, "player")
        count = event.get("count", 1)
        if "count" in event and (not is_int(count) or count < 1):
            raise bad_field("count")
        return cls(player, count)


@dataclass(slots=True)
class PressMove:
    """`press`: a seat button, `confirm` or `slap`, with its edge time `t_us` (required on a slap)."""

    player: str
    button: str
    t_us: int | None

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> PressMove:
        player = need_str(event, "player")
        button = need_choice(event, "button", _BUTTONS)
        t_us = event.get("t_us")
        if "t_us" in event:
            if not is_int(t_us) or t_us < 0:
                raise bad_field("t_us")
        elif button == "slap":
            raise bad_field("t_us")
        return cls(player, button, t_us)


@dataclass(slots=True)
class CallMove:
    """`call`: a spoken word, ANNA, OTTO or ALLE."""

    player: str
    word: str

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> CallMove:
        player = need_str(event, "player")
        return cls(player, need_choice(event, "word", _WORDS))


@dataclass(slots=True)
class CatchMove:
    """`catch`: `player` points out that `target` missed a call."""

    player: str
    target: str

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> CatchMove:
        return cls(need_str(event, "player"), need_str(event, "target"))


@dataclass(slots=True)
class ChoiceMove:
    """`choose_colour` (`value`: the colour) or `flip_choice` (`value`: `self` or `next`)."""

    player: str
    value: str

    @classmethod
    def read_colour(cls, event: Mapping[str, Any]) -> ChoiceMove:
        return cls(need_str(event, "player"), need_str(event, "colour"))

    @classmethod
    def read_flip(cls, event: Mapping[str, Any]) -> ChoiceMove:
        player = need_str(event, "player")
        return cls(player, need_choice(event, "who", _WHO))


@dataclass(slots=True)
class CloseMove:
    """`race_close`: the kiosk's race timeout; no fields."""

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> CloseMove:
        return cls()

