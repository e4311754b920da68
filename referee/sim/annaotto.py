"""The simulated ANNAOTTO table: two-sided physical cards, hidden hands, the draw pile, races and calls.

A physical card is a pair of side codes. The default deck gives every special or
wild side a plain back (rules section 1); the sides are paired at random for each
game. In a hand a card is the tuple (side facing the owner, side facing the table):
the owner plays the first, others play the second with `from`; a flip reverses the
tuple. The table mirrors every card the referee hands out (penalties, catches, race
results) and reshuffles its discard pile exactly when its own draw pile runs dry,
so its counts must agree with the referee's after every event (`check`).

The table asks the referee what may come next (`Referee.hints()`: who acts, what
is owed, which faces may be laid) and never reads the rules itself; now and then it
plays a card without looking. Players sometimes forget a call (and are
sometimes caught), the ALLE layer sometimes forgets ALLE, and the kiosk sometimes
closes a race before every participant slapped. A `careful` table makes none of
these mistakes: its players only make moves they believe legal, like the random
agents of other engines' benchmarks, and like RLCard's Uno agents (whose rules allow a
draw only when no card fits, and play a drawn card that fits) they draw only when no
card of theirs fits, and lay a drawn card that fits.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from referee.cards import Deck
from referee.decks.annaotto import COLOURS, Side
from referee.games.annaotto import AnnaottoState
from referee.hints import Hints, RaceView
from referee.sim import SimPlayers, opening, register, shuffled
from referee.table import Referee


class DeckSides(NamedTuple):
    """What the table needs to know about a deck's side codes (one per deck, shared by its games)."""

    side: dict[str, Any]  # side code (`AO:RED.DOTS#2`) → its meaning
    face: dict[str, str]  # side code → face (`AO:RED.DOTS`)
    plain: list[str]  # the plain side codes
    other: list[str]  # the special and wild side codes
    fitting: dict[frozenset[str], frozenset[str]]  # playable faces → their side codes, noted as tops come up


@lru_cache(maxsize=16)
def deck_sides(deck: Deck[Side]) -> DeckSides:
    """The deck's side codes, sorted out once per deck."""
    side = {code: deck.info[code.partition("#")[0]] for code in deck.codes()}
    face = {code: code.partition("#")[0] for code in side}
    plain = [code for code, info in side.items() if info.kind == "plain"]
    other = [code for code, info in side.items() if info.kind != "plain"]
    return DeckSides(side, face, plain, other, {})


def _first_fitting(hand: list[tuple[str, str]], at: int, fitting: frozenset[str]) -> tuple[str, str] | None:
    """The first card in `hand` from position `at` on (wrapping round) whose own side fits."""
    for card in hand[at:]:
        if card[0] in fitting:
            return card
    for card in hand[:at]:
        if card[0] in fitting:
            return card
    return None


