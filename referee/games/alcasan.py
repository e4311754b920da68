"""alcasan (`../shared/rules/alcasan.md`): climb a discard pile, burn it, shed hand, face-up and face-down cards.

The referee sees only scanned cards; it keeps counts per player (hand, face-up,
face-down), the discard pile, the burned count and the draw pile. The pile's
requirement is kept as one small integer, `need`: 0 = any face, -1 = "4 or
lower" (Wasser), N ≥ 1 = "N or higher". Luft leaves it as it is (transparent,
AC-R12), so the effective card under any number of Luft cards costs nothing.
The top face, how many of it lie on top and `need` together are a `PileState`;
there are few of them, each knows the state one more card of each face leads to,
so a play is judged and laid with one look-up.

The table of AC-D19 (pile plus burned cards) is one small integer per face: how
many cards of the face lie there, times 2**copies, plus a bit per named copy
among them (copy c is bit c - 1). A card is one too many when the count is
already `copies` or its bit is set; laying it adds 2**copies plus its bit. A burn
empties the pile into the burned cards, so right after it the table *is* the
burned cards: the counts are remembered then, and taking the pile (or a revealed
misfit) puts them back instead of taking the pile off card by card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee import messages
from referee.cards import CardCodeError, Deck
from referee.decks.alcasan import DEFAULT_COPIES, NUMBERS, PREFIX, SHORT_FACES, WASSER_VALUE, faces
from referee.games import register
from referee.protocol import Game, HeaderError, Rejection, bool_option, is_int, known_options, need_str, need_str_list

HAND = 3  # AC-R4: the hand is refilled to 3
DEALT = 9  # section 3: 3 face-down, 3 face-up, 3 in the hand
RUN = 4  # AC-R13: four identical faces burn the pile

# `need` values besides "N or higher"
ANY = 0
AT_MOST_4 = -1

# Message keys carry the suffix ".ac" so that another game's sentence for the same code never collides.
messages.register({
    "event-not-used.ac": (
        "alcasan has no '{type}' event: hands are refilled automatically and no button is used (AC-D11, AC-D20).",
        "alcasan kennt kein Ereignis „{type}“: nachgezogen wird automatisch, Knöpfe werden nicht benutzt "
        "(AC-D11, AC-D20).",
    ),
    "bad-event.ac-card-or-cards": (
        "A play names exactly one of 'card' (one card) or 'cards' (a list of cards).",
        "Ein Ausspiel nennt genau eines von „card“ (eine Karte) oder „cards“ (eine Liste von Karten).",
    ),
    "mixed-faces.ac": (
        "Several cards at once must all show the same face, not {faces} (AC-R2).",
        "Mehrere Karten auf einmal müssen alle dasselbe Bild zeigen, nicht {faces} (AC-R2).",
    ),
    "too-many-cards.ac-hand": (
        "{player} has only {have} hand card(s), not {count} (AC-R3).",
        "{player} hat nur {have} Handkarte(n), nicht {count} (AC-R3).",
    ),
    "too-many-cards.ac-up": (
        "{player} has only {have} face-up card(s) left, not {count} (AC-R3).",
        "{player} hat nur noch {have} offene Karte(n), nicht {count} (AC-R3).",
    ),
    "too-low.ac": (
        "{face} is lower than the {need} on the pile (AC-R8).",
        "{face} ist niedriger als die {need} auf dem Stapel (AC-R8).",
    ),
    "too-high.ac": (
        "Wasser lies on the pile: only 4 or lower may follow, not {face} (AC-R9).",
        "Auf dem Stapel liegt Wasser: nur 4 oder weniger darf folgen, nicht {face} (AC-R9).",
    ),
    "wasser-blocked.ac": (
        "Wasser counts 4 and cannot go on the {need} (AC-R9).",
        "Wasser zählt 4 und darf nicht auf die {need} (AC-R9).",
    ),
    "pile-empty.ac": (
        "The discard pile is empty: there is nothing to take (AC-R6, AC-D9).",
        "Der Ablegestapel ist leer: es gibt nichts aufzunehmen (AC-R6, AC-D9).",
    ),
    "must-reveal.ac": (
        "{player} has no hand or face-up cards left and must turn over a face-down card (AC-R16).",
        "{player} hat keine Hand- oder offenen Karten mehr und muss eine verdeckte Karte umdrehen (AC-R16).",
    ),
    "not-face-down.ac": (
        "{player} still has hand or face-up cards: face-down cards come last (AC-R16).",
        "{player} hat noch Hand- oder offene Karten: die verdeckten Karten kommen zuletzt (AC-R16).",
    ),
})



class Face:
    """One face's meaning: its short name, what it makes the pile require, and its verdict per requirement."""

    __slots__ = ("burns", "index", "name", "sets_need", "verdict")

    def __init__(self, name: str, index: int):
        self.name = name  # "7", "WASSER" …
        self.index = index  # where the table counts this face (`Alcasan.table`)
        self.burns = name == "FEUER"  # AC-R10
        # what `need` becomes when this face is the effective card (None: Luft and Feuer do not set it)
        self.sets_need: int | None
        if name.isdigit():
            self.sets_need = int(name)
        else:
            self.sets_need = {"WASSER": AT_MOST_4, "ERDE": ANY}.get(name)
        self.verdict: dict[int, str | None] = {need: _verdict(name, need) for need in (ANY, AT_MOST_4, *NUMBERS)}

    def __deepcopy__(self, memo: dict) -> Face:
        return self

    def __repr__(self) -> str:
        return f"Face({self.name!r})"


