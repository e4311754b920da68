"""gpiozero mock pins with chosen edge times and deferred callbacks (simulation, tests, benchmarks).

`TimedMockPin` is gpiozero's `MockPin` whose `drive_low`/`drive_high` accept the
edge time (`t_ns`, monotonic ns) instead of reading the clock, and can hold the
callback back (`deliver=False`) so that a test or the simulator can deliver it
later, from another thread, or out of order - the way a busy alert thread would.
The callback still goes through gpiozero's own `_call_when_changed` → device →
`hw.buttons` path.

It is a `MockPWMPin`, so the seat lights (`hw.lights`, `PWMLED`) can live on the
same factory as the buttons, as they do on a Pi. A pin keeps only its last
`STATES_KEPT` changes: a light blinking for hours in the simulator must not grow
without bound.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin, PinState
from gpiozero.pins.pi import PiPin

STATES_KEPT = 5000


class TimedMockPin(MockPWMPin):
    _state: bool  # gpiozero's MockPin keeps the level and the time of its last change in these
    _last_change: float

    def __init__(self, factory: MockFactory, info: Any):
        self._at: float | None = None
        super().__init__(factory, info)
        self.states: deque[Any] = deque(self.states, maxlen=STATES_KEPT)

    def clear_states(self) -> None:
        super().clear_states()
        self.states = deque(self.states, maxlen=STATES_KEPT)

    def _change_state(self, value: bool) -> bool:
        at = self._at
        if at is None:
            changed: bool = super()._change_state(value)
            return changed
        if self._state != value:
            self._state = value
            self.states.append(PinState(at - self._last_change, value))
            self._last_change = at
            return True
        return False

    def _drive(self, level: bool, t_ns: int | None, deliver: bool) -> tuple[float, bool] | None:
        assert self._function == "input"
        self._at = None if t_ns is None else t_ns / 1_000_000_000
        try:
            if not self._change_state(level):
                return None
            event = (self._last_change, self._state)
        finally:
            self._at = None
        edges = self._edges
        if edges == "both" or edges == ("rising" if level else "falling"):
            if deliver:
                self.deliver(event)
            return event
        return None

    def drive_low(self, t_ns: int | None = None, deliver: bool = True) -> tuple[float, bool] | None:
        """Drive the pin low at `t_ns` (default: now); returns the `(ticks, state)` edge, or None."""
        return self._drive(False, t_ns, deliver)

    def drive_high(self, t_ns: int | None = None, deliver: bool = True) -> tuple[float, bool] | None:
        return self._drive(True, t_ns, deliver)

    def deliver(self, event: tuple[float, bool]) -> None:
        """Run the pin's `when_changed(ticks, state)` for an edge made with `deliver=False`."""
        if self._when_changed is not None:
            PiPin._call_when_changed(self, *event)


def timed_mock_factory() -> MockFactory:
    return MockFactory(pin_class=TimedMockPin)
