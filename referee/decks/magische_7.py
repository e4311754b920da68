"""Die magische 7: one pack of 24 cards (rules section 1); two packs with four players."""

from __future__ import annotations

from collections.abc import Callable

from referee.event_words import common
from referee.registry import MISTAKE, MORE_WINS, SCANNING, SEAT_ONLY, CardFace, GameDefinition, HelpPage, define
from referee.words import N_

POINT_VALUES = range(-6, 14)
SPECIALS = {"JOKER": 2, "MIRROR": 1, "CROSS": 1}


def pack() -> dict[str, int]:
    """One pack: face → copies."""
    faces = {f"M7:{value}": 1 for value in POINT_VALUES}
    faces.update({f"M7:{name}": count for name, count in SPECIALS.items()})
    return faces


# --- the game's definition: everything about it that is not its rules (referee.registry)

SPECIAL_NAMES = {"JOKER": N_("Joker"), "MIRROR": N_("Mirror"), "CROSS": N_("Cross")}
SPECIAL_SYMBOLS = {"JOKER": "joker", "MIRROR": "mirror", "CROSS": "cross"}
PAIR_SUM = 7  # two points cards that add up to 7 form a pair (rules section 1)
PAIR = N_("pair")  # a points card names the value it makes 7 with: "pair −6"


def card_words(short: str, say: Callable[[str], str]) -> str:
    """A points card as its number (hyphen-minus as on the code), a special card by its name."""
    if short in SPECIAL_NAMES:
        return say(SPECIAL_NAMES[short])
    digits = short[1:] if short.startswith("-") else short
    if not digits.isdigit() or not digits.isascii() or (digits[0] == "0" and digits != "0") or short == "-0":
        raise ValueError(f"M7 face {short!r}")
    if int(short) not in POINT_VALUES:
        raise ValueError(f"M7 value {short!r}")
    return short  # U+2212 is not in the PDF fonts' encoding



def signed(value: int) -> str:
    """A points value with its sign, as a card reads: "+13", "−6" (a real minus), "0"."""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def card_face(short: str, say: Callable[[str], str]) -> CardFace:
    """A points card: its signed value large (negative ones in red), the value it makes 7 with small under it;
    a special card: its sign and its name."""
    card_words(short, say)  # a face that is not in the deck raises here
    if short in SPECIAL_NAMES:
        return CardFace(symbol=SPECIAL_SYMBOLS[short], small=say(SPECIAL_NAMES[short]))
    value = int(short)
    return CardFace(value=signed(value), small=f"{say(PAIR)} {signed(PAIR_SUM - value)}",
                    ink="red" if value < 0 else "black")


HELP = (
    HelpPage(N_("Goal and your turn"), (
        N_("Goal: the most points from tricks. Two players, or four in two teams."),
        N_("The leader lays any card and scans it; with four players, touch the opponent it is played against. "
           "That opponent then lays any card and scans it."),
        N_("After each trick both players take one card from the stock; the referee counts it."),
    )),
    HelpPage(N_("Who wins the trick"), (
        N_("The lead card wins, except: the second card wins if it is a Joker, if the lead card is the Cross, "
           "or if both are points cards that add up to 7."),
        N_("Points cards count their value (−6 to 13). Joker and Cross count 0; the Mirror counts the other "
           "card's points."),
        N_("The winner leads next. With four players you may not play against the same opponent twice in a "
           "row."),
    )),
    HelpPage(N_("End, buttons, mistakes"), (
        N_("The game ends when all hands are empty. Most points win; a tie shares the win."),
        SEAT_ONLY,
        SCANNING, MISTAKE,
    )),
)

STATE_WORDS = {"lead": N_("lead"), "leader": N_("leader"), "follower": N_("follower")}

define(GameDefinition(
    game_id="magische-7", order=3, prefix="M7", rules="magische-7.md", card_words=card_words,
    events=common("play"), score=MORE_WINS, help=HELP, card_face=card_face, state_words=STATE_WORDS,
))
