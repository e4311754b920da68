"""The kiosk headless: from the menu to a finished game, by touches and scans; resume after a restart."""

from __future__ import annotations

import time

from hw.inputs import CardScan, ReaderNews
from kiosk.screens.table import TableScreen
from tests.kiosk_helpers import make_app, press, settle, texts


def scan(app, code: str) -> None:
    app.inbox.post(CardScan(code, "keyboard", time.monotonic_ns()))
    settle(app)


def test_menu_lists_the_games_and_switches_language(tmp_path) -> None:
    app = make_app(tmp_path, lang="de")
    assert "Alles klar?  ·  2–5 Spieler" in texts(app)
    press(app, "lang")
    assert "Alles klar?  ·  2–5 players" in texts(app)


def test_alles_klar_game_through_the_screen(tmp_path) -> None:
    app = make_app(tmp_path)
    press(app, "game:alles-klar")
    press(app, "count:2")
    press(app, "start")
    assert isinstance(app.router.screen, TableScreen)
    assert app.loop.view.tagged("turn")[0].text == "Player 1 plays.", "whose turn, once (#37)"
    assert not any("Player 1" in e.text for e in app.loop.view.tagged("hint")), "whose turn said once"
    scan(app, "AK:8.II")
    assert app.loop.view.tagged("verdict:ok")
    assert app.loop.view.tagged("turn")[0].text == "Player 2 plays."
    scan(app, "AK:8.II")  # a double scan
    assert app.loop.view.tagged("verdict:no") and any("double scan" in t for t in texts(app))
    scan(app, "AK:7.II.III")  # two numerals: the screen asks
    assert "Which numeral turns its ranking card?" in texts(app)
    assert set(app.loop.view.buttons().values()) >= {"II", "III"}
    press(app, "choose:1")
    state = app.router.screen.controller.state
    assert state["ranking"] == ["I", "IV", "V"]
    app.inbox.post(ReaderNews("keyboard", "noise", "x", 0))
    settle(app)
    assert app.loop.view.contains("Could not read — scan again")
    assert app.loop.view.tagged("verdict:no")


def test_resume_after_restart_is_exact(tmp_path) -> None:
    app = make_app(tmp_path)
    press(app, "game:magische-7")
    press(app, "start")
    scan(app, "M7:7")
    scan(app, "M7:0")
    scan(app, "M7:13")
    before = app.router.screen.controller.state
    app.records.log.close()
    again = make_app(tmp_path)
    assert isinstance(again.router.screen, TableScreen)
    assert again.router.screen.controller.state == before


def test_a_finished_game_shows_results_and_rematch(tmp_path) -> None:
    app = make_app(tmp_path)
    press(app, "game:alles-klar")
    press(app, "count:2")
    press(app, "start")
    controller = app.router.screen.controller
    # Play a whole game with the simulator's moves: scans, and a touch for every two-numeral choice.
    import random

    from referee import sim

    table = sim.get("alles-klar")(random.Random(7), list(controller.referee.players))
    for event in sim.play(table):
        scan(app, event["card"])
        if "rank_choice" in event:
            labels = [label for label, _ in controller.pending.options]
            press(app, f"choose:{labels.index(event['rank_choice'])}")
        assert controller.referee.history[-1] == event
    settle(app)
    view = texts(app)
    assert "Game over · Alles klar?" in view and any(t.endswith(" wins!") for t in view), "the winner's moment"
    assert any(t.startswith("1. ") for t in view), "the ranking names the winner first"
    press(app, "rematch")
    assert app.router.screen.controller.state["stock"] == 69


