"""Measure ANNAOTTO: median µs per accepted `apply`, and complete simulated games per second (sim included).

Usage: .venv/bin/python scripts/bench_annaotto.py [games] [players]
"""

from __future__ import annotations

import statistics
import sys
import time

from referee import sim
from referee.table import Referee


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    # 1. complete simulated games per second: table, proposals, referee, all included
    events = 0
    start = time.process_time()  # CPU time: other processes on the machine do not count
    recorded = []
    for seed in range(games):
        table = sim.new_table("annaotto", seed, players)
        game = list(sim.play(table))
        events += len(game)
        if seed < 300:
            recorded.append((table.header, game))
    elapsed = time.process_time() - start
    print(f"{games} games, {players} players: {games / elapsed:,.0f} games/s, {events / games:.0f} events/game")
    # 2. the engine alone: each accepted event of the recorded games, timed one by one
    clock = time.perf_counter_ns
    samples = []
    for header, game in recorded:
        referee = Referee(header)
        apply = referee.apply
        for event in game:
            t0 = clock()
            apply(event)
            samples.append(clock() - t0)
    samples.sort()
    print(
        f"apply: median {statistics.median(samples) / 1000:.2f} µs, "
        f"p90 {samples[len(samples) * 9 // 10] / 1000:.2f} µs over {len(samples)} accepted events"
    )
    # 3. replay throughput (no timer per event)
    start = time.process_time()
    total = 0
    for header, game in recorded:
        referee = Referee(header)
        apply = referee.apply
        for event in game:
            apply(event)
        total += len(game)
    print(f"replay: {(time.process_time() - start) / total * 1e6:.2f} µs per event on average")


if __name__ == "__main__":
    main()
