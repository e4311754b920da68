"""The table screen read from the chairs: scanner banner, verdicts that fade and say what to do, the race result
full-screen with times from the first slap, late slaps ignored quietly, and the picture turned for rotated displays."""

from __future__ import annotations

import time

import pygame

from hw.inputs import ButtonPress, CardScan, ReaderNews
from kiosk.screens import table as table_screen
from referee.messages import split_rules
from tests.kiosk_helpers import make_app, press, settle, texts
from tests.kiosk_process import KioskProcess
from tests.test_kiosk_e2e import start_game


def scan(app, code: str, reader: str = "keyboard") -> None:
    app.inbox.post(CardScan(code, reader, time.monotonic_ns()))
    settle(app)


def test_scanner_banner_names_the_seat_until_it_is_back(tmp_path) -> None:
    app = make_app(tmp_path)
    app.host.reader_seats = {"/dev/ttyACM1": "east"}
    press(app, "game:alles-klar")
    press(app, "count:2")
    app.inbox.post(ButtonPress("north", "confirm", 1))
    app.inbox.post(ButtonPress("east", "confirm", 2))
    settle(app)
    press(app, "start")
    assert not app.loop.view.tagged("banner")
    app.inbox.post(ReaderNews("/dev/ttyACM1", "disconnected", "unplugged", 0))
    settle(app)
    banner = app.loop.view.tagged("banner")
    assert [e.text for e in banner] == ["Scanner of Player 2 unplugged – check the cable."]
    scan(app, "AK:8.II")  # the table goes on meanwhile; the banner stays
    assert app.loop.view.tagged("banner") and app.loop.view.tagged("verdict:ok")
    app.inbox.post(ReaderNews("/dev/ttyACM1", "reconnected", "", 0))
    settle(app)
    assert not app.loop.view.tagged("banner")


def test_unplugging_a_simulated_scanner_shows_the_banner(tmp_path) -> None:
    kiosk = KioskProcess(tmp_path)
    try:
        players = start_game(kiosk, "alles-klar", 2)
        kiosk.cmd("unplug", reader="Ben")
        kiosk.wait(lambda s: s.get("scanners_down"))
        assert f"Scanner of {players[1]} unplugged – check the cable." in kiosk.cmd("view")["texts"]
        kiosk.cmd("replug", reader="Ben")
        kiosk.wait(lambda s: s.get("scanners_down") == [])
        assert not any("disconnected" in t for t in kiosk.cmd("view")["texts"])
    finally:
        kiosk.close()


def test_verdicts_name_card_and_player_say_what_to_do_and_fade(tmp_path) -> None:
    app = make_app(tmp_path)
    press(app, "game:alles-klar")
    press(app, "count:2")
    press(app, "start")
    scan(app, "AK:8.II")
    assert [e.text for e in app.loop.view.tagged("feedback")] == ["Player 1"], "one ✓: the drawn one (#37)"
    assert [(e.text, e.face.value) for e in app.loop.view.tagged("verdict-card")] == [("8 · II", "8")]
    assert app.loop.view.tagged("verdict-icon:ok")
    scan(app, "AK:8.II")  # a double scan
    view = app.loop.view
    assert [e.text for e in view.tagged("feedback-todo")] == ["Take the card back"], "whose turn: the headline says"
    assert view.tagged("verdict-icon:no") and view.tagged("verdict:no")[0].fill is not None, "a filled panel"
    assert not view.tagged("feedback-rule") and not view.contains("card-exhausted"), "guest words only (#26)"
    row = app.router.screen.controller.game_row
    assert app.records.log.attempts(row)[-1].error == "card-exhausted", "the log keeps the id"
    deadline = app.router.screen.next_wakeup()
    feedback = app.router.screen.controller.feedback
    assert deadline is not None and abs(deadline - (feedback.at + table_screen.VERDICT_S)) < 0.01, \
        "the kiosk wakes up to fade the verdict"
    feedback.at -= table_screen.VERDICT_S + 1  # as if the seconds had passed
    assert app.router.screen.on_tick(deadline), "the screen redraws when the verdict runs out"
    app.loop.draw()
    assert not app.loop.view.tagged("verdict") and "Scan a card." in texts(app)


def test_rule_ids_are_split_from_the_plain_sentence() -> None:
    assert split_rules("Blau matches Rot neither in colour (AO-R5).") == ("Blau matches Rot neither in colour.",
                                                                         ("AO-R5",))
    assert split_rules("4 or lower (AC-R8, AC-R9)") == ("4 or lower", ("AC-R8", "AC-R9"))
    assert split_rules("the run has a gap (§4, §5).") == ("the run has a gap.", ("§4", "§5"))
    assert split_rules("No id here.") == ("No id here.", ())