def test_names_are_typed_on_the_on_screen_keyboard(tmp_path) -> None:
    app = make_app(tmp_path)
    press(app, "game:magische-7")
    press(app, "count:2")
    press(app, "name:0")
    assert app.router.screen.name == "keyboard"
    for key in ["key:J", "key:ö", "key:r", "key:g"]:  # the field starts empty: no deleting the default name
        press(app, key)
    press(app, "ok")
    assert app.router.screen.name == "setup"
    press(app, "name:1")
    for key in ["key:J", "key:ö", "key:r", "key:g"]:
        press(app, key)
    press(app, "ok")
    assert "Jörg is already playing." in texts(app)
    press(app, "dealer:0")
    press(app, "start")
    assert app.router.screen.controller.referee.header["players"] == ["Jörg", "Player 2"]
    assert app.router.screen.controller.referee.header["dealer"] == "Jörg"
    assert app.router.screen.controller.state["turn"] == "Player 2"


def type_on(app, text: str) -> None:
    """Type `text` on the on-screen keyboard as a guest would: Shift before a capital the keys do not show."""
    for char in text:
        buttons = app.loop.view.buttons()
        if f"key:{char}" not in buttons:
            press(app, "shift")
        press(app, f"key:{char}")


def test_quick_names_placeholder_digits_umlauts_count_and_held_delete(tmp_path) -> None:
    """Issue #37: the field started with "Spieler 1" and typing appended to it; no digits; "Shift" in German too;
    typing stopped silently at 16 characters; holding Delete took one letter."""
    from kiosk.drawing.view import MUTED
    from kiosk.screens.keyboard import MAX_LEN

    app = make_app(tmp_path, lang="de")
    press(app, "game:magische-7")
    press(app, "name:0")
    view = app.loop.view
    entry = view.tagged("entry")[0]
    assert (app.router.screen.text, entry.text, entry.color) == ("", "Spieler 1", MUTED), \
        "the default name: a placeholder"
    buttons = view.buttons()
    assert {"key:1", "key:0", "key:Ä", "key:Ö", "key:Ü", "key:ß"} <= set(buttons), "digits, umlauts and ß"
    assert (buttons["shift"], buttons["key: "], MAX_LEN) == ("Umschalt", "Leerzeichen", 20), "German words, 20"
    assert view.tagged("count")[0].text == "0 / 20"
    type_on(app, "Bartholomäus Müller-2")  # 21 characters: the 21st is not taken, and the count says why
    assert app.router.screen.text == "Bartholomäus Müller-"
    assert app.loop.view.tagged("count")[0].text == "20 / 20"
    app.router.screen.on_touch("delete", 0.85)  # held 0.85 s: one at the press, then one every 0.1 s after 0.5 s
    assert app.router.screen.text == "Bartholomäus Mü"
    app.router.screen.on_press("delete")  # held on the glass: it goes on while the finger is down
    pressed = app.router.screen._deleting[0]
    # 4: at the press, 0.5, 0.6, 0.7
    assert app.router.screen.on_tick(pressed + 0.75) and app.router.screen.text == "Bartholomäu"
    app.router.screen.on_touch("delete", 0.8)  # let go: what the hold deleted stays deleted, nothing more
    assert app.router.screen.text == "Bartholomä" and app.router.screen.next_wakeup() is None
    press(app, "ok")
    assert app.router.screen.names[0] == "Bartholomä"
    press(app, "name:0")
    assert app.router.screen.text == "Bartholomä", "a typed name is there to be corrected"
    press(app, "cancel")
    press(app, "name:1")
    press(app, "ok")  # OK on the empty field keeps the default name
    assert app.router.screen.names[1] == "Spieler 2"


def test_claimed_seats_survive_a_restart(tmp_path) -> None:
    from hw.inputs import ButtonPress

    app = make_app(tmp_path)
    press(app, "game:magische-7")
    press(app, "count:2")
    app.router.screen.on_input(ButtonPress("north", "confirm", 1))
    app.router.screen.on_input(ButtonPress("south", "confirm", 2))
    press(app, "start")
    assert app.router.screen.controller.seat_players == {"north": "Player 1", "south": "Player 2"}
    app.records.log.close()
    again = make_app(tmp_path)
    assert again.router.screen.controller.seat_players == {"north": "Player 1", "south": "Player 2"}
    scan(again, "M7:7")
    assert again.router.screen.controller.state["lead"]["player"] == "Player 1"
