"""Every sentence the referee says, in English and German, keyed by a stable message key.

A rejection carries a code (for tests and logs) and a message key plus values;
the sentence is made only when someone reads it, in the reader's language. The
keys of the common codes live here; each game adds its own with `register`.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.event_words import worded_params

LANGUAGES = ("en", "de")

_TEXTS: dict[str, tuple[str, str]] = {
    # bad-header
    "bad-header": ("The header is not valid: {reason}", "Die Kopfzeile ist ungültig: {reason}"),
    # bad-event
    "bad-event": ("The event is not valid.", "Das Ereignis ist ungültig."),
    "bad-event.json": (
        "The line is not valid JSON.",
        "Die Zeile ist kein gültiges JSON.",
    ),
    "bad-event.object": ("The event is not a JSON object.", "Das Ereignis ist kein JSON-Objekt."),
    "bad-event.type": ("Unknown event type {type}.", "Unbekannte Ereignisart {type}."),
    "bad-event.no-type": (
        "The event has no type (a string).",
        "Dem Ereignis fehlt die Art (ein Text).",
    ),
    "bad-event.field": (
        "The field '{field}' is missing or has the wrong type.",
        "Das Feld „{field}“ fehlt oder hat den falschen Typ.",
    ),
    "bad-event.forbidden": (
        "The field '{field}' is not allowed here.",
        "Das Feld „{field}“ ist hier nicht erlaubt.",
    ),
    "bad-event.value": (
        "The field '{field}' has a value that is not allowed.",
        "Das Feld „{field}“ hat einen unzulässigen Wert.",
    ),
    # the other common codes
    "unknown-player": ("{player} is not seated at this table.", "{player} sitzt nicht an diesem Tisch."),
    "unknown-card": (
        "{card} is not a card of this game's deck.",
        "{card} ist keine Karte dieses Spiels.",
    ),
    "not-your-turn": ("{turn} is to play, not {player}.", "{turn} ist am Zug, nicht {player}."),
    "not-your-turn.nobody": (
        "Nobody is to act now, {player} neither.",
        "Gerade ist niemand am Zug, auch nicht {player}.",
    ),
    "card-exhausted": (
        "{card} is already on the table as often as the deck holds it: a double scan or a foreign card.",
        "{card} liegt schon so oft auf dem Tisch, wie das Spiel sie enthält: doppelt gescannt "
        "oder eine fremde Karte.",
    ),
    "game-over": ("The game is over.", "Das Spiel ist vorbei."),
    "nothing-to-undo": ("There is nothing to undo.", "Es gibt nichts zurückzunehmen."),
}


def register(texts: Mapping[str, tuple[str, str]]) -> None:
    """Add a game's sentences; a key is defined once, in the module of its rule."""
    for key, pair in texts.items():
        if key in _TEXTS and _TEXTS[key] != pair:
            raise ValueError(f"message key {key!r} defined twice")
        _TEXTS[key] = pair


def render(key: str, params: Mapping[str, object], lang: str = "en") -> str:
    """The sentence for `key` in `lang` (English when the language is unknown), its cards and declared codes
    in the words of the catalogue (`referee.event_words.worded_params`): no card code reaches a reader."""
    pair = _TEXTS.get(key) or _TEXTS.get(key.split(".", 1)[0]) or ("{key}", "{key}")
    template = pair[1] if lang == "de" else pair[0]
    try:
        return template.format(key=key, **worded_params(params, lang))
    except (KeyError, IndexError, ValueError):
        return template


def all_keys() -> list[str]:
    return sorted(_TEXTS)


def text_pair(key: str) -> tuple[str, str] | None:
    return _TEXTS.get(key)
