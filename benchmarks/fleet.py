"""A café's fleet through the real parts: N tables → Mosquitto → the hub → a live page's event stream.

    .venv/bin/python -m benchmarks.fleet [--tables 200] [--seconds 30] [--interval 2.0] [--burst] [--json]

Each table is what a kiosk is: its own event log (`kiosk.eventlog.store.EventLog`, SQLite,
synchronous FULL) as the outbox and its own café publisher (`cafe.publisher.Publisher`,
one MQTT client per table), playing random games through the referee at one event
every `--interval` seconds (random phase; `--burst` adds, every 10 s, five quick
events at every table at once). The tables run in `--workers` processes; the hub
(`python -m hub`) is a process of its own, measured from /proc. One client follows
the overview's server-sent-event stream, as the café's screen does.

Printed: event → stored in the hub (the hub's commit time, carried in its news) and
event → received by the live-page client, p50/p99, and where the time goes (the
table's own log commit, its publisher and the broker up to the hub's receipt; the
hub's batch commit); records/s; the hub's CPU (share of one core) and peak RSS;
lost (published, never stored) and duplicated (stored or shown twice) records.
Numbers only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import faulthandler
import http.client
import json
import multiprocessing as mp
import os
import random
import signal
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from benchmarks.stats import percentile  # noqa: E402
from referee import sim  # noqa: E402
from referee.sim import random_game  # noqa: E402
from tests.hub_process import HubProcess  # noqa: E402
from tests.hub_table_proc import KioskTable  # noqa: E402
from tests.mosquitto import Broker  # noqa: E402

GAMES = tuple(sim.ids())  # every game that has simulated players, in menu order (the registry's)
BROKER_CONFIG = "\n".join([
    "listener {port} 127.0.0.1", "allow_anonymous true", "persistence true", "persistence_location {dir}/",
    "max_queued_messages 100000", "log_dest stderr", "log_type error", "log_type warning", ""])


# ---------------------------------------------------------------- the tables (worker processes)


class Player:
    """Paces one table: a move every `interval` (random ±50 %), and remembers when each move was made."""

    def __init__(self, table: KioskTable, index: int, interval: float, burst: bool, stop_at: float,
                 sent: dict[str, float], lock: threading.Lock):
        self.table, self.index, self.interval, self.burst = table, index, interval, burst
        self.stop_at, self.sent, self.lock = stop_at, sent, lock
        self.rng = random.Random(index)
        self.next_move = time.time() + self.rng.random() * interval  # tables do not all move in step
        self.moved_at = 0.0
        table.on_event = self.logged

    def before_move(self) -> bool:
        """Wait for this table's next move; True once the run is over (the game is then abandoned)."""
        pause = self.next_move - time.time()
        if pause > 0:
            time.sleep(pause)
        self.moved_at = time.time()
        return self.moved_at >= self.stop_at

    def logged(self, n: int) -> None:
        with self.lock:
            self.sent[f"{self.table.table}/{n}"] = self.moved_at
        quick = self.burst and int(self.moved_at) % 10 == 0
        self.next_move = self.moved_at + (0.05 if quick else self.interval * (0.5 + self.rng.random()))

    def play(self) -> None:
        seed = self.index * 1000
        while time.time() < self.stop_at:
            self.table.play(GAMES[self.index % len(GAMES)], seed, pace=0, noise=9, should_stop=self.before_move)
            seed += 1


