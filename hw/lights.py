"""Seat lights: the LED of each seat's lit arcade button, driven by gpiozero in its own threads.

The kiosk decides *what* each light shows (`Mode`); `SeatLights` makes the pins do
it. `show(plan)` only stores the wanted modes and wakes one worker thread, so the
display loop never waits for a pin; the worker hands each change to gpiozero,
whose background threads do the blinking and fading. Nothing here touches the
buttons' pins or their callbacks, so a press's edge time is whatever the button's
pin said, lights or not.

The LEDs are `PWMLED`s on the same pin factory as the buttons (lgpio drives PWM in
software on any pin, the mock factory's `TimedMockPin` accepts PWM too). Where the
factory cannot do PWM on a pin, that seat gets a plain `LED` and its fades become a
slow blink.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from gpiozero import LED, PWMLED
from gpiozero.exc import PinPWMUnsupported
from gpiozero.tools import any_values


class Mode(Enum):
    """What one seat's light does. `reported` is the word the control socket's `state` uses."""

    OFF = "off"
    ON = "on"          # this seat may act now
    BLINK = "blink"    # fast blink: a race is open and this seat has not slapped yet
    FLASH = "flash"    # faster, uneven blink: this seat lost the race (while the result is shown)
    PULSE = "pulse"    # slow fade in and out: this seat owes a confirmation (its button)
    WAVE = "wave"      # attract mode: a slow wave running round the table
    BUTTONS = "buttons"  # button test: lit exactly while one of the seat's own buttons is held down

    @property
    def reported(self) -> str:
        return _REPORTED[self]


_REPORTED = {Mode.OFF: "off", Mode.ON: "on", Mode.BLINK: "blink", Mode.FLASH: "blink", Mode.PULSE: "pulse",
             Mode.WAVE: "pulse", Mode.BUTTONS: "on"}

BLINK_S = (0.12, 0.12)          # on, off: about 4 flashes a second, a race is on
FLASH_S = (0.06, 0.18)          # short and sharp: the loser
PULSE_S = (0.9, 0.9)            # fade in, fade out: a slow breath
PULSE_PLAIN_S = (0.8, 0.8)      # the same as a slow blink on an LED without PWM
WAVE_PERIOD_S = 4.0             # once round the table
WAVE_STEP_S = 0.05              # 20 brightness updates a second per light in attract mode
BUTTONS_STEP_S = 0.02           # the button test reads the seat's buttons 50 times a second


@dataclass(frozen=True, slots=True)
class LightPin:
    """One seat's light: its BCM pin (or any name the factory accepts) and the level that lights it."""

    seat: str
    pin: int | str
    active_high: bool = True


def wave(index: int, count: int, period_s: float = WAVE_PERIOD_S, clock: Any = time.monotonic) -> Iterator[float]:
    """Brightness 0..1 of light `index` of `count` in the attract wave, read from the clock at each step.

    Every light follows the same clock with its own phase, so the wave runs round the table in
    seat order however late each light's thread started.
    """
    phase = index / max(count, 1)
    while True:
        x = math.cos(2 * math.pi * (clock() / period_s - phase))
        yield max(0.0, x) ** 3