def _verdict(name: str, need: int) -> str | None:
    """AC-R8 … AC-R12: None if `name` may be laid while the pile requires `need`, else the error code."""
    if name in ("FEUER", "ERDE", "LUFT") or need == ANY:
        return None
    value = WASSER_VALUE if name == "WASSER" else int(name)
    if need == AT_MOST_4:  # AC-R9: 1, 2, 3 or Wasser
        return None if value <= WASSER_VALUE else "too-high"
    if name == "WASSER":
        return None if need <= WASSER_VALUE else "wasser-blocked"
    return None if value >= need else "too-low"


def need_text(need: int) -> str:
    """The state key `need` (section 8)."""
    if need == ANY:
        return "any"
    if need == AT_MOST_4:
        return "<=4"
    return f">={need}"


class PileState:
    """The discard pile as the rules read it: the top face, how many cards of it lie on top (AC-R13) and what the
    next card must be (`need`, AC-R8 … AC-R12). States are shared by every game (`_pile_state`).

    `after[i]` is the state once one card of the face with index i is laid: None where the face may not be laid,
    `BURNED` where it burns the pile. It is filled by `_link_states`, from `_following` (the rules, in one place).
    """

    __slots__ = ("after", "burns", "need", "run", "top")

    def __init__(self, top: Face | None, run: int, need: int, burns: bool = False):
        self.top = top
        self.run = run
        self.need = need
        self.burns = burns  # the state right after a burn: an empty pile that the same player lays on again
        self.after: list[PileState | None] = []

    def __repr__(self) -> str:
        top = None if self.top is None else self.top.name
        return f"PileState({top!r}, run={self.run}, need={need_text(self.need)!r}, burns={self.burns})"


class Holder:
    """One seated player: the counts of section 8 (`hands`, `up`, `down`) and who follows them now (AC-R5).

    The hot path reads and changes these as slots of one object found once per event, not as three dicts by name.
    """

    __slots__ = ("down", "hand", "name", "next", "up")

    def __init__(self, name: str, follower: str):
        self.name = name
        self.hand = self.up = self.down = HAND  # section 3
        self.next = follower  # the next player clockwise who still holds cards (`Alcasan._follow_holders`)

    def __repr__(self) -> str:
        return f"Holder({self.name!r}, hand={self.hand}, up={self.up}, down={self.down}, next={self.next!r})"


_FACES = {f"{PREFIX}:{name}": Face(name, i) for i, name in enumerate(SHORT_FACES)}
EMPTY = PileState(None, 0, ANY)
BURNED = PileState(None, 0, ANY, burns=True)  # empty as well: what follows a burn is what follows on EMPTY
_STATES: dict[tuple[Face | None, int, int], PileState] = {(None, 0, ANY): EMPTY}


