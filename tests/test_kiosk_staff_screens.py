"""Issue #26 on the screens around the table: the menu after the idle pause offers the paused game back, warns of
an unplugged scanner, one hold on "Menu" leaves, the set-up's dealer column has a heading and its options say
their state, and the buttons of one row share one text size. Driven through the kiosk's own touches and views,
and on real kiosk processes through the control socket."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from hw.inputs import ReaderNews
from kiosk.drawing.audit import SizeReport, check_drawn
from kiosk.drawing.render import DrawnText
from kiosk.drawing.view import Limits
from kiosk.screens.admin import AdminScreen
from kiosk.screens.confirm import leave_question
from kiosk.screens.help import HelpScreen
from kiosk.screens.table import TableScreen
from tests.kiosk_helpers import hold, make_app, press, scan, settle, start_game, texts
from tests.kiosk_process import E2E_CONFIG, KioskProcess

SIZES = [(800, 480), (1280, 720), (720, 1280)]


def status_of(app, game_id: int) -> str:
    return next(g.status for g in app.records.log.games() if g.id == game_id)


def area(element) -> int:
    return element.rect[2] * element.rect[3]


@pytest.mark.parametrize("size", SIZES)
def test_after_the_idle_pause_the_menu_offers_the_paused_game_back(tmp_path, size) -> None:
    app = make_app(tmp_path, lang="de", size=size)
    app.settings.idle_pause_s = 600
    start_game(app, "alles-klar", 3)
    game = app.router.screen.controller.game_row
    scan(app, "AK:8.II")
    scan(app, "AK:3.I")
    before = app.router.screen.controller.state
    app.inputs.last_activity = time.monotonic() - 601
    settle(app)
    assert app.router.screen.name == "menu" and status_of(app, game) == "paused"
    assert "Euer Spiel ist pausiert: Alles klar? mit Spieler 1, Spieler 2, Spieler 3." in texts(app)
    resume = app.loop.view.tagged("resume")[0]
    assert resume.text == "Weiterspielen"
    others = [e for e in app.loop.view.elements if e.kind == "button" and e.action != "resume"]
    assert all(area(resume) > area(e) for e in others), "Weiterspielen is the largest button"
    earlier = app.loop.view.tagged("games")[0]
    assert area(earlier) >= area(app.loop.view.tagged("lang")[0]), "Frühere Spiele is not the smallest"
    press(app, "resume")
    assert isinstance(app.router.screen, TableScreen)
    assert app.router.screen.controller.game_row == game and app.router.screen.controller.state == before
    assert status_of(app, game) == "playing"
    scan(app, "AK:5.V")
    assert len(app.router.screen.controller.referee.history) == 3, "the same game goes on, from the log"


def test_the_notice_shows_for_a_game_left_with_a_hold_and_not_for_a_finished_one(tmp_path) -> None:
    """Issue #37: a game left with a held "Menü" was found only under "Frühere Spiele"; the menu now offers it."""
    app = make_app(tmp_path)
    start_game(app)
    game = app.router.screen.controller.game_row
    press(app, "leave")
    hold(app, "yes:0", 2.5)  # left on purpose: the menu offers it to resume
    assert app.router.screen.name == "menu" and app.loop.view.tagged("resume")
    press(app, "resume")
    assert isinstance(app.router.screen, TableScreen) and app.router.screen.controller.game_row == game
    hold(app, "leave", 2.5)  # the one hold on "Menu" itself (S26-8)
    assert app.router.screen.name == "menu" and app.loop.view.tagged("resume")

    from tests.test_kiosk_screens import drive

    ended = make_app(tmp_path / "ended")
    ended.settings.idle_pause_s = 600
    drive(ended, "magische-7", steps=None)
    ended.inputs.last_activity = time.monotonic() - 601
    settle(ended)
    assert ended.router.screen.name == "menu" and not ended.loop.view.tagged("resume"), "a finished game: no offer"


def test_the_menu_warns_while_a_scanner_or_the_camera_is_unplugged(tmp_path) -> None:
    from hw.camera.zones import READER as CAMERA

    app = make_app(tmp_path, lang="de")
    app.host.reader_seats = {"/dev/ttyACM1": "north"}
    texts(app)
    assert not app.loop.view.tagged("warning")
    app.inbox.post(ReaderNews("/dev/ttyACM1", "disconnected", "unplugged", 0))
    settle(app)
    assert "Scanner north: getrennt – Kabel prüfen" in texts(app)
    app.inbox.post(ReaderNews(CAMERA, "disconnected", "no pictures", 0))
    settle(app)
    assert "Scanner north: getrennt – Kabel prüfen · Kamera: keine Bilder – Kabel prüfen" in texts(app)
    games = [e for e in app.loop.view.elements if e.tag.startswith("game:")]
    warning = app.loop.view.tagged("warning")[0]
    assert all(e.rect[1] >= warning.rect[1] + warning.rect[3] for e in games), "the strip pushes the games down"
    for reader in ("/dev/ttyACM1", CAMERA):
        app.inbox.post(ReaderNews(reader, "reconnected", "", 0))
    settle(app)
    assert not app.loop.view.tagged("warning")


def test_one_hold_on_menu_leaves_the_game(tmp_path) -> None:
    app = make_app(tmp_path)
    start_game(app)
    game = app.router.screen.controller.game_row
    hold(app, "leave", 1.0)
    assert app.router.screen.name == "confirm", "a short touch asks"
    press(app, "no")
    hold(app, "leave", 2.0)
    assert app.router.screen.name == "menu", "holding Menu as long as the question would ask is the answer"
    assert status_of(app, game) == "paused"


