"""Every logged event in plain words, in one language: the one describer the kiosk's history, the hub's
pages and `referee replay` share.

Each game declares which words its event types read as (`GameDefinition.events`): the common ones below,
picked with `common(...)`, and its own, written in its deck module. A sentence names the player, the cards
in the words their labels print, and what the event means at the table ("Ben takes the pile"), never field
names or card codes. An event nobody can read still gets a line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.registry import DEFINITIONS, CardFace, EventWords, GameDefinition, by_prefix
from referee.words import tr

Face = Callable[[str], str]


class Words:
    """The language of one description and the card words of its game."""

    def __init__(self, lang: str, game: GameDefinition | None, face: Face | None = None):
        self.lang = lang
        self.game = game
        self._face = face

    def tr(self, message: str, /, **values: object) -> str:
        return tr(message, self.lang, **values)

    def card(self, code: object) -> str:
        """One card in the words its label prints; a code that is no card of the game is shown as scanned."""
        text = str(code)
        if self._face is not None:
            return self._face(text)
        return card_words(text, self.lang, self.game)

    def cards(self, event: Mapping[str, Any]) -> str:
        """The event's `cards` (or its one `card`), joined."""
        cards = event.get("cards")
        if not isinstance(cards, list):
            cards = [event.get("card", "")]
        return ", ".join(self.card(c) for c in cards) if cards else self.tr("no cards")


def card_words(code: str, lang: str, game: GameDefinition | None = None) -> str:
    """A card code (`AO:RED.DOTS#2`) in the words its label prints, in `lang`; unknown codes as scanned."""
    face = code.partition("#")[0]
    prefix, sep, short = face.partition(":")
    game = game if game is not None and game.prefix == prefix else by_prefix(prefix)
    if not sep or game is None:
        return code
    try:
        return game.card_words(short, lambda word: tr(word, lang))
    except ValueError:
        return code


def card_face(code: str, lang: str) -> CardFace | None:
    """How a card code's face is drawn (its game's `card_face`), its words in `lang`; None for a code that is no
    card of a game that draws its faces (the screen then says the card in words)."""
    prefix, sep, short = code.partition("#")[0].partition(":")
    game = by_prefix(prefix) if sep else None
    if game is None or game.card_face is None:
        return None
    try:
        return game.card_face(short, lambda word: tr(word, lang))
    except ValueError:
        return None


def any_card_words(text: str, lang: str) -> str | None:
    """A card named in a sentence, with its prefix (`AO:RED.DOTS`) or as the rules name it without
    (`RED.DOTS`, `HA`, `WASSER`), in words; None if no game's deck has such a face."""
    if ":" in text:
        worded = card_words(text, lang)
        return None if worded == text else worded
    for game_id in DEFINITIONS.ids():
        try:
            return DEFINITIONS[game_id].card_words(text.partition("#")[0], lambda word: tr(word, lang))
        except ValueError:
            continue
    return None


CARD_PARAMS = frozenset({"card", "cards", "top", "face", "faces"})


def worded_params(params: Mapping[str, object], lang: str) -> dict[str, object]:
    """A sentence's values with every card and every declared code in words (`top=RED.DOTS` → "Rot · Punkte",
    `colour=RED` → "Rot"); anything else as it is. A list of cards is worded only if every item is a card."""
    out = dict(params)
    for name, value in params.items():
        if not isinstance(value, str):
            continue
        if name in CARD_PARAMS:
            items = value.split(", ") if ", " in value else value.split(" ")
            worded = [any_card_words(item, lang) for item in items]
            if all(w is not None for w in worded):
                out[name] = ", ".join(worded)  # type: ignore[arg-type]
            continue
        for game_id in DEFINITIONS.ids():
            msgid = DEFINITIONS[game_id].value_words.get(name, {}).get(value)
            if msgid is not None:
                out[name] = tr(msgid, lang)
                break
    return out