def _race(app) -> list[str]:
    press(app, "game:annaotto")
    press(app, "count:3")
    press(app, "start")
    players = list(app.router.screen.controller.referee.players)
    app.router.screen.controller.seat_players = {p: p for p in players}
    scan(app, "AO:RED.DOTS")
    scan(app, "AO:RED.DOTS.ALLE")
    press(app, f"act:call:{players[0]}:ALLE")
    return players


def test_race_result_fills_the_screen_with_times_from_the_first_slap(tmp_path) -> None:
    app = make_app(tmp_path)
    players = _race(app)
    assert app.loop.view.tagged("big")[0].text == "ALLE! Everyone slap!"
    assert app.loop.view.tagged("race-countdown")[0].text == "3 s left", "a countdown every seat sees"
    assert app.loop.view.tagged("race-countdown")[0].role == "key"
    assert 0 < app.router.screen.next_wakeup() - time.monotonic() <= 1.0, "drawn again when its number changes"
    base = 7_000_000_000
    app.inbox.post(ButtonPress(players[1], "slap", base + 278_336_000))
    app.inbox.post(ButtonPress(players[0], "slap", base))
    settle(app)
    assert app.loop.view.tagged("race-slaps")[0].text == f"{players[0]} first   {players[1]} +278 ms"
    app.inbox.post(ButtonPress(players[2], "slap", base + 1_034_499_000))
    settle(app)
    view = app.loop.view
    assert [e.text for e in view.tagged("race-loser")] == [players[2]]
    assert view.tagged("race-loser")[0].role == "key"
    assert [e.text for e in view.tagged("race-penalty")] == ["+2 cards"]
    assert [e.text for e in view.tagged("race-slap")] == [
        f"{players[0]}   first", f"{players[1]}   +278 ms", f"{players[2]}   +1034 ms"]
    loser = view.tagged(f"race-slap:{players[2]}")[0]
    assert loser.fill != view.tagged(f"race-slap:{players[0]}")[0].fill, "the loser in its own colour"
    until = app.router.screen.next_wakeup()
    assert until is not None and 3.0 <= until - time.monotonic() <= 4.0, "shown 3.5 s"
    # A slap after the race closed: ignored, with a quiet note and no red rejection.
    app.inbox.post(ButtonPress(players[1], "slap", base + 2_000_000_000))
    settle(app)
    assert app.router.screen.controller.feedback.ok and app.router.screen.controller.feedback.quiet
    app.router.screen._race_until = time.monotonic() - 0.001  # as if the 2.5 s had passed
    assert app.router.screen.on_tick(until), "the screen redraws when the result's time is up"
    app.loop.draw()
    assert not app.loop.view.tagged("race-loser")
    assert app.loop.view.contains("slap came after the race closed: ignored")
    assert not app.loop.view.tagged("verdict"), "a quiet note: neither an accepted nor a rejected panel"


def test_every_loser_of_a_six_player_race_is_named_in_full(tmp_path) -> None:
    """Issue #37: "Spieler 1, Spieler 2, Spiele…" — the one line that matters was cut; now every loser's name is
    whole at every size and in both languages, whatever the timeout leaves."""
    from kiosk.audit_fixtures.race import timeout
    from kiosk.audit_fixtures.table import LONG_NAMES

    for size in ((800, 480), (1280, 720), (720, 1280)):
        for lang in ("de", "en"):
            app = make_app(tmp_path / f"{size[0]}-{lang}", lang=lang, size=size)
            timeout(app.host)
            app.loop.draw()
            losers = app.loop.view.tagged("race-loser")[0].text
            assert losers == ", ".join(name for name in LONG_NAMES if name != LONG_NAMES[3])
            assert app.display.renderer.cuts.count == 0, app.display.renderer.cuts.last


def test_rotated_display_draws_turned_and_maps_touch_back(tmp_path) -> None:
    app = make_app(tmp_path, size=(480, 800), rotate=90)  # a portrait panel mounted as landscape
    assert app.display.window.get_size() == (480, 800) and app.display.surface.get_size() == (800, 480)
    app.loop.draw()
    x, y, w, h = app.loop.view.tagged("game:alles-klar")[0].rect
    cx, cy = x + w // 2, y + h // 2
    display_point = (480 - 1 - cy, cx)  # 90° clockwise: the upright (x, y) lands at (H-1-y, x)
    assert app.display.to_logical(*display_point) == (cx, cy)
    assert app.display.window.get_at(display_point) == app.display.surface.get_at((cx, cy)), "the picture is turned"
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=display_point, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=display_point, button=1))
    settle(app)
    assert app.router.screen.name == "setup", "the touch reached the button under the finger"
    for rotate in (180, 270):
        other = make_app(tmp_path / str(rotate), size=(800, 480), rotate=rotate)
        other.loop.draw()
        w_, h_ = other.display.surface.get_size()
        point = (w_ - 1 - 10, h_ - 1 - 20) if rotate == 180 else (20, w_ - 1 - 10)  # where upright (10, 20) lands
        assert other.display.to_logical(*point) == (10, 20)
        assert other.display.window.get_at(point) == other.display.surface.get_at((10, 20))