@pytest.mark.parametrize("size", SIZES)
def test_the_set_up_heads_the_dealer_column_and_options_say_their_state(tmp_path, size) -> None:
    app = make_app(tmp_path, size=size)
    press(app, "game:profi-sort")
    assert [e.text for e in app.loop.view.tagged("heading:dealer")] == ["Dealer"]
    marks = [e.text for e in app.loop.view.elements if e.action and e.action.startswith("dealer:")]
    assert marks == ["○", "✓"], "the last player deals; no bare “-”"
    options = {e.action: e.text for e in app.loop.view.elements if e.action and e.action.startswith("opt:")}
    assert options == {"opt:first_to": "Length: full match", "opt:discard_draw": "Take the discard: no",
                       "opt:jokers": "Jokers: 8", "opt:bonus": "Bonus points: on"}
    press(app, "opt:bonus")
    press(app, "opt:discard_draw")
    assert "Bonus points: off" in texts(app) and "Take the discard: yes" in texts(app)
    assert app.router.screen.options() == {"bonus": False, "discard_draw": True}


def drawn(app) -> list:
    app.display.renderer.record = []
    app.loop.draw()
    record, app.display.renderer.record = app.display.renderer.record, None
    return record


def sizes_of(record: list, tags: set[str] | None = None, actions: str = "") -> set[int]:
    texts_ = [d for d in record if isinstance(d, DrawnText)]
    return {d.cap_px for d in texts_ if (tags and d.tag in tags) or (actions and d.tag.startswith(actions))}


@pytest.mark.parametrize("size", SIZES)
def test_buttons_of_one_row_share_one_text_size(tmp_path, size) -> None:
    app = make_app(tmp_path, lang="de", size=size)
    record = drawn(app)
    assert len(sizes_of(record, actions="game:")) == 1, "the menu's games"
    assert len(sizes_of(record, {"games", "lang"})) == 1, "Frühere Spiele and English"
    admin = AdminScreen(app.host, app.router.screen)
    admin.mode = "menu"
    app.router.show(admin)
    assert len(sizes_of(drawn(app), actions="admin:")) == 1, "the admin grid"
    app.router.go_menu()
    start_game(app, "annaotto", 3)
    question = leave_question(app.host, app.router.screen, app.router.screen.controller)
    app.router.show(question)
    assert len(sizes_of(drawn(app), {"yes:0", "yes:1", "no"})) == 1, "the leave dialog's answers"
    app.router.show(HelpScreen(app.host, question.back, "alcasan"))
    assert len(sizes_of(drawn(app), {"help"})) == 1, "a help page's paragraphs"


def test_the_audit_fails_a_row_of_uneven_sizes() -> None:
    limits = Limits.for_size(800, 480)
    report = SizeReport("800x480")

    def text(cap: int, tag: str) -> DrawnText:
        return DrawnText("Ja", "Ja", (0, 0, 10, 10), cap, (255, 255, 255), (0, 0, 0), "", tag, False, "row")

    check_drawn("even", [text(18, "a"), text(18, "b")], limits, report)
    assert not report.failures
    check_drawn("uneven", [text(18, "a"), text(22, "b")], limits, report)
    assert [f.what for f in report.failures] == ["uneven"]


def _idle_config(tmp_path: Path, seconds: float) -> Path:
    config = tmp_path / "table.toml"
    text = E2E_CONFIG.read_text(encoding="utf-8")  # its [kiosk] table holds the tests' PIN: one more key in it
    config.write_text(text.replace("[kiosk]\n", f"[kiosk]\nidle_pause_s = {seconds}\n", 1), encoding="utf-8")
    return config


def test_a_running_kiosk_pauses_a_left_game_and_resumes_it_from_the_menu(tmp_path) -> None:
    kiosk = KioskProcess(tmp_path / "data", extra=["--config", str(_idle_config(tmp_path, 3))])
    try:
        kiosk.game_with_one_card()
        menu = kiosk.wait(lambda s: s["screen"] == "menu" and s.get("paused"), timeout=30)
        assert any(t.startswith("Your game is paused: Die magische 7 with ") for t in kiosk.cmd("view")["texts"])
        kiosk.touch("resume")
        table = kiosk.wait(lambda s: s["screen"] == "table")
        assert table["events"] == 1 and menu["paused"] == 1, "the same game, from the log"
        kiosk.wait(lambda s: s["screen"] == "menu" and s.get("paused") == 1, timeout=30)  # left alone again
        kiosk.cmd("unplug", reader="Ben")
        state = kiosk.wait(lambda s: s.get("warning"))
        assert state["warning"] == "Scanner Ben: unplugged – check the cable" and state["paused"] == 1
        kiosk.cmd("replug", reader="Ben")
        kiosk.wait(lambda s: s.get("warning") == "")
    finally:
        kiosk.close()


def test_a_word_cut_to_fit_its_box_counts_as_cut() -> None:
    """"Zurü…" on a narrow Back button is cut even though it took one line: the audit must see it."""
    import pygame

    from kiosk.drawing.render import ELLIPSIS, Renderer

    pygame.init()
    renderer = Renderer(pygame.Surface((720, 1280)))
    floor = renderer.px_for_cap(25)
    lines, _px, cut = renderer._fit("Zurück", renderer.font(floor).size("Zurü")[0], 200, floor, floor, 0)
    assert lines[0].endswith(ELLIPSIS) and cut
    lines, _px, cut = renderer._fit("Zurück", renderer.font(floor).size("Zurück")[0] + 2, 200, floor, floor, 0)
    assert lines == ["Zurück"] and not cut