def _following(state: PileState, face: Face) -> PileState:
    """The pile after one card of `face` (which may be laid) on `state`: Feuer or a fourth identical face burns it
    (AC-R10, AC-R13); the face sets what follows, except Luft, which leaves the requirement below (AC-R12)."""
    run = state.run + 1 if face is state.top else 1
    if face.burns or run >= RUN:
        return BURNED
    need = state.need if face.sets_need is None else face.sets_need
    found = _STATES.get((face, run, need))
    if found is None:
        found = _STATES[(face, run, need)] = PileState(face, run, need)
    return found


def _link_states() -> None:
    """Every state reachable from the empty pile, each with its `after` (a few dozen: built once, at import)."""
    todo = [EMPTY]
    while todo:
        state = todo.pop()
        for face in _FACES.values():
            if face.verdict[state.need] is not None:
                state.after.append(None)
                continue
            known = len(_STATES)
            nxt = _following(state, face)
            state.after.append(nxt)
            if len(_STATES) > known:
                todo.append(nxt)
    BURNED.after = EMPTY.after


_link_states()
_DECKS: dict[int, Deck] = {}  # by copies: a deck never changes, so games share it (and its lookup cache)

# What the referee needs of a scanned code: its face, its bit among the face's named copies on the table (copy c
# is bit c - 1; 0 when the code names no copy) and what it adds to the face's entry in `Alcasan.table`.
Look = tuple[Face, int, int]
_LOOKS: dict[int, dict[str, Look]] = {}  # by copies, like the decks: only valid codes, so it stays small
_SEATING: dict[tuple[str, ...], dict[str, list[str]]] = {}  # by players: each seat's followers clockwise


def deck(copies: int) -> Deck:
    found = _DECKS.get(copies)
    if found is None:
        found = _DECKS[copies] = Deck(faces(copies), _FACES)
        _LOOKS[copies] = {}
    return found


def _cards_field(event: Mapping[str, Any]) -> list[str]:
    """Check 5 for a play that is not one string `card`: the list `cards`, or the matching `bad-event`."""
    codes = event.get("cards")
    if type(codes) is list and codes and "card" not in event:
        for code in codes:
            if type(code) is not str:
                break
        else:
            return codes
    if "card" in event:
        if "cards" in event:
            raise Rejection("bad-event", "bad-event.ac-card-or-cards")
        need_str(event, "card")  # present but not a string
    if "cards" not in event:
        raise Rejection("bad-event", "bad-event.ac-card-or-cards")
    return need_str_list(event, "cards")


@dataclass(frozen=True)
class Options:
    copies: int = DEFAULT_COPIES
    stop_at_first: bool = False