def _shuffled_cards(rng: random.Random, cards: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The cards in random order, each either side up: every other one is turned over (after the
    shuffle a position says nothing about a card, so each card is turned with probability ½)."""
    cards = shuffled(rng, cards)
    return [(b, a) if i % 2 == 0 else (a, b) for i, (a, b) in enumerate(cards)]


@register
class AnnaottoTable(SimPlayers):
    game_id = "annaotto"
    default_players = 4
    mistakes = True

    def __init__(self, rng: random.Random, players: Sequence[str], options: Mapping[str, Any] | None = None,
                 dealer: str | None = None):
        super().__init__(rng, players, options, dealer)
        deck, dealt = opening(self.header)
        sides = deck_sides(deck)
        self.side, self.face, self._codes = sides.side, sides.face, sides.fitting  # the tops repeat across games
        plain_codes, other_codes = sides.plain, sides.other
        # Random partners: every special or wild side gets a plain back, while there are plain sides.
        plain = shuffled(rng, plain_codes)
        k = min(len(plain), len(other_codes))
        cards = list(zip(other_codes[:k], plain[:k], strict=True))
        rest = other_codes[k:] + plain[k:]
        if k < len(other_codes):
            rest = shuffled(rng, rest)
        cards += zip(rest[0::2], rest[1::2], strict=True)
        self.draw = _shuffled_cards(rng, cards)
        self.pile: list[tuple[str, str]] = []  # (upward side, other side)
        size = dealt[self.players[0]]  # AO-R1 as the referee counts it
        self.hands: dict[str, list[tuple[str, str]]] = {}
        for p in self.players:  # a hand holds (side facing the owner, side facing the table)
            self.hands[p] = self.draw[-size:]
            del self.draw[-size:]
        self.drawn: tuple[str, str] | None = None
        self.proposed: tuple[str, str] | None = None  # the hand card of the last proposed play
        self.due_plan = "call"
        self.race_called = True
        self.race_close = False
        self.in_race = False
        self.clock = 1_000_000
        self.hints: Hints | None = None  # the referee's hints the last proposals were made from

    # --- helpers

    def _pop_draw(self) -> tuple[str, str]:
        if not self.draw:  # AO-R19: all but the top of the discard pile, shuffled
            self.draw = _shuffled_cards(self.rng, self.pile[:-1])
            del self.pile[:-1]
        return self.draw.pop()

    def first_events(self) -> list[dict[str, Any]]:
        draw, side = self.draw, self.side
        for i in range(len(draw) - 1, -1, -1):  # the top card, or the first one below that has a plain side
            a, b = draw[i]
            if side[a].kind == "plain" or side[b].kind == "plain":
                draw[i], draw[-1] = draw[-1], draw[i]
                break
        up, back = draw[-1]
        if side[up].kind != "plain":  # AO-R2: turned over to its plain back
            up = back
        return [{"type": "start", "card": up}]

    # --- proposals

    def candidates(self, referee: Referee) -> list[dict[str, Any]]:
        hints = self.hints = referee.hints()  # `accepted` reads what was pending before the event
        if hints.owed or (hints.race is not None and hints.race.open):
            owed = self._owed(hints)
            if owed is not None:
                return owed
        self.in_race = False
        player = self.on_turn(referee)
        playable = hints.detail.playable
        fitting = self._codes.get(playable) or self._fitting(playable)
        drawn = self.drawn
        if drawn is not None:  # play the drawn card at once (either side) or keep it
            up, down = drawn
            if up in fitting:
                code = down if down in fitting and self.rng.random() < 0.5 else up
            elif down in fitting:
                code = down
            else:
                return [{"type": "press", "player": player, "button": "confirm"}]
            play = {"type": "play", "player": player, "card": code}
            if not self.careful and self.rng.random() < 0.2:  # a careful player lays a drawn card that fits
                return [play, {"type": "press", "player": player, "button": "confirm"}]
            return [play]
        return self._turn(player, fitting)

    def _fitting(self, playable: frozenset[str]) -> frozenset[str]:
        """The side codes (with copy numbers) of the faces the referee says may be laid now (made once per
        set of faces and deck: `candidates` looks them up in `_codes` first)."""
        face = self.face
        fitting = self._codes[playable] = frozenset(code for code in self.side if face[code] in playable)
        return fitting

    def _turn(self, player: str, fitting: frozenset[str]) -> list[dict[str, Any]]:
        """An ordinary turn: a fitting card of one's own or another's hand, or a draw."""
        roll = self.rng.random()
        hands = self.hands
        events: list[dict[str, Any]] = []
        if roll < 0.2:  # a card out of another player's hand
            for other, hand in hands.items():
                if other != player and len(hand) > 1:
                    theirs = [card for card in hand if card[1] in fitting]
                    if theirs:
                        card = self.proposed = self.rng.choice(theirs)
                        events.append({"type": "play", "player": player, "card": card[1], "from": other})
                        break
        hand = hands[player]
        if not events:  # own hand: the first card that fits, looking from a random place in the hand
            first = _first_fitting(hand, int(roll * 7919) % len(hand), fitting)
            if first is not None:
                self.proposed = first
                if roll > 0.97:  # the `cards` form with one code
                    events.append({"type": "play", "player": player, "cards": [first[0]]})
                else:
                    events.append({"type": "play", "player": player, "card": first[0]})
        if not events or (roll > 0.92 and not self.careful):  # a careful player draws only when stuck
            events.append({"type": "draw", "player": player})
        if roll < 0.05 and not self.careful:  # a card played without looking: the referee judges it
            events.append({"type": "play", "player": player, "card": self.rng.choice(hand)[0]})
        return events

    def _owed(self, hints: Hints) -> list[dict[str, Any]] | None:
        """A call or catch, the race, the ANNAOTTO choices, or a chain or PLUS to continue or accept."""
        rng = self.rng
        due = next((o for o in hints.owed if o.kind == "call" and o.what != "ALLE"), None)
        if due is not None:
            plan = self.due_plan
            if plan == "catch":
                return [self._catch(due.player)]
            if plan == "call" or hints.events[:1] == ("call",):  # the deciding OTTO: nothing else can happen
                return [{"type": "call", "player": due.player, "word": due.what}]
        if hints.race is not None and hints.race.open:
            return self._race(hints.race)
        detail = hints.detail
        player = next((o.player for o in hints.owed if o.kind in ("choice", "confirm")), None)
        if player is None:  # only a lapsed call: the turn goes on as usual
            return None
        if detail.choices:
            if "colour" in detail.choices and ("flip" not in detail.choices or rng.random() < 0.5):
                return [{"type": "choose_colour", "player": player, "colour": rng.choice(COLOURS)}]
            return [{"type": "flip_choice", "player": player, "who": "self" if rng.random() < 0.5 else "next"}]
        if detail.must is None:  # only a lapsed call: the turn goes on as usual
            return None
        return self._penalty(player, detail.must)

    def _penalty(self, player: str, want: str) -> list[dict[str, Any]]:
        """Continue the pending chain or PLUS (own hand or another's), or accept the penalty."""
        rng, side, hands = self.rng, self.side, self.hands
        events: list[dict[str, Any]] = []
        mine = [own for own, _ in hands[player] if side[own].sign == want]
        if mine and rng.random() < 0.6:
            events.append({"type": "play", "player": player, "card": rng.choice(mine)})
        elif rng.random() < 0.3:
            for other, hand in hands.items():
                if other != player and len(hand) > 1:
                    back = next((b for _, b in hand if side[b].sign == want), None)
                    if back is not None:
                        events.append({"type": "play", "player": player, "card": back, "from": other})
                        break
        events.append({"type": "press", "player": player, "button": "confirm"})
        return events

    def _catch(self, target: str) -> dict[str, Any]:
        others = [p for p in self.players if p != target]
        return {"type": "catch", "player": self.rng.choice(others), "target": target}

    def _race(self, race: RaceView) -> list[dict[str, Any]]:
        rng = self.rng
        if not self.in_race:  # a new race: will ALLE be called, will the kiosk close it early?
            self.in_race = True
            self.race_called = self.careful or rng.random() < 0.85
            self.race_close = not self.careful and rng.random() < 0.2
            self.clock += 1_000_000
        waiting = race.waiting
        call = {"type": "call", "player": race.by, "word": "ALLE"}
        if self.race_called and not race.called and (len(waiting) <= 1 or rng.random() < 0.5):
            return [call]
        if self.race_close and race.pressed and rng.random() < 0.5:
            return [{"type": "race_close"}]
        # Slaps arrive in any order; t_us (with ties now and then) decides.
        t_us = self.clock + 50 * rng.randrange(6)
        return [{"type": "press", "player": rng.choice(waiting), "button": "slap", "t_us": t_us}]

    # --- the physical table follows the referee

    def accepted(self, event: Mapping[str, Any], referee: Referee) -> None:
        kind = event["type"]
        if kind == "play":
            self._played(event, referee)
        elif kind == "draw":
            self.drawn = card = self._pop_draw()
            self.hands[event["player"]].append(card)
        elif kind == "press":
            if event["button"] == "confirm":
                self.drawn = None
                if self.hints is None or self.hints.detail.must is None:  # no penalty pending: the card is kept
                    return
                state = referee.public_as(AnnaottoState)
                self._deal_to(event["player"], state.hands)  # penalties go only to who confirms (AO-R10, AO-R11)
                if state.flip is not None:
                    self._flip(state.flip.target, state.flip.cards)
            elif referee.turn is not None:  # the last slap closed the race
                self._deal_out(referee.public_as(AnnaottoState).hands)
        elif kind == "catch" or kind == "race_close":
            self._deal_out(referee.public_as(AnnaottoState).hands)
        elif kind == "flip_choice":
            flip = referee.public_as(AnnaottoState).flip
            if flip is not None:
                self._flip(flip.target, flip.cards)
        elif kind == "start":
            card = self.draw.pop()
            self.pile.append(card if card[0] == event["card"] else (card[1], card[0]))

    def _played(self, event: Mapping[str, Any], referee: Referee) -> None:
        """The card leaves its hand (the order of a hand means nothing) and lies on the pile, scanned side up."""
        code = event.get("card") or event["cards"][0]
        source = event.get("from")
        hand = self.hands[source or event["player"]]
        drawn = self.drawn
        if drawn is not None and (drawn[0] == code or drawn[1] == code):  # the drawn card, either side
            hand.remove(drawn)
            card = drawn if drawn[0] == code else (drawn[1], drawn[0])
        else:
            at = 0 if source is None else 1
            meant = self.proposed  # the card `candidates` had in mind, or else the first with that side
            if meant is None or meant[at] != code:
                meant = next((c for c in hand if c[at] == code), None)
                if meant is None:
                    raise AssertionError(f"{code} is not in the hand")
            hand.remove(meant)
            card = (meant[1], meant[0]) if at else meant
        self.pile.append(card)
        self.drawn = None
        if not self.careful and any(o.kind == "call" for o in referee.hints().owed):
            roll = self.rng.random()
            self.due_plan = "call" if roll < 0.7 else ("catch" if roll < 0.9 else "lapse")

    def _deal_out(self, hands: Mapping[str, int]) -> None:
        """Hand out the cards the referee gave (penalties, catches, race results)."""
        for p in self.players:
            self._deal_to(p, hands)

    def _deal_to(self, player: str, hands: Mapping[str, int]) -> None:
        hand = self.hands[player]
        for _ in range(hands[player] - len(hand)):
            hand.append(self._pop_draw())

    def _flip(self, target: str, count: int | str) -> None:
        """Turn over the cards the referee names (AO-R10: 2 per ANNA, AO-R14: all): random ones."""
        hand = self.hands[target]
        size = len(hand)
        if isinstance(count, str) or count >= size:  # "all", or as many as the hand holds
            hand[:] = [(b, a) for a, b in hand]
            return
        for i in self.rng.sample(range(size), count):  # `count` distinct random cards
            a, b = hand[i]
            hand[i] = (b, a)

    def check(self, referee: Referee) -> None:
        state = referee.public_as(AnnaottoState)
        assert {p: len(h) for p, h in self.hands.items()} == state.hands, "hidden hands differ from hand counts"
        assert len(self.draw) == state.draw_pile, "hidden draw pile differs from the draw_pile count"
        assert len(self.pile) == state.pile, "hidden discard pile differs from the pile count"
        assert state.top is None or self.side[self.pile[-1][0]].face == state.top, "the pile's top differs"
