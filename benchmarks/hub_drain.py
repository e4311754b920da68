"""The hub's own ceiling: how fast it stores a backlog the broker queued for it while it was away.

    .venv/bin/python -m benchmarks.hub_drain [--records 50000] [--tables 200] [--json]

The hub connects once (its persistent session is made) and stops; the tables' log
records (complete random games, as `tests/hub_tables.py` makes them) are published
to the broker meanwhile; then the hub starts again and drains the queue. Printed:
records/s from the hub's start to the last record committed, the hub's CPU and
peak RSS, and whether every record is stored once. Numbers only.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

ROOT = Path(__file__).resolve().parents[1]

from benchmarks.fleet import BROKER_CONFIG, proc_cpu_seconds, proc_peak_rss_mb  # noqa: E402
from cafe import contract  # noqa: E402
from referee import sim  # noqa: E402
from tests.hub_process import HubProcess  # noqa: E402
from tests.hub_tables import LoggedTable, random_records  # noqa: E402
from tests.mosquitto import Broker  # noqa: E402

GAMES = tuple(sim.ids())  # every game that has simulated players, in menu order (the registry's)


def backlog(tables: int, records: int) -> list[tuple[str, bytes]]:
    per_table = -(-records // tables)
    out: list[tuple[str, bytes]] = []
    for i in range(tables):
        sim, seed, mine = LoggedTable(f"t{i:04d}"), i * 100, []
        while len(mine) < per_table:
            mine += random_records(sim, GAMES[i % len(GAMES)], seed)
            seed += 1
        # The table's status first, with its key (the hub runs with trust_first_key: tests/hub_process.py), then
        # its records, each of which the hub checks against that key and the chain.
        status = contract.status_payload(sim.table, screen="menu", n=mine[per_table - 1]["n"], key=sim.key)
        out.append((contract.status_topic("bench", sim.table), contract.encode(status)))
        out += [(contract.log_topic("bench", sim.table), contract.encode(r)) for r in mine[:per_table]]
    return out


def count(db_path: Path) -> int:
    db = sqlite3.connect(db_path)
    try:
        return db.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        db.close()


def run(records: int, tables: int) -> dict:
    messages = backlog(tables, records)
    with tempfile.TemporaryDirectory(prefix="drain-") as tmp:
        tmp_path = Path(tmp)
        broker = Broker(tmp_path / "broker", config=BROKER_CONFIG).start()
        hub = HubProcess(tmp_path / "hub", broker.address, "bench", extra=["--log-level", "WARNING"]).start()
        hub.stop()  # its session stays at the broker, which now queues for it
        host, _, port = broker.address.rpartition(":")
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="drain-publisher")
        client.max_inflight_messages_set(1000)
        client.connect(host, int(port))
        client.loop_start()
        infos = [client.publish(topic, payload, qos=1) for topic, payload in messages]
        for info in infos:
            info.wait_for_publish(60)
        client.disconnect()
        client.loop_stop()
        t0 = time.time()
        hub.start()
        pid = hub.proc.pid
        cpu0 = proc_cpu_seconds(pid)
        db_path = tmp_path / "hub" / "data" / "hub.sqlite"
        logged = sum(1 for topic, _ in messages if topic.endswith("/log"))
        while count(db_path) < logged and time.time() - t0 < 300:
            time.sleep(0.05)
        elapsed = time.time() - t0
        cpu = proc_cpu_seconds(pid) - cpu0
        peak = proc_peak_rss_mb(pid)
        stored = count(db_path)
        hub.stop()
        broker.stop()
    return {"records": logged, "tables": tables, "stored": stored, "seconds": round(elapsed, 2),
            "records_per_s": round(stored / elapsed, 1), "hub_cpu_pct": round(100 * cpu / elapsed, 1),
            "hub_peak_rss_mb": round(peak, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    r = run(args.records, args.tables)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"hub drain: {r['records']} queued records of {r['tables']} tables stored in {r['seconds']} s "
          f"({r['records_per_s']} records/s, including the hub's start); stored {r['stored']}")
    print(f"  hub: CPU {r['hub_cpu_pct']} % of one core, peak RSS {r['hub_peak_rss_mb']} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
