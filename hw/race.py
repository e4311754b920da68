"""The slap race's timing: order by edge time, and wait out late callbacks before deciding.

A press reaches the sink when its callback runs, which may be milliseconds after
the edge (a busy alert thread, a loaded CPU) and, across seats, in a different
order. `SlapRace` therefore ranks by `t_ns` (the edge) and declares the result only
`settle_ns` after the window closed, so a press whose edge was inside the window
but whose callback was late still counts and still wins if it was first.
"""

from __future__ import annotations

from collections.abc import Iterable

from hw.inputs import ButtonPress

DEFAULT_SETTLE_MS = 50.0


def by_edge_time(presses: Iterable[ButtonPress]) -> list[ButtonPress]:
    """Presses in the order of their edges (ties broken by seat name, so the order is total)."""
    return sorted(presses, key=lambda p: (p.t_ns, p.seat))


class SlapRace:
    """One race: `slap` presses with edges in [opened_ns, opened_ns + window_ns) count, first per seat."""

    __slots__ = ("_first", "button", "opened_ns", "settle_ns", "window_ns")

    def __init__(self, opened_ns: int, window_ns: int, *, settle_ms: float = DEFAULT_SETTLE_MS,
                 button: str = "slap"):
        if window_ns <= 0:
            raise ValueError("window_ns must be > 0")
        self.opened_ns = opened_ns
        self.window_ns = window_ns
        self.settle_ns = round(settle_ms * 1_000_000)
        self.button = button
        self._first: dict[str, ButtonPress] = {}

    def offer(self, press: ButtonPress) -> bool:
        """Take a press (in any arrival order); True if it counts for this race."""
        if press.button != self.button or not self.opened_ns <= press.t_ns < self.opened_ns + self.window_ns:
            return False
        held = self._first.get(press.seat)
        if held is not None and held.t_ns <= press.t_ns:
            return False
        self._first[press.seat] = press
        return True

    @property
    def decides_at(self) -> int:
        """The monotonic time after which no press of this window can still arrive late."""
        return self.opened_ns + self.window_ns + self.settle_ns

    def decided(self, now_ns: int) -> bool:
        return now_ns >= self.decides_at

    def order(self) -> list[ButtonPress]:
        """Each seat's first press, earliest edge first."""
        return by_edge_time(self._first.values())
