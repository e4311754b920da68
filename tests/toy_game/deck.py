"""Higher's deck and its definition: everything about the game that is not its rules (`referee.registry`).

In the project a game's deck module is `referee/decks/<game>.py`; this one lives with the test suite.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from referee.event_words import common
from referee.registry import MISTAKE, MORE_WINS, SCANNING, GameDefinition, GameOption, HelpPage
from referee.words import N_

GAME_ID = "higher"
PREFIX = "HI"
VALUES = range(1, 7)
COPIES = 2


def faces() -> dict[str, int]:
    """The deck: face (`HI:4`) → copies."""
    return {f"{PREFIX}:{value}": COPIES for value in VALUES}


def card_words(short: str, say: Callable[[str], str]) -> str:
    """A card reads as its number."""
    if not short.isdigit() or int(short) not in VALUES:
        raise ValueError(f"HI face {short!r}")
    return short


def _knock(e: Mapping[str, Any], p: str, w: Any) -> str:
    return w.tr("{player} knocks: the other player takes the pile", player=p)


HELP = (
    HelpPage(N_("Higher: your turn"), (
        N_("Lay a card no lower than the top card of the pile and scan it."),
        N_("Cannot or will not go higher? Touch Knock: the other player takes the pile."),
    )),
    HelpPage(N_("Higher: the end"), (
        N_("When both hands are empty the game is over. Most cards taken win."),
        SCANNING, MISTAKE,
    )),
)

# The one option a table may set at the set-up, with the default the rules play when the header leaves it out.
OPTIONS = (GameOption("strict", N_("Strictly higher"), ((N_("no"), False), (N_("yes"), True)), default=False),)

DEFINITION = GameDefinition(
    game_id=GAME_ID, order=99, prefix=PREFIX, rules=str(Path(__file__).with_name("rules.md")), card_words=card_words,
    events=common("play") | {"knock": _knock}, score=MORE_WINS, help=HELP, options=OPTIONS,
)
