"""Seat lights on gpiozero mock pins: what the LED pins do through whole games, on set-up, menu and demo.

A kiosk runs in this process (headless App, the simulated table's real adapters on a
`MockFactory`), so the tests read the light pins themselves: a steady light is a pin
at its lit level, a blink is a pin seen at both levels and nothing between, a pulse
is a pin seen between its levels. What each seat should show is worked out here
from the referee's hints and the public state, apart from `kiosk.hardware.seat_lights`.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pygame
import pytest

from hw.config import loads
from hw.lights import LightPin, Mode, SeatLights
from hw.mockpins import timed_mock_factory
from hw.sim import SimHardware
from kiosk.app.app import Command
from kiosk.drawing.view import View
from kiosk.hardware import seat_lights
from kiosk.hardware.hardware import Hardware
from kiosk.loop.inbox import Inbox
from kiosk.screens import Screen
from kiosk.screens.demo import DemoScreen
from referee import sim
from referee.config_lines import ConfigError
from referee.table import Referee
from tests.kiosk_helpers import make_app
from tests.kiosk_process import KioskProcess
from tests.test_kiosk_e2e import play_event, start_game

SEATS = ("Anna", "Ben", "Cleo", "Dev")
LEDS = {"Anna": 17, "Ben": 27, "Cleo": 22, "Dev": 25}
ACTIVE_LOW = "Ben"  # one light wired to 3.3 V (lit when its pin is low)

CONFIG = "\n".join(
    f'[seats.{seat}]\nconfirm = {c}\nslap = {s}\nled = {LEDS[seat]}\n'
    + ("active_high = false\n" if seat == ACTIVE_LOW else "")
    + f'[scanners.{seat}]\nseat = "{seat}"\ntype = "sim"\ndedupe_ms = 0\n'
    for seat, (c, s) in zip(SEATS, [(5, 6), (13, 19), (20, 21), (23, 24)], strict=True)
) + '[table]\nname = "Lit table"\n[buttons]\ndebounce_ms = 10\n[scanners.table]\ntype = "sim"\ndedupe_ms = 0\n'


# ---------------------------------------------------------------- reading the pins


def lit_level(seat: str) -> float:
    return 0.0 if seat == ACTIVE_LOW else 1.0


def pins_show(lights: SeatLights, want: dict[str, str], timeout: float = 5.0) -> dict[str, bool]:
    """Per seat whether its pin does what `want` says ("on", "off", "blink", "pulse"), judged from its values
    alone; all pins are watched together, until each has shown its mode or the time is up."""
    pins = {seat: lights.pin(seat) for seat in want}
    start = {seat: len(pin.states) for seat, pin in pins.items()}
    deadline = time.monotonic() + timeout
    while True:
        got = {}
        for seat, mode in want.items():
            pin, lit = pins[seat], lit_level(seat)
            if mode in ("on", "off"):
                got[seat] = pin.state == (lit if mode == "on" else 1.0 - lit)
                continue
            changes = list(pin.states)[start[seat]:]
            seen = {float(s.state) for s in changes}
            between = {v for v in seen if 0.0 < v < 1.0}
            if mode == "blink":
                got[seat] = seen >= {0.0, 1.0} and not between
            else:
                got[seat] = len(between) >= 2
        if all(got.values()) or time.monotonic() > deadline:
            return got
        time.sleep(0.01)


def pin_shows(lights: SeatLights, seat: str, mode: str, timeout: float = 5.0) -> bool:
    return pins_show(lights, {seat: mode}, timeout)[seat]


# ---------------------------------------------------------------- an in-process kiosk


class LocalKiosk:
    """The calls of `tests.kiosk_process.KioskProcess` (cmd, touch, state, wait, wait_events) on an App and a
    SimHardware in this process, so the light pins can be read. After every event it checks the lights."""

    dedupe_s = 0.0
    TAP_GAP_S = 0.03

    def __init__(self, tmp_path: Path):
        self.config = loads(CONFIG, "lit.toml")
        inbox = Inbox()
        self.sim = SimHardware(self.config, sink=inbox.post, workdir=tmp_path).open()
        table = self.sim.opened_table()
        self.follower = seat_lights.follower(table)
        self.app = make_app(tmp_path, inbox=inbox, hardware=Hardware(self.config, table, None, None, self.follower))
        self.lights = table.lights
        self._taps: dict[tuple[Any, Any], float] = {}
        self.checked: list[dict[str, str]] = []
        self.before_confirm: list[tuple[str, bool, bool]] = []  # seat, owes a confirmation, its pin agreed

    def close(self) -> None:
        self.sim.close()

    def pump(self, steps: int = 3) -> None:
        for _ in range(steps):
            self.app.loop.step(max_wait_ms=2)

    def cmd(self, cmd: str, **fields: Any) -> dict[str, Any]:
        if cmd == "tap":
            key = (fields.get("seat"), fields.get("button"))
            last = self._taps.get(key)
            if last is not None and time.monotonic() - last < self.TAP_GAP_S:
                time.sleep(self.TAP_GAP_S - (time.monotonic() - last))
            self._taps[key] = time.monotonic()
            if fields.get("button") == "confirm" and self.app.router.screen.name == "table":
                self._note_confirm(fields["seat"])
        if cmd == "view":
            return {"ok": True, **self._command("view")}
        reply = self.sim.handle({"cmd": cmd, **fields})
        assert reply["ok"], reply
        self.pump()
        return reply

    def _command(self, name: str, arg: Any = None) -> Any:
        """A control-socket command run as the display thread runs it (`App._on_item`), here in this thread."""
        self.pump(1)
        command = Command(name, arg)
        self.app.inputs.on_item(command)
        error = getattr(command, "error", None)
        if error is not None:
            raise error
        return command.result

    def state(self) -> dict[str, Any]:
        return self._command("state")

    def touch(self, action: str) -> dict[str, Any]:
        self.app.loop.draw()
        if action not in self.app.loop.view.buttons() and self.app.loop.view.anywhere == "race-done":
            self.app.router.screen.on_action("race-done")  # a touch anywhere closes the full-screen race result
            self.app.loop.draw()
        assert action in self.app.loop.view.buttons(), (action, self.app.loop.view.buttons())
        if action == "act:done":
            collecting = getattr(self.app.router.screen.controller.ui, "collect", None)
            if collecting is not None:
                controller = self.app.router.screen.controller
                seat = next(s for s in SEATS if controller.player_for_seat(s) == collecting.player)
                self._note_confirm(seat)
        self._command("action", action)
        self.pump()
        return self.state()

    def wait(self, predicate, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            self.app.loop.step(max_wait_ms=5)
            state = self.state()
            if predicate(state):
                return state
            if time.monotonic() > deadline:
                raise TimeoutError(f"state never matched; last {state}")

    def wait_events(self, count: int, timeout: float = 20.0) -> dict[str, Any]:
        state = self.wait(lambda s: s.get("events") == count, timeout)
        self.check_lights()
        return state

    # -- the checks

    def _note_confirm(self, seat: str) -> None:
        """A seat is about to press confirm (or touch "Done" for its collection): its light pulses if it owes a
        confirmation, else (a Profi-Sort draw by button) it is steady on."""
        self.pump()
        self.lights.wait_applied()
        c = self.app.router.screen.controller
        owed = owes_confirmation(c, c.player_for_seat(seat))
        self.before_confirm.append((seat, owed, pin_shows(self.lights, seat, "pulse" if owed else "on")))

    def check_lights(self) -> None:
        self.pump()
        self.lights.wait_applied()
        want = expected(self.app.router.screen)
        got = pins_show(self.lights, {seat: "blink" if mode == "flash" else mode for seat, mode in want.items()})
        assert all(got.values()), (want, got, self.app.router.screen.controller.state)
        after = self.state()
        assert after["lights"] == {s: "blink" if m == "flash" else m for s, m in want.items()}, (
            want, after, self.app.router.screen.controller.referee.hints())
        self.checked.append(want)


def expected(screen: Any) -> dict[str, str]:
    """What each seat's light should do on a table screen, from the referee's hints and the public state."""
    c = screen.controller
    state = c.state
    hints = c.referee.hints()
    race = hints.race
    out = {}
    for seat in SEATS:
        player = c.player_for_seat(seat)
        mode = "off"
        if player is None or state["finished"]:
            mode = "off"
        elif race is not None and race.open:
            mode = "blink" if player in race.participants and player not in race.pressed else "off"
        elif race is not None and player in race.losers:
            mode = "flash"
        elif owes_confirmation(c, player):
            mode = "pulse"
        elif player in hints.actors:
            mode = "on"
        out[seat] = mode
    return out


def owes_confirmation(c: Any, player: str) -> bool:
    """ANNAOTTO: a penalty to accept or a drawn card to keep (the seat may press confirm now);
    Profi-Sort: a collection the table screen gathers for the player, finished with Done or the button."""
    state = c.state
    if state["turn"] == player and "chain" in state and not state["choices"] and state["race"] is None:
        return bool(state["chain"] or state["plus"] or state["drawn"])
    collect = getattr(c.ui, "collect", None)
    return collect is not None and collect.player == player


def play_whole_game(kiosk: LocalKiosk, game_id: str, seed: int) -> list[dict]:
    players = sim.get(game_id).default_players
    options = sim.get(game_id)(random.Random(seed), sim.names(players)).header.get("options", {})
    names = start_game(kiosk, game_id, players, options)
    ui = kiosk.app.router.screen.controller.ui
    if hasattr(ui, "race_timeout_ms"):  # the pin checks after each slap take their time: a race that is to
        ui.race_timeout_ms = 6_000      # time out still does (the driver waits 13 s), one that is not does not
    seat_of = dict(zip(names, SEATS, strict=False))
    table = sim.get(game_id)(random.Random(seed), names)
    referee = Referee(table.header)
    events = list(sim.play(table, referee))
    for n, event in enumerate(events, 1):
        play_event(kiosk, event, seat_of, n)
    assert kiosk.state()["state"] == referee.state()
    assert kiosk.state()["state"]["finished"]
    return events


@pytest.fixture
def kiosk(tmp_path):
    k = LocalKiosk(tmp_path)
    yield k
    k.close()


# ---------------------------------------------------------------- whole games


@pytest.mark.slow
def test_annaotto_game_with_races_on_the_pins(kiosk: LocalKiosk) -> None:
    events = play_whole_game(kiosk, "annaotto", 22)
    assert sum(e["type"] == "race_close" for e in events) >= 1, "a race timed out too"
    assert sum(e["type"] == "press" and e["button"] == "slap" for e in events) >= 4
    modes = [m for plan in kiosk.checked for m in plan.values()]
    assert {"on", "blink", "flash", "pulse", "off"} <= set(modes), "the game showed every kind of light"
    assert any(sum(m == "blink" for m in plan.values()) >= 3 for plan in kiosk.checked), "a race blinked the table"
    assert sum(owed for _, owed, _ in kiosk.before_confirm) >= 5, kiosk.before_confirm
    assert all(ok for _, _, ok in kiosk.before_confirm), kiosk.before_confirm
    assert all(pin_shows(kiosk.lights, seat, "off") for seat in SEATS), "game over: all lights out"


def test_alles_klar_game_lights_the_seat_on_turn(kiosk: LocalKiosk) -> None:
    play_whole_game(kiosk, "alles-klar", 21)
    assert len(kiosk.checked) > 30
    for plan in kiosk.checked[:-1]:
        assert sorted(plan.values()) == ["off", "off", "off", "on"], plan  # 3 players: one on, the rest off


@pytest.mark.slow
def test_profi_sort_game_pulses_the_seat_that_owes_its_confirmation(kiosk: LocalKiosk) -> None:
    events = play_whole_game(kiosk, "profi-sort", 29)
    assert sum(e["type"] in ("lay_task", "extend") for e in events) >= 3
    assert sum(owed for _, owed, _ in kiosk.before_confirm) >= 3, kiosk.before_confirm
    assert all(ok for _, _, ok in kiosk.before_confirm), kiosk.before_confirm
    assert any("on" in plan.values() for plan in kiosk.checked)


# ---------------------------------------------------------------- screens


def test_set_up_claim_lights_the_claimed_seat_and_the_menu_is_dark(kiosk: LocalKiosk) -> None:
    kiosk.pump()
    kiosk.lights.wait_applied()
    assert all(pin_shows(kiosk.lights, seat, "off") for seat in SEATS)
    kiosk.touch("game:alles-klar")
    kiosk.cmd("tap", seat="Cleo", button="confirm")
    kiosk.wait(lambda s: "Cleo" in s.get("claimed", {}))
    kiosk.lights.wait_applied()
    assert pin_shows(kiosk.lights, "Cleo", "on")
    assert all(pin_shows(kiosk.lights, seat, "off") for seat in ("Anna", "Ben", "Dev"))
    kiosk.cmd("tap", seat="Ben", button="slap")
    kiosk.wait(lambda s: "Ben" in s.get("claimed", {}))
    kiosk.lights.wait_applied()
    assert kiosk.lights.pin("Ben").state == 0.0, "Ben's light is active low: lit = pin low"
    assert kiosk.state()["lights"] == {"Anna": "off", "Ben": "on", "Cleo": "on", "Dev": "off"}
    kiosk.touch("back")
    kiosk.lights.wait_applied()
    assert all(pin_shows(kiosk.lights, seat, "off") for seat in SEATS)


def test_demo_runs_a_wave_round_the_table(kiosk: LocalKiosk) -> None:
    kiosk.app.router.show(DemoScreen(kiosk.app.host, seed=3))
    kiosk.pump()
    kiosk.lights.wait_applied()
    assert all(pins_show(kiosk.lights, dict.fromkeys(SEATS, "pulse")).values())
    assert kiosk.state()["lights"] == dict.fromkeys(SEATS, "pulse")
    spread = 0.0  # a wave, not the table pulsing in unison: at some moment one seat is bright, another dark
    for _ in range(100):
        levels = [kiosk.lights.pin(seat).state for seat in SEATS if seat != ACTIVE_LOW]
        spread = max(spread, max(levels) - min(levels))
        if spread > 0.5:
            break
        time.sleep(0.02)
    assert spread > 0.5


class ButtonTest(Screen):
    """A screen named as the button test screen (#14) is: the lights only need its name."""

    name = "button-test"

    def view(self, width: int, height: int) -> View:
        return View(width, height)


def test_on_the_button_test_screen_a_light_is_lit_while_its_button_is_held(kiosk: LocalKiosk) -> None:
    kiosk.app.router.show(ButtonTest(kiosk.app.host))
    kiosk.pump()
    kiosk.lights.wait_applied()
    assert all(pins_show(kiosk.lights, dict.fromkeys(SEATS, "off")).values())
    kiosk.sim.press("Anna", "confirm")  # held down, not released
    assert pin_shows_within(kiosk.lights, "Anna", "on") and pin_shows(kiosk.lights, "Cleo", "off")
    assert kiosk.state()["lights"]["Anna"] == "on"
    kiosk.sim.release("Anna", "confirm")
    assert pin_shows_within(kiosk.lights, "Anna", "off")
    kiosk.sim.press("Ben", "slap")  # Ben's light is active low: lit = pin low
    assert pin_shows_within(kiosk.lights, "Ben", "on") and kiosk.lights.pin("Ben").state == 0.0
    kiosk.sim.release("Ben", "slap")
    kiosk.app.host.lights.hold("Dev", True)  # what the screen does to keep a light on after a short tap
    kiosk.pump()
    kiosk.lights.wait_applied()
    assert pin_shows(kiosk.lights, "Dev", "on") and pin_shows_within(kiosk.lights, "Ben", "off")
    kiosk.app.host.lights.hold("Dev", False)
    kiosk.pump()
    kiosk.lights.wait_applied()
    assert pin_shows_within(kiosk.lights, "Dev", "off")
    kiosk.app.router.go_menu()
    kiosk.pump()
    kiosk.lights.wait_applied()
    kiosk.sim.press("Cleo", "slap")
    assert pin_shows(kiosk.lights, "Cleo", "off"), "off the test screen a button lights nothing"


def pin_shows_within(lights: SeatLights, seat: str, mode: str, timeout: float = 5.0) -> bool:
    """A steady `mode` the pin reaches in its own time (the button test's light follows the button's pin
    in gpiozero's source thread)."""
    deadline = time.monotonic() + timeout
    while not pin_shows(lights, seat, mode):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


# ---------------------------------------------------------------- the adapter and the config


def test_modes_on_the_pins_and_polarity() -> None:
    pins = [LightPin("A", 17), LightPin("B", 27, active_high=False)]
    with SeatLights(pins, pin_factory=timed_mock_factory()) as lights:
        assert lights.pin("A").state == 0.0 and lights.pin("B").state == 1.0  # both dark at start
        for mode, word in ((Mode.ON, "on"), (Mode.BLINK, "blink"), (Mode.PULSE, "pulse"), (Mode.OFF, "off")):
            lights.show({"A": mode, "B": mode})
            assert lights.wait_applied()
            assert pin_shows(lights, "A", word), mode
            seen_b = pin_shows(lights, "B", word) if word in ("blink", "pulse") else lights.pin("B").state == (
                0.0 if word == "on" else 1.0)
            assert seen_b, mode


def test_config_reads_lights_and_refuses_colliding_pins() -> None:
    config = loads(CONFIG, "lit.toml")
    assert config.light_pins() == [LightPin("Anna", 17), LightPin("Ben", 27, False), LightPin("Cleo", 22),
                                   LightPin("Dev", 25)]
    bad = """\
[seats.a]
confirm = 5
slap = 6
led = 6
[seats.b]
confirm = 13
slap = 19
led = 17
[seats.c]
confirm = 20
slap = 21
led = 17
active_high = "yes"
[seats.d]
confirm = 23
slap = 24
active_high = false
[seats.e]
confirm = 7
slap = 8
led = 40
"""
    with pytest.raises(ConfigError) as error:
        loads(bad, "bad.toml")
    text = str(error.value)
    assert "bad.toml:4: pin 6 is used twice: seats.a.led and seats.a.slap (line 3)" in text
    assert "bad.toml:12: pin 17 is used twice: seats.c.led and seats.b.led (line 8)" in text
    assert "bad.toml:13: seats.c.active_high must be true or false, not a string" in text
    assert "bad.toml:17: active_high is the light's level, but seat 'd' has no led" in text
    assert "bad.toml:21: seats.e.led = 40 is out of range (0..27)" in text
    later = "[seats.a]\nconfirm = 5\nslap = 6\nled = 13\n[seats.b]\nconfirm = 13\nslap = 19\n"
    with pytest.raises(ConfigError, match=r"x.toml:4: pin 13 is used twice: seats.a.led and seats.b.confirm"):
        loads(later, "x.toml")  # a light on a pin a later seat's button uses


def test_control_socket_state_reports_the_lights_and_the_window_shows_them(tmp_path) -> None:
    kiosk = KioskProcess(tmp_path)  # the e2e table config: a light per seat
    try:
        assert kiosk.state()["lights"] == dict.fromkeys(SEATS, "off")
        start_game(kiosk, "annaotto", 4)
        kiosk.cmd("scan", code="AO:RED.DOTS")
        kiosk.wait_events(1)
        assert kiosk.state()["lights"] == {"Anna": "on", "Ben": "off", "Cleo": "off", "Dev": "off"}
        kiosk.cmd("scan", code="AO:RED.DOTS.ALLE", reader="Anna")
        kiosk.wait_events(2)
        kiosk.cmd("tap", seat="Ben", button="slap")
        state = kiosk.wait_events(3)
        assert state["lights"] == {"Anna": "blink", "Ben": "off", "Cleo": "blink", "Dev": "blink"}
        window, screen = tmp_path / "window.png", tmp_path / "screen.png"
        kiosk.cmd("screenshot", path=str(window), window=True)
        kiosk.cmd("screenshot", path=str(screen))
        assert pygame.image.load(str(screen)).get_size() == (800, 480)
        width, height = pygame.image.load(str(window)).get_size()
        assert width == 800 and height > 480, "the --sim window has the light strip under the screen"
    finally:
        kiosk.close()


def test_a_pin_without_pwm_gets_a_plain_led_whose_pulse_is_a_slow_blink() -> None:
    from gpiozero.pins.mock import MockFactory, MockPin

    with SeatLights([LightPin("A", 17)], pin_factory=MockFactory(pin_class=MockPin)) as lights:
        lights.show({"A": Mode.PULSE})
        assert lights.wait_applied()
        assert pin_shows(lights, "A", "blink")  # only the two levels, never between
        lights.show({"A": Mode.ON})
        assert lights.wait_applied() and pin_shows(lights, "A", "on")
