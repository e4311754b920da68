"""Card codes `DECK:FACE#N` as small frozen values, and decks as face → copies.

A code names a face of one game's deck and, optionally, which physical copy of
it was scanned. Faces are opaque here; each game's deck module attaches meaning
(value, numerals, colour …) to them. Parsing is strict because the code is
exactly what a barcode encodes: anything else is not a card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from referee.errors import RefereeError
from referee.registry import known_prefixes

# No deck holds a billion copies of a face: a longer copy number is out of range without converting it.
_MAX_COPY_DIGITS = 9


class CardCodeError(RefereeError, ValueError):
    """The text is not a card code of the deck in use (`unknown-card`)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One scanned card: the face (`AK:8.II`) and the copy number, if the code carried one."""

    face: str
    copy: int | None = None
    # The canonical code (`AK:8.II#2`), made once: the tallies key named copies by it (a str caches its hash).
    code: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", self.face if self.copy is None else f"{self.face}#{self.copy}")

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Split `DECK:FACE#N` without judging the face; raise CardCodeError on a malformed copy number."""
        face, sep, copy_text = code.partition("#")
        if not sep:
            return cls(face)
        # "#N": N a decimal integer from 1, no leading zero, no sign, nothing else.
        if not copy_text or not copy_text.isdigit() or not copy_text.isascii() or copy_text[0] == "0":
            raise CardCodeError(f"bad copy number in {code!r}")
        if len(copy_text) > _MAX_COPY_DIGITS:  # out of any deck's range; int() refuses > 4300 digits anyway
            raise CardCodeError(f"copy number out of range in {code!r}")
        return cls(face, int(copy_text))

    @property
    def prefix(self) -> str:
        return self.face.partition(":")[0]

    @property
    def short(self) -> str:
        """The face without the deck prefix (`8.II`)."""
        return self.face.partition(":")[2]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.from_code({str(self)!r})"


F = TypeVar("F")


class Deck(Generic[F]):
    """A deck in use: how many copies of each face it holds, and what each face means.

    `info` maps a face (`"AK:8.II"`) to the game's own description of it. Lookups of
    whole codes are cached: a table only ever scans a few hundred distinct codes.
    """

    __slots__ = ("_cache", "_codes", "copies", "info", "size")

    def __init__(self, copies: Mapping[str, int], info: Mapping[str, F]):
        self.copies: dict[str, int] = {face: n for face, n in copies.items() if n > 0}
        self.info: dict[str, F] = {face: info[face] for face in self.copies}
        self.size: int = sum(self.copies.values())
        self._cache: dict[str, tuple[Card, F]] = {}
        self._codes = tuple(f"{face}#{n}" for face, count in self.copies.items() for n in range(1, count + 1))

    def lookup(self, code: str) -> tuple[Card, F]:
        """The card and its face's meaning; CardCodeError if the code is not a card of this deck."""
        hit = self._cache.get(code)
        if hit is not None:
            return hit
        card = Card.from_code(code)
        copies = self.copies.get(card.face)
        if copies is None:
            raise CardCodeError(f"{code!r} is not a card of this deck")
        if card.copy is not None and card.copy > copies:
            raise CardCodeError(f"{code!r}: the deck holds only {copies} of {card.face}")
        hit = (card, self.info[card.face])
        if len(self._cache) < 4096:
            self._cache[code] = hit
        return hit

    def __contains__(self, code: object) -> bool:
        try:
            self.lookup(code)  # type: ignore[arg-type]
        except (CardCodeError, AttributeError):
            return False
        return True

    def codes(self, with_copies: bool = True) -> list[str]:
        """Every physical card's code (`FACE#N`), or every face once."""
        if not with_copies:
            return list(self.copies)
        return list(self._codes)

    def faces(self) -> Iterable[str]:
        return self.copies.keys()


class CardTally:
    """The cards "on the table" for `card-exhausted`: faces counted, named copies marked by their code.

    Each game says what its table is (all plays so far, the pile, this round's
    cards); the counting rule is the same everywhere: no more cards of a face than
    the deck holds, no named copy twice.
    """

    __slots__ = ("copies", "counts")

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.copies: set[str] = set()  # the codes of the named copies on the table

    def fits(self, cards: Iterable[Card], deck: Deck[Any]) -> bool:
        """Could these cards (together) join the table without exceeding the deck?"""
        extra: dict[str, int] = {}
        named: set[str] = set()
        for card in cards:
            n = extra.get(card.face, 0) + 1
            if self.counts.get(card.face, 0) + n > deck.copies[card.face]:
                return False
            extra[card.face] = n
            if card.copy is not None:
                if card.code in self.copies or card.code in named:
                    return False
                named.add(card.code)
        return True

    def fits_one(self, card: Card, deck: Deck[Any]) -> bool:
        if self.counts.get(card.face, 0) >= deck.copies[card.face]:
            return False
        return card.copy is None or card.code not in self.copies

    def add(self, card: Card) -> None:
        self.counts[card.face] = self.counts.get(card.face, 0) + 1
        if card.copy is not None:
            self.copies.add(card.code)

    def remove(self, card: Card) -> None:
        left = self.counts[card.face] - 1
        if left:
            self.counts[card.face] = left
        else:
            del self.counts[card.face]
        if card.copy is not None:
            self.copies.discard(card.code)

    def clear(self) -> None:
        self.counts.clear()
        self.copies.clear()

    def total(self) -> int:
        return sum(self.counts.values())


_PLAUSIBLE_FACE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")


def plausible_code(code: str) -> bool:
    """Could this text be a card code of any game (known prefix, face characters, copy suffix)?

    The prefixes are those of the declared games (`referee.registry`). A first, deck-independent filter for
    scanners: noise and foreign barcodes become
    reader errors; whether the face is in the deck in use is the referee's call.
    """
    if not code.isascii() or len(code) > 40:
        return False
    prefix, sep, rest = code.partition(":")
    if not sep or prefix not in known_prefixes():
        return False
    face, hash_sep, copy_text = rest.partition("#")
    if not face or not set(face) <= _PLAUSIBLE_FACE:
        return False
    return not hash_sep or (copy_text.isdigit() and copy_text[0] != "0")
