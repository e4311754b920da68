"""ANNAOTTO: two-sided cards; each side is a face of its own (rules section 1, AO-D1).

Plain sides `COLOUR.PATTERN` (3 of each of the 32), special sides
`COLOUR.PATTERN.SIGN` only in the colour's special pattern (1 of each sign in each
colour: 48), and the wild side `ANNAOTTO` (8): 152 sides = 76 physical cards. In the
default deck every special or wild side has a plain side on its back.
"""

from __future__ import annotations

from collections.abc import Mapping

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
# The German words the card labels print and the screen says (public: the kiosk and the labels use them).
COLOUR_WORDS = {
    "RED": "Rot", "ORANGE": "Orange", "YELLOW": "Gelb", "GREEN": "Grün",
    "BLUE": "Blau", "PURPLE": "Lila", "PINK": "Rosa", "BROWN": "Braun",
}
PATTERN_WORDS = {"DOTS": "Punkte", "STRIPES": "Streifen", "CHECKS": "Karos", "WAVES": "Wellen"}
SIGN_WORDS = {"ANNA": "ANNA", "OTTO": "OTTO", "ALLE": "ALLE", "PLUS": "PLUS", "RETOUR": "RETOUR", "HUERDEN": "HÜRDEN"}
# The English words of the signs, as the English labels print them.
SIGN_WORDS_EN = {
    "ANNA": "ANNA", "OTTO": "OTTO", "ALLE": "ALLE", "PLUS": "PLUS", "RETOUR": "RETURN", "HUERDEN": "HURDLES",
}
DEFAULT_COPIES = {"plain": 3, "special": 1, "wild": 8}


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
