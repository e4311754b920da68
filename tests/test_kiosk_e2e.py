"""End to end: a real kiosk process on the simulated table, driven through its control socket.

Cards are written to pseudo-terminal scanners, seat buttons are mock-pin edges,
choices are touches; the game ends at the scores a replay of the same events gives.
"""

from __future__ import annotations

import importlib
import itertools
import pkgutil
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk import games
from referee import sim
from referee.table import Referee
from tests.kiosk_process import KioskProcess

SEATS = ["Anna", "Ben", "Cleo", "Dev"]  # the simulated table's seats (hw/table.sim.toml)
GAMES = games.ids()  # every registered game: one without a simulator fails here, it is not skipped
# Per-game table drivers (tests/e2e_<game>.py): `drive(kiosk, event, seat_of, count) -> bool`, True if handled.
DRIVERS = [importlib.import_module(f"tests.{m.name}") for m in pkgutil.iter_modules([str(Path(__file__).parent)])
           if m.name.startswith("e2e_")]


def set_options(kiosk: KioskProcess, options: dict) -> None:
    """Touch each set-up option button until the game's options are `options`."""
    for option, value in options.items():
        for _ in range(20):
            if kiosk.state()["options"].get(option) == value:
                break
            kiosk.touch(f"opt:{option}")
        assert kiosk.state()["options"].get(option) == value, (option, value)


def start_game(kiosk: KioskProcess, game_id: str, players: int, options: dict | None = None) -> list[str]:
    kiosk.touch(f"game:{game_id}")
    kiosk.touch(f"count:{players}")
    set_options(kiosk, options or {})
    for seat in SEATS[:players]:  # each seat claims its place with its own button
        kiosk.cmd("tap", seat=seat, button="confirm")
    kiosk.wait(lambda s: len(s.get("claimed", {})) == players)
    screen = kiosk.touch("start")
    assert screen["screen"] == "table", screen
    return list(screen["state"]["scores"])  # (no turn yet in games with an operator start, e.g. ANNAOTTO)


def play_event(kiosk: KioskProcess, event: dict, seat_of: dict[str, str], count: int) -> None:
    """Make one event happen at the table the way players would."""
    for driver in DRIVERS:
        if driver.drive(kiosk, event, seat_of, count):
            kiosk.wait_events(count)
            return
    kind = event["type"]
    if kind == "play" and "card" in event:
        kiosk.cmd("scan", code=event["card"], reader=seat_of[event["player"]])
        state = kiosk.wait(lambda s: s.get("events") == count or s.get("pending"))
        if state.get("events") != count:  # the screen asks (a numeral, an opponent): touch the answer
            answer = event.get("rank_choice") or event.get("target")
            kiosk.touch(f"choose:{state['pending'].index(answer)}")
    else:
        raise AssertionError(f"no table action for {event}")
    kiosk.wait_events(count)


def play_simulated_game(kiosk, table, game_id: str, seen: Callable[[Any], Any] = lambda state: state,
                        stop_after: int | None = None) -> tuple[list[dict], dict]:
    """Start `game_id` on the kiosk and play the simulator's seeded game through `table` (the kiosk itself, or
    a stand-in that lays the cards another way), whole or its first `stop_after` events; the kiosk must end
    exactly where the referee does, as far as `seen` shows a state (cards read by their faces carry no copy
    number). Returns the events played and the kiosk's final state."""
    players = sim.get(game_id).default_players
    options = sim.get(game_id)(random.Random(21), sim.names(players)).header.get("options", {})
    names = start_game(kiosk, game_id, players, options)
    seat_of = dict(zip(names, SEATS, strict=False))
    simulated = sim.get(game_id)(random.Random(21), names)
    referee = Referee(simulated.header)
    events = list(itertools.islice(sim.play(simulated, referee), stop_after))  # the referee plays as far
    for n, event in enumerate(events, 1):
        play_event(table, event, seat_of, n)
    final = kiosk.state()
    assert seen(final["state"]) == seen(referee.state())
    assert final["state"]["finished"] is (stop_after is None)
    return events, final


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_full_game_through_the_control_socket(tmp_path, game_id: str) -> None:
    kiosk = KioskProcess(tmp_path)
    try:
        play_simulated_game(kiosk, kiosk, game_id)
    finally:
        kiosk.close()


def test_rejected_scan_shows_its_reason(tmp_path) -> None:
    kiosk = KioskProcess(tmp_path)
    try:
        start_game(kiosk, "magische-7", 2)
        kiosk.cmd("scan", code="M7:7", reader="Anna")
        kiosk.wait_events(1)
        kiosk.cmd("scan", code="M7:7", reader="Ben")  # the same card again
        state = kiosk.wait(lambda s: s["feedback"] and s["feedback"]["error"] == "card-exhausted")
        assert "double scan" in state["feedback"]["text"]
        kiosk.cmd("scan", code="M7:5", reader="Anna")  # Anna is not to play
        state = kiosk.wait(lambda s: s["feedback"]["error"] == "not-your-turn")
        assert state["feedback"]["text"] == "Player 2 is to play, not Player 1."
        kiosk.cmd("raw", hex=b"\x00\x01garbage\r".hex(), reader="Anna")
        state = kiosk.wait(lambda s: s["feedback"]["text"] == "Could not read — scan again")
        assert state["events"] == 1
        shot = tmp_path / "rejected.png"
        kiosk.cmd("screenshot", path=str(shot))
        assert shot.stat().st_size > 1000
    finally:
        kiosk.close()
