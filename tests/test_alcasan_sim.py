"""The simulated alcasan table stays a strong tester: over a few seeds its games reach every situation that matters.

A speed-up of the simulator (fewer proposals, cheaper choices) must not quietly stop it from taking the pile on
a whim, laying cards the referee refuses, laying one card of a multiple, playing every phase (hand, face-up,
face-down reveals that fit and that do not) or burning by Feuer and by four equal faces. The situations are
read off the referee's state around each event, not off the simulator's bookkeeping.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from referee import sim
from referee.table import Referee

SEEDS = range(30)
EVERY_SITUATION = {
    "take on a whim",
    "misfit refused",
    "double scan refused",
    "one card of a multiple",
    "play from the hand",
    "play from the face-up cards",
    "reveal that fits",
    "reveal that does not fit",
    "burn by Feuer",
    "burn by four equal faces",
}


class Watching(Referee):
    """A referee that names the situation of every event the table makes."""

    def __init__(self, table: Any):
        super().__init__(table.header)
        self.table = table
        self.seen: Counter[str] = Counter()

    def apply(self, event: Any) -> Any:
        before = self.state()
        player = event.get("player")
        source = self.table.hands.get(player) or self.table.up.get(player) or {}
        allowed = {f"AC:{name}" for name in self.hints().detail.faces}
        fitting = [face for face in source if face in allowed]  # the referee's own reading of what may be laid
        answer = super().apply(event)
        kind = event["type"]
        codes = [event["card"]] if "card" in event else event.get("cards", [])
        faces = {code.partition("#")[0] for code in codes}
        if not answer.ok:
            if kind == "play" and answer.error in ("too-low", "too-high", "wasser-blocked"):
                self.seen["misfit refused"] += 1
            if answer.error == "card-exhausted":
                self.seen["double scan refused"] += 1
            return answer
        after = self.state()
        if kind == "take_pile" and fitting:
            self.seen["take on a whim"] += 1
        if kind == "play":
            self.seen["play from the hand" if before["hands"][player] else "play from the face-up cards"] += 1
            if len(codes) == 1 and len(source.get(codes[0].partition("#")[0], [])) > 1:
                self.seen["one card of a multiple"] += 1
        if kind == "reveal":
            self.seen["reveal that fits" if not after["hands"][player] else "reveal that does not fit"] += 1
        if after["burned"] > before["burned"]:
            self.seen["burn by Feuer" if faces == {"AC:FEUER"} else "burn by four equal faces"] += 1
        return answer


@pytest.mark.parametrize("players", [2, 3])
def test_simulated_games_reach_every_situation(players: int) -> None:
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        table = sim.new_table("alcasan", seed, players)
        referee = Watching(table)
        for _ in sim.play(table, referee):
            pass
        assert referee.finished
        seen.update(referee.seen)
    missing = EVERY_SITUATION - set(seen)
    assert not missing, f"over {len(SEEDS)} seeds the simulated table never reached {sorted(missing)}: {seen}"


class Counting(Referee):
    """A referee that counts the proposals it refuses."""

    def __init__(self, header: Any):
        super().__init__(header)
        self.refused = 0

    def apply(self, event: Any) -> Any:
        answer = super().apply(event)
        self.refused += not answer.ok
        return answer


def _refused(careful: bool, players: int) -> tuple[int, int]:
    """Refused proposals and accepted plays over the seeds."""
    refused = plays = 0
    for seed in SEEDS:
        table = sim.new_table("alcasan", seed, players, careful=careful)
        referee = Counting(table.header)
        plays += sum(event["type"] == "play" for event in sim.play(table, referee))
        assert referee.finished
        refused += referee.refused
    return refused, plays


@pytest.mark.parametrize("players", [2, 3])
def test_a_careful_table_makes_no_deliberate_mistakes(players: int) -> None:
    """A careful table lays no misfit (its only deliberate mistake; a whim take is a legal choice and stays)."""
    assert sim.get("alcasan").mistakes
    refused, plays = _refused(careful=True, players=players)
    assert refused == 0 and plays > 0
    assert _refused(careful=False, players=players)[0] > 0, "the noisy table must still lay misfits"
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        table = sim.new_table("alcasan", seed, players, careful=True)
        watching = Watching(table)
        for _ in sim.play(table, watching):
            pass
        seen.update(watching.seen)
    assert seen["take on a whim"] and not seen["misfit refused"], seen
