"""The hardware layer's one clock: `time.monotonic_ns()`, and pin-factory ticks converted onto it.

gpiozero hands a pin's edge time to `when_changed(ticks, state)` as an opaque value
that may only be compared with the factory's `ticks_diff`. `TickClock` turns those
ticks into nanoseconds on the monotonic clock, the scale of every `t_ns` in
`hw.inputs`:

- factories whose ticks *are* `time.monotonic()` seconds (gpiozero's local Pi
  factories: mock, lgpio, rpigpio, native) are converted exactly:
  `round(ticks * 1e9)`. The order of two edges is kept to the float's resolution
  (well below a microsecond).
- any other factory (pigpio's wrapping 32-bit µs counter, remote factories) is
  converted through its own `ticks_diff`: the edge's age on the factory's clock
  is subtracted from `monotonic_ns()` read at the same moment. That adds the few
  hundred nanoseconds between the two reads as jitter.

See docs/hardware.md for what the stamp means on each backend.
"""

from __future__ import annotations

import time
from typing import Any

now_ns = time.monotonic_ns
"""The kiosk's clock for every `t_ns`."""


def _is_monotonic_seconds(factory: Any) -> bool:
    """Are this factory's ticks gpiozero's own `time.monotonic()` seconds (local Pi factories, mock)?"""
    from gpiozero.pins.local import LocalPiFactory
    from gpiozero.pins.mock import MockFactory

    ticks = type(factory).ticks
    return ticks is LocalPiFactory.ticks or ticks is MockFactory.ticks


class TickClock:
    """Converts one pin factory's ticks to monotonic nanoseconds."""

    __slots__ = ("exact", "factory")

    def __init__(self, factory: Any):
        self.factory = factory
        self.exact = _is_monotonic_seconds(factory)

    def to_ns(self, ticks: float | int) -> int:
        if self.exact:
            return round(ticks * 1_000_000_000)
        factory = self.factory
        age_s: float = factory.ticks_diff(factory.ticks(), ticks)
        return now_ns() - round(age_s * 1_000_000_000)

    def __repr__(self) -> str:
        how = "exact" if self.exact else "via ticks_diff"
        return f"<TickClock {type(self.factory).__name__} {how}>"
