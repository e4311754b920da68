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
from typing import Any

from referee.decks.alcasan import SHORT_FACES
from referee.games.alcasan import DEALT, HAND, RUN, deck
from referee.sim import TableSim, register, shuffled
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


_CODES: dict[int, tuple[list[str], dict[str, str]]] = {}


def _codes(copies: int) -> tuple[list[str], dict[str, str]]:
    """Every physical card's code, and code → face, for a deck of `copies`."""
    found = _CODES.get(copies)
    if found is None:
        codes = deck(copies).codes()
        found = _CODES[copies] = (codes, {code: code.partition("#")[0] for code in codes})
    return found


@register
class AlcasanTable(TableSim):
    game_id = "alcasan"
    default_players = 3

    def __init__(self, rng, players, options=None, dealer=None):
        super().__init__(rng, players, options, dealer)
        parsed = parse_header(self.header)[3]
        all_codes, self.face = _codes(parsed.copies)
        codes = list(all_codes)
        codes = shuffled(rng, codes)
        self.hands: dict[str, Holding] = {}
        self.up: dict[str, Holding] = {}
        self.down: dict[str, list[str]] = {}
        for p in self.players:
            self.down[p] = codes[-HAND:]
            six = codes[-DEALT:-HAND]  # the player picks 3 of the other 6 to lay face-up
            del codes[-DEALT:]
            six = shuffled(rng, six)
            self.up[p] = self._holding(six[:HAND])
            self.hands[p] = self._holding(six[HAND:])
        self.draw = codes
        self.pile: list[str] = []
        self.burned: list[str] = []
        self._below: str | None = None  # what `candidates` saw: the pile has not changed until `accepted`

    def _holding(self, codes: list[str]) -> Holding:
        holding: Holding = {}
        for code in codes:
            holding.setdefault(self.face[code], []).append(code)
        return holding

    def below(self) -> str | None:
        """The face that decides what may follow: the top card of the pile that is not Luft (None: any)."""
        face = self.face
        for code in reversed(self.pile):
            below = face[code]
            if below != LUFT:
                return below
        return None

    def candidates(self, referee: Referee) -> list[dict[str, Any]]:
        player = referee.turn
        source = self.hands[player] or self.up[player]
        rng = self.rng
        below = self._below = self.below()
        if not source:  # AC-R16: turn over one face-down card, chosen blind
            return [{"type": "reveal", "player": player, "card": rng.choice(self.down[player])}]
        keep = KEEP
        fit = FITS[below]
        best: str | None = None
        best_rank = 99
        misfit: str | None = None
        fitting: list[str] = []
        for f in source:
            if not fit[f]:
                misfit = f
            else:
                fitting.append(f)
                if keep[f] < best_rank:
                    best, best_rank = f, keep[f]
        if len(fitting) > 1 and rng.random() < WHIM_FACE:
            best = rng.choice(fitting)
        events: list[dict[str, Any]] = []
        if best is not None:
            codes = source[best]
            if len(codes) > 1 and rng.random() < SINGLE:
                codes = codes[:1]
            if len(codes) == 1 and rng.random() < 0.5:
                events.append({"type": "play", "player": player, "card": codes[0]})
            else:
                events.append({"type": "play", "player": player, "cards": list(codes)})
        if misfit is not None and rng.random() < MISFIT:
            events.append({"type": "play", "player": player, "card": source[misfit][0]})
        if self.pile and (best is None or rng.random() < WHIM):
            events.append({"type": "take_pile", "player": player})
        return events

    def accepted(self, event: Mapping[str, Any], referee: Referee) -> None:
        player = event["player"]
        kind = event["type"]
        hand = self.hands[player]
        if kind == "take_pile":
            self._take(hand, self.pile)
            return
        if kind == "play":
            codes = [event["card"]] if "card" in event else event["cards"]
            f = self.face[codes[0]]
            assert fits(f, self._below), f"the referee accepted {codes} on {self.pile}"
            source = hand or self.up[player]
            held = source[f]
            for code in codes:
                held.remove(code)
            if not held:
                del source[f]
            self._lay(player, codes)
            return
        code = event["card"]
        self.down[player].remove(code)
        fitted = fits(self.face[code], self._below)
        assert fitted == (not referee.game.hands[player]), f"reveal of {code} on {self.pile} judged wrongly"
        if fitted:
            self._lay(player, [code])
        else:  # the revealed card and the pile go to the hand
            self._take(hand, [*self.pile, code])

    def _take(self, hand: Holding, codes: list[str]) -> None:
        face = self.face
        for code in codes:
            hand.setdefault(face[code], []).append(code)
        self.pile = []

    def _lay(self, player: str, codes: list[str]) -> None:
        pile = self.pile
        pile.extend(codes)
        face = self.face
        top = face[codes[0]]
        if top == FEUER or (  # four equal faces on top (RUN)
            len(pile) >= RUN and face[pile[-2]] == top and face[pile[-3]] == top and face[pile[-4]] == top
        ):
            self.burned.extend(pile)
            self.pile = []
        draw = self.draw
        if draw:
            hand = self.hands[player]
            held = sum(len(codes) for codes in hand.values())
            while held < HAND and draw:
                code = draw.pop()
                hand.setdefault(face[code], []).append(code)
                held += 1

    def check(self, referee: Referee) -> None:
        game = referee.game

        def counts(rows: Mapping[str, Any]) -> dict[str, int]:
            return {
                p: len(row) if isinstance(row, list) else sum(len(c) for c in row.values()) for p, row in rows.items()
            }

        assert counts(self.hands) == game.hands, "hidden hands differ from hand counts"
        assert counts(self.up) == game.up, "face-up rows differ from the counts"
        assert counts(self.down) == game.down, "face-down rows differ from the counts"
        assert len(self.draw) == game.draw_pile, "draw pile differs"
        assert len(self.pile) == len(game.pile), "discard pile differs"
        assert len(self.burned) == game.burned, "burned cards differ"
        top = self.face[self.pile[-1]].partition(":")[2] if self.pile else None
        assert top == game.public()["top"], "top card differs"
        everything = [*self.draw, *self.pile, *self.burned]
        for p in self.players:
            everything += self.down[p]
            for row in (self.hands[p], self.up[p]):
                for codes in row.values():
                    everything += codes
        assert sorted(everything) == sorted(self.face), "a physical card was lost or doubled"
