"""How a game reads an event's fields and a header's options: every game checks them with these, so a
`bad-event` and a `bad-header` read the same in every game."""

from __future__ import annotations

from collections.abc import Container, Mapping
from typing import Any, TypeGuard

from referee.answers import HeaderError, Rejection


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
