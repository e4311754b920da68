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