def run_tables(ids: list[str], broker: str, data_dir: str, seconds: float, interval: float, burst: bool,
               conn) -> None:
    """One worker: its tables play for `seconds`, then it reports every event's send time and each table's last n."""
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 PID` prints where a worker is
    for game in GAMES:  # load every game's modules once, before the threads (the registries load lazily)
        random_game(game, 0)
    sent: dict[str, float] = {}
    lock = threading.Lock()
    stop_at = time.time() + seconds
    tables = [KioskTable(broker, "bench", t, Path(data_dir)) for t in ids]
    threads = []
    for table in tables:
        table.start()
        player = Player(table, int(table.table[1:]), interval, burst, stop_at, sent, lock)
        thread = threading.Thread(target=player.play, daemon=True)
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join()
    deadline = time.time() + 60
    while not all(t.all_acked() for t in tables) and time.time() < deadline:
        time.sleep(0.1)
    conn.send({"sent": sent, "last_n": {t.table: t.log.last_n() for t in tables}})
    conn.recv()  # stay online (replays) until the main process has what it needs
    for table in tables:
        table.stop()


# ---------------------------------------------------------------- the live page's stream


class PageClient(threading.Thread):
    """Reads /events like the overview page does; keeps the arrival time of every record's news."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.arrived: dict[str, tuple[float, float, float]] = {}  # "table/n" -> (hub received, stored, arrived)
        self.duplicates = 0
        self.ready = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=None)
        conn.request("GET", "/events?lang=en")
        response = conn.getresponse()
        self.ready.set()
        while True:
            line = response.fp.readline()
            if not line:
                return
            if not line.startswith(b"data: "):
                continue
            now = time.time()
            news = json.loads(line[6:])
            if news.get("type") != "record":
                continue
            key = f"{news['table']}/{news['n']}"
            if key in self.arrived:
                self.duplicates += 1
            self.arrived[key] = (news["received"], news["stored"], now)


# ---------------------------------------------------------------- measuring the hub


def proc_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def stored_counts(db_path: Path) -> dict[str, int]:
    db = sqlite3.connect(db_path)
    try:
        return dict(db.execute("SELECT tbl, COUNT(*) FROM records GROUP BY tbl"))
    finally:
        db.close()


def pct(values: list[float], q: float) -> float:
    return percentile(values, q)


def start_workers(ids: list[str], workers: int, table_args: tuple) -> tuple[list, list]:
    """`workers` forked processes, each playing its share of the tables (`run_tables`); their pipes and
    processes."""
    pipes, procs = [], []
    ctx = mp.get_context("fork")
    for w in range(workers):
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=run_tables, args=(ids[w::workers], *table_args, child))
        proc.start()
        pipes.append(parent)
        procs.append(proc)
    return pipes, procs


def wait_stored(db_path: Path, last_n: dict[str, int], timeout: float = 60) -> None:
    """Until the hub has stored every table's last record (or `timeout` seconds)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        counts = stored_counts(db_path)
        if all(counts.get(t, 0) >= n for t, n in last_n.items()):
            return
        time.sleep(0.2)


def run(tables: int, seconds: float, interval: float, burst: bool, workers: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="fleet-") as tmp:
        tmp_path = Path(tmp)
        broker = Broker(tmp_path / "broker", config=BROKER_CONFIG).start()
        hub = HubProcess(tmp_path / "hub", broker.address, "bench", extra=["--log-level", "WARNING"]).start()
        page = PageClient(hub.port)
        page.start()
        page.ready.wait(10)
        ids = [f"t{i:04d}" for i in range(tables)]
        cpu0, t0 = proc_cpu_seconds(hub.proc.pid), time.time()
        pipes, procs = start_workers(ids, workers, (broker.address, str(tmp_path / "tables"), seconds, interval,
                                                    burst))
        sent: dict[str, float] = {}
        last_n: dict[str, int] = {}
        for parent in pipes:
            report = parent.recv()
            sent |= report["sent"]
            last_n |= report["last_n"]
        db_path = tmp_path / "hub" / "data" / "hub.sqlite"
        wait_stored(db_path, last_n)
        cpu1, t1 = proc_cpu_seconds(hub.proc.pid), time.time()
        peak = proc_peak_rss_mb(hub.proc.pid)
        time.sleep(0.5)  # the last news on their way to the page
        counts = stored_counts(db_path)
        for parent in pipes:
            parent.send("quit")
        for proc in procs:
            proc.join(30)
        hub.stop()
        broker.stop()
    seen = [(page.arrived[k], t) for k, t in sent.items() if k in page.arrived]
    reach_ms = [(received - t) * 1000 for (received, _, _), t in seen]
    hub_ms = [(stored - received) * 1000 for (received, stored, _), _ in seen]
    stored_ms = [(stored - t) * 1000 for (_, stored, _), t in seen]
    page_ms = [(arrived - t) * 1000 for (_, _, arrived), t in seen]
    records = sum(last_n.values())
    lost = sum(max(0, n - counts.get(t, 0)) for t, n in last_n.items())
    return {
        "tables": tables, "seconds": seconds, "interval_s": interval, "burst": burst, "workers": workers,
        "events": len(sent), "records": records, "records_per_s": round(sum(counts.values()) / (t1 - t0), 1),
        "stored_p50_ms": round(pct(stored_ms, 50), 2), "stored_p99_ms": round(pct(stored_ms, 99), 2),
        "page_p50_ms": round(pct(page_ms, 50), 2), "page_p99_ms": round(pct(page_ms, 99), 2),
        "reach_p50_ms": round(pct(reach_ms, 50), 2), "reach_p99_ms": round(pct(reach_ms, 99), 2),
        "hub_write_p50_ms": round(pct(hub_ms, 50), 2), "hub_write_p99_ms": round(pct(hub_ms, 99), 2),
        "hub_cpu_pct": round(100 * (cpu1 - cpu0) / (t1 - t0), 1), "hub_peak_rss_mb": round(peak, 1),
        "lost": lost, "duplicated": page.duplicates + max(0, sum(counts.values()) - records),
        "events_not_seen_on_page": len(sent) - len(page_ms),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between a table's events")
    parser.add_argument("--burst", action="store_true", help="every 10 s, five quick events at every table")
    parser.add_argument("--workers", type=int, default=0,
                        help="processes that run the tables (default: one per 80 tables, at least 2)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    # paho's network loop uses select(): a process whose sockets get file descriptors above 1024 cannot
    # connect them, and a table holds about ten (its log twice, WAL and shm, its socket and paho's pair).
    workers = args.workers or max(2, -(-args.tables // 80))
    result = run(args.tables, args.seconds, args.interval, args.burst, workers)
    if args.json:
        print(json.dumps(result))
        return 0
    r = result
    print(f"fleet: {r['tables']} tables for {r['seconds']:g} s, one event every {r['interval_s']:g} s per table"
          f"{' with bursts' if r['burst'] else ''} ({r['workers']} table processes)")
    print(f"  events {r['events']}, log records {r['records']}, stored {r['records_per_s']} records/s")
    print(f"  event → stored in the hub:   p50 {r['stored_p50_ms']} ms, p99 {r['stored_p99_ms']} ms")
    print(f"  event → live page (SSE):     p50 {r['page_p50_ms']} ms, p99 {r['page_p99_ms']} ms")
    print(f"    of which table log + publisher + broker → hub: p50 {r['reach_p50_ms']} ms, p99 {r['reach_p99_ms']} ms;"
          f" hub received → committed: p50 {r['hub_write_p50_ms']} ms, p99 {r['hub_write_p99_ms']} ms")
    print(f"  hub: CPU {r['hub_cpu_pct']} % of one core, peak RSS {r['hub_peak_rss_mb']} MB")
    print(f"  lost {r['lost']}, duplicated {r['duplicated']}, events not seen on the page "
          f"{r['events_not_seen_on_page']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
