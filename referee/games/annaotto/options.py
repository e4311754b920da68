"""ANNAOTTO's header options (section 3): hand size, first player, race timeout, the deck's copies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.answers import HeaderError
from referee.decks.annaotto import DEFAULT_COPIES
from referee.fields import is_int, known_options


@dataclass(frozen=True)
class Options:
    hand_size: int = 8
    first: str | None = None
    race_timeout_ms: int = 3000
    plain: int = DEFAULT_COPIES["plain"]
    special: int = DEFAULT_COPIES["special"]
    wild: int = DEFAULT_COPIES["wild"]


def parse_options(options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
    """The header's options, checked (section 3); `bad-header` for an unknown key or a bad value."""
    known_options(options, "hand_size", "first", "race_timeout_ms", "copies")
    hand_size = options.get("hand_size", 8)
    if not is_int(hand_size) or hand_size not in (6, 8):
        raise HeaderError("one-of", option="hand_size", values=(6, 8))
    first = options.get("first")
    if "first" in options and (type(first) is not str or first not in players):
        raise HeaderError("not-seated", option="first", name=first)
    timeout = options.get("race_timeout_ms", 3000)
    if not is_int(timeout) or timeout < 1:
        raise HeaderError("at-least", option="race_timeout_ms", least=1)
    counts = _copies(options.get("copies", {}))
    total = 32 * counts["plain"] + 48 * counts["special"] + counts["wild"]
    if total % 2:
        raise HeaderError("odd-sides", sides=total)
    need = len(players) * hand_size + 1
    if total // 2 < need:
        raise HeaderError("too-few-cards", least=need)
    return Options(hand_size, first, timeout, counts["plain"], counts["special"], counts["wild"])


def _copies(copies: Any) -> dict[str, int]:
    """Option `copies`: the deck's copy counts (plain at least 1)."""
    if type(copies) is not dict:
        raise HeaderError("not-an-object", option="copies")
    counts = dict(DEFAULT_COPIES)
    for key, value in copies.items():
        if key not in counts:
            raise HeaderError("unknown-entry", option="copies", entry=key)
        least = 1 if key == "plain" else 0
        if not is_int(value) or value < least:
            raise HeaderError("at-least", option=f"copies.{key}", least=least)
        counts[key] = value
    return counts

