"""Seats and turn order: what every game shares about who sits where and who comes next.

Seat order is the header's `players` list (clockwise). "The next player who holds
cards" is a rule of four of the five games (AK-R10, AO-R8, AC, PS); it is written
here once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=256)
def _rings(players: tuple[str, ...]) -> dict[int, dict[str, tuple[str, ...]]]:
    """Per direction (1 clockwise, -1 against) and seat: the other seats in turn order, then the seat itself.

    Tables with the same players share one (immutable) set of rings.
    """
    n = len(players)
    return {
        d: {p: tuple(players[(i + k * d) % n] for k in range(1, n + 1)) for i, p in enumerate(players)}
        for d in (1, -1)
    }


class Seats(dict[str, int]):
    """The seated players: name → seat number (0 …), with turn order.

    A dict, so "is this name seated?" is a plain `name in seats`.
    """

    __slots__ = ("order", "rings")

    def __init__(self, players: Sequence[str]):
        super().__init__((name, i) for i, name in enumerate(players))
        self.order: tuple[str, ...] = tuple(players)
        self.rings = _rings(self.order)

    def after(self, player: str, step: int = 1) -> str:
        """The player `step` seats clockwise after `player` (negative: counter-clockwise)."""
        order = self.order
        return order[(self[player] + step) % len(order)]

    def next_holder(self, player: str, hands: Mapping[str, Any], direction: int = 1) -> str | None:
        """The next player in `direction` who holds at least one card, `player` last; None if nobody does.

        `hands` maps each player to a count, or to anything whose truth says "still holds cards"
        (alcasan's holders: a `len()` of hand + up + down).
        """
        for candidate in self.rings[direction][player]:
            if hands[candidate]:
                return candidate
        return None

    def holders(self, hands: Mapping[str, Any]) -> list[str]:
        """Every player holding cards, in seat order."""
        return [p for p in self.order if hands[p]]
