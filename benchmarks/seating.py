"""How well and how fast the hub draws a club night's seats (`hub/evenings/seating.py`).

    python -m benchmarks.seating [--seeds 20]

For 8, 12, 16, 24 and 40 players over 4 rounds, at table sizes 2, 3–4 and 3–5:
- mixing: repeated encounters over the evening (round 1 at random, rounds 2–4
  mixing) against the simple lower bound (meetings beyond C(n, 2)), and against
  drawing every round at random;
- by standings: results at each table drawn at random (3/2/1/0 by place), then
  the mean spread of tournament points at a table in rounds 2–4 (max − min of the
  players' points before the round) against a random draw of the same rounds;
- the slowest single draw of a round (mixing, with three rounds of history).
Means over the seeds; nothing is asserted.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

from hub.evenings.seating import draw_round, encounters, repeat_lower_bound, repeats  # noqa: E402
from hub.evenings.standings import DEFAULT_SCHEME, TableResult, standings  # noqa: E402

PLAYERS = (8, 12, 16, 24, 40)
SIZES = {"2": (2,), "3–4": (3, 4), "3–5": (3, 4, 5)}
ROUNDS = 4


def _evening(names: list[str], counts: tuple[int, ...], later: str, seed: int) -> tuple[int, int, float, float]:
    """One evening: (repeats, lower bound, mean point spread at a table in rounds 2-4, slowest draw in s)."""
    rng = random.Random(seed)
    history: list[list[tuple[str, ...]]] = []
    results: list[TableResult] = []
    byes: list[str] = []
    total = 0
    spreads: list[float] = []
    slowest = 0.0
    for number in range(1, ROUNDS + 1):
        points = {line.player: float(line.points) for line in standings(results, byes, names)}
        met = encounters(history)
        had = {n: byes.count(n) for n in names}
        started = time.perf_counter()
        draw = draw_round(names, counts, method="random" if number == 1 else later, rng=rng, points=points,
                          met=met, byes_had=had)
        slowest = max(slowest, time.perf_counter() - started)
        tables = [t.players for t in draw.tables]
        total += repeats(tables, met)
        if number > 1:
            spreads += [max(points[p] for p in t) - min(points[p] for p in t) for t in tables]
        history.append(tables)
        byes += draw.byes
        for table in tables:
            order = list(table)
            rng.shuffle(order)  # the table's result: a random order of places, no ties
            scores = {p: len(DEFAULT_SCHEME) - i for i, p in enumerate(order)}
            results.append(TableResult(number, table, scores, (order[0],)))
    bound = repeat_lower_bound(len(names), [[len(t) for t in tables] for tables in history])
    return total, bound, statistics.fmean(spreads), slowest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args()
    print(f"{ROUNDS} rounds, means over {args.seeds} seeds; repeats = pair meetings beyond the first")
    print("| players | sizes | repeats mixing | lower bound | repeats random | spread standings | spread random"
          " | slowest draw |")
    print("| ---: | :---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for players in PLAYERS:
        names = [f"P{i:02}" for i in range(players)]
        for label, counts in SIZES.items():
            mix = [_evening(names, counts, "mixing", s) for s in range(args.seeds)]
            ran = [_evening(names, counts, "random", s) for s in range(args.seeds)]
            swiss = [_evening(names, counts, "standings", s) for s in range(args.seeds)]
            slowest = max(e[3] for e in mix + swiss)
            print(f"| {players} | {label} | {statistics.fmean(e[0] for e in mix):.1f} "
                  f"| {statistics.fmean(e[1] for e in mix):.1f} | {statistics.fmean(e[0] for e in ran):.1f} "
                  f"| {statistics.fmean(e[2] for e in swiss):.2f} | {statistics.fmean(e[2] for e in ran):.2f} "
                  f"| {slowest * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