@register
class Alcasan(Game):
    id = "alcasan"
    title = "alcasan"
    player_counts = (2, 3, 4)
    event_types = frozenset({"play", "take_pile", "reveal", "draw", "press"})
    shape_first = False  # section 7: `game-over` comes before the field checks

    @classmethod
    def parse_options(cls, options: Mapping[str, Any], players: Sequence[str], dealer: str) -> Options:
        known_options(options, "copies", "stop_at_first")
        copies = options.get("copies", DEFAULT_COPIES)
        if not is_int(copies) or copies < 1:
            raise HeaderError("copies must be an integer of at least 1", "copies muss eine ganze Zahl ab 1 sein")
        size = len(SHORT_FACES) * copies
        if size < DEALT * len(players):
            raise HeaderError(
                f"{copies} copies make {size} cards, fewer than the {DEALT * len(players)} dealt",
                f"{copies} Exemplare ergeben {size} Karten, weniger als die {DEALT * len(players)} ausgeteilten",
            )
        return Options(copies, bool_option(options, "stop_at_first", False))

    def __init__(self, players: Sequence[str], dealer: str, options: Options):
        super().__init__(players, dealer, options)
        self.deck = deck(options.copies)
        self._looks = _LOOKS[options.copies]
        after = _SEATING.get(self.players)
        if after is None:
            after = {p: [self.next_seat(p, k) for k in range(1, len(self.players))] for p in self.players}
            if len(_SEATING) < 256:  # a kiosk sees few tables of players; bound it all the same
                _SEATING[self.players] = after
        self._after = after  # each seat's followers clockwise (AC-R5, `_follow_holders`)
        self.holders = {p: Holder(p, followers[0]) for p, followers in after.items()}
        # AC-D19: the table is the pile plus the burned cards, counted per face (every face has `copies` cards,
        # see the deck module) as the module docstring says: the way CardTally counts, without building a Card
        # key per scan. `_burned_table` counts the burned cards alone.
        self._copies = options.copies
        self._full = options.copies << options.copies  # a face's entry from here on holds every copy
        self.table = [0] * len(SHORT_FACES)
        self._burned_table = self.table.copy()
        self.draw_pile = self.deck.size - DEALT * len(self.players)
        self.pile = 0  # cards in the discard pile
        self.state = EMPTY  # its top face, how many of it lie on top, and `need`
        self.burned = 0
        self.out: list[str] = []
        self.places = dict.fromkeys(self.players, 0)
        self.holding = len(self.players)  # players who still hold cards
        self.winners: list[str] = []
        self.turn = self.next_seat(dealer)

    @property
    def hands(self) -> dict[str, int]:
        """Hand cards per player (the state key `hands`)."""
        return {p: h.hand for p, h in self.holders.items()}

    @property
    def up(self) -> dict[str, int]:
        return {p: h.up for p, h in self.holders.items()}

    @property
    def down(self) -> dict[str, int]:
        return {p: h.down for p, h in self.holders.items()}

    # --- judging one event: section 7's checks 3 … 10 in order, then the event's effect

    @classmethod
    def judges(cls) -> Mapping[str, Callable[[Alcasan, Mapping[str, Any]], None]]:
        """One function per event type, checks 4 … 10 (the reducer did 1 … 3: a known type, undo, game over)."""
        return _JUDGES

    def _judge_play(self, event: Mapping[str, Any]) -> None:
        """A play of one card is nine events in ten, so its checks are written out here, one call less on the
        hot path: AC-R2, AC-R3, AC-R8 … AC-R12, one card (`card`, or `cards` of one) or several of one face.
        """
        player = event.get("player")
        if type(player) is not str:  # check 5
            need_str(event, "player")
        code = event.get("card")
        if type(code) is not str or "cards" in event:
            codes = event.get("cards")
            if type(codes) is not list or len(codes) != 1 or type(codes[0]) is not str or "card" in event:
                self._judge_several(player, _cards_field(event))  # check 5 (a list of one is checked there too)
                return
            code = codes[0]  # one card in a list is the same play as `card`
        me = self.holders.get(player)
        if me is None:  # check 6
            raise Rejection("unknown-player", player=player)
        face, bit, add = self._looks.get(code) or self._new_look(code)  # check 7
        entry = self.table[face.index]
        if entry >= self._full or entry & bit:  # check 8 (as `_check_table`)
            raise Rejection("card-exhausted", card=code)
        if player != self.turn:  # check 9
            self.on_turn(player)
        hand = me.hand  # check 10 (as `_check_several`); AC-R3: from the hand, or else from the face-up cards
        if not hand and not me.up:  # AC-R16
            raise Rejection("must-reveal", "must-reveal.ac", player=player)
        state = self.state.after[face.index]
        if state is None:  # AC-R8 … AC-R12
            self._refuse(face)
        if hand:
            me.hand = hand - 1
        else:
            me.up -= 1
        self._lay(me, face, 1, add, state)

    def _judge_unused(self, event: Mapping[str, Any]) -> None:
        raise Rejection("event-not-used", "event-not-used.ac", type=event["type"])  # check 4: draw, press

    def _judge_several(self, player: str, codes: list[str]) -> None:
        """A play of several cards (checks 6 … 10), which must show one face (AC-R2)."""
        me = self.holders.get(player)
        if me is None:  # check 6
            raise Rejection("unknown-player", player=player)
        looks = [self._looks.get(code) or self._new_look(code) for code in codes]  # check 7
        add = self._check_table(looks, codes)  # check 8
        if player != self.turn:  # check 9
            self.on_turn(player)
        face = looks[0][0]
        self._check_several(me, face, looks)  # check 10
        if me.hand:  # AC-R3: from the hand, or else from the face-up cards
            me.hand -= len(looks)
        else:
            me.up -= len(looks)
        state = self.state
        for _ in looks:  # one card after the other: a burn takes all of them (AC-R13)
            state = state.after[face.index]
            if state.burns:
                break
        self._lay(me, face, len(looks), add, state)

    def _judge_take(self, event: Mapping[str, Any]) -> None:
        """AC-R6: take the whole pile into the hand."""
        player = event.get("player")
        if type(player) is not str:  # check 5
            need_str(event, "player")
        me = self.holders.get(player)
        if me is None:  # check 6
            raise Rejection("unknown-player", player=player)
        if player != self.turn:  # check 9
            self.on_turn(player)
        if not me.hand and not me.up:  # check 10: AC-R16, AC-D15
            raise Rejection("must-reveal", "must-reveal.ac", player=player)
        if not self.pile:  # AC-D9
            raise Rejection("pile-empty", "pile-empty.ac")
        me.hand += self.pile  # AC-D10: the next player starts a new pile
        self._clear_pile()
        self.turn = me.next  # AC-R5

    def _judge_reveal(self, event: Mapping[str, Any]) -> None:
        """AC-R16: turn over a face-down card; a legal face counts as a play, else card and pile go to the hand."""
        player = event.get("player")
        if type(player) is not str:  # check 5
            need_str(event, "player")
        code = event.get("card")
        if type(code) is not str:
            need_str(event, "card")
        me = self.holders.get(player)
        if me is None:  # check 6
            raise Rejection("unknown-player", player=player)
        look = self._looks.get(code) or self._new_look(code)  # check 7
        add = self._check_table((look,), (code,))  # check 8
        face = look[0]
        if player != self.turn:  # check 9
            self.on_turn(player)
        if me.hand or me.up:  # check 10
            raise Rejection("not-face-down", "not-face-down.ac", player=player)
        me.down -= 1
        state = self.state.after[face.index]
        if state is not None:  # an illegal face is no error (AC-R16)
            self._lay(me, face, 1, add, state)
            return
        me.hand += self.pile + 1  # the revealed card never joined the table
        self._clear_pile()
        self.turn = me.next  # AC-R5

    # --- the checks

    def _new_look(self, code: str) -> Look:
        """Check 7 for a code not seen before: the deck decides; a valid code is remembered for every game."""
        try:
            card, face = self.deck.lookup(code)
        except CardCodeError:
            raise Rejection("unknown-card", card=code) from None
        bit = 0 if card.copy is None else 1 << (card.copy - 1)
        look = self._looks[code] = (face, bit, (1 << self._copies) + bit)
        return look

    def _check_table(self, looks: Sequence[Look], codes: Sequence[str]) -> int:
        """Check 8 (AC-D19): the event's cards and the table hold no more of a face than the deck, no named copy
        twice; what the cards add to the table (the first face's entry: check 10 allows no other). A single
        played card's check is written out in `_judge_play` (the hot path)."""
        entries: dict[Face, int] = {}  # each face's entry as the event's cards are added one by one
        table, full = self.table, self._full
        for face, bit, add in looks:
            entry = entries.get(face)
            if entry is None:
                entry = table[face.index]
            if entry >= full or entry & bit:
                raise Rejection("card-exhausted", card=", ".join(codes))
            entries[face] = entry + add
        face = looks[0][0]
        return entries[face] - table[face.index]

    def _check_several(self, me: Holder, face: Face, several: list[Look]) -> None:
        """Check 10 for a play of several cards (the play of one card writes it out in `_judge_play`)."""
        kind, have = ("hand", me.hand) if me.hand else ("up", me.up)  # AC-R3: the hand, or else the face-up cards
        if not have:  # AC-R16
            raise Rejection("must-reveal", "must-reveal.ac", player=me.name)
        for other, _, _ in several:  # AC-R2
            if other is not face:
                names = ", ".join(dict.fromkeys(f.name for f, _, _ in several))
                raise Rejection("mixed-faces", "mixed-faces.ac", faces=names)
        if len(several) > have:  # AC-R3
            raise Rejection(
                "too-many-cards", f"too-many-cards.ac-{kind}", player=me.name, have=have, count=len(several)
            )
        if self.state.after[face.index] is None:  # AC-R8 … AC-R12
            self._refuse(face)

    def _refuse(self, face: Face) -> None:
        """AC-R8 … AC-R12: `face` may not go on the pile's requirement."""
        need = self.state.need
        error = face.verdict[need]
        raise Rejection(error, f"{error}.ac", face=face.name, need=need_text(need)[2:])

    # --- mutations, after every check passed

    def _clear_pile(self) -> None:
        """The pile goes back to a hand: its cards leave the table (AC-D19), which is the burned cards again."""
        self.table = self._burned_table.copy()
        self.pile = 0
        self.state = EMPTY

    def _burn(self) -> None:
        """AC-R10, AC-R13: the pile leaves the game; the table is now the burned cards alone (AC-D19)."""
        self.burned += self.pile
        self._burned_table = self.table.copy()
        self.pile = 0

    def _lay(self, me: Holder, face: Face, n: int, add: int, state: PileState) -> None:
        """`n` cards of `face` (adding `add` to its table entry) join the pile, which is in `state` then (BURNED
        by Feuer or four identical, AC-R10, AC-R13); refill; who is next."""
        self.table[face.index] += add  # the table grows by these cards (AC-D19)
        self.pile += n
        self.state = state
        burn = state.burns
        if burn:
            self._burn()
        if self.draw_pile and me.hand < HAND:  # AC-R4: refill to 3 while the draw pile lasts
            drawn = HAND - me.hand
            if drawn > self.draw_pile:
                drawn = self.draw_pile
            me.hand += drawn
            self.draw_pile -= drawn
        if me.hand or me.up or me.down:
            if not burn:  # AC-R14: after a burn the same player lays again
                self.turn = me.next  # AC-R5
            return
        self._player_out(me)

    def _follow_holders(self) -> None:
        """AC-R5 after a player went out: each seat is followed by the next one clockwise that still holds cards."""
        places = self.places
        for p, after in self._after.items():
            self.holders[p].next = next(nxt for nxt in after if not places[nxt])

    def _player_out(self, me: Holder) -> None:
        """AC-R17, AC-R18: the player is out; the game ends with the first out or the last one holding cards."""
        self.out.append(me.name)
        self.places[me.name] = len(self.out)
        self.holding -= 1
        if self.options.stop_at_first:
            self._finish(2)
        elif self.holding == 1:
            self._finish(len(self.players))
        else:
            self._follow_holders()
            self.turn = me.next  # AC-R5

    def _finish(self, place: int) -> None:
        for p in self.players:
            if not self.places[p]:
                self.places[p] = place
        self.finished = True
        self.turn = None
        self.winners = [self.out[0]]

    # --- reading

    def public(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "finished": self.finished,
            "scores": dict(self.places),
            "winners": list(self.winners),
            "pile": self.pile,
            "top": None if self.state.top is None else self.state.top.name,
            "need": need_text(self.state.need),
            "burned": self.burned,
            "draw_pile": self.draw_pile,
            "hands": self.hands,
            "up": self.up,
            "down": self.down,
            "out": list(self.out),
        }

    def card_places(self) -> dict[str, int]:
        return {
            "hands": sum(self.hands.values()),
            "up": sum(self.up.values()),
            "down": sum(self.down.values()),
            "draw_pile": self.draw_pile,
            "pile": self.pile,
            "burned": self.burned,
        }


_JUDGES: dict[str, Callable[[Alcasan, Mapping[str, Any]], None]] = {
    "play": Alcasan._judge_play,
    "take_pile": Alcasan._judge_take,
    "reveal": Alcasan._judge_reveal,
    "draw": Alcasan._judge_unused,
    "press": Alcasan._judge_unused,
}
