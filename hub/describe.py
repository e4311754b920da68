"""A logged move in plain words, as the kiosk's history says it, in the reader's language.

The sentence is the shared one (`referee.event_words`: the kiosk and `referee replay` read each event the
same way), cards in the words their labels print; the verdict of a rejected move is the referee's own
sentence (`referee.messages`). All words come from the shared catalogue (`referee.words`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee import event_words
from referee.messages import render
from referee.words import N_, tr


def describe(event: object, lang: str, game_id: str | None = None) -> str:
    """One event of a transcript as a sentence (the game by its id, or by the event's cards)."""
    return event_words.describe(event, lang, game_id)


SHORT = {  # the common codes in a few words, where the referee's sentence needs values the log does not keep
    "not-your-turn": N_("not their turn"),
    "card-exhausted": N_("card already on the table (scanned twice?)"),
    "unknown-card": N_("not a card of this game"),
    "unknown-player": N_("not seated at this table"),
    "game-over": N_("the game is over"),
    "bad-event": N_("not a valid move"),
    "nothing-to-undo": N_("nothing to undo"),
}


def verdict(answer: Mapping[str, Any] | None, lang: str, event: object = None) -> str:
    """`accepted`, or `rejected: ` and why: the referee's own sentence where the move's values fill it, a few
    words for the common codes, else the rule's code."""
    if not answer or answer.get("ok"):
        return tr("accepted", lang)
    code = str(answer.get("error") or "")
    params = {}
    if isinstance(event, Mapping):
        params = {k: v for k, v in event.items() if isinstance(v, str)}  # render words the cards
    sentence = render(code, params, lang, rules=False) if code else ""  # guests read it: no rule ids (#26)
    if not sentence or "{" in sentence:
        sentence = tr(SHORT[code], lang) if code in SHORT else code
    rejected = tr("rejected", lang)
    return f"{rejected}: {sentence}"
