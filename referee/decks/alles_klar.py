"""Alles klar?: 77 faces, one copy each (rules section 1, decision D1).

Values 1–11; per value one face without numeral, one with each single numeral,
and one two-numeral face from the table below.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.event_words import common
from referee.registry import MISTAKE, MORE_WINS, SCANNING, SEAT_ONLY, SEP, CardFace, GameDefinition, HelpPage, define
from referee.words import N_

NUMERALS = ("I", "II", "III", "IV", "V")
VALUES = range(1, 12)

# value → its two-numeral face's numerals (the last column of the rules' table)
TWO_NUMERALS = {
    1: ("I", "II"),
    2: ("II", "III"),
    3: ("III", "IV"),
    4: ("IV", "V"),
    5: ("I", "V"),
    6: ("I", "II"),
    7: ("II", "III"),
    8: ("III", "IV"),
    9: ("IV", "V"),
    10: ("I", "V"),
    11: ("I", "II"),
}


def default_faces() -> list[str]:
    faces = []
    for value in VALUES:
        faces.append(f"AK:{value}")
        faces.extend(f"AK:{value}.{numeral}" for numeral in NUMERALS)
        faces.append(f"AK:{value}." + ".".join(TWO_NUMERALS[value]))
    return faces


# --- the game's definition: everything about it that is not its rules (referee.registry)


def card_words(short: str, say: Callable[[str], str]) -> str:
    """`8.II` → "8 · II": the value, then its numerals in ascending order (rules section 1)."""
    value, *numerals = short.split(".")
    if not value.isdigit() or value[0] == "0" or int(value) not in VALUES:
        raise ValueError(f"AK value {value!r}")
    if len(numerals) > 2 or any(n not in NUMERALS for n in numerals):
        raise ValueError(f"AK numerals {numerals!r}")
    if len(numerals) == 2 and NUMERALS.index(numerals[0]) >= NUMERALS.index(numerals[1]):
        raise ValueError("AK numerals must be distinct and ascending")
    return SEP.join([value, *numerals])



def card_face(short: str, say: Callable[[str], str]) -> CardFace:
    """The value large, its numerals small under it (`8.II`)."""
    card_words(short, say)  # a face that is not in the deck raises here
    value, *numerals = short.split(".")
    return CardFace(value=value, small=SEP.join(numerals))


HELP = (
    HelpPage(N_("Goal and your turn"), (
        N_("Goal: win the most cards in tricks. Everyone holds 4 cards; the five ranking cards I–V lie face up."),
        N_("On your turn lay one card face up in front of you and scan it. Then take one card from the stock: "
           "the referee counts it for you."),
        N_("A card with two numerals: touch the numeral you use."),
    )),
    HelpPage(N_("How a trick ends"), (
        N_("A numeral turns that ranking card face down. A second card of the same value turns the earlier one "
           "face down."),
        N_("When only one ranking card is left open – say III – and that many cards lie face up, the third-highest "
           "card wins all cards of the trick; its owner starts the next trick."),
        N_("No ranking card open: a blind trick. Its cards leave the game; whoever caused it starts next."),
    )),
    HelpPage(N_("End, buttons, mistakes"), (
        N_("When the stock is empty, the trick being played is the last one. Whoever won the most cards wins."),
        SEAT_ONLY,
        SCANNING, MISTAKE,
    )),
)

STATE_WORDS = {"ranking": N_("ranking cards open"), "removed": N_("out of the game"), "table": N_("face-up cards"),
               "trick_size": N_("cards in the trick"), "outcome": N_("outcome")}

define(GameDefinition(
    game_id="alles-klar", order=0, prefix="AK", rules="alles-klar.md", card_words=card_words,
    events=common("play"), score=MORE_WINS, help=HELP, card_face=card_face, state_words=STATE_WORDS,
))
