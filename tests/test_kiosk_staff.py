"""Staff: every destructive admin entry asks once more naming what it affects; PIN lockout that survives a
restart; PIN change from the admin menu; volume and default language kept; scanner and button test screens."""

from __future__ import annotations

import json

import pytest

from hw.inputs import ReaderNews
from kiosk.app.commands import EXIT_RESTART, EXIT_SHUTDOWN
from kiosk.screens.admin import AdminScreen
from kiosk.screens.table import TableScreen
from kiosk.settings.pin import PinGuard, hash_pin, wait_after
from kiosk.settings.settings import DEFAULT_PIN_HASH
from tests.kiosk_helpers import make_app, press, scan, settle, start_game, texts
from tests.test_seat_lights import SEATS, LocalKiosk, pin_shows


def open_admin(app, pin: str = "1234") -> None:
    app.router.show(AdminScreen(app.host, app.router.screen))
    for key in pin:
        press(app, f"key:{key}")
    press(app, "key:OK")


def test_undo_asks_naming_the_event_and_says_what_it_took_back(tmp_path) -> None:
    app = make_app(tmp_path, lang="de")
    start_game(app, "alles-klar", 3)
    scan(app, "AK:8.II")
    open_admin(app)
    assert app.router.screen.mode == "menu"
    press(app, "admin:undo")
    assert app.router.screen.name == "confirm"
    assert "Rücknehmen: Spieler 1 spielt 8 · II?" in texts(app)
    press(app, "no")
    assert app.router.screen.name == "admin" and len(app.router.screen.back.controller.referee.history) == 1
    press(app, "admin:undo")
    press(app, "yes:0")
    assert isinstance(app.router.screen, TableScreen) and app.router.screen.controller.referee.history == []
    assert "Zurückgenommen: Spieler 1 spielt 8 · II" in texts(app), "the table says what was taken back"
    open_admin(app)
    press(app, "admin:undo")
    assert "Nichts zurückzunehmen." in texts(app), "nothing to take back: no question"


def test_abandon_asks_naming_game_and_players(tmp_path) -> None:
    app = make_app(tmp_path, lang="de")
    press(app, "game:alles-klar")
    press(app, "count:3")
    for i, name in enumerate(["Anna", "Ben", "Cem"]):
        app.router.screen.rename(i, name)
    press(app, "start")
    game = app.router.screen.controller.game_row
    open_admin(app)
    press(app, "admin:abandon")
    assert "Spiel Alles klar? mit Anna, Ben, Cem abbrechen?" in texts(app)
    press(app, "yes:0")
    assert app.router.screen.name == "menu"
    assert next(g.status for g in app.records.log.games() if g.id == game) == "abandoned"


def test_restart_and_shut_down_ask_first(tmp_path) -> None:
    app = make_app(tmp_path)
    open_admin(app)
    press(app, "admin:shutdown")
    assert app.router.screen.name == "confirm" and app.loop.running
    press(app, "no")
    press(app, "admin:restart")
    assert "Restart the kiosk? A game in progress goes on after the restart." in texts(app)
    press(app, "yes:0")
    assert not app.loop.running and app.loop.exit_code == EXIT_RESTART
    down = make_app(tmp_path / "down")
    open_admin(down)
    press(down, "admin:shutdown")
    press(down, "yes:0")
    assert not down.loop.running and down.loop.exit_code == EXIT_SHUTDOWN


def test_wrong_pins_lock_the_keypad_for_a_growing_time_kept_across_restarts(tmp_path) -> None:
    now = [1000.0]
    guard = PinGuard(tmp_path, DEFAULT_PIN_HASH, clock=lambda: now[0])
    for _ in range(4):
        assert guard.attempt("0000").wait_s == 0
    verdict = guard.attempt("0000")
    assert not verdict.ok and verdict.wait_s == 30 and verdict.failures == 5
    assert not guard.attempt("1234").ok, "the right PIN is refused while locked"
    now[0] += 29
    assert guard.attempt("1234").wait_s > 0
    restarted = PinGuard(tmp_path, DEFAULT_PIN_HASH, clock=lambda: now[0])
    assert 0 < restarted.locked_for() <= 1
    now[0] += 1
    assert restarted.attempt("9999").wait_s == 60, "the next wrong PIN doubles the wait"
    now[0] += 60
    assert restarted.attempt("9999").wait_s == 120
    now[0] += 120
    assert restarted.attempt("1234").ok
    assert restarted.failures == 0 and restarted.locked_for() == 0
    assert [wait_after(n) for n in (4, 5, 6, 7, 20)] == [0, 30, 60, 120, 3600]


def test_the_keypad_shows_the_lockout(tmp_path) -> None:
    app = make_app(tmp_path)
    app.router.show(AdminScreen(app.host, app.router.screen))
    said = []
    for _ in range(5):
        for key in "0000":
            press(app, f"key:{key}")
        press(app, "key:OK")
        said.append(app.router.screen.message)
    assert said[:4] == ["Wrong PIN. 4 more tries before a wait.", "Wrong PIN. 3 more tries before a wait.",
                        "Wrong PIN. 2 more tries before a wait.", "Wrong PIN. 1 more try before a wait."], said
    assert any(t.startswith("Too many wrong PINs. Try again in ") for t in texts(app))
    other = make_app(tmp_path / "other")
    open_admin(other)
    assert other.router.screen.mode == "menu", "another kiosk's data directory is not affected"
    again = make_app(tmp_path)  # the same kiosk restarted: still locked
    open_admin(again)
    assert again.router.screen.mode == "enter" and again.router.screen.model()["locked_for"] > 0


