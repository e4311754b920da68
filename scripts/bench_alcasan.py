"""Measure alcasan: median µs per accepted `apply` (engine alone) and complete simulated games per second.

Usage: .venv/bin/python scripts/bench_alcasan.py [games] [players]
"""

from __future__ import annotations

import statistics
import sys
import time

from referee import sim
from referee.table import Referee


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    start = time.perf_counter()
    recorded = [sim.random_game("alcasan", seed, players) for seed in range(games)]
    elapsed = time.perf_counter() - start
    events = sum(len(e) for _, e in recorded)
    print(f"simulated: {games / elapsed:,.0f} complete games/s ({events / games:.0f} accepted events per game)")

    clock = time.perf_counter_ns
    samples: list[int] = []
    for header, evs in recorded:
        referee = Referee(header)
        apply = referee.apply
        for event in evs:
            t0 = clock()
            apply(event)
            samples.append(clock() - t0)
    samples.sort()
    print(
        f"engine apply: median {statistics.median(samples) / 1000:.2f} µs, "
        f"p90 {samples[len(samples) * 9 // 10] / 1000:.2f} µs over {len(samples):,} accepted events"
    )
    start = time.perf_counter()
    for header, evs in recorded:
        apply = Referee(header).apply
        for event in evs:
            apply(event)
    elapsed = time.perf_counter() - start
    print(f"replay: {len(samples) / elapsed:,.0f} accepted events/s ({elapsed / len(samples) * 1e6:.2f} µs each)")


if __name__ == "__main__":
    main()
