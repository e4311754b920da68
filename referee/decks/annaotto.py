"""ANNAOTTO: two-sided cards; each side is a face of its own (rules section 1, AO-D1).

Plain sides `COLOUR.PATTERN` (3 of each of the 32), special sides
`COLOUR.PATTERN.SIGN` only in the colour's special pattern (1 of each sign in each
colour: 48), and the wild side `ANNAOTTO` (8): 152 sides = 76 physical cards. In the
default deck every special or wild side has a plain side on its back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from referee.event_words import Words, common
from referee.registry import MISTAKE, PLACES, SCANNING, SEP, CardFace, GameDefinition, HelpPage, define
from referee.words import N_

PREFIX = "AO"
COLOURS = ("RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "PURPLE", "PINK", "BROWN")
PATTERNS = ("DOTS", "STRIPES", "CHECKS", "WAVES")
SPECIAL_PATTERN = {
    "RED": "DOTS",
    "ORANGE": "STRIPES",
    "YELLOW": "CHECKS",
    "GREEN": "WAVES",
    "BLUE": "DOTS",
    "PURPLE": "STRIPES",
    "PINK": "CHECKS",
    "BROWN": "WAVES",
}
SIGNS = ("ANNA", "OTTO", "ALLE", "PLUS", "RETOUR", "HUERDEN")
WILD = "ANNAOTTO"
# The words the card labels print and the screen says (English msgids of the shared catalogue, referee.words).
COLOUR_NAMES = {
    "RED": N_("Red"), "ORANGE": N_("Orange"), "YELLOW": N_("Yellow"), "GREEN": N_("Green"),
    "BLUE": N_("Blue"), "PURPLE": N_("Purple"), "PINK": N_("Pink"), "BROWN": N_("Brown"),
}
PATTERN_NAMES = {"DOTS": N_("Dots"), "STRIPES": N_("Stripes"), "CHECKS": N_("Checks"), "WAVES": N_("Waves")}
SIGN_NAMES = {"ANNA": N_("ANNA"), "OTTO": N_("OTTO"), "ALLE": N_("ALLE"), "PLUS": N_("PLUS"), "RETOUR": N_("RETURN"),
              "HUERDEN": N_("HURDLES")}
DEFAULT_COPIES = {"plain": 3, "special": 1, "wild": 8}
# The signs drawn as a shape instead of their word (the others are short words: ANNA, OTTO, ALLE, PLUS).
SIGN_SYMBOLS = {"RETOUR": "return", "HUERDEN": "hurdles"}


class Side:
    """What one side means: colour and pattern (None on the wild side), sign (None on plain sides)."""

    __slots__ = ("colour", "face", "kind", "pattern", "plain", "sign", "wild")

    def __init__(self, face: str, colour: str | None, pattern: str | None, sign: str | None):
        self.face = face  # without the prefix: "RED.DOTS.PLUS", "ANNAOTTO"
        self.colour = colour
        self.pattern = pattern
        self.sign = sign
        self.wild = face == WILD
        self.kind = "wild" if self.wild else ("special" if sign else "plain")
        self.plain = self.kind == "plain"

    def __repr__(self) -> str:
        return f"Side({self.face!r})"


def plain_faces() -> list[str]:
    return [f"{PREFIX}:{c}.{p}" for c in COLOURS for p in PATTERNS]


def special_faces() -> list[str]:
    return [f"{PREFIX}:{c}.{SPECIAL_PATTERN[c]}.{s}" for c in COLOURS for s in SIGNS]


def sides(copies: Mapping[str, int] | None = None) -> dict[str, int]:
    """Face → copies for the given `copies` option (missing keys keep their default)."""
    n = {**DEFAULT_COPIES, **(copies or {})}
    faces = dict.fromkeys(plain_faces(), n["plain"])
    faces.update(dict.fromkeys(special_faces(), n["special"]))
    faces[f"{PREFIX}:{WILD}"] = n["wild"]
    return faces


def side_info(face: str) -> Side:
    """The meaning of a face of `sides()` (`AO:RED.DOTS.PLUS`)."""
    name = face.partition(":")[2]
    if name == WILD:
        return Side(name, None, None, None)
    parts = name.split(".")
    return Side(name, parts[0], parts[1], parts[2] if len(parts) == 3 else None)


# --- the game's definition: everything about it that is not its rules (referee.registry)


def card_words(short: str, say: Callable[[str], str]) -> str:
    """One side as its label prints it: "Rot · Punkte", "Blau · Punkte · PLUS", "ANNAOTTO"."""
    if short == WILD:
        return WILD
    parts = short.split(".")
    if (len(parts) not in (2, 3) or parts[0] not in COLOUR_NAMES or parts[1] not in PATTERN_NAMES
            or (len(parts) == 3 and parts[2] not in SIGN_NAMES)):
        raise ValueError(f"AO face {short!r}")
    words = [say(COLOUR_NAMES[parts[0]]), say(PATTERN_NAMES[parts[1]])]
    if len(parts) == 3:
        words.append(say(SIGN_NAMES[parts[2]]))
    return SEP.join(words)



def card_face(short: str, say: Callable[[str], str]) -> CardFace:
    """A side in its colour with its pattern; a sign on a white badge (RETURN and HURDLES as a shape, their word
    small), else the colour's word small; the wild side as a wheel of colours."""
    card_words(short, say)  # a face that is not in the deck raises here
    if short == WILD:
        return CardFace(symbol="wild", small=WILD)
    colour, pattern, *sign = short.split(".")
    face = CardFace(fill=colour.lower(), pattern=pattern.lower(), small=say(COLOUR_NAMES[colour]))
    if not sign:
        return face
    if sign[0] in SIGN_SYMBOLS:
        return replace(face, symbol=SIGN_SYMBOLS[sign[0]], small=say(SIGN_NAMES[sign[0]]))
    return replace(face, value=say(SIGN_NAMES[sign[0]]))


