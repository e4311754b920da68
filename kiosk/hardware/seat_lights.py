"""What the seat lights show on each screen, and the follower that keeps them in step with the kiosk.

The lights read the referee's public answers only: `table_facts` turns one moment of
a game into `LightFacts` (who may act, who owes a confirmation, the open race and who
still has to slap, the losers while the race result stands). It is the one place that
knows where those facts come from: `Referee.hints()`, plus the Profi-Sort collection
the table screen gathers before it sends anything. Everything after it (`table_plan`,
`screen_plan`) maps facts to `Mode`s:

- the seat(s) that may act now: steady on, everyone else off;
- an ALLE race open: every participant blinks fast until that seat has slapped;
- the race's loser(s): a sharp flash while the result is on screen;
- a confirmation owed by a seat (a penalty to accept, a drawn card to keep, a
  Profi-Sort collection to finish with the button): a slow pulse;
- set-up: a seat's light goes on when its button claims the seat;
- demo: a slow wave round the table; menu, admin and every other screen: all off;
- a button test screen: each light is lit exactly while one of its seat's buttons is
  down (read from the pins in gpiozero's thread), and while the screen `hold()`s it.

`LightFollower.follow(screen)` runs on the display thread after each loop step; it
only computes a small dict and, when it changed, hands it to `hw.lights.SeatLights`,
whose worker thread and gpiozero's threads do the rest.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hw.lights import Mode, SeatLights
from kiosk.app.controller import ShownScreen, TableController, controller_on
from kiosk.games import GameUI

if TYPE_CHECKING:  # the table opens elsewhere (kiosk.hardware.hardware); here only its lights are followed
    from hw.table import Table
    from kiosk.hardware.sim_strip import SimStrip

TEST_SCREENS = ("button-test", "buttons", "test-buttons")  # names a button test screen may have


@dataclass(frozen=True, slots=True)
class LightFacts:
    """One moment of a game as the lights see it (players by name)."""

    actors: tuple[str, ...] = ()
    """May act now (steady on)."""
    confirm: tuple[str, ...] = ()
    """Owe a confirmation with their button (pulse)."""
    race_open: bool = False
    waiting: tuple[str, ...] = ()
    """Race participants that have not slapped yet (blink)."""
    losers: tuple[str, ...] = ()
    """Lost the race whose result is on screen (flash)."""
    finished: bool = False


def table_facts(controller: TableController) -> LightFacts:
    """The facts of the controller's game now, from `Referee.hints()` (and the public state's `turn`).

    The one place that knows where the lights' facts come from. Only a Profi-Sort collection is the
    table screen's own (the referee never sees it before Done): `_collecting`.
    """
    state = controller.state
    hints = controller.referee.hints()
    if state.get("finished"):
        return LightFacts(finished=True)
    race = hints.race
    if race is not None and race.open:
        return LightFacts(race_open=True, waiting=tuple(race.waiting))
    confirm = tuple(o.player for o in hints.owed if o.kind == "confirm")
    if "press:confirm" in hints.events and state.get("turn") in hints.actors:
        confirm += (state["turn"],)  # ANNAOTTO: a penalty to accept or the drawn card to keep (AO-D8, AO-D25)
    confirm += _collecting(controller.ui)
    losers = tuple(race.losers) if race is not None else ()  # the last race's result, until the next move
    return LightFacts(tuple(hints.actors), confirm, losers=losers)


def _collecting(ui: GameUI) -> tuple[str, ...]:
    """A collection the table screen gathers for one player, finished by their button (Profi-Sort)."""
    collect = getattr(ui, "collect", None)
    if collect is None or getattr(collect, "kind", "") == "give_ace":  # an ace is given by its scan alone
        return ()
    return (collect.player,)


def table_plan(facts: LightFacts, player_of_seat: Mapping[str, str | None]) -> dict[str, Mode]:
    """Seat → mode for a game moment; `player_of_seat` maps each lit seat to its player (or None)."""
    plan: dict[str, Mode] = {}
    for seat, player in player_of_seat.items():
        mode = Mode.OFF
        if player is None or facts.finished:
            mode = Mode.OFF
        elif facts.race_open:
            mode = Mode.BLINK if player in facts.waiting else Mode.OFF
        elif player in facts.losers:
            mode = Mode.FLASH
        elif player in facts.confirm:
            mode = Mode.PULSE
        elif player in facts.actors:
            mode = Mode.ON
        plan[seat] = mode
    return plan


def screen_plan(screen: ShownScreen | None, seats: Sequence[str], held: Iterable[str] = ()) -> dict[str, Mode]:
    """Seat → mode for whatever screen is showing."""
    name = getattr(screen, "name", "")
    controller = controller_on(screen)
    if name == "table" and controller is not None:
        players = {seat: controller.player_for_seat(seat) for seat in seats}
        return table_plan(table_facts(controller), players)
    if name == "setup":
        claimed = getattr(screen, "claimed", {})
        return {seat: Mode.ON if seat in claimed else Mode.OFF for seat in seats}
    if name == "demo":
        return dict.fromkeys(seats, Mode.WAVE)
    if name in TEST_SCREENS:  # lit while the seat's button is down, or while the screen holds it
        held = set(held)
        return {seat: Mode.ON if seat in held else Mode.BUTTONS for seat in seats}
    return dict.fromkeys(seats, Mode.OFF)


ANIMATED = (Mode.BLINK, Mode.FLASH, Mode.PULSE, Mode.WAVE, Mode.BUTTONS)
STRIP_FRAME_S = 0.05  # the --sim strip redraws a moving light 20 times a second
STRIP_SETTLE_S = 0.3  # … and a light that just changed, until its pin has surely followed


def seat_players(screen: ShownScreen | None, seats: Sequence[str]) -> dict[str, str]:
    """Seat → the player sitting there, where the screen knows it (the `--sim` strip names them)."""
    controller = controller_on(screen)
    if getattr(screen, "name", "") != "table" or controller is None:
        return {}
    return {seat: player for seat in seats if (player := controller.player_for_seat(seat))}


class LightFollower:
    """Keeps a table's `SeatLights` showing the current screen's plan (display thread only).

    `strip`: the `--sim` window's light strip (`kiosk.hardware.sim_strip.SimStrip`), or None on a Pi.
    """

    def __init__(self, lights: SeatLights, strip: SimStrip | None = None):
        self.lights = lights
        self.seats = lights.seats
        self.strip = strip
        self.plan: dict[str, Mode] = dict.fromkeys(self.seats, Mode.OFF)
        self._held: set[str] = set()
        self._screen: ShownScreen | None = None
        self._drawn_at: float | None = None
        self._settled_at = 0.0

    def follow(self, screen: ShownScreen, now: float | None = None) -> dict[str, Mode]:
        """Work out the plan for `screen` and pass it on if it changed (cheap: no pin is touched here)."""
        self._screen = screen
        if getattr(screen, "name", "") not in TEST_SCREENS:
            self._held.clear()  # held buttons belong to the test screen; the next one starts dark
        plan = screen_plan(screen, self.seats, self._held)
        changed = plan != self.plan
        if changed:
            self.plan = plan
            self.lights.show(plan)
        if self.strip is not None:
            now = time.monotonic() if now is None else now
            if changed:  # the strip draws the pins as they are: keep drawing until the worker has set them
                self._settled_at = now + STRIP_SETTLE_S
            if changed or self._drawn_at is None or (self._animated(now) and now - self._drawn_at >= STRIP_FRAME_S):
                self.strip.draw(self.seats, self.plan, seat_players(screen, self.seats))
                self._drawn_at = now
        return plan

    def draw_strip(self) -> None:
        """Draw the `--sim` strip as the pins are once the last plan reached them (a window screenshot)."""
        if self.strip is not None:
            self.lights.wait_applied(1.0)
            self.strip.draw(self.seats, self.plan, seat_players(self._screen, self.seats))

    def _animated(self, now: float) -> bool:
        return now < self._settled_at or any(mode in ANIMATED for mode in self.plan.values())

    def next_wakeup(self, wakeup: float | None, now: float) -> float | None:
        """The display loop's next wake-up, earlier while the `--sim` strip shows a moving light."""
        if self.strip is None or not self._animated(now):
            return wakeup
        frame = (self._drawn_at or now) + STRIP_FRAME_S
        return frame if wakeup is None else min(wakeup, frame)

    def hold(self, seat: str, on: bool) -> None:
        """A button test screen: light `seat` while its button is held (`on`), put it out on release."""
        if on:
            self._held.add(seat)
        else:
            self._held.discard(seat)

    def reported(self) -> dict[str, str]:
        """Seat → "on" | "off" | "blink" | "pulse": the control socket's `state["lights"]` (a light following
        its buttons reports whether it is lit now)."""
        return {seat: ("on" if self.lights.lit(seat) else "off") if mode is Mode.BUTTONS else mode.reported
                for seat, mode in self.plan.items()}


def follower(table: Table, window: bool = False) -> LightFollower | None:
    """A follower for the table's lights (`hw.table.Table.lights`), or None when no seat has a light. `window`: a
    simulation in a desktop window, whose light strip (drawn under the screen) the app attaches to its display."""
    lights = getattr(table, "lights", None)
    if lights is None or not lights.pins:
        return None
    strip = None
    if window:
        from kiosk.hardware.sim_strip import SimStrip

        strip = SimStrip(lights, {s.name: s.keys for s in table.config.seats})
    return LightFollower(lights, strip)
