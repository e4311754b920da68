"""Seat buttons on gpiozero pins: a press is stamped with its electrical edge time and debounced here.

Each seat has a `confirm` and a `slap` button. `ButtonBank` opens one
`EdgeButton` (a gpiozero `DigitalInputDevice` that keeps the pin-level
`(ticks, state)` of every change) per button, converts the edge's ticks to
monotonic nanoseconds (`hw.clock.TickClock`) and lets `Debouncer` decide, on those
edge times alone, whether an active edge is a new press. Only presses are
reported: `ButtonPress(seat, button, t_ns)` with `t_ns` the time of the first edge
of the press, whenever the callback happens to run.

Callbacks only do that arithmetic and hand the input to the sink; they may run on
gpiozero's alert thread (lgpio), the caller's thread (mock) or a C thread
(RPi.GPIO), possibly late and, across seats, out of order: the kiosk orders a race
by `t_ns` (see `hw.race`), never by arrival.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gpiozero import DigitalInputDevice

from hw.clock import TickClock
from hw.inputs import ButtonPress
from hw.sinks import Sink, as_sink

BUTTONS = ("confirm", "slap")
DEFAULT_DEBOUNCE_MS = 10.0


class Debouncer:
    """Decides from edge timestamps alone which active edges start a press.

    Rule: an active edge is a press if the pin had been quiet (no edge at all) for at
    least `quiet_ns` before it. Contact bounce is a burst of edges much closer than
    that, at press and at release, so a burst gives exactly one press, stamped with
    its first edge, and is reported at once (no waiting for the level to settle). A
    real second press comes after the button rested released for longer than
    `quiet_ns` and is never lost. Edges of one pin arrive in order; an edge older
    than the last one seen (impossible from a real backend) is ignored.
    """

    __slots__ = ("_last_t", "_lock", "quiet_ns")

    def __init__(self, quiet_ns: int):
        if quiet_ns < 0:
            raise ValueError("quiet_ns must be >= 0")
        self.quiet_ns = quiet_ns
        self._last_t: int | None = None
        self._lock = threading.Lock()

    def edge(self, t_ns: int, active: bool) -> bool:
        """Record an edge; True if it is the start of a new press."""
        with self._lock:
            last = self._last_t
            if last is not None and t_ns < last:
                return False
            self._last_t = t_ns
            return active and (last is None or t_ns - last >= self.quiet_ns)


class EdgeButton(DigitalInputDevice):
    """A `DigitalInputDevice` that passes every pin change's `(ticks, active)` to `on_edge`.

    gpiozero holds `pin.when_changed` by weak reference; the device's bound method is
    what is registered, and the device itself is held by its `ButtonBank`.
    """

    def __init__(self, pin: Any, on_edge: Any, *, pull_up: bool | None = True, active_state: bool | None = None,
                 pin_factory: Any = None):
        self._on_edge = None
        super().__init__(pin, pull_up=pull_up, active_state=active_state, bounce_time=None,
                         pin_factory=pin_factory)
        self._on_edge = on_edge

    def _pin_changed(self, ticks: Any, state: Any) -> None:
        super()._pin_changed(ticks, state)
        on_edge = self._on_edge
        if on_edge is not None:
            on_edge(ticks, bool(self._state_to_value(state)))


@dataclass(frozen=True, slots=True)
class ButtonPin:
    """One button's wiring: BCM pin number (or any name the factory accepts) and polarity."""

    seat: str
    button: str
    pin: int | str
    pull_up: bool | None = True
    """True: internal pull-up, active low (the default); False: pull-down, active high;
    None: no internal pull, `active_high` says the active level."""
    active_high: bool | None = None

    @property
    def pressed_level(self) -> bool:
        """The electrical level of the pressed button (True: high): low with a pull-up, high with a pull-down,
        else `active_high` (high when not said)."""
        if self.pull_up is None:
            return True if self.active_high is None else self.active_high
        return not self.pull_up


class _Channel:
    """The strong-referenced per-button handler: ticks → ns → debounce → sink."""

    __slots__ = ("button", "clock", "debouncer", "seat", "sink")

    def __init__(self, seat: str, button: str, clock: TickClock, debouncer: Debouncer, sink: Sink):
        self.seat = seat
        self.button = button
        self.clock = clock
        self.debouncer = debouncer
        self.sink = sink

    def __call__(self, ticks: Any, active: bool) -> None:
        t_ns = self.clock.to_ns(ticks)
        if self.debouncer.edge(t_ns, active):
            self.sink(ButtonPress(self.seat, self.button, t_ns))  # type: ignore[arg-type]


class ButtonBank:
    """The seat buttons of a table. Opens its pins only in `open()`; pushes `ButtonPress` to the sink.

    `pin_factory` is any gpiozero factory (None: gpiozero's default choice, i.e.
    `GPIOZERO_PIN_FACTORY` or lgpio → rpigpio → pigpio → native).
    """

    def __init__(self, pins: Iterable[ButtonPin], sink: Any, *, pin_factory: Any = None,
                 debounce_ms: float = DEFAULT_DEBOUNCE_MS):
        self.pins = tuple(pins)
        seen: set[tuple[str, str]] = set()
        for p in self.pins:
            if p.button not in BUTTONS:
                raise ValueError(f"unknown button {p.button!r} (one of {', '.join(BUTTONS)})")
            if (p.seat, p.button) in seen:
                raise ValueError(f"seat {p.seat!r} has two {p.button!r} buttons")
            seen.add((p.seat, p.button))
        self.sink = as_sink(sink)
        self.pin_factory = pin_factory
        self.debounce_ns = round(debounce_ms * 1_000_000)
        self.devices: dict[tuple[str, str], EdgeButton] = {}
        self._channels: list[_Channel] = []

    def open(self) -> ButtonBank:
        if self.devices:
            return self
        try:
            for p in self.pins:
                active_state = p.pressed_level if p.pull_up is None else None  # gpiozero: from pull_up else
                dev = EdgeButton(p.pin, None, pull_up=p.pull_up, active_state=active_state,
                                 pin_factory=self.pin_factory)
                channel = _Channel(p.seat, p.button, TickClock(dev.pin_factory), Debouncer(self.debounce_ns),
                                   self.sink)
                self._channels.append(channel)
                self.devices[p.seat, p.button] = dev
                dev._on_edge = channel
        except BaseException:
            self.close()
            raise
        return self

    def pin(self, seat: str, button: str) -> Any:
        """The gpiozero pin object of a button (a `MockPin` under the mock factory)."""
        return self.devices[seat, button].pin

    def is_pressed(self, seat: str, button: str) -> bool:
        return bool(self.devices[seat, button].is_active)

    def close(self) -> None:
        for dev in self.devices.values():
            dev._on_edge = None
            dev.close()
        self.devices.clear()
        self._channels.clear()

    def __enter__(self) -> ButtonBank:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()
