"""The wording list of issue #26: German plurals, one spelling, English capitals, default names that follow the
language, a history row that keeps name and score apart, numbers in the reader's language, and sentences that
say what they mean ("plays on", "last hand on top", "From another hand")."""

from __future__ import annotations

from pathlib import Path

import pytest

from hub.formats import number
from kiosk.i18n import set_language
from referee import messages
from referee.hints import Hints
from referee.table import Referee
from referee.words import LOCALE_DIR, default_names_in, trn
from tests.kiosk_helpers import make_app, press, scan, start_game, texts


@pytest.fixture(autouse=True)
def _english_after() -> None:
    yield
    set_language("en")


def test_german_plurals_agree_with_their_number(tmp_path) -> None:
    assert trn("Lay {n} card", "Lay {n} cards", 1, "de") == "1 Karte legen"
    assert trn("Lay {n} card", "Lay {n} cards", 2, "de") == "2 Karten legen"
    # (at 1280×720: at 800×480 the table leaves the pile's line out while a verdict shows, for room)
    app = make_app(tmp_path, lang="de", size=(1280, 720))
    start_game(app, "alcasan", 2)
    assert "Ablagestapel: 0 Karten, oben rechts" in texts(app)
    turn = app.router.screen.controller.state["turn"]
    scan(app, "AC:5#1", reader="keyboard")
    assert app.router.screen.controller.state["turn"] != turn, "the card was laid"
    assert "Ablagestapel: 1 Karte, oben rechts" in texts(app)


def test_the_referees_sentences_agree_with_their_number() -> None:
    one = messages.render("hint.annaotto.must", {"player": "Anna", "sign": "PLUS", "penalty": 1}, "de")
    two = messages.render("hint.annaotto.must", {"player": "Anna", "sign": "PLUS", "penalty": 2}, "de")
    assert one == "Anna legt PLUS oder nimmt mit Bestätigen 1 Karte."
    assert two == "Anna legt PLUS oder nimmt mit Bestätigen 2 Karten."
    assert messages.render("hint.annaotto.must", {"player": "Ben", "sign": "PLUS", "penalty": 1}, "en") == \
        "Ben lays PLUS or takes 1 card with confirm."


def test_a_trick_of_one_card_is_one_card(tmp_path) -> None:
    app = make_app(tmp_path, lang="de")
    start_game(app, "alles-klar", 2)
    scan(app, "AK:8.II")
    c = app.router.screen.controller
    extra = c.ui.panel(c.state).extra  # (on screen where the cards leave room)
    assert any(t.startswith("Stapel ") and "Stich 1 Karte ·" in t for t in extra), extra


def test_one_spelling_of_the_discard_pile() -> None:
    for po in Path(LOCALE_DIR).glob("de/LC_MESSAGES/*.po"):
        assert "Ablegestapel" not in po.read_text(encoding="utf-8"), po


def test_english_labels_are_capitalised(tmp_path) -> None:
    app = make_app(tmp_path, lang="en")
    start_game(app, "alles-klar", 2)
    shown = texts(app)
    assert any(t.startswith("Hand ") for t in shown) and not any(t.startswith("hand ") for t in shown), shown
    app = make_app(tmp_path / "setup", lang="en")
    press(app, "game:alles-klar")
    assert "Dealer" in texts(app) and "dealer" not in texts(app)


def test_default_names_follow_the_language_typed_names_stay() -> None:
    assert default_names_in("Spieler 1 ist am Zug, nicht Spieler 12.", "en") == "Player 1 ist am Zug, nicht Player 12."
    assert default_names_in("Player 3: Red · Dots ✓", "de") == "Spieler 3: Red · Dots ✓"
    assert default_names_in("Anna · 2 Spieler · Spieler 2x", "en") == "Anna · 2 Spieler · Spieler 2x"


def test_names_follow_the_language_switched_mid_game(tmp_path) -> None:
    app = make_app(tmp_path, lang="de")
    start_game(app, "magische-7", 2)
    assert any(t.startswith("Spieler 1") for t in texts(app))
    press(app, "lang")
    shown = texts(app)
    assert not any("Spieler" in t for t in shown), shown
    assert any(t.startswith("Player 1") for t in shown)
    assert app.router.screen.controller.state["turn"] == "Spieler 1", "the referee's players are who they were"


def test_a_history_row_keeps_name_and_score_apart(tmp_path) -> None:
    app = make_app(tmp_path, lang="de")
    start_game(app, "magische-7", 2)
    scan(app, "M7:5")
    press(app, "leave")
    app.router.screen.answers[0].run()
    press(app, "games")
    rows = [e.text for e in app.loop.view.elements if e.tag.startswith("game:")]
    assert rows and "Spieler 1: 0 · Spieler 2: 0" in rows[0].replace("\u00a0", " "), rows


def test_numbers_follow_the_language() -> None:
    assert number(5.5, "de") == "5,5" and number(5.5, "en") == "5.5"
    assert number(4, "de", 2, trim=True) == "4" and number(1 / 3, "de", 2, trim=True) == "0,33"


def test_annaotto_says_what_a_move_means(tmp_path) -> None:
    referee = Referee({"format": "tabletop-referee/1", "game": "annaotto", "players": ["Anna", "Ben"]})
    assert referee.apply({"type": "start", "card": "AO:GREEN.WAVES"}).ok
    hints: Hints = referee.hints()
    assert hints.sentence("de") == "Anna legt auf Grün · Wellen (Farbe, Muster oder Zeichen)."
    assert hints.sentence("en") == "Anna plays on Green · Waves (colour, pattern or sign)."
    app = make_app(tmp_path, lang="de")
    start_game(app, "annaotto", 3)
    scan(app, "AO:RED.DOTS")
    assert "Aus fremder Hand" in app.loop.view.buttons().values()


def test_a_profi_sort_verdict_is_one_short_line() -> None:
    from kiosk.games.profi_sort import ProfiSortUI

    set_language("de")
    ui = ProfiSortUI(("Anna", "Ben"), {})
    laid = {"type": "lay_task", "player": "Anna", "task": "three-triples",
            "groups": [["PS:H3", "PS:C3", "PS:S3"], ["PS:H6", "PS:C6", "PS:S6"], ["PS:H4", "PS:C4", "PS:JOKER"]]}
    assert ui.verdict_words(laid) == "Anna: Aufgabe 2"
    assert ui.verdict_words({"type": "reveal_hand", "player": "Ben", "cards": ["PS:H3"]}) == "Ben: 1 Karte gezeigt"
    assert ui.verdict_words({"type": "skip_with_ace", "player": "Ben"}) == "Ben setzt mit einem erhaltenen Ass aus"
