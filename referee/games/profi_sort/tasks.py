"""Profi-Sort's task matcher: one checker per group kind, driven by the task sheet in `decks.profi_sort`.

`lay_groups` checks the groups of a `lay_task` against a task (§4, §5) and
returns the melds they become; `fits` checks cards added to a meld (§6) and
`add` puts them on it. Each group kind has one small function for laying and
one for extending (`LAYING`, `EXTENDING`). A failure raises a `Rejection` whose
message names the requirement that failed ("the run 5-6-7-9 has a gap at 8").
Shape, aces, jokers in No-J tasks and lone jokers are checked by the game
before (§17 order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from referee.answers import Rejection
from referee.decks.profi_sort import (
    FORMS,
    FORMS_RANKS,
    FOUR_SUITS,
    IDENTICAL_PAIRS,
    KIND_RANKS,
    KING,
    LOWEST,
    ONE_SUIT,
    PICTURES,
    RANK_LABEL,
    RUN,
    SET,
    SUIT_RUN,
    SUITS,
    TWOS_THREES,
    Face,
    Task,
)
from referee.rules import rule


@dataclass(slots=True)
class Meld:
    """A meld on the table: the public triple (`player`, `task`, `cards`) plus what its extension needs."""

    player: str  # who laid it
    task: str  # the task whose rules apply (the `as` task for task 15)
    kind: str  # the group kind (`SET`, `RUN` … in `decks.profi_sort`)
    cards: list[str]  # the codes as scanned, in meld order
    rank: int = 0  # a set's rank; four suits: its rank
    suit: str = ""  # the suit of a one-suit run or of five of one suit
    low: int = 0  # a run's lowest and highest rank
    high: int = 0
    form: str = ""  # task 10: "A" (3-5-9-J) or "B" (4-6-10-Q)
    seen: set[tuple[int, str]] = field(default_factory=set)  # task 10: the (rank, suit) pairs in the meld


def _cards(faces: Sequence[Face]) -> str:
    return " ".join(f.name for f in faces)


def _run_text(faces: Sequence[Face]) -> str:
    """A run as ranks, jokers as 'Joker' (e.g. '5-6-7-9')."""
    return "-".join("Joker" if f.joker else RANK_LABEL[f.rank] for f in faces)


def _rank(rank: int) -> str:
    return RANK_LABEL.get(rank, str(rank))


class _Fail(Exception):
    """A failed requirement: its reason key and values (turned into a Rejection by the caller)."""

    def __init__(self, reason: str, **params: object):
        super().__init__(reason)
        self.reason = reason
        self.params = params


# --- what groups and cards are (§5): jokers count as whatever fits (PS-R18)


def _naturals_rank(faces: Sequence[Face]) -> int:
    """The one rank of the natural cards (a set)."""
    rank = 0
    for f in faces:
        if not f.joker:
            if rank == 0:
                rank = f.rank
            elif f.rank != rank:
                raise _Fail("set-ranks", cards=_cards(faces), rank=_rank(rank), other_rank=_rank(f.rank))
    return rank


def _one_suit(faces: Sequence[Face]) -> str:
    """The one suit of the natural cards."""
    suit = ""
    for f in faces:
        if not f.joker:
            if not suit:
                suit = f.suit
            elif f.suit != suit:
                raise _Fail("suits", cards=_cards(faces), suit=suit, other_suit=f.suit)
    return suit


def _run_start(faces: Sequence[Face]) -> int:
    """The lowest rank s of a run listed lowest first (§5); every natural card must give the same s."""
    start = None
    for i, f in enumerate(faces):
        if f.joker:
            continue
        s = f.rank - i
        if start is None:
            start = s
        elif s != start:
            expected = start + i
            if f.rank > expected:
                raise _Fail("gap", cards=_run_text(faces), rank=_rank(expected))
            raise _Fail("not-ascending", cards=_run_text(faces), card=f.name)
    assert start is not None  # every group has a natural card (checked before, PS-R19)
    if start < LOWEST:
        raise _Fail("below-2", cards=_run_text(faces))
    if start + len(faces) - 1 > KING:
        raise _Fail("above-king", cards=_run_text(faces))
    return start


def _four_suits(faces: Sequence[Face]) -> None:
    present = {f.suit for f in faces}
    for suit in SUITS:
        if suit not in present:
            raise _Fail("four-suits-suit", cards=_cards(faces), suit=suit)


def _ranks_fit(meld: Meld, faces: Sequence[Face]) -> None:
    """Tasks 7 and 8: every natural card has one of the kind's ranks (2s and 3s; J, Q, K)."""
    allowed = KIND_RANKS[meld.kind]
    for f in faces:
        if not f.joker and f.rank not in allowed:
            raise _Fail("not-two-three" if meld.kind == TWOS_THREES else "not-picture", card=f.name)


