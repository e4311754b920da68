"""Measure alcasan: median µs per accepted `apply` (engine alone) and complete simulated games per second.

Usage: .venv/bin/python scripts/bench_alcasan.py [games] [players] [repeats]

Games are played by the simulated table (`referee.sim.alcasan`) through a referee;
their accepted events are then replayed one by one into fresh referees with a
nanosecond clock around each `apply`. Each figure is the best of `repeats` runs,
because a shared machine only ever adds time.
"""

from __future__ import annotations

import statistics
import sys
import time
import timeit

from referee import sim
from referee.table import Referee


def games_per_second(games: int, players: int) -> tuple[float, float, list]:
    """Complete games per second of wall time and of this process's CPU time (the fairer figure on a busy host)."""
    start, cpu = time.perf_counter(), time.process_time()
    recorded = [sim.random_game("alcasan", seed, players) for seed in range(games)]
    return games / (time.perf_counter() - start), games / (time.process_time() - cpu), recorded


def apply_median_us(recorded: list) -> tuple[float, float, int]:
    clock = time.perf_counter_ns
    samples: list[int] = []
    for header, events in recorded:
        apply = Referee(header).apply
        for event in events:
            t0 = clock()
            apply(event)
            samples.append(clock() - t0)
    samples.sort()
    return statistics.median(samples) / 1000, samples[len(samples) * 9 // 10] / 1000, len(samples)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    rates, cpu_rates, medians, p90s = [], [], [], []
    for _ in range(repeats):
        rate, cpu_rate, recorded = games_per_second(games, players)
        median, p90, count = apply_median_us(recorded)
        rates.append(rate)
        cpu_rates.append(cpu_rate)
        medians.append(median)
        p90s.append(p90)
    events = count / games
    print(f"{players} players, {games} games ({events:.0f} accepted events per game), best of {repeats}:")
    print(f"  simulated: {max(rates):,.0f} complete games/s wall (runs: {', '.join(f'{r:,.0f}' for r in rates)}), "
          f"{max(cpu_rates):,.0f} per CPU second")
    print(f"  engine apply: median {min(medians):.2f} µs, p90 {min(p90s):.2f} µs per accepted event "
          f"(runs: {', '.join(f'{m:.2f}' for m in medians)})")


    calibration = min(timeit.repeat("sum(range(1000))", number=2000, repeat=5)) / 2000 * 1e6
    print(f"  machine: sum(range(1000)) takes {calibration:.1f} µs (about 8–10 µs on a current desktop CPU)")


if __name__ == "__main__":
    main()
