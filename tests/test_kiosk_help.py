"""Help is one touch away on the set-up and table screens of every game, in German and English, a few pages."""

from __future__ import annotations

import pytest

from kiosk import games
from kiosk.games import help_texts
from kiosk.i18n import set_language, tr
from kiosk.screens.table import TableScreen
from tests.kiosk_helpers import make_app, press, scan, start_game, texts

GAMES = games.ids()


def test_every_game_has_a_few_pages_of_help() -> None:
    for game_id in GAMES:
        pages = help_texts.pages(game_id)
        assert 2 <= len(pages) <= 4, game_id
        for page in pages:
            assert 1 <= len(page.paragraphs) <= 4
            assert all(len(p) <= 220 for p in page.paragraphs), "short paragraphs, readable from a chair"


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game_id", GAMES)
def test_help_in_one_touch_from_set_up_and_table(tmp_path, game_id, lang) -> None:
    app = make_app(tmp_path, lang=lang)
    press(app, f"game:{game_id}")
    press(app, "help")
    assert app.router.screen.name == "help" and app.router.screen.model()["game"] == game_id
    seen, shown = [], []
    while True:  # every screen of help, as many as the pages take at this size (a long page is split, never cut)
        shown += texts(app)
        seen.append(app.router.screen.model()["page"])
        if not app.loop.view.tagged("next"):
            break
        press(app, "next")
    paragraphs = [tr(p) for page in help_texts.pages(game_id) for p in page.paragraphs]
    assert [t for t in shown if t in paragraphs] == paragraphs, "every paragraph once, in order"
    if lang == "de":
        assert all(tr(p) != p for page in help_texts.pages(game_id) for p in page.paragraphs), "German for all"
    assert seen == list(range(1, app.router.screen.model()["pages"] + 1))
    assert len(seen) >= len(help_texts.pages(game_id))
    press(app, "back")
    assert app.router.screen.name == "setup"
    press(app, "start")
    assert isinstance(app.router.screen, TableScreen)
    press(app, "help")
    assert app.router.screen.name == "help" and app.router.screen.model()["page"] == 1
    press(app, "back")
    assert isinstance(app.router.screen, TableScreen)


def test_a_scan_on_the_help_screen_goes_to_the_game(tmp_path) -> None:
    app = make_app(tmp_path)
    start_game(app)
    press(app, "help")
    scan(app, "AK:8.II")
    assert isinstance(app.router.screen, TableScreen) and len(app.router.screen.controller.referee.history) == 1


def test_the_first_scan_of_a_new_game_gets_a_coach_line(tmp_path) -> None:
    app = make_app(tmp_path, lang="de")
    start_game(app)
    assert "Leg eine Karte auf den Tisch und scanne sie." in texts(app)
    scan(app, "AK:8.II")
    assert "Leg eine Karte auf den Tisch und scanne sie." not in texts(app)
    set_language("en")
