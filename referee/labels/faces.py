"""A card face in plain words for its label (`AK:8.II` → "8 · II"), German first.

One describer per deck prefix, following the face syntax of each rules file's
section 1 (`../shared/rules/<game>.md`). They read syntax only: which faces a deck
holds is the game's business (`referee.labels.game_deck`). Every text stays
within Windows-1252, the encoding of the PDF's built-in fonts.
"""

from __future__ import annotations

from collections.abc import Callable

SEP = " · "

# --- AK (Alles klar?): value 1–11, zero to two Roman numerals in ascending order
_AK_NUMERALS = ("I", "II", "III", "IV", "V")


def _ak(short: str) -> str:
    value, *numerals = short.split(".")
    if not value.isdigit() or value[0] == "0" or not 1 <= int(value) <= 11:
        raise ValueError(f"AK value {value!r}")
    if len(numerals) > 2 or any(n not in _AK_NUMERALS for n in numerals):
        raise ValueError(f"AK numerals {numerals!r}")
    if len(numerals) == 2 and _AK_NUMERALS.index(numerals[0]) >= _AK_NUMERALS.index(numerals[1]):
        raise ValueError("AK numerals must be distinct and ascending")
    return SEP.join([value, *numerals])


# --- AC (alcasan): number cards 1–3, 5–10 and the four elements
_AC_ELEMENTS = {"WASSER": "Wasser", "FEUER": "Feuer", "ERDE": "Erde", "LUFT": "Luft"}
_AC_NUMBERS = frozenset(["1", "2", "3", "5", "6", "7", "8", "9", "10"])


def _ac(short: str) -> str:
    if short in _AC_ELEMENTS:
        return _AC_ELEMENTS[short]
    if short in _AC_NUMBERS:
        return short
    raise ValueError(f"AC face {short!r}")


# --- PS (Profi-Sort, a Rommé deck): suit letter + rank, or JOKER
_PS_SUITS = {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"}
_PS_RANKS = {str(n): str(n) for n in range(2, 11)} | {"J": "Bube", "Q": "Dame", "K": "König", "A": "Ass"}


def _ps(short: str) -> str:
    if short == "JOKER":
        return "Joker"
    suit, rank = short[:1], short[1:]
    if suit not in _PS_SUITS or rank not in _PS_RANKS:
        raise ValueError(f"PS face {short!r}")
    return f"{_PS_SUITS[suit]} {_PS_RANKS[rank]}"


# --- M7 (Die magische 7): points −6 … 13 and three special cards
_M7_SPECIALS = {"JOKER": "Joker", "MIRROR": "Spiegel", "CROSS": "Kreuz"}


def _m7(short: str) -> str:
    if short in _M7_SPECIALS:
        return _M7_SPECIALS[short]
    digits = short[1:] if short.startswith("-") else short
    if not digits.isdigit() or not digits.isascii() or (digits[0] == "0" and digits != "0") or short == "-0":
        raise ValueError(f"M7 face {short!r}")
    if not -6 <= int(short) <= 13:
        raise ValueError(f"M7 value {short!r}")
    return short  # hyphen-minus as on the code: U+2212 is not in the PDF fonts' encoding


# --- AO (ANNAOTTO): COLOUR.PATTERN, COLOUR.PATTERN.SIGN, or the wild ANNAOTTO; one label per side
_AO_COLOURS = {
    "RED": "Rot", "ORANGE": "Orange", "YELLOW": "Gelb", "GREEN": "Grün",
    "BLUE": "Blau", "PURPLE": "Lila", "PINK": "Rosa", "BROWN": "Braun",
}
_AO_PATTERNS = {"DOTS": "Punkte", "STRIPES": "Streifen", "CHECKS": "Karos", "WAVES": "Wellen"}
_AO_SIGNS = {"ANNA": "ANNA", "OTTO": "OTTO", "ALLE": "ALLE", "PLUS": "PLUS", "RETOUR": "RETOUR", "HUERDEN": "HÜRDEN"}


def _ao(short: str) -> str:
    if short == "ANNAOTTO":
        return "ANNAOTTO"
    parts = short.split(".")
    if (
        len(parts) not in (2, 3)
        or parts[0] not in _AO_COLOURS
        or parts[1] not in _AO_PATTERNS
        or (len(parts) == 3 and parts[2] not in _AO_SIGNS)
    ):
        raise ValueError(f"AO face {short!r}")
    words = [_AO_COLOURS[parts[0]], _AO_PATTERNS[parts[1]]]
    if len(parts) == 3:
        words.append(_AO_SIGNS[parts[2]])
    return SEP.join(words)


DESCRIBERS: dict[str, Callable[[str], str]] = {"AK": _ak, "AC": _ac, "PS": _ps, "M7": _m7, "AO": _ao}


def describe_face(face: str) -> str:
    """The face in plain words; ValueError for a face that is not in its deck's syntax (or no known deck)."""
    prefix, sep, short = face.partition(":")
    describer = DESCRIBERS.get(prefix)
    if not sep or describer is None:
        raise ValueError(f"no deck prefix in {face!r}")
    return describer(short)


def label_text(face: str) -> str:
    """What a label prints: the plain words, or the face itself where a deck's syntax is not known here."""
    try:
        return describe_face(face)
    except ValueError:
        return face.partition(":")[2] or face
