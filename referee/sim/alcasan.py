"""The simulated alcasan table: hidden hands, face-up and face-down rows, the draw pile and the discard pile.

The table deals as section 3 says (3 face-down, 3 of the other 6 face-up, 3 in
the hand), proposes what the player on turn could physically do (lay cards of
one face from the current source, take the pile, turn over a face-down card)
and moves the physical cards when the referee accepts. Burns are seen at the
table (a Feuer, or four equal faces on top) and the hand is refilled to 3 from
the draw pile, independently of the referee's bookkeeping, so `check` compares
two separate accounts of the same game.

Players keep the obligation to play (AC-R7, which the referee cannot enforce):
the table reads the physical pile (looking through Luft to the card below),
mostly lays the lowest face that fits, and takes the pile only when nothing fits or,
now and then, on a whim (AC-D8: the referee accepts it anyway). This reading
is a second, separate account of AC-R8 … AC-R12: every accepted play and
every reveal is asserted to agree with it, and a play the table thinks fits but
the referee refuses leaves no accepted proposal, which the driver reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import filterfalse
from math import floor
from typing import Any

from referee.decks.alcasan import DEFAULT_COPIES, SHORT_FACES
from referee.games.alcasan import DEALT, HAND, RUN, deck
from referee.sim import TableSim, register
from referee.table import Referee, parse_header

FEUER = "AC:FEUER"
ERDE = "AC:ERDE"
LUFT = "AC:LUFT"
WASSER = "AC:WASSER"
ALWAYS = frozenset({FEUER, ERDE, LUFT})
WHIM = 0.03  # how often a player who could lay a card takes the pile anyway
SINGLE = 0.1  # how often a player holding several cards of the face lays only one
MISFIT = 0.2  # how often a card that does not fit is scanned as well (the referee refuses it)
WHIM_FACE = 0.15  # how often a player lays another fitting face than the lowest (this breaks endless cycles)

Holding = dict[str, list[str]]  # face → the codes of the physical cards of that face


def value(face: str) -> int:
    """The comparison value at the table: the number, 4 for Wasser."""
    return 4 if face == WASSER else int(face.partition(":")[2])


FACES = tuple(f"AC:{short}" for short in SHORT_FACES)
VALUE = {face: value(face) for face in FACES if face not in ALWAYS}
KEEP = {**VALUE, LUFT: 11, ERDE: 12, FEUER: 13}  # the order in which a player parts with faces


def fits(face: str, below: str | None) -> bool:
    """May `face` go on a pile whose deciding card (the top card that is not Luft) is `below`?"""
    if below is None or face in ALWAYS or below == ERDE:
        return True
    if below == WASSER:
        return VALUE[face] <= 4
    return VALUE[face] >= VALUE[below]


# below → face → fits, for the proposals (the same answers as `fits`, looked up); Luft is never the deciding
# card and Feuer never stays on the pile
FITS = {below: {face: fits(face, below) for face in FACES} for below in (None, *FACES) if below not in (LUFT, FEUER)}
# below → the faces that fit on it, in the order a player parts with them (KEEP): the first one held is laid
ORDER = {below: tuple(sorted((f for f, ok in row.items() if ok), key=KEEP.__getitem__)) for below, row in FITS.items()}


_CODES: dict[int, tuple[list[str], dict[str, str]]] = {}


def _codes(copies: int) -> tuple[list[str], dict[str, str]]:
    """Every physical card's code, and code → face, for a deck of `copies`."""
    found = _CODES.get(copies)
    if found is None:
        codes = deck(copies).codes()
        face = {f: f for f in FACES}  # each face one string object: comparisons and lookups stop at identity
        found = _CODES[copies] = (codes, {code: face[code.partition("#")[0]] for code in codes})
    return found


class Seat:
    """One player's physical cards: the hand and the face-up row by face, the face-down row, and the hand's size
    counted as cards move (the refill needs it every turn)."""

    __slots__ = ("down", "hand", "held", "name", "up")

    def __init__(self, name: str, hand: Holding, up: Holding, down: list[str]):
        self.name = name
        self.hand = hand
        self.up = up
        self.down = down
        self.held = len(down)  # 3, like the hand


