"""Every event of every game in plain words, in the table's language, for the history (settling disputes).

The wording names the player, the card in the words its label prints, and what the event means at the
table ("Ben takes the pile"), never field names. An event the referee could not read still gets a line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kiosk.i18n import N_, tr
from referee.decks.profi_sort import TASK_BY_ID

Face = Callable[[str], str]

COLOURS = {"RED": N_("red"), "ORANGE": N_("orange"), "YELLOW": N_("yellow"), "GREEN": N_("green"),
           "BLUE": N_("blue"), "PURPLE": N_("purple"), "PINK": N_("pink"), "BROWN": N_("brown")}


def _cards(event: Mapping[str, Any], face: Face) -> str:
    cards = event.get("cards")
    if not isinstance(cards, list):
        cards = [event.get("card", "")]
    return ", ".join(face(str(c)) for c in cards) if cards else tr("no cards")


def _task(task_id: object) -> str:
    task = TASK_BY_ID.get(str(task_id))
    return tr("task {n} ({name})", n=task.number, name=task.german) if task else str(task_id)


def _play(e: Mapping[str, Any], p: str, face: Face) -> str:
    text = tr("{player} plays {card}", player=p, card=_cards(e, face))
    if "from" in e:
        text += " " + tr("from {owner}'s hand", owner=e["from"])
    if "rank_choice" in e:
        text += " " + tr("(uses numeral {numeral})", numeral=e["rank_choice"])
    if "target" in e:
        text += " " + tr("against {target}", target=e["target"])
    return text


def _press(e: Mapping[str, Any], p: str, face: Face) -> str:
    if e.get("button") == "slap":
        return tr("{player} slaps the ALLE button", player=p)
    return tr("{player} presses the seat button (confirm)", player=p)


def _draw(e: Mapping[str, Any], p: str, face: Face) -> str:
    if e.get("from") == "discard":
        return tr("{player} takes the top card of the discard pile", player=p)
    return tr("{player} draws a card", player=p)


def _flip(e: Mapping[str, Any], p: str, face: Face) -> str:
    if e.get("who") == "self":
        return tr("{player} turns over all own hand cards", player=p)
    return tr("{player} chooses: the next player turns over all hand cards", player=p)


def _lay_task(e: Mapping[str, Any], p: str, face: Face) -> str:
    groups = e.get("groups") if isinstance(e.get("groups"), list) else []
    shown = " | ".join(", ".join(face(str(c)) for c in g) for g in groups if isinstance(g, list))
    text = tr("{player} lays {task}: {cards}", player=p, task=_task(e.get("task")), cards=shown)
    if "as" in e:
        text += " " + tr("(as {task})", task=_task(e["as"]))
    return text


def _reveal_hand(e: Mapping[str, Any], p: str, face: Face) -> str:
    if not e.get("cards"):
        return tr("{player} shows an empty hand", player=p)
    return tr("{player} shows the hand: {cards}", player=p, cards=_cards(e, face))


WORDS: dict[str, Callable[[Mapping[str, Any], str, Face], str]] = {
    "play": _play,
    "press": _press,
    "draw": _draw,
    "flip_choice": _flip,
    "lay_task": _lay_task,
    "reveal_hand": _reveal_hand,
    "undo": lambda e, p, f: tr("Staff took back the last step"),
    "start": lambda e, p, f: tr("Start card: {card}", card=f(str(e.get("card", "")))),
    "call": lambda e, p, f: tr("{player} calls {word}!", player=p, word=e.get("word", "")),
    "catch": lambda e, p, f: tr("{player} catches {target}: a call was missed", player=p, target=e.get("target", "")),
    "choose_colour": lambda e, p, f: tr("{player} chooses the colour {colour}", player=p,
                                        colour=tr(COLOURS.get(str(e.get("colour")), str(e.get("colour"))))),
    "race_close": lambda e, p, f: tr("The ALLE race is closed (time is up)"),
    "take_pile": lambda e, p, f: tr("{player} takes the pile", player=p),
    "reveal": lambda e, p, f: tr("{player} turns over a face-down card: {card}", player=p, card=_cards(e, f)),
    "skip_with_ace": lambda e, p, f: tr("{player} skips the turn with a received ace", player=p),
    "give_ace": lambda e, p, f: tr("{player} gives {card} to {to}", player=p, card=_cards(e, f), to=e.get("to", "")),
    "extend": lambda e, p, f: tr("{player} adds {cards} to meld {meld}", player=p, cards=_cards(e, f),
                                 meld=e.get("meld", "")),
    "discard": lambda e, p, f: tr("{player} discards {card}", player=p, card=_cards(e, f)),
    "redeal": lambda e, p, f: tr("{player} shows {cards}: the round is dealt again", player=p, cards=_cards(e, f)),
    "new_round": lambda e, p, f: tr("A new round begins"),
}


def describe(event: object, face: Face) -> str:
    """One event as a sentence for guests and staff."""
    if not isinstance(event, Mapping):
        return tr("An unreadable input")
    kind = event.get("type")
    words = WORDS.get(kind) if isinstance(kind, str) else None
    if words is None:
        return tr("An input the referee does not know ({kind})", kind=kind)
    player = event.get("player")
    try:
        return words(event, str(player) if player is not None else "?", face)
    except (TypeError, ValueError, KeyError):
        return tr("An input the referee could not read ({kind})", kind=kind)