class SeatLights:
    """The lights of a table. Opens its pins only in `open()`; `show()` may be called from any thread.

    `buttons`: seat → its button devices (gpiozero input devices), for `Mode.BUTTONS`: the light then
    follows the buttons' levels in gpiozero's source thread, reading them, never touching their callbacks.
    """

    def __init__(self, pins: Iterable[LightPin], *, pin_factory: Any = None,
                 buttons: Mapping[str, Iterable[Any]] | None = None):
        self.pins = tuple(pins)
        self.buttons = {seat: tuple(devices) for seat, devices in (buttons or {}).items()}
        seats = [p.seat for p in self.pins]
        if len(set(seats)) != len(seats):
            raise ValueError("a seat has two lights")
        self.pin_factory = pin_factory
        self.devices: dict[str, Any] = {}
        self._modes: dict[str, Mode] = {}
        self._wanted: dict[str, Mode] = {}
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._version = self._applied = 0
        self._thread: threading.Thread | None = None
        self._stopping = False

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(p.seat for p in self.pins)

    def open(self) -> SeatLights:
        if self.devices or not self.pins:
            return self
        try:
            for p in self.pins:
                self.devices[p.seat] = self._device(p)
                self._modes[p.seat] = self._wanted[p.seat] = Mode.OFF
        except BaseException:
            self.close()
            raise
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="seat-lights", daemon=True)
        self._thread.start()
        return self

    def _device(self, p: LightPin) -> Any:
        try:
            return PWMLED(p.pin, active_high=p.active_high, initial_value=0, pin_factory=self.pin_factory)
        except PinPWMUnsupported:
            return LED(p.pin, active_high=p.active_high, initial_value=False, pin_factory=self.pin_factory)

    # -- what the kiosk calls

    def show(self, plan: Mapping[str, Mode]) -> None:
        """Wanted modes by seat (seats left out go off; seats without a light are ignored). Never blocks on pins."""
        wanted = {seat: plan.get(seat, Mode.OFF) for seat in self.devices}
        with self._changed:
            if wanted == self._wanted:
                return
            self._wanted = wanted
            self._version += 1
            self._changed.notify()

    def lit(self, seat: str) -> bool:
        """Whether the seat's light is on at all right now."""
        return self.value(seat) > 0

    def modes(self) -> dict[str, Mode]:
        """The modes asked for last (what the lights show once the worker has passed them on)."""
        with self._lock:
            return dict(self._wanted)

    def wait_applied(self, timeout: float = 5.0) -> bool:
        """Wait until the last `show()` reached gpiozero (tests, benchmarks)."""
        with self._changed:
            return self._changed.wait_for(lambda: self._applied == self._version or self._thread is None, timeout)

    def pin(self, seat: str) -> Any:
        """The gpiozero pin of a seat's light (a `MockPin` under the mock factory)."""
        return self.devices[seat].pin

    def value(self, seat: str) -> float:
        """The light's brightness now (0 off … 1 full), as gpiozero last wrote it."""
        return float(self.devices[seat].value)

    # -- the worker

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._stopping or self._version != self._applied)
                if self._stopping:
                    return
                wanted, version = dict(self._wanted), self._version
            for seat, mode in wanted.items():
                if self._modes.get(seat) != mode:
                    self._apply(seat, mode)
                    self._modes[seat] = mode
            with self._changed:
                self._applied = version
                self._changed.notify_all()

    def _apply(self, seat: str, mode: Mode) -> None:
        led = self.devices[seat]
        if led.source is not None:
            led.source = None
        pwm = isinstance(led, PWMLED)
        if mode is Mode.OFF:
            led.off()
        elif mode is Mode.ON:
            led.on()
        elif mode is Mode.BLINK:
            led.blink(*BLINK_S, background=True)
        elif mode is Mode.FLASH:
            led.blink(*FLASH_S, background=True)
        elif mode is Mode.PULSE and pwm:
            led.pulse(*PULSE_S, background=True)
        elif mode is Mode.PULSE:
            led.blink(*PULSE_PLAIN_S, background=True)
        elif mode is Mode.BUTTONS:
            led.off()
            devices = self.buttons.get(seat, ())
            if devices:
                led.source_delay = BUTTONS_STEP_S
                led.source = any_values(*devices)
        elif mode is Mode.WAVE:
            led.off()
            index = self.seats.index(seat)
            values = wave(index, len(self.pins))
            led.source_delay = WAVE_STEP_S
            led.source = values if pwm else (v >= 0.5 for v in values)

    def close(self) -> None:
        thread = self._thread
        if thread is not None:
            with self._changed:
                self._stopping = True
                self._changed.notify_all()
            thread.join(5)
            self._thread = None
        for led in self.devices.values():
            led.source = None
            led.close()
        self.devices.clear()
        self._modes.clear()
        with self._changed:
            self._wanted = {}
            self._changed.notify_all()

    def __enter__(self) -> SeatLights:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()