@register
class AlcasanTable(TableSim):
    game_id = "alcasan"
    default_players = 3
    mistakes = True  # misfits laid for the referee to refuse (`candidates`); a careful table lays none

    def __init__(self, rng, players, options=None, dealer=None):
        super().__init__(rng, players, options, dealer)
        copies = parse_header(self.header)[3].copies if self.options else DEFAULT_COPIES
        all_codes, self.face = _codes(copies)
        # random picks: floor(random() * n), cheaper than `randrange` and than int() of the float, same value
        self.random = rng.random
        self.draw = list(all_codes)  # face down and unordered: `_deal` takes a random card each time
        self.seats: dict[str, Seat] = {}
        for p in self.players:
            nine = self._deal(DEALT)  # 3 face-down; the player picks 3 of the other 6 to lay face-up: any 3
            up = self._holding(nine[HAND : 2 * HAND])
            self.seats[p] = Seat(p, self._holding(nine[2 * HAND :]), up, nine[:HAND])
        self.pile: list[str] = []
        self.burned: list[str] = []
        self.below: str | None = None  # the face that decides what may follow: the top card that is not Luft
        self._fitting: dict[str, Any] | None = None  # the proposed play that fits at the table, and its cards
        self._move: tuple[Seat, Holding, str, int] = (self.seats[p], {}, "", 0)

    @property
    def hands(self) -> dict[str, Holding]:
        return {p: seat.hand for p, seat in self.seats.items()}

    @property
    def up(self) -> dict[str, Holding]:
        return {p: seat.up for p, seat in self.seats.items()}

    @property
    def down(self) -> dict[str, list[str]]:
        return {p: seat.down for p, seat in self.seats.items()}

    def _deal(self, count: int) -> list[str]:
        """`count` cards off the draw pile, as if it were shuffled: each one a uniform choice among the cards
        left (a Fisher–Yates shuffle done lazily, so no card is shuffled that is never drawn)."""
        draw = self.draw
        random = self.random
        dealt = []
        for _ in range(count):
            i = floor(random() * len(draw))
            last = draw.pop()
            if i < len(draw):
                dealt.append(draw[i])
                draw[i] = last
            else:
                dealt.append(last)
        return dealt

    def _holding(self, codes: list[str]) -> Holding:
        holding: Holding = {}
        for code in codes:
            holding.setdefault(self.face[code], []).append(code)
        return holding

    def candidates(self, referee: Referee) -> list[dict[str, Any]]:
        me = self.seats[referee.game.turn]
        player = me.name
        source = me.hand or me.up
        random = self.random
        if not source:  # AC-R16: turn over one face-down card, chosen blind
            down = me.down
            return [{"type": "reveal", "player": player, "card": down[floor(random() * len(down))]}]
        order = ORDER[self.below]
        best: str | None = None
        for f in order:  # the lowest face held that fits
            if f in source:
                best = f
                break
        if best is None:
            events: list[dict[str, Any]] = []
        else:
            if random() < WHIM_FACE:  # now and then another fitting face than the lowest
                fitting = [f for f in order if f in source]
                best = fitting[floor(random() * len(fitting))]
            codes = source[best]
            n = len(codes)
            if n > 1 and random() < SINGLE:
                n = 1
            if n == 1 and random() < 0.5:
                play = {"type": "play", "player": player, "card": codes[0]}
            else:
                play = {"type": "play", "player": player, "cards": codes[:n]}
            events = [play]
            # the one play that fits by the table's reading: `accepted` moves these cards without looking again
            # (an older `_fitting` is never proposed again, so it needs no reset when nothing fits)
            self._fitting = play
            self._move = (me, source, best, n)
        if random() < MISFIT and not self.careful:  # a card that does not fit, for the referee to refuse
            misfits = list(filterfalse(FITS[self.below].__getitem__, source))
            if misfits:
                misfit = misfits[floor(random() * len(misfits))]
                events.append({"type": "play", "player": player, "card": source[misfit][0]})
        if self.pile and (best is None or random() < WHIM):
            events.append({"type": "take_pile", "player": player})
        return events

    def accepted(self, event: Mapping[str, Any], referee: Referee) -> None:
        if event is self._fitting:  # the table's own reading of AC-R8 … AC-R12 agrees with the referee's
            me, source, top, n = self._move
            laid = source[top]
            if n == len(laid):
                del source[top]
            else:
                laid = laid[:n]
                del source[top][:n]
            if source is me.hand:
                me.held -= n
        else:
            me = self.seats[event["player"]]
            kind = event["type"]
            assert kind != "play", f"the referee accepted {event}, which does not fit on {self.pile} at the table"
            if kind == "take_pile":
                self._take(me, self.pile)
                return
            code = event["card"]
            me.down.remove(code)
            top = self.face[code]
            fitted = FITS[self.below][top]
            assert fitted == (not referee.game.holders[me.name].hand), f"reveal of {code} on {self.pile} judged wrongly"
            if not fitted:  # the revealed card and the pile go to the hand
                self.pile.append(code)
                self._take(me, self.pile)
                return
            laid = [code]
        # the laid cards (a play, or a revealed card that fits) join the pile
        pile = self.pile
        pile += laid
        face = self.face
        if top == FEUER or (  # four equal faces on top (RUN)
            len(pile) >= RUN and face[pile[-2]] == top and face[pile[-3]] == top and face[pile[-4]] == top
        ):
            self.burned += pile
            self.pile = []
            self.below = None
        elif top != LUFT:  # Luft is transparent (AC-R12): the card below keeps deciding
            self.below = top
        draw = self.draw
        if draw and me.held < HAND:  # refill the hand to 3, each card a random one of the draw pile
            hand = me.hand
            random = self.random
            while draw and me.held < HAND:
                i = floor(random() * len(draw))  # as `_deal`
                last = draw.pop()
                if i < len(draw):
                    code = draw[i]
                    draw[i] = last
                else:
                    code = last
                hand.setdefault(face[code], []).append(code)
                me.held += 1

    def _take(self, me: Seat, codes: list[str]) -> None:
        face = self.face
        hand = me.hand
        for code in codes:
            hand.setdefault(face[code], []).append(code)
        me.held += len(codes)
        self.pile = []
        self.below = None

    def check(self, referee: Referee) -> None:
        game = referee.game

        def counts(rows: Mapping[str, Any]) -> dict[str, int]:
            return {
                p: len(row) if isinstance(row, list) else sum(len(c) for c in row.values()) for p, row in rows.items()
            }

        assert counts(self.hands) == game.hands, "hidden hands differ from hand counts"
        assert {p: seat.held for p, seat in self.seats.items()} == game.hands, "the running hand counts differ"
        assert counts(self.up) == game.up, "face-up rows differ from the counts"
        assert counts(self.down) == game.down, "face-down rows differ from the counts"
        assert len(self.draw) == game.draw_pile, "draw pile differs"
        assert len(self.pile) == game.pile, "discard pile differs"
        assert len(self.burned) == game.burned, "burned cards differ"
        top = self.face[self.pile[-1]].partition(":")[2] if self.pile else None
        assert top == game.public()["top"], "top card differs"
        below = next((self.face[c] for c in reversed(self.pile) if self.face[c] != LUFT), None)
        assert below == self.below, "the deciding card was followed wrongly"
        everything = [*self.draw, *self.pile, *self.burned]
        for p in self.players:
            everything += self.down[p]
            for row in (self.hands[p], self.up[p]):
                for codes in row.values():
                    everything += codes
        assert sorted(everything) == sorted(self.face), "a physical card was lost or doubled"
        # AC-D19: the referee's table (per face: the count times 2**copies plus a bit per named copy) is the physical
        # pile plus the burned cards, however often the pile was taken or burned since
        copies = game.options.copies
        table = dict.fromkeys(FACES, 0)
        for code in [*self.pile, *self.burned]:
            table[self.face[code]] += (1 << copies) + (1 << (int(code.partition("#")[2]) - 1))
        assert game.table == list(table.values()), "the referee counts another table (AC-D19)"
