"""The table screen's layout (issue #26): every text whole at every size and in both languages, the seat number
saying what it counts in every game, the last trick in its own place, and the scanner strip, the café strip
and the glitch notice pushing the table aside instead of covering its buttons."""

from __future__ import annotations

import time

import pytest

import kiosk.games
from hw.camera.zones import READER as CAMERA
from kiosk import i18n
from kiosk.audit_fixtures.table import LONG_NAMES, longest_rejection, played, show
from kiosk.drawing import audit
from kiosk.drawing.render import DrawnText
from referee import games
from tests.kiosk_helpers import make_app

SIZES = ((800, 480), (1280, 720), (720, 1280))
# (the simulator's Profi-Sort is a beginner game: its number counts the tasks done, as its results do; issue #37)
UNITS = {"alles-klar": ("card won", "cards won"), "magische-7": ("point", "points"),
         "profi-sort": ("task done", "tasks done"), "annaotto": ("card", "cards"),
         "alcasan": ("card left", "cards left")}


def drawn(app) -> list[DrawnText]:
    """What the renderer drew for the screen now, as drawn (sizes after fitting, cut or not)."""
    app.display.renderer.record = []
    app.loop.draw()
    record, app.display.renderer.record = app.display.renderer.record, None
    return [d for d in record if isinstance(d, DrawnText)]


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("size", SIZES)
def test_the_seat_number_says_what_it_counts_in_every_game(tmp_path, size) -> None:
    app = make_app(tmp_path, size=size)
    assert set(UNITS) == set(kiosk.games.ids())
    for game_id, (one, many) in UNITS.items():
        most = max(games.get(game_id).player_counts)
        show(app.host, played(game_id, 12, count=most, seed=5, pool=LONG_NAMES))
        texts = drawn(app)
        view = app.loop.view
        units = {e.tag.partition(":")[2]: e.text for e in view.tagged("seat-unit")}
        scores = {e.tag.partition(":")[2]: e.text for e in view.tagged("seat-score")}
        assert units, game_id
        for seat, unit in units.items():  # beside each number, in its form; once above low tiles, the plural
            assert unit == (one if scores.get(seat) == "1" else many), (game_id, seat, scores.get(seat), unit)
        assert len(view.tagged("seat-score")) == most and len(view.tagged("seat-name")) == most
        assert not [t.source for t in texts if t.cut], game_id  # 12-character names and numbers whole


def test_the_units_follow_the_language(tmp_path) -> None:
    app = make_app(tmp_path, lang="de")
    show(app.host, played("annaotto", 4))
    app.loop.draw()
    assert "Karten" in {e.text for e in app.loop.view.tagged("seat-unit")} <= {"Karte", "Karten"}
    show(app.host, played("alcasan", 4))
    app.loop.draw()
    assert "Karten übrig" in {e.text for e in app.loop.view.tagged("seat-unit")} <= {"Karte übrig", "Karten übrig"}
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_seat_unit_agrees_with_its_number(lang: str) -> None:
    """"1 Karte", "2 Karten", "0 Punkte": the seat tiles and the results say what a number counts in that
    number's form (a German guest read "1 Karten" and "1 Punkte"); said once over several numbers, the plural."""
    german = {"alles-klar": ("gewonnene Karte", "gewonnene Karten"), "magische-7": ("Punkt", "Punkte"),
              "profi-sort": ("Minuspunkt", "Minuspunkte"), "annaotto": ("Karte", "Karten"),
              "alcasan": ("Karte übrig", "Karten übrig")}
    english = dict(UNITS, **{"profi-sort": ("penalty point", "penalty points")})  # not the beginner game here
    i18n.set_language(lang)
    try:
        for game_id, (one, many) in (german if lang == "de" else english).items():
            ui = kiosk.games.get(game_id)(tuple(f"P{i}" for i in range(2)), {})
            assert (ui.unit(1), ui.unit(2), ui.unit(0), ui.unit()) == (one, many, many, many), game_id
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("game_id", ["alles-klar", "magische-7"])
def test_the_last_trick_has_a_place_of_its_own(tmp_path, game_id) -> None:
    for size in SIZES:
        app = make_app(tmp_path / f"{size[0]}", size=size)
        most = max(games.get(game_id).player_counts)
        steps = 9
        while not (c := played(game_id, steps, count=most, seed=5, pool=LONG_NAMES)).state.get("last_trick"):
            steps += 3
        show(app.host, c)
        texts = drawn(app)
        winner = c.state["last_trick"].get("winner")
        trick = [t for t in texts if t.tag == "trick"]
        assert len(trick) == 1 and not trick[0].cut, (size, trick)
        assert winner is None or winner in trick[0].source
        assert not any("Last trick" in e.text for e in app.loop.view.tagged("extra"))


@pytest.mark.parametrize("size", SIZES)
def test_the_scanner_strip_pushes_the_table_down_and_covers_no_button(tmp_path, size) -> None:
    app = make_app(tmp_path, size=size)
    show(app.host, played("annaotto", 9, pool=LONG_NAMES))
    app.loop.draw()
    turn_before = app.loop.view.tagged("turn")[0].rect
    buttons_before = app.loop.view.buttons()
    app.host.scanners_down["/dev/ttyACM1"] = LONG_NAMES[2]
    app.host.scanners_down[CAMERA] = None
    texts = drawn(app)
    view = app.loop.view
    strip = view.tagged("banner-strip")[0].rect
    assert "Marie-Louise" in view.tagged("banner")[0].text and "Camera" in view.tagged("banner")[0].text
    assert view.tagged("turn")[0].rect[1] >= strip[1] + strip[3] > turn_before[1], "the table moved down"
    assert set(view.buttons()) >= {"help", "history", "leave", "lang"} and view.buttons() == buttons_before
    for element in view.elements:
        if element.kind == "button":
            assert not overlaps(element.rect, strip), element
    assert not [t.source for t in texts if t.cut]


@pytest.mark.parametrize("size", SIZES)
def test_the_glitch_notice_pushes_the_screen_down_and_covers_no_button(tmp_path, size) -> None:
    app = make_app(tmp_path, size=size)
    show(app.host, played("alles-klar", 6))
    app.loop.guard.notice_until = time.monotonic() + 60  # as after a caught error
    texts = drawn(app)
    view = app.loop.view
    band = view.tagged("notice")[0].rect
    assert [t for t in texts if t.tag == "notice" and not t.cut]
    for element in view.elements:
        if element.kind == "button":
            assert not overlaps(element.rect, band), element
            assert element.rect[1] + element.rect[3] <= size[1], element
    x, y, w, h = view.tagged("help")[0].rect
    app.inputs.touch(x + w // 2, y + h // 2)  # touch lands on the moved button
    assert app.router.screen.name == "help"


def test_every_game_has_a_longest_rejection_scene_in_both_languages() -> None:
    names = set(audit.scenes())
    for game_id in kiosk.games.ids():
        assert {f"table:{game_id}:longest-rejection", f"table:{game_id}:long-names"} <= names
        for lang in ("de", "en"):
            assert longest_rejection(game_id, lang).message(lang)
    assert "table:every-banner" in names and "table:english" not in names


def test_the_table_scenes_keep_the_limits() -> None:
    """The table's share of `referee-kiosk audit` (tests/test_audit.py runs every screen)."""
    for prefix in ("table:", "verdict:", "demo"):
        for report in audit.audit(only=prefix):
            assert report.scenes and not report.failures, (report.size, report.failures[:10])
