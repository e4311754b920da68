"""Every screen of every game rendered headless to PNG at 800×480 and 1280×720, with checks on its model.

The model (the View: texts, buttons, tagged elements) is what is checked; the PNG
proves the renderer draws it. Every text must be drawable by the font (no missing
glyph boxes) and every button must be a touch target of at least 48 px.
"""

from __future__ import annotations

import random

import pygame
import pytest

from kiosk import games
from kiosk.drawing.view import MIN_TOUCH
from kiosk.screens.admin import AdminScreen
from kiosk.screens.demo import DemoScreen
from kiosk.screens.history import HistoryScreen
from kiosk.screens.table import TableScreen
from referee import sim
from tests.kiosk_helpers import make_app, press

SIZES = [(800, 480), (1280, 720)]
GAMES = games.ids()  # every registered game: one without a simulator fails here, it is not skipped


def check_and_save(app, path) -> None:
    app.loop.screenshot(path)
    assert path.stat().st_size > 1000
    image = pygame.image.load(str(path))
    assert image.get_size() == app.display.surface.get_size()
    font = app.display.renderer.font(20)
    for element in app.loop.view.elements:
        if element.text:
            missing = [ch for ch, m in zip(element.text, font.metrics(element.text), strict=True) if m is None]
            assert not missing, f"{element.text!r} has glyphs the font cannot draw: {missing}"
        if element.kind == "button":
            assert element.rect[2] >= MIN_TOUCH and element.rect[3] >= MIN_TOUCH, element


def drive(app, game_id: str, steps: int, seed: int = 3):
    """Start `game_id` from the menu and play `steps` simulated events (None: to the end)."""
    players = default_players(game_id)
    press(app, f"game:{game_id}")
    press(app, f"count:{players}")
    options = sim.get(game_id)(random.Random(seed), sim.names(players)).header.get("options", {})
    for option, value in options.items():  # the simulated table's options, picked on the set-up screen
        for _ in range(20):
            if app.router.screen.model()["options"].get(option) == value:
                break
            press(app, f"opt:{option}")
    press(app, "start")
    controller = app.router.screen.controller
    assert controller.referee.header.get("options", {}) == options
    table = sim.get(game_id)(random.Random(seed), list(controller.referee.players))
    for i, event in enumerate(sim.play(table, controller.referee.__class__(controller.referee.header))):
        if steps is not None and i >= steps:
            break
        assert controller.submit(event).ok
    app.loop.draw()
    return controller


def default_players(game_id: str) -> int:
    return sim.get(game_id).default_players


def operator_events(game_id: str) -> int:
    """How many operator events come before the first turn (e.g. ANNAOTTO's start card scan)."""
    cls = sim.get(game_id)
    return len(cls(random.Random(3), sim.names(cls.default_players)).first_events())


@pytest.mark.parametrize("size", SIZES)
def test_menu_setup_admin(tmp_path, size) -> None:
    app = make_app(tmp_path, lang="de", size=size)
    check_and_save(app, tmp_path / "menu.png")
    for game_id in GAMES:
        assert app.loop.view.tagged(f"game:{game_id}")
    press(app, f"game:{GAMES[0]}")
    check_and_save(app, tmp_path / "setup.png")
    assert app.loop.view.tagged("start") and app.loop.view.tagged("player")
    app.router.show(AdminScreen(app.host, app.router.screen))
    check_and_save(app, tmp_path / "admin-pin.png")
    for key in "1234":
        press(app, f"key:{key}")
    press(app, "key:OK")
    check_and_save(app, tmp_path / "admin.png")
    assert app.loop.view.tagged("admin:undo") and app.loop.view.tagged("admin:abandon")
    assert app.loop.view.tagged("admin:quit"), "windowed development mode offers Quit"


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game_id", GAMES)
def test_table_history_results(tmp_path, size, game_id) -> None:
    app = make_app(tmp_path, lang="de", size=size)
    controller = drive(app, game_id, steps=operator_events(game_id))
    check_and_save(app, tmp_path / "table-start.png")
    view = app.loop.view
    turn = controller.state["turn"]
    headline = view.tagged("turn")[0].text
    assert headline.startswith(turn) and ("ist am Zug" in headline or "Spieler" in headline), headline
    for player in controller.referee.players:
        assert view.tagged(f"seat:{player}"), player
    hot = next(e for e in view.tagged("seat") if e.tag == f"seat:{turn}")
    assert hot.fill != next(e for e in view.tagged("seat") if e.tag != f"seat:{turn}").fill, "turn highlighted"

    app2 = make_app(tmp_path / "mid", lang="en", size=size)
    drive(app2, game_id, steps=7)
    check_and_save(app2, tmp_path / "table-mid.png")
    assert app2.loop.view.tagged("hint"), "the referee says what may come next"
    table = app2.router.screen
    app2.router.show(HistoryScreen(app2.host, table, table.controller.game_row, table.controller))
    check_and_save(app2, tmp_path / "history.png")
    shown = len(app2.loop.view.tagged("line"))  # the last page: the newest lines, each with its cards drawn
    assert app2.loop.view.tagged("position")[0].text == f"{8 - shown}–7 / 7"
    assert shown == 7 or app2.loop.view.tagged("up"), "earlier lines a page up"

    app3 = make_app(tmp_path / "end", lang="en", size=size)
    drive(app3, game_id, steps=None)
    check_and_save(app3, tmp_path / "results.png")
    assert app3.loop.view.tagged("podium:1") and app3.loop.view.tagged("rematch")


@pytest.mark.parametrize("size", SIZES)
def test_demo_mode_plays_by_itself(tmp_path, size) -> None:
    app = make_app(tmp_path, size=size)
    demo = DemoScreen(app.host, seed=5)
    app.router.show(demo)
    for _ in range(5):
        demo.next_at = 0
        assert demo.on_tick(1e12)
    check_and_save(app, tmp_path / "demo.png")
    banner = app.loop.view.tagged("demo")
    assert banner and demo.controller.ui.title in banner[0].text, "the demo names the game it plays"
    assert len(demo.controller.referee.history) == 5
    assert app.loop.view.buttons() == {}, "nothing on the demo is a live button"
    # Not one flat colour: the game's table is drawn under the banner.
    surface = app.display.surface
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, size[0], 16) for y in range(0, size[1], 16)}
    assert len(colours) >= 6, colours
    x, y, w, h = app.loop.view.tagged("seat")[0].rect
    app.inputs.touch(x + w // 2, y + h // 2)  # a touch anywhere, even on what looks like a button, leaves the demo
    assert app.router.screen.name == "menu"


def test_choice_is_asked_on_screen(tmp_path) -> None:
    app = make_app(tmp_path)
    press(app, "game:alles-klar")
    press(app, "start")
    app.router.screen.controller.scan("AK:5.I.V")
    check_and_save(app, tmp_path / "choice.png")
    assert [e.text for e in app.loop.view.tagged("choice")] == ["I", "V"]
    assert isinstance(app.router.screen, TableScreen)