# --- laying: one function per group kind, each fills in what the meld's extension needs


def _lay_set(meld: Meld, faces: Sequence[Face]) -> None:
    meld.rank = _naturals_rank(faces)


def _lay_run(meld: Meld, faces: Sequence[Face]) -> None:
    meld.low = _run_start(faces)
    meld.high = meld.low + len(faces) - 1
    if meld.kind == SUIT_RUN:
        meld.suit = _one_suit(faces)


def _lay_one_suit(meld: Meld, faces: Sequence[Face]) -> None:
    meld.suit = _one_suit(faces)


def _lay_four_suits(meld: Meld, faces: Sequence[Face]) -> None:
    """Task 3: one rank, one card of each suit."""
    try:
        meld.rank = _naturals_rank(faces)
    except _Fail:
        raise _Fail("four-suits-rank", cards=_cards(faces)) from None
    _four_suits(faces)


def _lay_identical_pairs(meld: Meld, faces: Sequence[Face]) -> None:
    """Task 9: three pairs of identical cards, three different faces."""
    counts: dict[str, int] = {}
    for f in faces:
        counts[f.name] = counts.get(f.name, 0) + 1
    for f in faces:
        n = counts[f.name]
        if n % 2:
            raise _Fail("pair-alone", card=f.name)
        if n > 2:
            raise _Fail("pair-twice", card=f.name)


def _lay_form(meld: Meld, faces: Sequence[Face]) -> None:
    """Task 10: the ranks of form A (3 5 9 J) or form B (4 6 10 Q), in four different suits."""
    ranks = tuple(sorted(f.rank for f in faces))
    for form, form_ranks in FORMS_RANKS.items():
        if ranks == form_ranks:
            meld.form = form
            break
    else:
        raise _Fail("form", cards=_cards(faces))
    suits: set[str] = set()
    for f in faces:
        if f.suit in suits:
            raise _Fail("form-suits", cards=_cards(faces), suit=f.suit)
        suits.add(f.suit)
    meld.seen = {(f.rank, f.suit) for f in faces}


LAYING: dict[str, Callable[[Meld, Sequence[Face]], None]] = {
    SET: _lay_set,
    RUN: _lay_run,
    SUIT_RUN: _lay_run,
    TWOS_THREES: _ranks_fit,
    PICTURES: _ranks_fit,
    ONE_SUIT: _lay_one_suit,
    FOUR_SUITS: _lay_four_suits,
    IDENTICAL_PAIRS: _lay_identical_pairs,
    FORMS: _lay_form,
}


@rule("PS-R18")
def _group(meld: Meld, faces: Sequence[Face]) -> None:
    """Check one group against its kind: a joker counts as the set's rank, as the rank of its position in a run,
    and as a fitting card in tasks 7, 8 and 14."""
    LAYING[meld.kind](meld, faces)


def lay_groups(task: Task, player: str, groups: Sequence[Sequence[Face]], codes: Sequence[Sequence[str]]) -> list[Meld]:
    """The melds of a valid laying of `task` (sizes already match); raise `task-not-met` naming the failure."""
    melds = []
    set_ranks: set[int] = set()
    try:
        for faces, group_codes in zip(groups, codes, strict=True):
            meld = Meld(player, task.id, task.kinds[len(faces)], list(group_codes))
            _group(meld, faces)
            if meld.kind == SET and task.different_ranks:  # §5: the sets of a task have different ranks
                if meld.rank in set_ranks:
                    raise _Fail("same-rank", rank=_rank(meld.rank))
                set_ranks.add(meld.rank)
            melds.append(meld)
    except _Fail as fail:
        raise Rejection("task-not-met", f"ps.task-not-met.{fail.reason}", task=task.id, **fail.params) from None
    return melds


# --- extending (§6): one function per meld kind; a run returns the end the cards go to


