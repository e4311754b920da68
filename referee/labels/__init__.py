"""Barcode labels for a game's physical deck, and a scanner test sheet (`referee labels`).

The codes come from the registered game itself (`game_deck`): a default game is
set up from a header, exactly as the referee would, and its deck lists every
physical card. New games get labels without a change here. Only `pdf` needs
reportlab, and it is imported on use: the rules core never needs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee import games
from referee.answers import HeaderError
from referee.cards import Card, Deck
from referee.labels.errors import LabelError
from referee.labels.faces import label_text
from referee.protocol import Game

__all__ = ["Label", "LabelError", "SheetCode", "deck_labels", "game_deck", "scanner_test_codes"]


def game_deck(
    game_id: str, options: Mapping[str, Any] | None = None, players: int | None = None
) -> tuple[type[Game], Deck[Any]]:
    """The game class and the deck in use for a game set up with these options and this many players.

    `players` defaults to the smallest player count (for Die magische 7: one pack).
    Raises LabelError for an unknown game or a header the game refuses.
    """
    from referee.table import FORMAT, Referee  # the reducer validates the header as for a real game

    cls = games.GAMES.get(game_id)
    if cls is None:
        known = ", ".join(games.ids()) or "none"
        raise LabelError(f"unknown game {game_id!r} (known: {known})")
    count = min(cls.player_counts) if players is None else players
    if count < 1:
        raise LabelError(f"the number of players must be positive, not {count}")
    header = {
        "format": FORMAT,
        "game": game_id,
        "players": [f"P{i}" for i in range(1, count + 1)],
        "options": dict(options or {}),
    }
    try:
        referee = Referee(header)
    except HeaderError as error:
        reason = error.reason("en")
        raise LabelError(reason if cls.title in reason else f"{cls.title}: {reason}") from None
    return cls, referee.game.deck


@dataclass(frozen=True)
class Label:
    """One sticker: the code its bar code carries and what a person reads on it."""

    code: str
    text: str  # the face in plain words
    copy: str  # "#2/4", or "#1" for a face with one copy
    game: str  # the game's title


def deck_labels(game_id: str, options: Mapping[str, Any] | None = None, players: int | None = None,
                lang: str = "de") -> list[Label]:
    """One label per physical card (for ANNAOTTO: per side), with its copy number, in the deck's order;
    the plain words in `lang` (German first: the cards are German)."""
    cls, deck = game_deck(game_id, options, players)
    labels = []
    for code in deck.codes():
        card, _ = deck.lookup(code)  # every label's code is one the referee accepts
        count = deck.copies[card.face]
        copy = f"#{card.copy}" if count == 1 else f"#{card.copy}/{count}"
        labels.append(Label(code, label_text(card.face, lang), copy, cls.title))
    return labels


@dataclass(frozen=True)
class SheetCode:
    """One code of the scanner test sheet and what the referee should answer to it."""

    code: str
    text: str
    expect_en: str
    expect_de: str


# Well-formed codes of each deck's default composition, for "a code of another game" when that
# game is not registered (rules files, section 1).
_SAMPLE_FACES = {"AK": "AK:8.II", "AC": "AC:WASSER", "PS": "PS:H10", "M7": "M7:13", "AO": "AO:RED.DOTS.PLUS"}


def _unknown_code(deck: Deck[Any], prefix: str) -> str:
    """A well-formed-looking code of this deck's prefix that the deck does not accept."""
    face = next(iter(deck.faces()))
    candidates = [f"{face}#{deck.copies[face] + 1}", f"{prefix}:UNKNOWN", f"{prefix}:0000"]
    for code in candidates:
        if code not in deck:
            return code
    raise LabelError(f"cannot find a code that the {prefix} deck refuses")  # pragma: no cover


def scanner_test_codes(game_id: str | None = None, options: Mapping[str, Any] | None = None,
                     players: int | None = None, lang: str = "de") -> tuple[str, list[SheetCode]]:
    """The game's title and the test sheet's codes: valid ones, an unknown one, and one of another game."""
    if game_id is None:
        if not games.ids():
            raise LabelError("no game is registered")
        game_id = games.ids()[0]
    cls, deck = game_deck(game_id, options, players)
    codes = deck.codes()
    first = Card.from_code(codes[0])
    longest = max(codes, key=len)
    prefix = first.prefix
    entries = [
        SheetCode(first.face, label_text(first.face, lang), "valid (any copy)", "gültig (beliebige Kopie)"),
        SheetCode(codes[0], label_text(first.face, lang), "valid", "gültig"),
    ]
    if longest != codes[0]:
        entries.append(SheetCode(longest, label_text(Card.from_code(longest).face, lang), "valid (longest code)",
                                "gültig (längster Code)"))
    unknown = _unknown_code(deck, prefix)
    entries.append(SheetCode(unknown, "?", "unknown-card", "unbekannte Karte (unknown-card)"))
    other, other_title = _other_game_code(game_id, prefix)
    other_text = f"{other_title}: {label_text(Card.from_code(other).face, lang)}"
    entries.append(SheetCode(other, other_text, "unknown-card (another game)",
                            "unbekannte Karte (anderes Spiel)"))
    return cls.title, entries


def _other_game_code(game_id: str, prefix: str) -> tuple[str, str]:
    """The first code of another registered game's deck and its title, else a sample face of another deck."""
    for other_id in games.ids():
        if other_id == game_id:
            continue
        other_cls, other_deck = game_deck(other_id)
        code = other_deck.codes()[0]
        if Card.from_code(code).prefix != prefix:
            return code, other_cls.title
    return next((face, p) for p, face in _SAMPLE_FACES.items() if p != prefix)
