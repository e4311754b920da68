"""What every part of Profi-Sort reads: the hand size, the phases, the deck."""

from __future__ import annotations

from functools import lru_cache

from referee.cards import Deck
from referee.decks.profi_sort import Face, faces

HAND = 10  # cards dealt to each player (PS-R3)
ACE_POINTS = 15  # §10: an ace in the hand at the round end, own or received

PLAY, SCORING, ROUND_OVER, OVER = "play", "scoring", "round-over", "over"
# The phase in which each event type is allowed (§17 check 5).
PHASE_OF = {
    "draw": PLAY, "skip_with_ace": PLAY, "give_ace": PLAY, "lay_task": PLAY, "extend": PLAY, "discard": PLAY,
    "redeal": PLAY, "reveal_hand": SCORING, "new_round": ROUND_OVER,
}


@lru_cache(maxsize=9)
def deck(jokers: int) -> Deck[Face]:
    """The deck with `jokers` jokers; shared by every game with as many, since a Deck never changes."""
    return Deck(*faces(jokers))

