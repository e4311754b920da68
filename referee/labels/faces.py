"""A card face in plain words for its label (`AK:8.II` → "8 · II"), German first, English on request.

One describer per deck prefix, following the face syntax of each rules file's
section 1 (`../shared/rules/<game>.md`). They read syntax only: which faces a deck
holds is the game's business (`referee.labels.game_deck`). Every text stays
within Windows-1252, the encoding of the PDF's built-in fonts.
"""

from __future__ import annotations

from collections.abc import Callable

SEP = " · "
LANGUAGES = ("de", "en")


def _word(words: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    """A word of a (German, English) table in `lang`."""
    de, en = words[key]
    return en if lang == "en" else de

# --- AK (Alles klar?): value 1–11, zero to two Roman numerals in ascending order
_AK_NUMERALS = ("I", "II", "III", "IV", "V")


def _ak(short: str, lang: str = "de") -> str:
    value, *numerals = short.split(".")
    if not value.isdigit() or value[0] == "0" or not 1 <= int(value) <= 11:
        raise ValueError(f"AK value {value!r}")
    if len(numerals) > 2 or any(n not in _AK_NUMERALS for n in numerals):
        raise ValueError(f"AK numerals {numerals!r}")
    if len(numerals) == 2 and _AK_NUMERALS.index(numerals[0]) >= _AK_NUMERALS.index(numerals[1]):
        raise ValueError("AK numerals must be distinct and ascending")
    return SEP.join([value, *numerals])


# --- AC (alcasan): number cards 1–3, 5–10 and the four elements
_AC_ELEMENTS = {"WASSER": ("Wasser", "Water"), "FEUER": ("Feuer", "Fire"), "ERDE": ("Erde", "Earth"),
                "LUFT": ("Luft", "Air")}
_AC_NUMBERS = frozenset(["1", "2", "3", "5", "6", "7", "8", "9", "10"])


def _ac(short: str, lang: str = "de") -> str:
    if short in _AC_ELEMENTS:
        return _word(_AC_ELEMENTS, short, lang)
    if short in _AC_NUMBERS:
        return short
    raise ValueError(f"AC face {short!r}")


# --- PS (Profi-Sort, a Rommé deck): suit letter + rank, or JOKER
_PS_SUITS = {"C": ("Kreuz", "Clubs"), "S": ("Pik", "Spades"), "H": ("Herz", "Hearts"), "D": ("Karo", "Diamonds")}
_PS_RANKS = {str(n): (str(n), str(n)) for n in range(2, 11)} | {
    "J": ("Bube", "Jack"), "Q": ("Dame", "Queen"), "K": ("König", "King"), "A": ("Ass", "Ace")}


def _ps(short: str, lang: str = "de") -> str:
    if short == "JOKER":
        return "Joker"
    suit, rank = short[:1], short[1:]
    if suit not in _PS_SUITS or rank not in _PS_RANKS:
        raise ValueError(f"PS face {short!r}")
    return f"{_word(_PS_SUITS, suit, lang)} {_word(_PS_RANKS, rank, lang)}"


# --- M7 (Die magische 7): points −6 … 13 and three special cards
_M7_SPECIALS = {"JOKER": ("Joker", "Joker"), "MIRROR": ("Spiegel", "Mirror"), "CROSS": ("Kreuz", "Cross")}


def _m7(short: str, lang: str = "de") -> str:
    if short in _M7_SPECIALS:
        return _word(_M7_SPECIALS, short, lang)
    digits = short[1:] if short.startswith("-") else short
    if not digits.isdigit() or not digits.isascii() or (digits[0] == "0" and digits != "0") or short == "-0":
        raise ValueError(f"M7 face {short!r}")
    if not -6 <= int(short) <= 13:
        raise ValueError(f"M7 value {short!r}")
    return short  # hyphen-minus as on the code: U+2212 is not in the PDF fonts' encoding


# --- AO (ANNAOTTO): COLOUR.PATTERN, COLOUR.PATTERN.SIGN, or the wild ANNAOTTO; one label per side
_AO_COLOURS = {
    "RED": ("Rot", "Red"), "ORANGE": ("Orange", "Orange"), "YELLOW": ("Gelb", "Yellow"),
    "GREEN": ("Grün", "Green"), "BLUE": ("Blau", "Blue"), "PURPLE": ("Lila", "Purple"),
    "PINK": ("Rosa", "Pink"), "BROWN": ("Braun", "Brown"),
}
_AO_PATTERNS = {"DOTS": ("Punkte", "Dots"), "STRIPES": ("Streifen", "Stripes"), "CHECKS": ("Karos", "Checks"),
                "WAVES": ("Wellen", "Waves")}
_AO_SIGNS = {"ANNA": ("ANNA", "ANNA"), "OTTO": ("OTTO", "OTTO"), "ALLE": ("ALLE", "ALLE"),
             "PLUS": ("PLUS", "PLUS"), "RETOUR": ("RETOUR", "RETURN"), "HUERDEN": ("HÜRDEN", "HURDLES")}


def ao_colour(colour: str, lang: str = "de") -> str:
    """An ANNAOTTO colour code (`RED`) in plain words, as its labels print it."""
    return _word(_AO_COLOURS, colour, lang)


def ao_pattern(pattern: str, lang: str = "de") -> str:
    """An ANNAOTTO pattern code (`DOTS`) in plain words, as its labels print it."""
    return _word(_AO_PATTERNS, pattern, lang)


def ao_sign(sign: str, lang: str = "de") -> str:
    """An ANNAOTTO sign code (`HUERDEN`) in plain words, as its labels print it."""
    return _word(_AO_SIGNS, sign, lang)


def _ao(short: str, lang: str = "de") -> str:
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
    words = [ao_colour(parts[0], lang), ao_pattern(parts[1], lang)]
    if len(parts) == 3:
        words.append(ao_sign(parts[2], lang))
    return SEP.join(words)


DESCRIBERS: dict[str, Callable[[str, str], str]] = {"AK": _ak, "AC": _ac, "PS": _ps, "M7": _m7, "AO": _ao}


def describe_face(face: str, lang: str = "de") -> str:
    """The face in plain words in `lang` ("de" or "en"); ValueError for a face that is not in its deck's syntax
    (or no known deck)."""
    prefix, sep, short = face.partition(":")
    describer = DESCRIBERS.get(prefix)
    if not sep or describer is None:
        raise ValueError(f"no deck prefix in {face!r}")
    return describer(short, lang)


def label_text(face: str, lang: str = "de") -> str:
    """What a label prints: the plain words, or the face itself where a deck's syntax is not known here."""
    try:
        return describe_face(face, lang)
    except ValueError:
        return face.partition(":")[2] or face
