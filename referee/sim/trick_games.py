"""Simulated tables for the two trick games: a shuffled deck, hidden hands, automatic draws."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from referee.games.alles_klar import AllesKlarState
from referee.games.magische_7 import Magische7State
from referee.sim import SimPlayers, opening, register, shuffled
from referee.table import Referee


class _Dealt(SimPlayers):
    """A table where the referee draws for the players: the simulator mirrors its counts."""

    def _deal(self, codes: list[str], hand: int) -> None:
        codes = shuffled(self.rng, codes)
        self.hands: dict[str, list[str]] = {p: [codes.pop() for _ in range(hand)] for p in self.players}
        self.stock = codes

    def _draw_to(self, player: str) -> None:
        self.hands[player].append(self.stock.pop())

    def check(self, referee: Referee) -> None:
        state = referee.state()
        assert {p: len(h) for p, h in self.hands.items()} == state["hands"], "hidden hands differ from hand counts"
        assert len(self.stock) == state["stock"], "hidden stock differs from the stock count"


@register
class AllesKlarTable(_Dealt):
    game_id = "alles-klar"
    default_players = 3

    def __init__(self, rng: random.Random, players: Sequence[str], options: Mapping[str, Any] | None = None,
                 dealer: str | None = None):
        super().__init__(rng, players, options, dealer)
        deck, dealt = opening(self.header)
        self._deal(deck.codes(), dealt[self.players[0]])
        self._two = {face for face, info in deck.info.items() if len(info.numerals) == 2}

    def candidates(self, referee: Referee) -> list[dict[str, Any]]:
        player = self.on_turn(referee)
        events = []
        for code in self.hands[player]:
            face = code.partition("#")[0]
            if face in self._two:
                for numeral in face.split(".")[1:]:
                    events.append({"type": "play", "player": player, "card": code, "rank_choice": numeral})
            else:
                events.append({"type": "play", "player": player, "card": code})
        return events

    def accepted(self, event: Mapping[str, Any], referee: Referee) -> None:
        player = event["player"]
        self.hands[player].remove(event["card"])
        if len(self.stock) > referee.public_as(AllesKlarState).stock:  # the referee says the player drew
            self._draw_to(player)


@register
class MagischeSiebenTable(_Dealt):
    game_id = "magische-7"
    default_players = 2

    def __init__(self, rng: random.Random, players: Sequence[str], options: Mapping[str, Any] | None = None,
                 dealer: str | None = None):
        super().__init__(rng, players, options, dealer)
        codes = opening(self.header).deck.codes()
        # Section 3: one Joker each, then six further cards.
        jokers = [c for c in codes if c.startswith("M7:JOKER#")]
        rest = [c for c in codes if not c.startswith("M7:JOKER#")]
        jokers = shuffled(self.rng, jokers)
        self._deal(rest + jokers[len(self.players):], 0)
        self.hands = {p: [jokers[i]] + [self.stock.pop() for _ in range(6)] for i, p in enumerate(self.players)}

    def candidates(self, referee: Referee) -> list[dict[str, Any]]:
        player = self.on_turn(referee)
        targets: tuple[str | None, ...] = referee.hints().detail.targets or (None,)
        events = []
        for code in self.hands[player]:
            for target in targets:
                event = {"type": "play", "player": player, "card": code}
                if target is not None:
                    event["target"] = target
                events.append(event)
        return events

    def accepted(self, event: Mapping[str, Any], referee: Referee) -> None:
        self.hands[event["player"]].remove(event["card"])
        state = referee.public_as(Magische7State)
        if state.lead is None and len(self.stock) > state.stock and state.last_trick is not None:  # both drew
            self._draw_to(state.last_trick.leader)
            self._draw_to(state.last_trick.follower)
