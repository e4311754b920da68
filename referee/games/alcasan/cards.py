"""alcasan's cards (section 1) and what the pile's effective card lets on it (AC-R8, AC-R9)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from referee.cards import Deck
from referee.decks.alcasan import ELEMENTS, NUMBERS, PREFIX, SHORT_FACES, WASSER_VALUE, faces
from referee.rules import rule

HAND = 3  # the hand is refilled to 3 (AC-R4)
DEALT = 9  # section 3: 3 face-down, 3 face-up, 3 in the hand
RUN = 4  # four identical faces burn the pile (AC-R13)

NUMBER = "number"


@dataclass(frozen=True, slots=True)
class Face:
    """What one of the 13 faces means for the rules."""

    name: str  # the face without the prefix, as the state key `top` shows it: "7", "WASSER" …
    kind: str  # NUMBER, or the element's name: "WASSER", "FEUER", "ERDE", "LUFT"
    value: int  # value for comparison: the number, 4 for Wasser (AC-D1), 0 for Feuer, Erde and Luft


def _face(name: str) -> Face:
    if name in ELEMENTS:
        return Face(name, name, WASSER_VALUE if name == "WASSER" else 0)
    return Face(name, NUMBER, int(name))


FACES: dict[str, Face] = {f"{PREFIX}:{name}": _face(name) for name in SHORT_FACES}
LOWEST, HIGHEST = NUMBERS[0], NUMBERS[-1]


@lru_cache(maxsize=8)
def deck(copies: int) -> Deck[Face]:
    """The deck of 13 faces × `copies`; shared by every game with those copies, since a Deck never changes."""
    return Deck(faces(copies), FACES)


@dataclass(frozen=True, slots=True)
class Need:
    """What the pile requires of the next card (section 4's table; the state key `need`).

    Feuer, Erde and Luft may always be laid; the requirement is about numbers and Wasser.
    """

    text: str  # the state key: "any", "<=4" or ">=N"
    lowest: int = LOWEST  # the lowest number that may be laid
    at_most_4: bool = False  # Wasser decides: of the numbers and Wasser only 1, 2, 3 and Wasser


@rule("AC-R8")
def number_refused(face: Face, need: Need) -> str | None:
    """A number goes on no effective card, on Erde, or on a number not above it (equal is fine); on Wasser only
    a number up to 4. None if `face` may be laid, else the error code."""
    if face.kind != NUMBER:
        return None
    if face.value < need.lowest:
        return "too-low"
    if need.at_most_4 and face.value > WASSER_VALUE:
        return "too-high"
    return None


@rule("AC-R9")
def wasser_refused(face: Face, need: Need) -> str | None:
    """Wasser counts 4: not on an effective number of 5 or more, also under Luft (AC-D2). Feuer, Erde and Luft
    may be laid on anything (AC-R10 … AC-R12). None if `face` may be laid, else the error code."""
    if face.kind == "WASSER" and need.lowest > WASSER_VALUE:
        return "wasser-blocked"
    return None


def refusal(face: Face, need: Need) -> str | None:
    """Why `face` may not be laid while the pile requires `need` (AC-R8, AC-R9), None if it may."""
    return number_refused(face, need) or wasser_refused(face, need)


ANY = Need("any")
AT_MOST_4 = Need("<=4", at_most_4=True)
AT_LEAST = {n: Need(f">={n}", n) for n in NUMBERS}  # N or higher, per number