def test_portrait_layout_draws_every_part(tmp_path) -> None:
    app = make_app(tmp_path, size=(720, 1280))
    press(app, "game:annaotto")
    press(app, "count:4")
    press(app, "start")
    scan(app, "AO:RED.DOTS")
    scan(app, "AO:RED.STRIPES")
    view = app.loop.view
    for tag in ("turn", "seat", "feedback", "action", "hint", "card"):
        assert view.tagged(tag), tag
    for element in view.elements:
        x, y, w, h = element.rect
        assert x >= 0 and x + w <= 720 and y >= 0 and y + h <= 1280, element


def test_rotate_volume_and_mute_come_from_the_config(tmp_path) -> None:
    import pytest

    from kiosk.__main__ import build_parser
    from kiosk.settings import settings
    from referee.config_lines import ConfigError
    from tests.kiosk_process import E2E_CONFIG

    def with_kiosk(lines: str):
        path = tmp_path / "table.toml"
        text = E2E_CONFIG.read_text(encoding="utf-8")  # its [kiosk] table holds the tests' PIN: more keys in it
        path.write_text(text.replace("[kiosk]\n", "[kiosk]\n" + lines + "\n", 1), encoding="utf-8")
        return settings.load(path)

    s = with_kiosk("rotate = 270\nvolume = 30\nmute = true\n")
    assert (s.rotate, s.volume, s.mute) == (270, 30, True)
    assert with_kiosk("").rotate == 0
    with pytest.raises(ConfigError, match="rotate"):
        with_kiosk("rotate = 45\n")
    with pytest.raises(ConfigError, match="volume"):
        with_kiosk("volume = 101\n")
    assert build_parser().parse_args(["--rotate", "90"]).rotate == 90


def test_english_names_colours_patterns_and_signs_in_english(tmp_path) -> None:
    app = make_app(tmp_path, lang="de")
    press(app, "game:annaotto")
    press(app, "count:3")
    press(app, "start")
    scan(app, "AO:RED.DOTS")
    scan(app, "AO:RED.STRIPES")
    assert [e.text for e in app.loop.view.tagged("verdict-card")] == ["Rot · Streifen"]
    press(app, "lang")  # the verdict given in German reads in English after the switch
    view = app.loop.view
    assert [e.text for e in view.tagged("feedback")] == ["Player 1"]  # default names follow
    assert [e.text for e in view.tagged("verdict-card")] == ["Red · Stripes"]
    assert [e.text for e in view.tagged("card")] == ["Red · Dots", "Red · Stripes"]
    assert [e.face.small for e in view.tagged("card")] == ["Red", "Red"], "the picture's words in English too"
    said = app.router.screen.controller.ui.hints.sentence("en")  # on screen where the cards leave it room
    assert said == "Spieler 2 plays on Red · Stripes (colour, pattern or sign).", said  # (the log's German names)
    scan(app, "AO:RED.DOTS.HUERDEN")
    assert [e.text for e in app.loop.view.tagged("verdict-card")] == ["Red · Dots · HURDLES"]


def test_the_score_column_keeps_its_width_from_nine_to_ten(tmp_path) -> None:
    """Issue #37: the seats' column changed width between moves (a score going from 9 to 10)."""
    from kiosk.drawing.view import Grid, View
    from kiosk.screens.table.seats import seat_width

    app = make_app(tmp_path)
    press(app, "game:magische-7")
    press(app, "count:2")
    press(app, "start")
    ui, state = app.router.screen.controller.ui, dict(app.router.screen.controller.state)
    v, g = View(800, 480), Grid(800, 480)
    widths = {seat_width(v, g, ui, {**state, "scores": {p: score for p in ui.players}}, 12) for score in (0, 9, 10, 23)}
    assert len(widths) == 1, widths


def test_the_demo_plays_with_the_seats_default_names(tmp_path) -> None:
    """Issue #37: the demo's players were the simulator's (Cem on the seat the config calls Cleo)."""
    from kiosk.screens.demo import DemoScreen

    app = make_app(tmp_path, lang="de")
    demo = DemoScreen(app, seed=5)
    players = list(demo.controller.referee.players)
    assert players == [f"Spieler {i}" for i in range(1, len(players) + 1)], players
