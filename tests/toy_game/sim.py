"""Higher's simulated table: two hidden hands of six (in the project: `referee/sim/<game>.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.sim import SimPlayers, opening, shuffled
from referee.table import Referee
from tests.toy_game.deck import GAME_ID
from tests.toy_game.rules import HAND


class HigherTable(SimPlayers):
    game_id = GAME_ID
    default_players = 2

    def __init__(self, rng, players, options=None, dealer=None):
        super().__init__(rng, players, options, dealer)
        codes = shuffled(self.rng, opening(self.header).deck.codes())
        self.hands = {p: [codes.pop() for _ in range(HAND)] for p in self.players}

    def candidates(self, referee: Referee) -> list[dict[str, Any]]:
        player = referee.turn
        events: list[dict[str, Any]] = [{"type": "play", "player": player, "card": c} for c in self.hands[player]]
        if referee.public().pile:
            events.append({"type": "knock", "player": player})
        return events

    def accepted(self, event: Mapping[str, Any], referee: Referee) -> None:
        if event["type"] == "play":
            self.hands[event["player"]].remove(event["card"])

    def check(self, referee: Referee) -> None:
        assert {p: len(h) for p, h in self.hands.items()} == referee.public().hands