# --- the event types several games share


def _play(e: Mapping[str, Any], p: str, w: Words) -> str:
    text = w.tr("{player} plays {card}", player=p, card=w.cards(e))
    if "from" in e:
        text += " " + w.tr("from {owner}'s hand", owner=e["from"])
    if "rank_choice" in e:
        text += " " + w.tr("(uses numeral {numeral})", numeral=e["rank_choice"])
    if "target" in e:
        text += " " + w.tr("against {target}", target=e["target"])
    return text


def _press(e: Mapping[str, Any], p: str, w: Words) -> str:
    if e.get("button") == "slap":
        return w.tr("{player} slaps the ALLE button", player=p)
    return w.tr("{player} presses the seat button (confirm)", player=p)


def _draw(e: Mapping[str, Any], p: str, w: Words) -> str:
    if e.get("from") == "discard":
        return w.tr("{player} takes the top card of the discard pile", player=p)
    return w.tr("{player} draws a card", player=p)


COMMON: dict[str, EventWords] = {
    "play": _play,
    "press": _press,
    "draw": _draw,
    "undo": lambda e, p, w: w.tr("Staff took back the last step"),
    "start": lambda e, p, w: w.tr("Start card: {card}", card=w.cards(e)),
    "take_pile": lambda e, p, w: w.tr("{player} takes the pile", player=p),
    "reveal": lambda e, p, w: w.tr("{player} turns over a face-down card: {card}", player=p, card=w.cards(e)),
    "discard": lambda e, p, w: w.tr("{player} discards {card}", player=p, card=w.cards(e)),
    "call": lambda e, p, w: w.tr("{player} calls {word}!", player=p, word=e.get("word", "")),
    "catch": lambda e, p, w: w.tr("{player} catches {target}: a call was missed", player=p,
                                  target=e.get("target", "")),
    "race_close": lambda e, p, w: w.tr("The ALLE race is closed (time is up)"),
    "new_round": lambda e, p, w: w.tr("A new round begins"),
}


def common(*types: str) -> dict[str, EventWords]:
    """The shared words of these event types, for a game's `events` (undo is every game's)."""
    return {kind: COMMON[kind] for kind in (*types, "undo")}


def _game_of(event: Mapping[str, Any], game_id: str | None) -> GameDefinition | None:
    """The game by its id, or else by the prefix of the event's card (the hub sees events one by one)."""
    if game_id is not None:
        return DEFINITIONS.get(game_id)
    cards = event.get("cards")
    card = cards[0] if isinstance(cards, list) and cards else event.get("card")
    if isinstance(card, list):  # lay_task's groups
        card = card[0] if card else None
    return by_prefix(str(card).partition(":")[0]) if isinstance(card, str) else None


def describe(event: object, lang: str, game_id: str | None = None, face: Face | None = None) -> str:
    """One event as a sentence for guests and staff, in `lang`. `face` words the cards as a screen shows them
    (default: as their labels print them)."""
    if not isinstance(event, Mapping):
        return tr("An unreadable input", lang)
    kind = event.get("type")
    game = _game_of(event, game_id)
    table = game.events if game is not None else COMMON
    words = table.get(kind) if isinstance(kind, str) else None
    if words is None and isinstance(kind, str) and game is None:
        words = _any_game(kind)
    if words is None:
        return tr("An input the referee does not know ({kind})", lang, kind=kind)
    player = event.get("player")
    try:
        return words(event, str(player) if player is not None else "?", Words(lang, game, face))
    except (TypeError, ValueError, KeyError, AttributeError):
        return tr("An input the referee could not read ({kind})", lang, kind=kind)


def _any_game(kind: str) -> EventWords | None:
    """An event of a game not named: the words of the first game that declares its type."""
    for game_id in DEFINITIONS.ids():
        found = DEFINITIONS[game_id].events.get(kind)
        if found is not None:
            return found
    return None
