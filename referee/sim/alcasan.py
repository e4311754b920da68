"""The simulated alcasan table: hidden hands, face-up and face-down rows, the draw pile and the discard pile.

The table deals as section 3 says (3 face-down, 3 of the other 6 face-up, 3 in
the hand), proposes what the player on turn could physically do (lay cards of
one face from the current source, take the pile, turn over a face-down card)
and moves the physical cards when the referee accepts. It asks the referee only
through the public API: `hints()` says who is on turn, where their cards come
from and which faces may be laid; the public state says, after an accepted event,
whether the pile burned and how many cards the hand was refilled with.

Players keep the obligation to play (AC-R7, which the referee cannot enforce):
they mostly lay the lowest face the hints allow, and take the pile only when
nothing fits or, now and then, on a whim (AC-D8: the referee accepts it
anyway). Unless careful, they also scan a card the hints do not allow, or a
card already on the table (a double scan): the referee must refuse both, so
`hints()` and `apply()` are checked against each other in every game. The
separate `check` compares the physical cards with the referee's counts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from referee.decks.alcasan import DEFAULT_COPIES, SHORT_FACES
from referee.games.alcasan import DEALT, HAND, AlcasanState, deck
from referee.sim import SimPlayers, register
from referee.table import Referee, parse_header

WHIM = 0.03  # how often a player who could lay a card takes the pile anyway
SINGLE = 0.1  # how often a player holding several cards of the face lays only one
MISFIT = 0.2  # how often a card that may not be laid is scanned as well (the referee refuses it)
DOUBLE = 0.03  # how often a card already on the table is scanned again (the referee refuses it)
WHIM_FACE = 0.15  # how often a player lays another fitting face than the lowest (this breaks endless cycles)

Holding = dict[str, list[str]]  # face → the codes of the physical cards of that face

FACES = tuple(f"AC:{short}" for short in SHORT_FACES)
# The order in which a player parts with faces: numbers low to high (Wasser as 4), then Luft, Erde, Feuer.
KEEP = {face: i for i, face in enumerate(
    ["AC:1", "AC:2", "AC:3", "AC:WASSER", *(f"AC:{n}" for n in range(5, 11)), "AC:LUFT", "AC:ERDE", "AC:FEUER"]
)}


@lru_cache(maxsize=8)
def _codes(copies: int) -> tuple[list[str], dict[str, str]]:
    """Every physical card's code, and code → face, for a deck of `copies` (the same for every table)."""
    codes = deck(copies).codes()
    face = {f: f for f in FACES}  # each face one string object: comparisons and lookups stop at identity
    return codes, {code: face[code.partition("#")[0]] for code in codes}


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
class AlcasanTable(SimPlayers):
    game_id = "alcasan"
    default_players = 3
    mistakes = True  # misfits and double scans for the referee to refuse (`_mistakes`); a careful table makes none

    def __init__(self, rng: random.Random, players: Sequence[str], options: Mapping[str, Any] | None = None,
                 dealer: str | None = None):
        super().__init__(rng, players, options, dealer)
        copies = parse_header(self.header)[3].copies if self.options else DEFAULT_COPIES
        all_codes, self.face = _codes(copies)

        self.draw = list(all_codes)  # face down and unordered: `_deal` takes a random card each time
        self.seats: dict[str, Seat] = {}
        for p in self.players:
            nine = self._deal(DEALT)  # 3 face-down; the player picks 3 of the other 6 to lay face-up: any 3
            up = self._holding(nine[HAND : 2 * HAND])
            self.seats[p] = Seat(p, self._holding(nine[2 * HAND :]), up, nine[:HAND])
        self.pile: list[str] = []
        self.burned: list[str] = []
        self._fitting: dict[str, Any] | None = None  # the proposed play the hints allow, and its cards
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
        dealt = []
        for _ in range(count):
            i = self.rng.randrange(len(draw))
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
        hints = referee.hints()
        detail = hints.detail
        me = self.seats[hints.actors[0]]
        player = me.name
        if detail.source == "down":  # AC-R16: turn over one face-down card, chosen blind
            down = me.down
            return [{"type": "reveal", "player": player, "card": self.rng.choice(down)}]
        source = me.hand if detail.source == "hand" else me.up
        allowed = {f"AC:{name}" for name in detail.faces}
        fitting = sorted((f for f in source if f in allowed), key=KEEP.__getitem__)
        events: list[dict[str, Any]] = []
        if fitting:
            best = fitting[0]  # the lowest face held that may be laid
            if self.rng.random() < WHIM_FACE:  # now and then another one
                best = self.rng.choice(fitting)
            codes = source[best]
            n = len(codes)
            if n > 1 and self.rng.random() < SINGLE:
                n = 1
            play: dict[str, Any]
            if n == 1 and self.rng.random() < 0.5:
                play = {"type": "play", "player": player, "card": codes[0]}
            else:
                play = {"type": "play", "player": player, "cards": codes[:n]}
            events.append(play)
            # the one play the hints allow: `accepted` moves these cards without looking again
            # (an older `_fitting` is never proposed again, so it needs no reset when nothing fits)
            self._fitting = play
            self._move = (me, source, best, n)
        if not self.careful:
            events += self._mistakes(player, source, allowed)
        if detail.can_take and (not fitting or self.rng.random() < WHIM):
            events.append({"type": "take_pile", "player": player})
        return events

    def _mistakes(self, player: str, source: Holding, allowed: set[str]) -> list[dict[str, Any]]:
        """A card the hints do not allow, or a card already on the table scanned again: both must be refused."""
        events = []
        if self.rng.random() < MISFIT:
            misfits = [face for face in source if face not in allowed]
            if misfits:
                misfit = self.rng.choice(misfits)
                events.append({"type": "play", "player": player, "card": source[misfit][0]})
        table = self.pile or self.burned
        if table and self.rng.random() < DOUBLE:
            events.append({"type": "play", "player": player, "card": self.rng.choice(table)})
        return events

    def accepted(self, event: Mapping[str, Any], referee: Referee) -> None:
        state = referee.public_as(AlcasanState)
        if event is self._fitting:
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
            assert kind != "play", f"the referee accepted {event}, which its hints did not allow"
            if kind == "take_pile":
                self._take(me, self.pile)
                return
            code = event["card"]
            me.down.remove(code)
            laid = [code]
            if state.pile == 0 and state.burned == len(self.burned):  # it did not fit: card and pile taken
                self._take(me, [*self.pile, code])
                return
        self.pile += laid
        if state.burned > len(self.burned):  # Feuer or four equal faces on top: the pile burned
            self.burned += self.pile
            self.pile = []
        self._refill(me, state.hands[me.name] - me.held)

    def _refill(self, me: Seat, count: int) -> None:
        """The player draws `count` cards (the referee's refill), each a random one of the draw pile."""
        hand = me.hand
        for code in self._deal(count):
            hand.setdefault(self.face[code], []).append(code)
        me.held += count

    def _take(self, me: Seat, codes: list[str]) -> None:
        face = self.face
        hand = me.hand
        for code in codes:
            hand.setdefault(face[code], []).append(code)
        me.held += len(codes)
        self.pile = []

    def check(self, referee: Referee) -> None:
        state = referee.state()

        def counts(rows: Mapping[str, Any]) -> dict[str, int]:
            return {
                p: len(row) if isinstance(row, list) else sum(len(c) for c in row.values()) for p, row in rows.items()
            }

        assert counts(self.hands) == state["hands"], "hidden hands differ from hand counts"
        assert {p: seat.held for p, seat in self.seats.items()} == state["hands"], "the running hand counts differ"
        assert counts(self.up) == state["up"], "face-up rows differ from the counts"
        assert counts(self.down) == state["down"], "face-down rows differ from the counts"
        assert len(self.draw) == state["draw_pile"], "draw pile differs"
        assert len(self.pile) == state["pile"], "discard pile differs"
        assert len(self.burned) == state["burned"], "burned cards differ"
        top = self.face[self.pile[-1]].partition(":")[2] if self.pile else None
        assert top == state["top"], "top card differs"
        everything = [*self.draw, *self.pile, *self.burned]
        for p in self.players:
            everything += self.down[p]
            for row in (self.hands[p], self.up[p]):
                for codes in row.values():
                    everything += codes
        assert sorted(everything) == sorted(self.face), "a physical card was lost or doubled"
