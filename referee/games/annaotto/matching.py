"""What may go on what (AO-R5, AO-R9), the signs, and the deck: shared by the checks and the hints."""

from __future__ import annotations

from functools import lru_cache

from referee.cards import Deck
from referee.decks.annaotto import Side, side_info, sides

ANNA, OTTO, ALLE, PLUS, RETOUR, HUERDEN = "ANNA", "OTTO", "ALLE", "PLUS", "RETOUR", "HUERDEN"
RACE_PENALTY = 2  # AO-R15e: the cards each loser of a race takes
ALTERNATE: dict[str | None, str] = {ANNA: OTTO, OTTO: ANNA}  # by a sign (a sign-less side has none)


@lru_cache(maxsize=16)
def deck_for(plain: int, special: int, wild: int) -> Deck[Side]:
    """The deck for these copy counts; decks are immutable, so one per composition is shared."""
    copies = sides({"plain": plain, "special": special, "wild": wild})
    return Deck(copies, {face: side_info(face) for face in copies})


def breaks_alternation(side: Side, top: Side) -> bool:
    """AO-R9's "never ANNA on ANNA, nor OTTO on OTTO" (a top ANNAOTTO asks only for its colour)."""
    return side.sign in ALTERNATE and not top.wild and top.sign == side.sign


def side_fits(side: Side, top: Side, colour: str | None, pattern: str | None) -> bool:
    """AO-R5 with AO-R9's alternation: may `side` go on `top` when no penalty is pending?

    `colour`/`pattern` are what the top asks for: its own, or the chosen colour after ANNAOTTO.
    """
    if side.wild:
        return True
    if top.wild:
        return side.colour == colour
    sign = side.sign
    if sign is not None and top.sign is not None and (top.sign == sign or ALTERNATE.get(sign) == top.sign):
        return True
    return side.colour == colour or side.pattern == pattern


def match_error(side: Side, top: Side, colour: str | None, pattern: str | None) -> str | None:
    """The error a side gets on `top` (no penalty pending): `must-alternate`, `no-match`, or None."""
    if breaks_alternation(side, top):
        return "must-alternate"
    return None if side_fits(side, top, colour, pattern) else "no-match"


@lru_cache(maxsize=4096)
def playable_faces(deck: Deck[Side], top: Side, colour: str | None) -> frozenset[str]:
    """Every face of `deck` that may go on `top` (asking for `colour`) when no penalty is pending.

    For hints: the same two rules as the checks (`breaks_alternation`, `side_fits`), over the whole deck.
    """
    pattern = None if top.wild else top.pattern
    return frozenset(face for face, side in deck.info.items()
                     if not breaks_alternation(side, top) and side_fits(side, top, colour, pattern))


@lru_cache(maxsize=64)
def faces_with_sign(deck: Deck[Side], sign: str) -> frozenset[str]:
    """Every face of `deck` showing `sign` (what may continue a pending chain or PLUS)."""
    return frozenset(face for face, side in deck.info.items() if side.sign == sign)

