"""Every event in plain words in the kiosk's language, as the screen words its cards (`GameUI.face`); and what
the scanner test shows staff (a sentence or the card's words first, the id after it).

The sentences are the shared ones (`referee.event_words`): the hub and `referee replay` say the same.
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.i18n import N_, language, tr
from referee import event_words, games
from referee.answers import HeaderError, Rejection
from referee.registry import by_prefix


def describe(event: object, face: Callable[[str], str], game_id: str | None = None) -> str:
    """One event as a sentence for guests and staff."""
    return event_words.describe(event, language(), game_id, face)


# A scanner's stable reasons (`hw.inputs.READER_REASONS`) as staff read them on the scanner test: a sentence first.
READER_PROBLEMS = {
    "noise": N_("Noise on the line, no card"),
    "not-ascii": N_("Unreadable characters, no card"),
    "too-long": N_("Too long for a card code"),
    "cut-off": N_("Cut off before the end"),
    "not-a-card": N_("Read, but no card of any game"),
    "disconnected": N_("Scanner disconnected"),
    "reconnected": N_("Scanner connected again"),
}


def reader_problem(reason: str) -> str:
    """A reader error for staff: the plain sentence, then its id ("Read, but no card of any game (not-a-card)")."""
    said = READER_PROBLEMS.get(reason)
    return f"{tr(said)} ({reason})" if said else reason


def named(code: str) -> str:
    """A card seen by the camera in the words its label prints ("Brown · Waves · ALLE"), without its code: the
    list beside the camera's picture has room for four cards in their words, not for their codes as well."""
    return event_words.card_words(code, language())


def scanned(code: str) -> str:
    """A scanned code for staff: the card in the words its label prints, then the code ("8 · II (AK:8.II)")."""
    words = named(code)
    return code if words == code else f"{words} ({code})"


def rejection_words(rejection: Rejection | HeaderError | None, lang: str, game_id: str) -> str:
    """A rejection's sentence as guests read it (no rule ids); a card of another game's deck is named by its game
    ("Diese Karte gehört zu Die magische 7.", issue #37), where the referee only knows it is not a card here."""
    if isinstance(rejection, Rejection) and rejection.code == "unknown-card":
        prefix, sep, _ = str(rejection.params.get("card", "")).partition(":")
        found = by_prefix(prefix) if sep else None
        if found is not None and found.game_id != game_id and found.game_id in games.GAMES:
            return tr("This card belongs to {game}.", game=games.get(found.game_id).title)
    return "" if rejection is None else rejection.message(lang, rules=False)
