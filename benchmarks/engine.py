"""How fast is the referee? Per game: engine apply latency, complete simulated games/s, replay throughput.

    python -m benchmarks.engine [--seconds S] [--games alles-klar,...] [--peers] [--json FILE]

Rows, per registered game with a simulated table:
  apply median/p99   one `Referee.apply` of an accepted event (parsed dict in, verdict out; the
                     public state dict is not built), timed with perf_counter_ns, events of
                     pre-generated random games replayed into fresh referees
  games/s            complete random games played by the table simulator through the referee
                     (deal, candidate proposal, the referee's verdicts, hidden-card moves); for a
                     table that makes deliberate mistakes (forgotten calls, cards laid blind: the
                     tests want them) a second row, "careful sim", plays without them, as the
                     peers' random agents only ever choose legal moves
  replay events/s    `referee replay` in-process: JSON lines in, JSON answers with the public
                     state out

`--peers` also runs ../shared/tools/peer-bench.py (RLCard, OpenSpiel) in the same run with the
Python of the benchmark venv (`scripts/bench.sh` makes it) and prints one table.
Nothing here asserts a timing: it prints what it measured.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque

ROOT = pathlib.Path(__file__).resolve().parent.parent

from benchmarks.stats import percentile  # noqa: E402
from referee import games, sim  # noqa: E402
from referee.table import Referee  # noqa: E402
from referee.transcript import replay  # noqa: E402

# Player counts measured per game; 2-player rows sit beside RLCard's 2-player Uno and gin rummy.
PLAYERS = {"alles-klar": (4,), "magische-7": (2, 4), "alcasan": (2, 3), "annaotto": (2, 4), "profi-sort": (2,)}
perf_ns = time.perf_counter_ns


def sample_games(game_id: str, players: int, count: int) -> list[tuple[dict, list[dict]]]:
    return [sim.random_game(game_id, seed, players) for seed in range(count)]


def apply_latency(samples: list[tuple[dict, list[dict]]], budget: float) -> list[int]:
    """Nanoseconds per accepted apply, over as many replays of the samples as the budget allows."""
    times: list[int] = []
    end = time.perf_counter() + budget
    while time.perf_counter() < end:
        for header, events in samples:
            referee = Referee(header)
            apply = referee.apply
            for event in events:
                t0 = perf_ns()
                answer = apply(event)
                t1 = perf_ns()
                if answer.ok:
                    times.append(t1 - t0)
    return times


# No random game of ours comes near this many events (ANNAOTTO with 4 players: about 210); a game that
# does is one of the rules' endless forced games (docs/decisions.md, AC-I12) and is abandoned.
ABANDON_AFTER = 5_000
ABANDONED: dict[str, int] = {}


def games_per_second(game_id: str, players: int, budget: float, careful: bool = False) -> tuple[float, float]:
    """Complete simulated games per second, and accepted events per game.

    An abandoned endless game counts no game, but its time stays in the measurement.
    """
    done = events = 0
    seed = 10_000
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        table = sim.new_table(game_id, seed, players, careful=careful)
        referee = Referee(table.header)
        seed += 1
        try:
            deque(sim.play(table, referee, ABANDON_AFTER), maxlen=0)  # consumed in C: the loop measured is the sim's
        except sim.SimulationStuck:
            key = f"{game_id} ({players}p{', careful' if careful else ''})"
            ABANDONED[key] = ABANDONED.get(key, 0) + 1
            continue
        events += len(referee.history)
        done += 1
    return done / (time.perf_counter() - start), events / max(done, 1)


def replay_throughput(samples: list[tuple[dict, list[dict]]], budget: float) -> float:
    texts = ["\n".join(json.dumps(x) for x in [header, *events]) for header, events in samples]
    total = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        for text in texts:
            out = io.StringIO()
            for step in replay(io.StringIO(text)):
                out.write(json.dumps(step.to_json(), ensure_ascii=False) + "\n")
                total += 1
    return total / (time.perf_counter() - start)


TEN_WITH_TWO_JOKERS = {
    "type": "lay_task", "player": "Anna", "task": "two-runs5",
    "groups": [["PS:S2", "PS:JOKER", "PS:H4", "PS:H5", "PS:H6"], ["PS:D7", "PS:D8", "PS:JOKER", "PS:C10", "PS:CJ"]],
}


def profi_sort_lay_task_us(samples: int = 3000) -> float:
    """Median µs to judge and apply a laid 10-card task with two jokers (the matcher's worst everyday case)."""
    header = {"format": "tabletop-referee/1", "game": "profi-sort", "players": ["Anna", "Ben"]}
    referees = []
    for _ in range(samples):
        referee = Referee(header)
        referee.apply({"type": "draw", "player": "Anna"})
        referees.append(referee)
    times = []
    for referee in referees:
        t0 = perf_ns()
        answer = referee.apply(TEN_WITH_TWO_JOKERS)
        times.append(perf_ns() - t0)
        assert answer.ok, answer.error
    return statistics.median(times) / 1000


def profi_sort_rounds_per_second(budget: float) -> float:
    """Complete full-game rounds (deal to scoring done) per second, simulator and referee included."""
    rounds, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        table = sim.new_table("profi-sort", seed, 2 + seed % 2, options={})
        referee = Referee(table.header)
        for event in sim.play(table, referee):
            if event["type"] == "new_round":
                rounds += 1
                if referee.game.round > 10:
                    break
        seed += 1
    return rounds / (time.perf_counter() - start)


def referee_share_of_careful_games(game_id: str, players: int, budget: float) -> str:
    """What the referee alone costs per careful game: a fresh `Referee`, `hints()` before every
    accepted event (the simulator asks before each move) and its `apply`, over recorded careful
    games; no simulator at all. Its inverse is the games/s even a simulator costing nothing could reach.

    The figure issue #23 compares with the peers' median µs per step is the median over single events of
    one `hints()` + `apply` pair, each pair timed on its own like each peer step (setup not included, as the
    peers' step times do not include their deal). The mean per event (all time, setup included / all events)
    and per game are printed beside it; they are what a busy machine inflates."""
    samples = []
    for seed in range(10_000, 10_300):
        table = sim.new_table(game_id, seed, players, careful=True)
        referee = Referee(table.header)
        deque(sim.play(table, referee, ABANDON_AFTER), maxlen=0)
        samples.append((table.header, list(referee.history)))
    per_event: list[int] = []
    games = total_ns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        for header, events in samples:
            g0 = perf_ns()
            referee = Referee(header)
            hints, apply = referee.hints, referee.apply
            for event in events:
                t0 = perf_ns()
                hints()
                apply(event)
                per_event.append(perf_ns() - t0)
            total_ns += perf_ns() - g0
            games += 1
    mean_game = total_ns / 1000 / games
    return (f"{players}p: median {statistics.median(per_event) / 1000:.2f} µs per event (hints() + apply, each "
            f"event timed; mean {total_ns / 1000 / len(per_event):.2f} µs per event and {mean_game:.0f} µs per "
            f"game of {len(per_event) / games:.1f} events, setup included), i.e. at most {1e6 / mean_game:,.0f} "
            f"games/s with a simulator that cost nothing")


EXTRAS = {
    "annaotto": [
        ("the referee's share of a careful game (setup, hints() and apply per event, no simulator)",
         lambda s: referee_share_of_careful_games("annaotto", 2, s)),
    ],
    "profi-sort": [
        ("full-game rounds/s (deal to scoring, sim included)", lambda s: f"{profi_sort_rounds_per_second(s):,.0f}"),
        ("lay_task of 10 cards with two jokers, median", lambda s: f"{profi_sort_lay_task_us():.1f} µs"),
    ],
}


def pct(values: list[int], q: float) -> float:
    """`q` as a fraction (0.99), in µs."""
    return percentile(values, round(q * 100)) / 1000.0


def measure(game_id: str, players: int, seconds: float) -> list[dict]:
    samples = sample_games(game_id, players, 30)
    latency = apply_latency(samples, seconds)
    gps, per_game = games_per_second(game_id, players, seconds)
    rows = [{
        "engine": "tabletop-referee",
        "game": f"{game_id} ({players}p)",
        "mode": "apply / sim",
        "games_per_s": gps,
        "median_us": statistics.median(latency) / 1000.0,
        "p90_us": pct(latency, 0.90),
        "p99_us": pct(latency, 0.99),
        "steps_per_game": per_game,
        "replay_events_per_s": replay_throughput(samples[:10], seconds / 2),
    }]
    if sim.get(game_id).mistakes:  # the like-for-like row: no deliberate mistakes, as the peers' agents
        gps, per_game = games_per_second(game_id, players, seconds, careful=True)
        rows.append({**rows[0], "mode": "apply / careful sim", "games_per_s": gps, "steps_per_game": per_game,
                     "median_us": None, "p90_us": None, "p99_us": None, "replay_events_per_s": None})
    return rows


def bench_python() -> str | None:
    for candidate in (ROOT / ".venv-bench" / "bin" / "python", pathlib.Path(sys.executable)):
        if candidate.exists():
            probe = subprocess.run([str(candidate), "-c", "import rlcard, pyspiel"], capture_output=True)
            if probe.returncode == 0:
                return str(candidate)
    return None


def peers(seconds: float) -> list[dict]:
    python = bench_python()
    tool = ROOT.parent / "shared" / "tools" / "peer-bench.py"
    if python is None or not tool.exists():
        print("peers: no Python with rlcard and open-spiel found (run scripts/bench.sh)", file=sys.stderr)
        return []
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "peers.json"
        subprocess.run([python, str(tool), "--seconds", str(seconds), "--json", str(out)],
                       check=False, stdout=subprocess.DEVNULL)
        if not out.exists():
            return []
        data = json.loads(out.read_text())
    rows = []
    for row in data.get("rows", []):
        rows.append({
            "engine": row.get("engine"),
            "game": row.get("game"),
            "mode": row.get("mode"),
            "games_per_s": row.get("games_per_s"),
            "median_us": row.get("median_us_per_step"),
            "p90_us": row.get("p90_us_per_step"),
            "p99_us": row.get("p99_us_per_step"),
            "steps_per_game": row.get("steps_per_game"),
            "replay_events_per_s": None,
        })
    return rows


def fmt(value: object, digits: int = 1) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return str(value)


def table(rows: list[dict]) -> str:
    columns = ["engine", "game", "mode", "games/s", "median µs/step", "p90 µs/step", "p99 µs/step",
               "steps/game", "replay events/s"]
    lines = ["| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]
    for r in rows:
        cells = [r["engine"], r["game"], r["mode"], fmt(r["games_per_s"], 0), fmt(r["median_us"], 2),
                 fmt(r["p90_us"], 2), fmt(r["p99_us"], 2), fmt(r["steps_per_game"]), fmt(r["replay_events_per_s"], 0)]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget per measurement (default 3)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every game with a sim)")
    parser.add_argument("--peers", action="store_true", help="also run RLCard and OpenSpiel (peer-bench)")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    chosen = [g for g in args.games.split(",") if g] or sim.ids()
    print(f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} cores; {args.seconds:g} s per measurement", flush=True)
    rows = []
    for game_id in chosen:
        for players in PLAYERS.get(game_id, (games.get(game_id).player_counts[0],)):
            rows += measure(game_id, players, args.seconds)
            print(f"measured {game_id} ({players}p)", file=sys.stderr, flush=True)
    if args.peers:
        rows += peers(args.seconds)
    print(table(rows))
    for key, count in ABANDONED.items():
        print(f"- {key}: {count} endless game(s) abandoned after {ABANDON_AFTER:,} events (time counted, no game)")
    for game_id in chosen:
        for label, run in EXTRAS.get(game_id, []):
            print(f"- {game_id}: {label}: {run(args.seconds)}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
