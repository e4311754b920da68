"""Cards drawn as cards (issue #37): every face of every game's deck has a drawing declared by its definition, made
only of signs, patterns and colours the kiosk draws; drawn at each screen size its value reads from the chairs (the
key role's 6 mm capitals), nothing on it is cut and its words keep the contrast; each face is what its rules say
(Alles klar?'s numerals, the 7's pair to 7, Profi-Sort's red and black suits, alcasan's elements, ANNAOTTO's colour,
pattern and sign). The table, the verdict, the race and the history draw them; a game without a drawing (the
test suite's toy game) shows its cards in words."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator

import pygame
import pytest

from kiosk.drawing import cards
from kiosk.drawing.audit import SIZES
from kiosk.drawing.render import contrast
from kiosk.drawing.symbols import PATTERNS, SYMBOLS
from kiosk.drawing.view import Limits, ui_scale
from referee import sim
from referee.cards import Deck
from referee.event_words import card_face
from referee.registry import DEFINITIONS
from referee.table import Referee
from referee.words import tr
from tests.kiosk_helpers import make_app, scan, start_game

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
GAMES = ["alles-klar", "alcasan", "profi-sort", "magische-7", "annaotto"]


def faces(game_id: str) -> list[str]:
    """Every face of the game's deck as the simulator's table plays it."""
    header = sim.get(game_id)(random.Random(1), sim.names(sim.get(game_id).default_players)).header
    deck = Referee(header).deck
    assert isinstance(deck, Deck)
    return sorted(deck.copies)


@pytest.fixture(scope="module", autouse=True)
def display() -> Iterator[None]:
    pygame.init()
    yield


@pytest.mark.parametrize("game_id", GAMES)
def test_every_face_has_a_drawing_of_shapes_the_kiosk_draws(game_id: str) -> None:
    assert DEFINITIONS[game_id].card_face is not None, "a game declares how its faces are drawn"
    for code in faces(game_id):
        for lang in ("de", "en"):
            face = card_face(code, lang)
            assert face is not None, code
            assert face.value or face.symbol or face.fill, f"{code}: a face shows something"
            assert not face.symbol or face.symbol in SYMBOLS, (code, face.symbol)
            assert not face.pattern or face.pattern in PATTERNS, (code, face.pattern)
            assert face.ink in cards.INKS and (not face.fill or face.fill in cards.FILLS), (code, face)
            assert ":" not in face.value + face.small, f"{code}: no code on a card"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game_id", GAMES)
def test_every_face_reads_from_the_chairs_at_every_size(game_id: str, size: tuple[int, int]) -> None:
    limits = Limits.for_size(*size)
    m = cards.Metrics.of(limits, ui_scale(*size))
    for code in faces(game_id):
        for lang in ("de", "en"):
            face = card_face(code, lang)
            for words in (True, False):
                picture, texts = cards.pictures.get(face, cards.card_size(face, m, words), m)
                for text in texts:
                    assert not text.cut, (code, lang, text)
                    assert contrast(text.fg, text.bg) >= limits.contrast, (code, text)
                    if text.role == "key":
                        assert text.cap_px >= limits.key_cap - 0.5, (code, text.cap_px, limits.key_cap)
                    else:
                        assert text.cap_px >= limits.cap - 0.5, (code, text)
                assert picture.get_size() == cards.card_size(face, m, words)


def test_pictures_are_drawn_once_per_face_and_size() -> None:
    m = cards.metrics(800, 480)
    face = card_face("M7:13", "de")
    size = cards.card_size(face, m)
    assert cards.pictures.get(face, size, m)[0] is cards.pictures.get(face, size, m)[0]


def test_each_face_is_what_its_rules_say() -> None:
    say = {lang: (lambda word, lang=lang: tr(word, lang)) for lang in ("de", "en")}
    assert card_face("AK:8.II", "de").value == "8" and card_face("AK:5.I.V", "de").small == "I · V"
    seven = card_face("M7:13", "de")
    assert seven.value == "+13" and seven.small == "Paar \u22126", "the signed value and the value it makes 7 with"
    assert card_face("M7:-6", "en").value == "\u22126" and card_face("M7:-6", "en").ink == "red"
    assert card_face("M7:JOKER", "de").symbol == "joker" and card_face("M7:JOKER", "de").small == "Joker"
    hearts, spades = card_face("PS:HQ", "de"), card_face("PS:SQ", "en")
    assert (hearts.value, hearts.symbol, hearts.ink) == ("D", "hearts", "red"), "German Dame: D"
    assert (spades.value, spades.symbol, spades.ink) == ("Q", "spades", "black")
    water = card_face("AC:WASSER", "de")
    assert (water.symbol, water.ink, water.small) == ("water", "blue", "Wasser")
    assert card_face("AC:7", "de").value == "7"
    plain, plus = card_face("AO:RED.DOTS", "de"), card_face("AO:BLUE.DOTS.PLUS", "en")
    assert (plain.fill, plain.pattern, plain.small, plain.value) == ("red", "dots", "Rot", "")
    assert (plus.fill, plus.value) == ("blue", "PLUS") and card_face("AO:GREEN.WAVES.HUERDEN", "en").symbol == "hurdles"
    assert card_face("AO:ANNAOTTO", "de").symbol == "wild"
    assert card_face("AK:12.I", "de") is None and card_face("XX:1", "de") is None, "no card: no picture"
    assert DEFINITIONS["magische-7"].card_face("13", say["en"]).small == "pair \u22126"


def test_the_table_the_verdict_and_the_history_draw_the_cards(tmp_path) -> None:
    app = make_app(tmp_path, lang="de")
    start_game(app, "magische-7", 2)
    scan(app, "M7:13")
    app.loop.draw()
    view = app.loop.view
    assert [e.face.value for e in view.tagged("card")] == ["+13"], "the lead card, drawn"
    assert [e.face.value for e in view.tagged("verdict-card")] == ["+13"], "the verdict's card"
    assert not any(e.text.endswith("✓") for e in view.elements), "one ✓: the drawn one"
    scan(app, "AK:8.II")  # a card of another game: named by its game, drawn as it is
    app.loop.draw()
    view = app.loop.view
    assert "Diese Karte gehört zu Alles klar?." in view.texts()
    assert [e.face.value for e in view.tagged("verdict-card")] == ["8"]
    from tests.kiosk_helpers import press

    press(app, "history")
    history = app.loop.view
    assert [e.face.value for e in history.tagged("line-card")] == ["+13"], "the accepted card in its row"
    rejected = [e.text for e in history.tagged("line:rejected")]
    assert rejected and "scannt eine Karte" in rejected[0], rejected
    move = re.sub(r"^✗ \d+\. \d\d:\d\d\s+", "", rejected[0].split(" – ")[0])  # after its number and time (00:18)
    assert move == "Spieler 2 scannt eine Karte", rejected  # a foreign card is not named as a move here


def test_a_game_without_a_drawing_shows_its_cards_in_words(tmp_path) -> None:
    from tests.toy_game import registered

    with registered(tmp_path / "toy") as game_id:
        app = make_app(tmp_path, lang="en")
        start_game(app, game_id, 2)
        app.loop.draw()
        player = app.router.screen.controller.state["turn"]
        app.router.screen.controller.scan("HI:3", None) if player else None
        app.loop.draw()
        shown = app.loop.view.tagged("card")
        assert shown and all(e.face is None and e.text for e in shown), "words on a white card"


def test_a_laid_card_is_drawn_on_the_pile_and_in_the_verdict_where_the_table_is_crowded(tmp_path) -> None:
    """ANNAOTTO at 800×480 in German: its hint ("Legt auf Blau · Punkte · HÜRDEN (Farbe, Muster oder Zeichen).")
    took the pile's room, and saying the verdict's card in words took a second line and gave the table nothing
    (the gallery showed no card at all). The bracketed explanation gives way to the pile's pictures where both do
    not fit, and the verdict keeps its card."""
    from tests.kiosk_helpers import play_one_move, play_opening, start_simulated_game

    app = make_app(tmp_path, lang="de", size=(800, 480))
    controller, table = start_simulated_game(app, "annaotto", 21)
    laid = 0
    play_opening(table, controller.referee, controller.submit)
    for _ in range(40):
        event = play_one_move(table, controller.referee, controller.submit, mistakes=0)
        if event is None:
            break
        racing = controller.ui.race(controller.state) is not None  # an ALLE race shows the race, not the table
        if event.get("type") in ("play", "discard") and "card" in event and not racing:
            laid += 1
            view = app.router.screen.view(800, 480)
            assert view.tagged("card") and view.tagged("verdict-card"), (event, view.texts())
    assert laid >= 10
