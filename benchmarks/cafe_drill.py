"""Café fault drill: a real kiosk plays while the broker restarts and the kiosk is SIGKILLed, again and again.

    python -m benchmarks.cafe_drill [--restarts 20] [--kills 50] [--seed 1]

A real `referee-kiosk --sim` (tests/cafe_table.py) plays Alles klar? games (with
rejected scans) and publishes to Debian's mosquitto on a loopback port; an
independent subscriber with a persistent session (tests/cafe_watch.py) checks
every message against the contract. Faults:
- broker restarts: stopped during play, events made while it is away, started again;
- kills: half of them right after the broker came back with a backlog of records
  (the kiosk dies while sending it), half at a random moment of play.
At the end the kiosk runs once more until the broker acknowledged everything; then
after dedupe by (table, n) the subscriber must hold every record of the table's
log exactly once, in order, and every finished game must replay through
`referee replay` to the answers its records carry. Prints the figures; exit 1 if not.
"""

from __future__ import annotations

import argparse
import contextlib
import pathlib
import random
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

from kiosk.eventlog.store import EventLog  # noqa: E402
from tests.cafe_table import CafeTable, games_of, replay_answers  # noqa: E402
from tests.cafe_watch import Watcher  # noqa: E402
from tests.mosquitto import Broker  # noqa: E402

CAFE, TABLE = "drill", "t1"


def unacked(table: CafeTable, broker: Broker) -> int:
    log = EventLog(table.data_dir / "events.sqlite3")
    try:
        return log.last_n() - log.acked(f"{broker.host}:{broker.port}/{CAFE}/{TABLE}")
    finally:
        log.close()


def play_until_killed(table: CafeTable, rng: random.Random) -> None:
    killer = threading.Timer(rng.uniform(0.05, 0.6), table.kiosk.proc.kill)
    killer.start()
    with contextlib.suppress(ConnectionError, OSError, TimeoutError, AssertionError, ValueError, RuntimeError):
        table.play(40)  # killed mid-way
    killer.cancel()
    table.kill()


def kill_while_sending_backlog(table: CafeTable, broker: Broker, watcher: Watcher, rng: random.Random) -> bool:
    """A backlog played while the broker is down, the broker back (a restart), the kiosk killed while it sends
    the backlog; True when records were still unacknowledged at the kill."""
    broker.stop()
    table.play(rng.randint(10, 30))
    before = len({r["n"] for r in watcher.log_arrivals(TABLE)})
    broker.start()
    watcher.wait(lambda b=before: len({r["n"] for r in watcher.log_arrivals(TABLE)}) > b, 60,
                 "the kiosk never sent its backlog")
    time.sleep(rng.uniform(0, 0.02))
    table.kill()
    return unacked(table, broker) > 0


def replayed(truth: list[dict]) -> tuple[int, int, int]:
    """Games in the log, games that ended, and ended games whose replay answers differ from the logged ones."""
    mismatched = games = finished = 0
    for game in games_of(truth).values():
        games += 1
        if game[-1]["kind"] != "end":
            continue
        finished += 1
        events = [r for r in game if r["kind"] == "event"]
        answers = replay_answers(game[0]["header"], [r["event"] for r in events])
        mismatched += [{k: a[k] for k in ("seq", "ok", "error")} for a in answers] != \
            [r["answer"] for r in events]
    return games, finished, mismatched


def restart_during_play(table: CafeTable, broker: Broker, rng: random.Random) -> None:
    """The broker goes away during play and comes back."""
    broker.stop()
    table.play(rng.randint(3, 15))
    broker.start()
    table.play(rng.randint(3, 15))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--restarts", type=int, default=20, help="broker restarts during play")
    parser.add_argument("--kills", type=int, default=50, help="SIGKILLs of the kiosk")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rng = random.Random(args.seed)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        broker = Broker(root / "mosquitto").start()
        watcher = Watcher(broker.host, broker.port, CAFE)
        table = CafeTable(root / "kiosk", broker.address, CAFE, TABLE)
        restarts = kills = backlog_kills = 0
        try:
            table.start()
            table.play(10)
            while restarts < args.restarts or kills < args.kills:
                if kills < args.kills and (kills % 2 == 0 or restarts >= args.restarts):
                    if kills % 2 == 0:  # a backlog, the broker back, the kiosk killed while sending it
                        backlog_kills += kill_while_sending_backlog(table, broker, watcher, rng)
                        restarts += 1
                    else:
                        play_until_killed(table, rng)
                    kills += 1
                    table.start()
                    table.play(3)
                else:  # the broker goes away during play and comes back
                    restart_during_play(table, broker, rng)
                    restarts += 1
                print(f"\r{restarts} broker restarts, {kills} kills", end="", flush=True)
            truth = table.log_records()
            watcher.wait(lambda: watcher.has_records(TABLE, len(truth)), 120, "records missing at the end")
        finally:
            table.close()
            watcher.close()
            broker.stop()
        arrivals = watcher.log_arrivals(TABLE)
        firsts = watcher.records(TABLE)
        in_order = [r["n"] for r in firsts] == list(range(1, len(truth) + 1))
        exact = firsts == truth
        games, finished, mismatched = replayed(truth)
    rejected = sum(1 for r in truth if r["kind"] == "event" and not r["answer"]["ok"])
    print()
    print(f"- {restarts} broker restarts, {kills} kiosk SIGKILLs ({backlog_kills} with records not yet "
          f"acknowledged), {time.monotonic() - t0:.0f} s")
    print(f"- {len(truth)} log records ({rejected} rejected events, {games} games, {finished} ended); "
          f"{len(arrivals)} arrived, {len(arrivals) - len(firsts)} of them repeats")
    print(f"- after dedupe by (table, n): every record exactly once and in order: {in_order and exact}")
    print(f"- contract violations: {len(watcher.violations)}; games whose replay differs: {mismatched}")
    ok = in_order and exact and not watcher.violations and not mismatched
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
