"""Guests leave a game only on purpose (a hold or two seats' buttons); a game left alone is paused; the players
resume it from the history; staff abandon it. All through the kiosk's own views and touches."""

from __future__ import annotations

import time

from kiosk.app.controller import TableController
from kiosk.screens.table import TableScreen
from tests.kiosk_helpers import hold, make_app, press, scan, seat_press, settle, start_game, texts


def status_of(app, game_id: int) -> str:
    return next(g.status for g in app.records.log.games() if g.id == game_id)


def test_a_touch_on_menu_only_asks_and_a_short_tap_does_not_leave(tmp_path) -> None:
    app = make_app(tmp_path)
    start_game(app)
    game = app.router.screen.controller.game_row
    press(app, "leave")
    assert app.router.screen.name == "confirm"
    assert "Leave “Alles klar?” with Player 1, Player 2, Player 3?" in texts(app), "the title in quotes"
    press(app, "yes:0")  # a tap is not a hold
    assert app.router.screen.name == "confirm"
    assert "Keep holding the button for 2 seconds." in texts(app)
    hold(app, "yes:0", 1.0)
    assert app.router.screen.name == "confirm"
    press(app, "no")
    assert isinstance(app.router.screen, TableScreen) and status_of(app, game) == "playing"


def test_holding_menu_pauses_the_game_and_shows_the_menu(tmp_path) -> None:
    app = make_app(tmp_path)
    start_game(app)
    game = app.router.screen.controller.game_row
    scan(app, "AK:8.II")
    press(app, "leave")
    hold(app, "yes:0", 2.0)
    assert app.router.screen.name == "menu"
    assert status_of(app, game) == "paused"
    # A restart does not drop the guests back into a paused game: it waits in the history.
    again = make_app(tmp_path)
    assert again.router.screen.name == "menu"


def test_holding_new_game_pauses_and_opens_the_set_up_with_the_same_players(tmp_path) -> None:
    app = make_app(tmp_path)
    start_game(app, "magische-7", 2)
    game = app.router.screen.controller.game_row
    press(app, "leave")
    hold(app, "yes:1", 2.5)
    assert app.router.screen.name == "setup"
    assert app.router.screen.model()["game"] == "magische-7" and app.router.screen.model()["count"] == 2
    assert status_of(app, game) == "paused"


def test_two_seats_buttons_confirm_but_one_seat_twice_does_not(tmp_path) -> None:
    app = make_app(tmp_path)
    start_game(app)
    game = app.router.screen.controller.game_row
    press(app, "leave")
    seat_press(app, "Anna")
    seat_press(app, "Anna")
    assert app.router.screen.name == "confirm"
    assert "Seat buttons pressed: seat Anna" in texts(app)
    seat_press(app, "Ben")
    assert app.router.screen.name == "menu" and status_of(app, game) == "paused"


def test_a_scan_on_the_question_means_the_game_goes_on(tmp_path) -> None:
    app = make_app(tmp_path)
    start_game(app)
    press(app, "leave")
    scan(app, "AK:8.II")
    assert isinstance(app.router.screen, TableScreen)
    assert app.router.screen.controller.referee.history == [{"type": "play", "player": "Player 1", "card": "AK:8.II"}]


def test_an_idle_table_pauses_the_game_and_the_players_resume_it_from_the_history(tmp_path) -> None:
    app = make_app(tmp_path)
    app.settings.idle_pause_s = 1200
    start_game(app)
    game = app.router.screen.controller.game_row
    scan(app, "AK:8.II")
    scan(app, "AK:3.I")
    before = app.router.screen.controller.state
    settle(app)
    assert isinstance(app.router.screen, TableScreen), "not idle yet"
    press(app, "help")  # help open and nobody there: the game still counts as left alone
    app.inputs.last_activity = time.monotonic() - 1201
    settle(app)
    assert app.router.screen.name == "menu" and status_of(app, game) == "paused"

    press(app, "games")
    assert app.router.screen.name == "games"
    assert app.loop.view.tagged("game:paused")
    press(app, f"game:{game}")
    assert app.router.screen.name == "history" and app.router.screen.model()["status"] == "paused"
    press(app, "resume")
    assert "Resume Alles klar? with Player 1, Player 2, Player 3?" in texts(app)
    press(app, "yes:0")
    assert isinstance(app.router.screen, TableScreen)
    assert app.router.screen.controller.state == before
    assert status_of(app, game) == "playing"
    scan(app, "AK:5.V")
    assert app.router.screen.controller.referee.history[-1]["card"] == "AK:5.V"
    # The resumed game is the one a restart resumes.
    resumed = TableController.resume(app.records.log)
    assert resumed is not None and resumed.game_row == game and len(resumed.referee.history) == 3


def test_the_idle_pause_can_be_switched_off_and_a_finished_game_is_not_paused(tmp_path) -> None:
    app = make_app(tmp_path)
    app.settings.idle_pause_s = 0
    start_game(app)
    app.inputs.last_activity = time.monotonic() - 10_000
    settle(app)
    assert isinstance(app.router.screen, TableScreen)

    from tests.test_kiosk_screens import drive

    ended = make_app(tmp_path / "ended")
    controller = drive(ended, "magische-7", steps=None)
    ended.inputs.last_activity = time.monotonic() - 1201
    settle(ended)
    assert ended.router.screen.name == "menu", "an end screen left alone goes back to the menu"
    assert next(g.status for g in ended.records.log.games() if g.id == controller.game_row) == "finished"


def test_staff_abandon_a_paused_game_from_its_history(tmp_path) -> None:
    app = make_app(tmp_path)
    start_game(app)
    game = app.router.screen.controller.game_row
    press(app, "leave")
    hold(app, "yes:0", 3)
    press(app, "games")
    press(app, f"game:{game}")
    from kiosk.screens.admin import AdminScreen

    app.router.show(AdminScreen(app.host, app.router.screen))  # the long press on the corner
    for key in "1234":
        press(app, f"key:{key}")
    press(app, "key:OK")
    press(app, "admin:abandon")
    assert "Abandon Alles klar? with Player 1, Player 2, Player 3?" in texts(app)
    press(app, "yes:0")
    assert status_of(app, game) == "abandoned"
    assert app.router.screen.name == "games"
    press(app, f"game:{game}")
    assert not app.loop.view.tagged("resume"), "an abandoned game is not resumed"


def test_holding_acts_after_two_seconds_and_the_lifted_finger_touches_nothing_else(tmp_path) -> None:
    import pygame

    app = make_app(tmp_path)
    start_game(app)
    game = app.router.screen.controller.game_row
    press(app, "leave")
    x, y, w, h = app.loop.view.tagged("yes:0")[0].rect
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x + w // 2, y + h // 2), button=1))
    settle(app)
    assert app.router.screen.name == "confirm" and app.router.screen.holding is not None
    assert "Keep holding …" in texts(app)
    assert app.router.screen.next_wakeup() <= time.monotonic() + 2.0
    app.router.screen.on_tick(time.monotonic() + 2.0)  # two seconds later, the finger still down
    assert app.router.screen.name == "menu" and status_of(app, game) == "paused"
    menu_buttons = app.loop.view.buttons()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x + w // 2, y + h // 2), button=1))
    settle(app)
    assert app.router.screen.name == "menu", f"the lifted finger did not touch {menu_buttons}"