@rule("PS-R17")
def _run_side(meld: Meld, faces: Sequence[Face], side: str) -> None:
    """Cards listed in ascending order take the ranks just above the meld's highest (`high`) or just below its
    lowest (`low`): a natural card exactly its position's rank, never below 2 or above K; a one-suit run keeps
    its suit."""
    k = len(faces)
    first = meld.high + 1 if side == "high" else meld.low - k
    for i, f in enumerate(faces):
        rank = first + i
        if rank > KING:
            raise _Fail("above-king", cards=_run_text(faces))
        if rank < LOWEST:
            raise _Fail("below-2", cards=_run_text(faces))
        if f.joker:
            continue
        if f.rank != rank:
            raise _Fail("run-position", card=f.name, rank=_rank(rank), side=side)
        if meld.kind == SUIT_RUN and f.suit != meld.suit:
            raise _Fail("wrong-suit", card=f.name, suit=meld.suit)


def _extend_run(meld: Meld, faces: Sequence[Face], at: str | None) -> str:
    """`at` if given; else the high end, and if that does not fit the low end (Decision 15)."""
    if at is not None:
        _run_side(meld, faces, at)
        return at
    try:
        _run_side(meld, faces, "high")
        return "high"
    except _Fail:
        try:
            _run_side(meld, faces, "low")
        except _Fail:
            run = f"{_rank(meld.low)}…{_rank(meld.high)}"
            raise _Fail("both-ends", cards=_cards(faces), run=run) from None
        return "low"


def _extend_set(meld: Meld, faces: Sequence[Face], at: str | None) -> None:
    for f in faces:
        if not f.joker and f.rank != meld.rank:
            raise _Fail("wrong-rank", card=f.name, rank=_rank(meld.rank))


def _extend_ranks(meld: Meld, faces: Sequence[Face], at: str | None) -> None:
    _ranks_fit(meld, faces)


def _extend_one_suit(meld: Meld, faces: Sequence[Face], at: str | None) -> None:
    for f in faces:
        if not f.joker and f.suit != meld.suit:
            raise _Fail("wrong-suit", card=f.name, suit=meld.suit)


def _extend_four_suits(meld: Meld, faces: Sequence[Face], at: str | None) -> None:
    """Exception 1 (Decision 11): exactly 4 more cards of the meld's rank, one of each suit."""
    if len(faces) != 4:
        raise _Fail("four-suits-count", n=len(faces))
    for f in faces:
        if f.rank != meld.rank:
            raise _Fail("wrong-rank", card=f.name, rank=_rank(meld.rank))
    _four_suits(faces)


def _extend_pairs(meld: Meld, faces: Sequence[Face], at: str | None) -> None:
    """Exception 2 (Decision 12): exactly one more identical pair."""
    if len(faces) != 2 or faces[0].name != faces[1].name:
        raise _Fail("pair-count")


def _extend_form(meld: Meld, faces: Sequence[Face], at: str | None) -> None:
    """Exception 3: ranks of the meld's own form, each suit at most once per rank in the whole meld."""
    allowed = FORMS_RANKS[meld.form]
    added: set[tuple[int, str]] = set()
    for f in faces:
        if f.joker or f.rank not in allowed:
            raise _Fail("form-rank", card=f.name, form="-".join(_rank(r) for r in allowed))
        key = (f.rank, f.suit)
        if key in meld.seen or key in added:
            raise _Fail("form-repeat", card=f.name)
        added.add(key)


EXTENDING: dict[str, Callable[[Meld, Sequence[Face], str | None], str | None]] = {
    SET: _extend_set,
    RUN: _extend_run,
    SUIT_RUN: _extend_run,
    TWOS_THREES: _extend_ranks,
    PICTURES: _extend_ranks,
    ONE_SUIT: _extend_one_suit,
    FOUR_SUITS: _extend_four_suits,
    IDENTICAL_PAIRS: _extend_pairs,
    FORMS: _extend_form,
}


@rule("PS-R16")
def fits(meld_id: str, meld: Meld, faces: Sequence[Face], at: str | None) -> str | None:
    """What may extend a meld, by its kind (no aces, jokers already allowed); the run end used, else None.

    Raises `does-not-fit` naming the failed requirement.
    """
    try:
        return EXTENDING[meld.kind](meld, faces, at)
    except _Fail as fail:
        raise Rejection("does-not-fit", f"ps.does-not-fit.{fail.reason}", meld=meld_id, **fail.params) from None


def add(meld: Meld, faces: Sequence[Face], codes: Sequence[str], side: str | None) -> None:
    """Put checked cards on the meld: low cards in front, everything else behind."""
    if side == "low":
        meld.cards[:0] = codes
        meld.low -= len(codes)
    else:
        meld.cards.extend(codes)
        if side == "high":
            meld.high += len(codes)
        elif meld.kind == FORMS:
            meld.seen.update((f.rank, f.suit) for f in faces)
