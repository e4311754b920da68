"""Measure ANNAOTTO: median µs per accepted `apply`, and complete simulated games per second (sim included).

Usage: .venv/bin/python scripts/bench_annaotto.py [games] [players] [repeats]
CPU time (`process_time`), best of `repeats` runs: other processes on the machine count as little as possible.
"""

from __future__ import annotations

import statistics
import sys
import time

from referee import sim
from referee.table import Referee


def games_per_second(games: int, players: int) -> tuple[float, float]:
    events = 0
    start = time.process_time()
    for seed in range(games):
        for _ in sim.play(sim.new_table("annaotto", seed, players)):
            events += 1
    return games / (time.process_time() - start), events / games


def apply_times(games: int, players: int) -> list[int]:
    recorded = []
    for seed in range(games):
        table = sim.new_table("annaotto", seed, players)
        recorded.append((table.header, list(sim.play(table))))
    clock = time.perf_counter_ns
    samples = []
    for header, events in recorded:
        referee = Referee(header)
        apply = referee.apply
        for event in events:
            t0 = clock()
            apply(event)
            samples.append(clock() - t0)
    return samples


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    runs = [games_per_second(games, players) for _ in range(repeats)]
    best = max(rate for rate, _ in runs)
    print(f"{players} players: {best:,.0f} complete simulated games/s (best of {repeats}), "
          f"{runs[0][1]:.0f} accepted events/game")
    medians = []
    for _ in range(repeats):
        samples = apply_times(min(games, 300), players)
        medians.append(statistics.median(samples) / 1000)
    samples.sort()
    runs_text = ", ".join(f"{m:.2f}" for m in medians)
    print(f"{players} players: apply median {min(medians):.2f} µs (best of {repeats}: {runs_text}), "
          f"p90 {samples[len(samples) * 9 // 10] / 1000:.2f} µs, {len(samples)} events")


if __name__ == "__main__":
    main()
