"""Profi-Sort speed: µs per accepted event, simulated rounds per second, validating a 10-card task with two jokers.

    .venv/bin/python scripts/bench_profi_sort.py [--games 40] [--seconds 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from referee import sim
from referee.table import Referee

HEADER = {"format": "tabletop-referee/1", "game": "profi-sort", "players": ["Anna", "Ben"]}
TEN_WITH_TWO_JOKERS = {
    "type": "lay_task", "player": "Anna", "task": "two-runs5",
    "groups": [["PS:S2", "PS:JOKER", "PS:H4", "PS:H5", "PS:H6"], ["PS:D7", "PS:D8", "PS:JOKER", "PS:C10", "PS:CJ"]],
}


def per_event(games: int) -> tuple[float, int]:
    """Median µs of `apply` over every accepted event of random games (beginner and full-game tables)."""
    samples = []
    clock = time.perf_counter_ns
    for seed in range(games):
        options = None if seed % 2 else {}
        table = sim.new_table("profi-sort", seed, 2 + seed % 2, options=options)
        events = []
        for event in sim.play(table, Referee(table.header)):
            events.append(event)
            if len(events) > 3000:
                break
        ref = Referee(table.header)
        for event in events:
            t0 = clock()
            answer = ref.apply(event)
            samples.append(clock() - t0)
            assert answer.ok
    return statistics.median(samples) / 1000, len(samples)


def rounds_per_second(seconds: float) -> tuple[float, int, int]:
    """Complete simulated rounds (deal to scoring done) per second, sim proposals and referee included."""
    rounds = events = 0
    seed = 0
    clock = time.process_time  # CPU time of this process: less disturbed by other work on the machine
    start = clock()
    while clock() - start < seconds:
        table = sim.new_table("profi-sort", seed, 2 + seed % 2, options={})
        referee = Referee(table.header)
        for event in sim.play(table, referee):
            events += 1
            if event["type"] == "new_round":
                rounds += 1
                if referee.game.round > 10:
                    break
        seed += 1
    return rounds / (clock() - start), rounds, events


def lay_ten(samples: int) -> float:
    clock = time.perf_counter_ns
    out = []
    refs = []
    for _ in range(samples):
        ref = Referee(HEADER)
        ref.apply({"type": "draw", "player": "Anna"})
        refs.append(ref)
    for ref in refs:
        t0 = clock()
        answer = ref.apply(TEN_WITH_TWO_JOKERS)
        out.append(clock() - t0)
        assert answer.ok
    return statistics.median(out) / 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    median, n = per_event(args.games)
    print(f"median apply per accepted event: {median:.2f} µs over {n} events")
    rate, rounds, events = rounds_per_second(args.seconds)
    print(f"complete simulated rounds: {rate:.0f}/s ({rounds} rounds, {events / rounds:.0f} events per round)")
    print(f"lay_task, 10 cards with two jokers: median {lay_ten(5000):.2f} µs")


if __name__ == "__main__":
    main()
