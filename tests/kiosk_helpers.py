"""Drive a headless kiosk App from tests (SDL dummy driver)."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ["SDL_VIDEODRIVER"] = "dummy"

from kiosk.app.app import App
from kiosk.eventlog.store import EventLog
from kiosk.hardware.hardware import Hardware
from kiosk.loop.inbox import Inbox
from kiosk.settings.settings import Settings
from referee import sim

# The apps made during the current test: tests/conftest.py fails a test that leaves a guarded error in one, or a
# text the renderer cut, unless the test put the app in EXPECT_CUTS (it draws arbitrary strings on purpose).
MADE: list[App] = []
EXPECT_CUTS: list[App] = []


# The tests' tables have a configured admin PIN, 1234 (the unconfigured default opens only the change of PIN:
# tests/test_kiosk_pin.py); the same hash as tests/data/table.e2e.toml's.
CONFIGURED_PIN_HASH = ("pbkdf2_sha256$1000$tests-configured$"
                       "91abb52b5892d110fbbc35a0f9263e969f32bfa547121cec299b3d2ef53f576b")


def make_app(tmp_path: Path, lang: str = "en", size: tuple[int, int] = (800, 480), *, inbox: Inbox | None = None,
             hardware: Hardware | None = None, **settings_kw: Any) -> App:
    """A headless App over a fresh log in `tmp_path`; `inbox` and `hardware` as the composition root hands them in
    (the hardware's threads post to the inbox)."""
    settings_kw.setdefault("pin_hash", CONFIGURED_PIN_HASH)
    settings = Settings(data_dir=tmp_path, language=lang, demo_after_s=0, width=size[0], height=size[1],
                        **settings_kw)
    app = App(settings, EventLog(settings.log_path), headless=True, inbox=inbox, hardware=hardware)
    MADE.append(app)
    return app


def settle(app: App, steps: int = 3) -> None:
    for _ in range(steps):
        app.loop.step(max_wait_ms=1)


def press(app: App, tag_or_action: str) -> None:
    """Touch the button with this action (as a finger would, at its centre)."""
    app.loop.draw()
    for element in app.loop.view.elements:
        if element.kind == "button" and element.action == tag_or_action:
            x, y, w, h = element.rect
            app.inputs.touch(x + w // 2, y + h // 2)
            app.loop.draw()
            return
    raise AssertionError(f"no button {tag_or_action!r}; buttons: {app.loop.view.buttons()}")


def texts(app: App) -> list[str]:
    app.loop.draw()
    return app.loop.view.texts()


def hold(app: App, action: str, seconds: float) -> None:
    """Touch the button with this action and keep the finger down for `seconds` (as the app measures it)."""
    app.loop.draw()
    for element in app.loop.view.elements:
        if element.kind == "button" and element.action == action:
            x, y, w, h = element.rect
            app.inputs.touch(x + w // 2, y + h // 2, held=seconds)
            app.loop.draw()
            return
    raise AssertionError(f"no button {action!r}; buttons: {app.loop.view.buttons()}")


def scan(app: App, code: str, reader: str = "keyboard") -> None:
    import time

    from hw.inputs import CardScan

    app.inbox.post(CardScan(code, reader, time.monotonic_ns()))
    settle(app)


def seat_press(app: App, seat: str, button: str = "confirm") -> None:
    import time

    from hw.inputs import ButtonPress

    app.inbox.post(ButtonPress(seat, button, time.monotonic_ns()))  # type: ignore[arg-type]
    settle(app)


def start_game(app: App, game_id: str = "alles-klar", players: int = 3) -> None:
    press(app, f"game:{game_id}")
    press(app, f"count:{players}")
    press(app, "start")


def start_simulated_game(app: App, game_id: str, seed: int) -> tuple[Any, Any]:
    """A game started through the menu for the simulator's table of `seed`: (the screen's controller, the table
    playing its seats under the names the kiosk gave them)."""
    table = sim.new_table(game_id, seed)
    start_game(app, game_id, len(table.players))
    controller = app.router.screen.controller
    names = list(controller.state["scores"])
    return controller, sim.get(game_id)(random.Random(seed), names, table.options or None)


def play_opening(table: Any, referee: Any, submit: Callable[[dict], None]) -> None:
    """The simulated table's opening events (a deal, a start), each submitted and accepted."""
    for event in table.first_events():
        submit(event)
        table.accepted(event, referee)


def play_one_move(table: Any, referee: Any, submit: Callable[[dict], None], mistakes: int) -> dict | None:
    """The simulated table's next accepted move, after up to `mistakes` of its moves the referee refuses (each
    submitted too: a table's mistakes, as the referee answers them); None when it has no move."""
    proposals = table.candidates(referee)
    refused = 0
    while proposals:
        event = proposals.pop(table.rng.randrange(len(proposals)))
        if not referee.check(event).ok:
            if refused < mistakes:
                refused += 1
                submit(event)
            continue
        submit(event)
        table.accepted(event, referee)
        return event
    return None


def lay_export_traps(stick: Path, data: Path, log_path: Path, seconds: int) -> None:
    """On a stick, for each of the next `seconds` (the export names its folder by the second), what an attacker
    lays where the export will write: a symlink to the data directory, or a folder whose games.csv is a symlink
    to the live event log (issue #34: the export once followed both and overwrote the log)."""
    now = time.time()
    for ahead in range(seconds):
        name = f"tabletop-referee-table-{time.strftime('%Y%m%d-%H%M%S', time.localtime(now + ahead))}"
        if ahead % 2:
            (stick / name).symlink_to(data)
        else:
            (stick / name).mkdir()
            (stick / name / "games.csv").symlink_to(log_path)
