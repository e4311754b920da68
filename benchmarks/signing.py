"""What signing costs: a table sealing each log record (canonical JSON, SHA-256, Ed25519) and the hub checking it.

    python -m benchmarks.signing [--records N] [--json FILE]

Rows, each over N records of real games (the referee's simulator, as a kiosk's log makes them: starts, events
with the referee's answers, ends; about 150–250 bytes each), timed one record at a time with perf_counter_ns:
  seal               `RecordSigner.seal`: the table's whole cost per record (canonical form, hash, signature)
  check              `check_record` with the table's key: the hub's cost per record (hash again, verify)
  append, no café    `EventLog.append` of an accepted event on a log of a kiosk without a café (nothing sealed):
                     SQLite insert and commit with synchronous FULL — the fsync a player waits for anyway
  append, sealed     the same on a log opened for a café table: sealed in the same transaction
The load average is printed beside the figures: the machine is shared. Nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

from benchmarks.stats import percentile  # noqa: E402
from cafe.signing import RecordSigner, check_record, new_private_key, parse_public  # noqa: E402
from kiosk.eventlog.store import EventLog  # noqa: E402
from referee.sim import random_game  # noqa: E402
from tests.hub_tables import LoggedTable  # noqa: E402

perf_ns = time.perf_counter_ns


def records(count: int) -> list[dict]:
    """Unsealed records of whole games, as a table writes them."""
    table, out, seed = LoggedTable("t1"), [], 0
    while len(out) < count:
        seed += 1
        header, events = random_game("magische-7", seed)
        out += [{k: v for k, v in r.items() if k not in ("h", "sig", "prev")} for r in table.game(header, events)]
    return out[:count]


def summary(ns: list[int]) -> dict[str, float]:
    us = sorted(n / 1000 for n in ns)
    return {"median_us": round(statistics.median(us), 1), "p99_us": round(percentile(us, 99), 1),
            "mean_us": round(statistics.fmean(us), 1)}


def seal_and_check(bodies: list[dict]) -> dict[str, dict[str, float]]:
    signer = RecordSigner(new_private_key())
    key = parse_public(signer.public)
    sealed, seal_ns, prev = [], [], None
    for body in bodies:
        t0 = perf_ns()
        record = signer.seal(body, prev)
        seal_ns.append(perf_ns() - t0)
        prev = record["h"]
        sealed.append(record)
    check_ns = []
    for record in sealed:
        t0 = perf_ns()
        check_record(record, key)
        check_ns.append(perf_ns() - t0)
    size = statistics.median(len(json.dumps(r, ensure_ascii=False).encode()) for r in sealed)
    return {"seal": summary(seal_ns), "check": summary(check_ns), "record_bytes_median": size}


def appends(count: int, table: str | None) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        log = EventLog(pathlib.Path(folder) / "events.sqlite3", table=table)
        header, events = random_game("magische-7", 1)
        game = log.new_game(header)
        ns = []
        for i in range(count):
            t0 = perf_ns()
            log.append(game, events[i % len(events)])
            ns.append(perf_ns() - t0)
        log.close()
    return summary(ns)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=5000)
    parser.add_argument("--appends", type=int, default=500)
    parser.add_argument("--json", type=pathlib.Path)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    result = seal_and_check(records(args.records))
    result["append_no_cafe"] = appends(args.appends, None)
    result["append_sealed"] = appends(args.appends, "t1")
    result["load_average"] = [round(x, 2) for x in (*load_before, *os.getloadavg())]
    print(f"{args.records} records (median {result['record_bytes_median']:.0f} bytes sealed), "
          f"load average {load_before[0]:.2f} before, {os.getloadavg()[0]:.2f} after")
    for name, row in (("seal (table, per record)", result["seal"]), ("check (hub, per record)", result["check"]),
                      ("append, no café (commit)", result["append_no_cafe"]),
                      ("append, sealed (commit)", result["append_sealed"])):
        print(f"  {name:<26} median {row['median_us']:>8} µs   p99 {row['p99_us']:>8} µs   mean {row['mean_us']:>8} µs")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
