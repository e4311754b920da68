"""The simulated ANNAOTTO table: two-sided physical cards, hidden hands, the draw pile, races and calls.

Each physical card holds two side codes. The default deck gives every special or
wild side a plain back (rules section 1); the sides are paired at random. A hand
card has one side facing its owner (the owner plays it) and the other facing the
table (others play it with `from`). Flips turn hand cards over. The table mirrors
every card the referee hands out (penalties, catches, race results) and reshuffles
its discard pile exactly when the referee's pile count drops to its top card.

Proposals are a cheap superset of the legal moves (a loose colour/pattern/sign
filter, never the rules themselves) plus an occasional unfiltered card; the
referee decides. Players sometimes forget a call (and are sometimes caught), the
ALLE layer sometimes forgets ALLE, and the kiosk sometimes closes a race early.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.decks.annaotto import COLOURS
from referee.games.annaotto import ALTERNATE, deck_for
from referee.sim import TableSim, register
from referee.table import Referee, parse_header


@register
class AnnaottoTable(TableSim):
    game_id = "annaotto"
    default_players = 4

    def __init__(self, rng, players, options=None, dealer=None):
        super().__init__(rng, players, options, dealer)
        _, _, _, parsed = parse_header(self.header)
        deck = deck_for(parsed.plain, parsed.special, parsed.wild)
        info = deck.info
        self.side: dict[str, Any] = {}
        plain, other = [], []
        for code in deck.codes():
            side = info[code.partition("#")[0]]
            self.side[code] = side
            (plain if side.kind == "plain" else other).append(code)
        rng.shuffle(plain)
        rng.shuffle(other)
        pairs = []
        while other and plain:  # every special or wild side gets a plain back, while there are plain sides
            pairs.append((other.pop(), plain.pop()))
        rest = other + plain
        rng.shuffle(rest)
        pairs.extend((rest[i], rest[i + 1]) for i in range(0, len(rest), 2))
        rng.shuffle(pairs)
        self.sides = pairs  # card id → its two side codes
        self.card_of = {code: cid for cid, pair in enumerate(pairs) for code in pair}
        self.facing = [rng.randrange(2) for _ in pairs]  # in a hand: the side index facing the owner
        cards = list(range(len(pairs)))
        self.hands = {p: [cards.pop() for _ in range(parsed.hand_size)] for p in self.players}
        self.draw = cards
        self.pile: list[int] = []
        self.drawn: int | None = None
        self.due_plan = "call"
        self.race_called = True
        self.race_close = False
        self.planned: Any = None
        self.clock = 1_000_000

    # --- helpers

    def _pop_draw(self) -> int:
        if not self.draw:  # AO-R19: all but the top of the discard pile, shuffled
            self.draw = self.pile[:-1]
            self.pile = self.pile[-1:]
            self.rng.shuffle(self.draw)
        cid = self.draw.pop()
        self.facing[cid] = self.rng.randrange(2)
        return cid

    def first_events(self) -> list[dict[str, Any]]:
        draw = self.draw
        for i in range(len(draw) - 1, -1, -1):  # the top card, or the first one that has a plain side
            a, b = self.sides[draw[i]]
            if self.side[a].kind == "plain" or self.side[b].kind == "plain":
                draw[i], draw[-1] = draw[-1], draw[i]
                break
        a, b = self.sides[draw[-1]]
        up = a if self.rng.random() < 0.5 else b
        if self.side[up].kind != "plain":  # AO-R2: turned over to its plain back
            up = b if up == a else a
        return [{"type": "start", "card": up}]

    # --- proposals

    def candidates(self, referee: Referee) -> list[dict[str, Any]]:
        g = referee.game
        rng = self.rng
        due = g.due
        if due is not None:
            if g.pending is not None or self.due_plan == "call":
                if g.pending is not None and self.due_plan == "catch":
                    return [self._catch(due[0])]
                return [{"type": "call", "player": due[0], "word": due[1]}]
            if self.due_plan == "catch":
                return [self._catch(due[0])]
        race = g.race
        if race is not None:
            return self._race(race)
        if g.choices:
            player = g.turn
            events = []
            if "colour" in g.choices:
                events.append({"type": "choose_colour", "player": player, "colour": rng.choice(COLOURS)})
            if "flip" in g.choices:
                who = "self" if rng.random() < 0.5 else "next"
                events.append({"type": "flip_choice", "player": player, "who": who})
            return events
        player = g.turn
        side = self.side
        sides = self.sides
        facing = self.facing
        hands = self.hands
        events: list[dict[str, Any]] = []
        if g.chain is not None or g.plus:
            want = ALTERNATE[g.top.sign] if g.chain is not None else "PLUS"
            events.append({"type": "press", "player": player, "button": "confirm"})
            for cid in hands[player]:
                code = sides[cid][facing[cid]]
                if side[code].sign == want:
                    events.append({"type": "play", "player": player, "card": code})
            if rng.random() < 0.3:
                for other, hand in hands.items():
                    if other != player and len(hand) > 1:
                        for cid in hand:
                            code = sides[cid][1 - facing[cid]]
                            if side[code].sign == want:
                                events.append({"type": "play", "player": player, "card": code, "from": other})
            return events
        fits = self._fits_top(g)
        if self.drawn is not None:
            for code in sides[self.drawn]:
                if fits(side[code]):
                    events.append({"type": "play", "player": player, "card": code})
            if not events or rng.random() < 0.2:
                events.append({"type": "press", "player": player, "button": "confirm"})
            return events
        for cid in hands[player]:
            code = sides[cid][facing[cid]]
            if fits(side[code]):
                events.append({"type": "play", "player": player, "card": code})
        if rng.random() < 0.25:
            for other, hand in hands.items():
                if other != player and len(hand) > 1:
                    for cid in hand:
                        code = sides[cid][1 - facing[cid]]
                        if fits(side[code]):
                            events.append({"type": "play", "player": player, "card": code, "from": other})
                            break
        if not events or rng.random() < 0.1:
            events.append({"type": "draw", "player": player})
        if rng.random() < 0.1:  # now and then a card without looking: the referee must say no-match
            cid = rng.choice(hands[player])
            events.append({"type": "play", "player": player, "card": sides[cid][facing[cid]]})
        return events

    @staticmethod
    def _fits_top(g: Any) -> Any:
        """The table's own reading of the matching rules (section 1 terms), a cross-check of the referee's."""
        top = g.top
        colour, pattern, top_sign = g.colour, g.pattern, top.sign
        other_sign = {"ANNA": "OTTO", "OTTO": "ANNA"}.get(top_sign)
        if top.wild:
            return lambda s: s.wild or s.colour == colour

        def fits(s: Any) -> bool:
            if s.wild:
                return True
            sign = s.sign
            if sign == "ANNA" or sign == "OTTO":
                if sign == top_sign:
                    return False
                if sign == other_sign:
                    return True
            elif sign is not None and sign == top_sign:
                return True
            return s.colour == colour or s.pattern == pattern

        return fits

    def _catch(self, target: str) -> dict[str, Any]:
        others = [p for p in self.players if p != target]
        return {"type": "catch", "player": self.rng.choice(others), "target": target}

    def _race(self, race: Any) -> list[dict[str, Any]]:
        rng = self.rng
        if race is not self.planned:  # a new race: will ALLE be called, will the kiosk close it early?
            self.planned = race
            self.race_called = rng.random() < 0.85
            self.race_close = rng.random() < 0.2
            self.clock += 1_000_000
        waiting = [p for p in self.players if p in race.participants and p not in race.pressed]
        call = {"type": "call", "player": race.by, "word": "ALLE"}
        if self.race_called and not race.called and len(waiting) <= 1:
            return [call]
        events = [
            {"type": "press", "player": p, "button": "slap", "t_us": self.clock + 50 * rng.randrange(6)}
            for p in waiting
        ]
        if self.race_called and not race.called:
            events.append(call)
        if self.race_close and race.pressed:
            events.append({"type": "race_close"})
        return events

    # --- the physical table follows the referee

    def accepted(self, event: Mapping[str, Any], referee: Referee) -> None:
        g = referee.game
        kind = event["type"]
        if kind == "play" or kind == "start":
            code = event.get("card") or event["cards"][0]
            cid = self.card_of[code]
            if kind == "play":
                self.hands[event.get("from") or event["player"]].remove(cid)
                self.drawn = None
                if g.due is not None:
                    roll = self.rng.random()
                    self.due_plan = "call" if roll < 0.7 else ("catch" if roll < 0.9 else "lapse")
            else:
                self.draw.remove(cid)
            self.pile.append(cid)
            return
        hands, gh = self.hands, g.hands
        for p in self.players:
            hand = hands[p]
            for _ in range(gh[p] - len(hand)):
                hand.append(self._pop_draw())
        if kind == "draw":
            self.drawn = hands[event["player"]][-1]
        elif kind == "press":
            if event["button"] == "confirm":
                self.drawn = None
                if g.flip is not None:
                    self._flip(g.flip)
        elif kind == "flip_choice":
            self._flip(g.flip)


    def _flip(self, flip: Mapping[str, Any]) -> None:
        hand = self.hands[flip["target"]]
        count = flip["cards"]
        chosen = hand if count == "all" else self.rng.sample(hand, min(count, len(hand)))
        for cid in chosen:
            self.facing[cid] = 1 - self.facing[cid]

    def check(self, referee: Referee) -> None:
        g = referee.game
        assert {p: len(h) for p, h in self.hands.items()} == g.hands, "hidden hands differ from hand counts"
        assert len(self.draw) == g.draw_pile, "hidden draw pile differs from the draw_pile count"
        assert len(self.pile) == g.pile, "hidden discard pile differs from the pile count"
