"""A logged move in plain words, as the kiosk's history says it, in the reader's language.

Card faces read as their labels print them (`referee.labels.faces`); the verdict
of a rejected move is the referee's own sentence (`referee.messages`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.texts import tr
from referee.labels.faces import label_text
from referee.messages import render


def face(code: Any) -> str:
    return label_text(str(code).partition("#")[0])


COLOURS_DE = {"RED": "Rot", "ORANGE": "Orange", "YELLOW": "Gelb", "GREEN": "Grün", "BLUE": "Blau", "PURPLE": "Lila",
              "PINK": "Rosa", "BROWN": "Braun"}  # as ANNAOTTO's labels print them (referee/labels/faces.py)


def colour(code: Any, lang: str) -> str:
    """An ANNAOTTO colour as its label prints it in German (`BROWN` → Braun), in English in plain case."""
    if not isinstance(code, str):
        return str(code)
    return COLOURS_DE.get(code, code) if lang == "de" else code.capitalize()


def _cards(event: Mapping[str, Any]) -> str:
    cards = event.get("cards")
    if not isinstance(cards, list):
        cards = [event.get("card", "")]
    return ", ".join(face(c) for c in cards)


def describe(event: Any, lang: str) -> str:
    """One event of a transcript as a sentence."""
    if not isinstance(event, Mapping):
        return str(event)[:80]
    kind = event.get("type")
    player = str(event.get("player", ""))
    if kind == "play":
        text = tr("{player} plays {card}", lang, player=player, card=_cards(event))
        if "from" in event:
            text += " " + tr("(from {owner}'s hand)", lang, owner=event["from"])
        if "target" in event:
            text += " " + tr("against {target}", lang, target=event["target"])
        return text
    if kind == "undo":
        return tr("The operator took back the last event", lang)
    if kind == "press":
        button = {"confirm": tr("Confirm", lang), "slap": tr("Slap", lang)}.get(event.get("button"))
        return tr("{player} presses {button}", lang, player=player, button=button or event.get("button", ""))
    if kind == "draw":
        count = event.get("count")
        if isinstance(count, int) and count != 1:
            return tr("{player} draws {count}", lang, player=player, count=count)
        return tr("{player} draws", lang, player=player)
    if kind == "discard":
        return tr("{player} discards {card}", lang, player=player, card=_cards(event))
    if kind == "extend":
        return tr("{player} adds {card} to meld {meld}", lang, player=player, card=_cards(event),
                  meld=event.get("meld", ""))
    if kind == "call":
        return tr("{player} calls {word}", lang, player=player, word=event.get("word", ""))
    if kind == "catch":
        return tr("{player} catches {target}", lang, player=player, target=event.get("target", ""))
    if kind == "choose_colour":
        return tr("{player} chooses {colour}", lang, player=player, colour=colour(event.get("colour"), lang))
    if kind in ("reveal", "reveal_hand"):
        return tr("{player} reveals", lang, player=player)
    if kind == "take_pile":
        return tr("{player} takes the pile", lang, player=player)
    if kind == "start":
        return tr("Start card: {card}", lang, card=_cards(event))
    if kind == "new_round":
        return tr("A new round is dealt", lang)
    if kind == "race_close":
        return tr("The race is closed", lang)
    if kind == "flip_choice":
        who = event.get("who")
        return tr("{player} turns over their own cards" if who == "self" else "{player} lets the next player "
                  "turn over", lang, player=player)
    if kind == "give_ace":
        return tr("{player} gives {card} to {target}", lang, player=player, card=_cards(event),
                  target=event.get("to") or event.get("target") or "?")
    if kind == "lay_task":
        return tr("{player} lays a task: {card}", lang, player=player, card=_cards(event))
    if kind == "skip_with_ace":
        return tr("{player} skips with an ace", lang, player=player)
    fields = ", ".join(f"{k}={face(v) if k in ('card',) else v}" for k, v in event.items()
                       if k not in ("type", "player"))
    if not player:
        return f"{kind} {fields}".strip()
    return f"{tr('{player}: {kind}', lang, player=player, kind=kind)} {fields}".strip()


SHORT = {  # the common codes in a few words, where the referee's sentence needs values the log does not keep
    "not-your-turn": "not their turn",
    "card-exhausted": "card already on the table (scanned twice?)",
    "unknown-card": "not a card of this game",
    "unknown-player": "not seated at this table",
    "game-over": "the game is over",
    "bad-event": "not a valid move",
    "nothing-to-undo": "nothing to undo",
}


def verdict(answer: Mapping[str, Any] | None, lang: str, event: Any = None) -> str:
    """`accepted`, or `rejected: ` and why: the referee's own sentence where the move's values fill it, a few
    words for the common codes, else the rule's code."""
    if not answer or answer.get("ok"):
        return tr("accepted", lang)
    code = str(answer.get("error") or "")
    params = {}
    if isinstance(event, Mapping):
        params = {k: (face(v) if k == "card" else v) for k, v in event.items() if isinstance(v, str)}
    sentence = render(code, params, lang) if code else ""
    if not sentence or "{" in sentence:
        sentence = tr(SHORT[code], lang) if code in SHORT else code
    return f"{tr('rejected', lang)}: {sentence}"
