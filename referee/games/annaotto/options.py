"""ANNAOTTO's header options (section 3): hand size, first player, race timeout, the deck's copies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.decks.annaotto import DEFAULT_COPIES
from referee.protocol import HeaderError, is_int, known_options


@dataclass(frozen=True)
class Options:
    hand_size: int = 8
    first: str | None = None
    race_timeout_ms: int = 3000
    plain: int = DEFAULT_COPIES["plain"]
    special: int = DEFAULT_COPIES["special"]
    wild: int = DEFAULT_COPIES["wild"]


def _bad(en: str, de: str) -> HeaderError:
    return HeaderError(en, de)


def parse_options(options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
    """The header's options, checked (section 3); `bad-header` for an unknown key or a bad value."""
    known_options(options, "hand_size", "first", "race_timeout_ms", "copies")
    hand_size = options.get("hand_size", 8)
    if not is_int(hand_size) or hand_size not in (6, 8):
        raise _bad("hand_size must be 6 or 8", "hand_size muss 6 oder 8 sein")
    first = options.get("first")
    if "first" in options and (type(first) is not str or first not in players):
        raise _bad(f"first {first!r} is not seated", f"first {first!r} sitzt nicht am Tisch")
    timeout = options.get("race_timeout_ms", 3000)
    if not is_int(timeout) or timeout < 1:
        raise _bad("race_timeout_ms must be an integer of at least 1",
                   "race_timeout_ms muss eine ganze Zahl ≥ 1 sein")
    counts = _copies(options.get("copies", {}))
    total = 32 * counts["plain"] + 48 * counts["special"] + counts["wild"]
    if total % 2:
        raise _bad(f"the deck has {total} sides, an odd number",
                   f"das Spiel hat {total} Seiten, eine ungerade Zahl")
    need = len(players) * hand_size + 1
    if total // 2 < need:
        raise _bad(f"the deck must hold at least {need} cards", f"das Spiel muss mindestens {need} Karten haben")
    return Options(hand_size, first, timeout, counts["plain"], counts["special"], counts["wild"])


def _copies(copies: Any) -> dict[str, int]:
    """Option `copies`: the deck's copy counts (plain at least 1)."""
    if type(copies) is not dict:
        raise _bad("copies must be an object", "copies muss ein Objekt sein")
    counts = dict(DEFAULT_COPIES)
    for key, value in copies.items():
        if key not in counts:
            raise _bad(f"unknown copies key {key!r}", f"unbekannter copies-Schlüssel {key!r}")
        least = 1 if key == "plain" else 0
        if not is_int(value) or value < least:
            raise _bad(f"copies.{key} must be an integer of at least {least}",
                       f"copies.{key} muss eine ganze Zahl ≥ {least} sein")
        counts[key] = value
    return counts