def test_change_the_pin_from_the_admin_menu(tmp_path) -> None:
    app = make_app(tmp_path)
    open_admin(app)
    press(app, "admin:pin")
    for key in "24":
        press(app, f"key:{key}")
    press(app, "key:OK")
    assert "A PIN has 4 to 8 digits." in texts(app)
    for pin in ("246810", "246811"):
        for key in pin:
            press(app, f"key:{key}")
        press(app, "key:OK")
    assert "The two PINs differ. Type the new PIN again." in texts(app)
    for pin in ("246810", "246810"):
        for key in pin:
            press(app, f"key:{key}")
        press(app, "key:OK")
    assert "The new PIN is saved." in texts(app)
    stored = json.loads((tmp_path / "admin-pin.json").read_text())
    assert stored["hash"].startswith("pbkdf2_sha256$") and "246810" not in stored["hash"]
    again = make_app(tmp_path)
    open_admin(again, "1234")
    assert again.router.screen.mode == "enter", "the old PIN no longer opens"
    open_admin(again, "246810")
    assert again.router.screen.mode == "menu"
    (tmp_path / "admin-pin.json").unlink()
    fallback = PinGuard(tmp_path, hash_pin("4321", iterations=1000))
    assert fallback.attempt("4321").ok, "without a saved PIN the config's hash counts"


def test_volume_and_default_language_are_kept(tmp_path) -> None:
    app = make_app(tmp_path, lang="en")
    open_admin(app)
    assert app.host.volume == 70 and "Volume: 70 %" in texts(app), "the config's default"
    for label in ["Volume: 80 %", "Volume: 90 %", "Volume: 100 %", "Volume: 100 %"]:
        press(app, "volume:up")
        assert label in texts(app), "+ goes up to 100 % and stays there"
    for _ in range(10):
        press(app, "volume:down")
    assert "Volume: mute" in texts(app) and app.audio.muted
    press(app, "volume:down")
    assert "Volume: mute" in texts(app), "− stops at mute, never wraps to loud"
    for _ in range(3):
        press(app, "volume:up")
    assert "Volume: 30 %" in texts(app) and not app.audio.muted and app.audio.volume == 30
    assert "Demo mode: off" in texts(app)
    press(app, "admin:demo")
    assert "Demo mode: on" in texts(app) and app.settings.demo_after_s > 0
    press(app, "admin:lang")
    assert "Sprache: Deutsch" in texts(app)
    again = make_app(tmp_path, lang="en")
    assert again.host.lang == "de" and again.host.volume == 30


def test_scanner_test_shows_each_readers_last_code_per_seat(tmp_path) -> None:
    app = make_app(tmp_path)
    app.host.reader_seats = {"scanner-1": "Anna", "scanner-2": "Ben"}
    start_game(app)
    open_admin(app)
    press(app, "admin:scanners")
    assert app.router.screen.name == "scanner-test"
    assert "Seat Anna" in texts(app) and "Seat Ben" in texts(app)
    scan(app, "AK:8.II", reader="scanner-2")
    scan(app, "AK:3.I", reader="scanner-1")
    scan(app, "AK:5.V", reader="scanner-1")
    assert app.router.screen.model()["last"] == {"scanner-2": "8 · II (AK:8.II)", "scanner-1": "5 · V (AK:5.V)"}
    code = app.loop.view.tagged("code:scanner-1")[0].text
    assert code.endswith("5 · V (AK:5.V)"), "staff read the card's words first, the code after them"
    app.inbox.post(ReaderNews("scanner-2", "disconnected", "", 0))
    settle(app)
    assert app.loop.view.tagged("code:scanner-2")[0].text.endswith("Scanner disconnected (disconnected)")
    app.inbox.post(ReaderNews("scanner-2", "not-a-card", "'XX:1'", 0))
    settle(app)
    assert app.loop.view.tagged("code:scanner-2")[0].text.endswith("Read, but no card of any game (not-a-card)")
    press(app, "back")
    press(app, "back")
    screen = app.router.screen
    assert isinstance(screen, TableScreen) and screen.controller.referee.history == [], "tests log nothing"


@pytest.fixture
def lit_table(tmp_path):
    """The lights helper's in-process kiosk: a simulated table whose seats have lights on mock pins."""
    table = LocalKiosk(tmp_path)
    yield table
    table.close()


def test_button_test_lights_each_seat_on_screen_and_its_real_light(lit_table) -> None:
    """On the simulated table with seat lights (mock pins): a tap lights the seat's tile and holds its light."""
    kiosk = lit_table
    app = kiosk.app
    app.host.seats = list(SEATS)
    open_admin(app)
    press(app, "admin:buttons")
    assert app.router.screen.name == "button-test"
    assert app.loop.view.tagged("dark:Anna:confirm") and app.loop.view.tagged("dark:Ben:slap")
    kiosk.cmd("tap", seat="Ben", button="slap")
    assert app.router.screen.model()["lit"] == ["Ben:slap"]
    app.loop.draw()
    assert app.loop.view.tagged("lit:Ben:slap") and app.loop.view.tagged("dark:Anna:confirm")
    kiosk.lights.wait_applied()
    assert pin_shows(kiosk.lights, "Ben", "on"), "the screen holds the seat's light after a short tap"
    assert pin_shows(kiosk.lights, "Cleo", "off")
    app.router.screen.on_tick(float("inf"))  # the tile's second is over
    kiosk.pump()
    kiosk.lights.wait_applied()
    assert app.router.screen.model()["lit"] == [] and pin_shows(kiosk.lights, "Ben", "off")
