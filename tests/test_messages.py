"""Every rejection reads as a sentence in English and German, with its values filled in."""

from __future__ import annotations

import re

from referee import games, messages
from referee.protocol import Rejection

games.all_games()  # register every game's sentences


def test_every_message_key_has_both_languages_and_same_placeholders() -> None:
    for key in messages.all_keys():
        en, de = messages.text_pair(key)
        assert en and de, key
        assert en != de, f"{key}: the German sentence is not translated"
        assert set(re.findall(r"{(\w+)", en)) == set(re.findall(r"{(\w+)", de)), key


def test_rejection_renders_in_both_languages() -> None:
    r = Rejection("not-your-turn", turn="Ben", player="Anna")
    assert r.message() == "Ben is to play, not Anna."
    assert r.message("de") == "Ben ist am Zug, nicht Anna."
    assert r.code == "not-your-turn"


def test_unknown_language_falls_back_to_english() -> None:
    assert Rejection("game-over").message("fr") == "The game is over."


def test_a_rejection_names_cards_and_colours_in_words_not_codes() -> None:
    """The sentence a guest reads says "Grün · Wellen", never `AO:GREEN.WAVES` or `RED.DOTS` (issue #23)."""
    from referee.table import Referee

    referee = Referee({"format": "tabletop-referee/1", "game": "annaotto", "players": ["Anna", "Ben"]})
    assert referee.apply({"type": "start", "card": "AO:RED.DOTS"}).ok
    answer = referee.apply({"type": "play", "player": "Anna", "card": "AO:GREEN.WAVES#1"})
    assert answer.message("de").startswith("Grün · Wellen passt zu Rot · Punkte weder")
    assert answer.message("en").startswith("Green · Waves matches Red · Dots neither")
    assert Rejection("no-match", "no-match.wild", colour="BROWN").message("de").startswith(
        "Nach ANNAOTTO darf nur Braun")
    not_a_card = Referee({"format": "tabletop-referee/1", "game": "annaotto", "players": ["Anna", "Ben"]})
    assert "AO:XX" in not_a_card.apply({"type": "start", "card": "AO:XX"}).message("de"), "no card: as scanned"
