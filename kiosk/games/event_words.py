"""Every event in plain words in the kiosk's language, as the screen words its cards (`GameUI.face`).

The sentences are the shared ones (`referee.event_words`): the hub and `referee replay` say the same.
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.i18n import language
from referee import event_words


def describe(event: object, face: Callable[[str], str], game_id: str | None = None) -> str:
    """One event as a sentence for guests and staff."""
    return event_words.describe(event, language(), game_id, face)