def _flip(e: Mapping[str, Any], p: str, w: Words) -> str:
    if e.get("who") == "self":
        return w.tr("{player} turns over all own hand cards", player=p)
    return w.tr("{player} chooses: the next player turns over all hand cards", player=p)


def _colour(e: Mapping[str, Any], p: str, w: Words) -> str:
    name = COLOUR_NAMES[e["colour"]]
    return w.tr("{player} chooses the colour {colour}", player=p, colour=w.tr(name))


EVENTS = common("play", "draw", "press", "start", "call", "catch", "race_close") | {
    "flip_choice": _flip,
    "choose_colour": _colour,
}

HELP = (
    HelpPage(N_("Goal and your turn"), (
        N_("Goal: be the first with no cards left. The first card of the pile is scanned to start."),
        N_("On your turn lay a card of the same colour or pattern as the top card and scan it, or touch Draw."),
        N_("You may lay a card from another player's hand (touch the source first), never their last card."),
        N_("Drew a card? Lay it at once, or press your seat button to keep it."),
    )),
    HelpPage(N_("Special cards"), (
        N_("ANNA and OTTO must alternate. The next player continues the chain or presses their seat button: "
           "2 cards per OTTO, 2 flipped per ANNA."),
        N_("PLUS: the next player lays a PLUS or takes the cards. RETURN turns the direction. HURDLES skips the "
           "next player."),
        N_("ANNAOTTO is wild: choose a colour and who turns their cards over."),
    )),
    HelpPage(N_("ALLE and calls"), (
        N_("ALLE: everyone slaps their seat's slap button; the last hand takes 2 cards. The player who laid it "
           "must call ALLE."),
        N_("With one card left call ANNA, with none OTTO (touch the call). A missed call can be caught before "
           "the next move: 1 card."),
        SCANNING, MISTAKE,
    )),
)

STATE_WORDS = {
    "chain": N_("chain"), "choices": N_("choices owed"), "colour": N_("colour"), "direction": N_("direction"),
    "due": N_("call owed"), "flip": N_("cards to turn over"), "pattern": N_("pattern"), "plus": N_("PLUS count"),
    "race": N_("ALLE race"), "called": N_("called"), "pressed": N_("slapped"), "word": N_("word"),
}

define(GameDefinition(
    game_id="annaotto", order=4, prefix=PREFIX, rules="annaotto.md", card_words=card_words,
    events=EVENTS, score=PLACES, help=HELP,
    value_words={"colour": COLOUR_NAMES, "sign": SIGN_NAMES, "pattern": PATTERN_NAMES},
    card_face=card_face, state_words=STATE_WORDS,
))
