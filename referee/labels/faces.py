"""A card face in plain words for its label (`AK:8.II` → "8 · II"), German first, English on request.

Each game declares its card words once (`GameDefinition.card_words` in its deck module, the words in the
shared catalogue); this module finds the game by the deck prefix. The describers read syntax only: which
faces a deck holds is the game's business (`referee.labels.game_deck`). Every text stays within
Windows-1252, the encoding of the PDF's built-in fonts.
"""

from __future__ import annotations

from referee.registry import by_prefix
from referee.words import tr

__all__ = ["describe_face", "label_text"]


def describe_face(face: str, lang: str = "de") -> str:
    """The face in plain words in `lang` ("de" or "en"); ValueError for a face that is not in its deck's syntax
    (or no known deck)."""
    prefix, sep, short = face.partition(":")
    game = by_prefix(prefix) if sep else None
    if game is None:
        raise ValueError(f"no deck prefix in {face!r}")
    return game.card_words(short, lambda word: tr(word, lang))


def label_text(face: str, lang: str = "de") -> str:
    """What a label prints: the plain words, or the face itself where a deck's syntax is not known here."""
    try:
        return describe_face(face, lang)
    except ValueError:
        return face.partition(":")[2] or face
