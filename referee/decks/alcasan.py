"""alcasan: 13 faces × 4 copies = 52 cards (rules section 1, decision AC-D1).

Number cards 1, 2, 3 and 5 … 10 (there is no plain 4: Wasser is the 4) and the
four element cards. The option `copies` changes the copies of every face.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.event_words import common
from referee.registry import MISTAKE, PLACES, SCANNING, CardFace, GameDefinition, HelpPage, define
from referee.words import N_

PREFIX = "AC"
NUMBERS = (1, 2, 3, 5, 6, 7, 8, 9, 10)
ELEMENTS = ("WASSER", "FEUER", "ERDE", "LUFT")
SHORT_FACES = tuple(str(n) for n in NUMBERS) + ELEMENTS
DEFAULT_COPIES = 4
WASSER_VALUE = 4


def faces(copies: int = DEFAULT_COPIES) -> dict[str, int]:
    """The deck: face (`AC:7`) → copies."""
    return {f"{PREFIX}:{short}": copies for short in SHORT_FACES}


# --- the game's definition: everything about it that is not its rules (referee.registry)

ELEMENT_NAMES = {"WASSER": N_("Water"), "FEUER": N_("Fire"), "ERDE": N_("Earth"), "LUFT": N_("Air")}
# How an element card looks: its sign and its colour (our own art: a drop, a flame, a mountain, gusts of air).
ELEMENT_LOOKS = {"WASSER": ("water", "blue"), "FEUER": ("fire", "red"), "ERDE": ("earth", "brown"),
                 "LUFT": ("air", "sky")}


def card_words(short: str, say: Callable[[str], str]) -> str:
    """A number card as its number, an element card by its name."""
    if short in ELEMENT_NAMES:
        return say(ELEMENT_NAMES[short])
    if short in SHORT_FACES:
        return short
    raise ValueError(f"AC face {short!r}")



def card_face(short: str, say: Callable[[str], str]) -> CardFace:
    """A number card by its number; an element card by its sign in its colour, its name small under it."""
    card_words(short, say)  # a face that is not in the deck raises here
    if short in ELEMENT_LOOKS:
        symbol, ink = ELEMENT_LOOKS[short]
        return CardFace(symbol=symbol, small=say(ELEMENT_NAMES[short]), ink=ink)
    return CardFace(value=short)


HELP = (
    HelpPage(N_("Goal and your turn"), (
        N_("Goal: be the first with no cards left. Everyone has 3 face-down, 3 face-up and 3 hand cards."),
        N_("On your turn lay one card, or several of the same face, on the pile and scan each. For several, "
           "touch “Lay several”, scan them, then touch Lay."),
        N_("A number must be as high as the card below or higher. Cannot play? Touch “Take the pile”."),
        N_("Keep 3 cards in your hand while the draw pile lasts; the referee counts the draws."),
    )),
    HelpPage(N_("Special cards"), (
        N_("Water is the 4: after it only 1, 2, 3, Water or an element card."),
        N_("Fire burns the pile (it leaves the game) and you lay again. Four equal cards in a row burn it too."),
        N_("Earth: any card may follow. Air is see-through: the card below it counts."),
    )),
    HelpPage(N_("Face-up, face-down, end"), (
        N_("Hand empty and draw pile gone: play your face-up cards. Then turn over one face-down card and scan "
           "it: if it does not fit, it goes to your hand with the whole pile."),
        N_("Out of cards: you are out, the others play on. The seat buttons only take a seat at the start."),
        SCANNING, MISTAKE,
    )),
)

STATE_WORDS = {"burned": N_("burned"), "down": N_("face-down"), "need": N_("to lay"), "up": N_("face-up")}

define(GameDefinition(
    game_id="alcasan", order=1, prefix=PREFIX, rules="alcasan.md", card_words=card_words,
    events=common("play", "draw", "press", "reveal", "take_pile"), score=PLACES, help=HELP,
    card_face=card_face, state_words=STATE_WORDS,
))
