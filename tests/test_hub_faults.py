"""Faults under load: the hub SIGKILLed and the broker restarted while tables publish.

Afterwards the hub's store holds every record every table published, each exactly
once and unchanged (compared with what the tables wrote down before sending).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time

from tests.hub_process import ROOT, HubProcess

TABLES = 4


def stored(db_path) -> dict[str, list[tuple[int, dict]]]:
    db = sqlite3.connect(db_path)
    try:
        out: dict[str, list[tuple[int, dict]]] = {}
        for tbl, n, body in db.execute("SELECT tbl, n, body FROM records ORDER BY tbl, n"):
            out.setdefault(tbl, []).append((n, json.loads(body)))
        return out
    finally:
        db.close()


def test_hub_killed_and_broker_restarted_during_load_store_every_record_once(mosquitto, tmp_path):
    hub = HubProcess(tmp_path / "hub", mosquitto.address, "cafe-1").start()
    tables = []
    games = ["magische-7", "alles-klar", "annaotto", "alcasan"]
    for i in range(TABLES):
        out = tmp_path / f"t{i}.jsonl"
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.hub_table_proc", "--broker", mosquitto.address, "--cafe", "cafe-1",
             "--table", f"t{i}", "--data-dir", str(tmp_path / f"t{i}"), "--game", games[i % len(games)],
             "--seed", str(40 + i), "--games", "3", "--pace", "0.004", "--noise", "7", "--out", str(out)],
            cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        tables.append((proc, out))
    try:
        time.sleep(0.5)
        hub.kill()
        time.sleep(0.5)
        mosquitto.restart()  # while the hub is away: its session and queue survive in the broker's persistence
        hub.start()
        time.sleep(0.7)
        hub.kill()
        hub.start()
        time.sleep(0.3)
        mosquitto.restart()
        for proc, _ in tables:  # the tables stay online after it, to answer the hub's replay requests
            assert proc.stdout is not None and proc.stdout.readline().strip() == "done"
        published = {}
        for i, (_, out) in enumerate(tables):
            published[f"t{i}"] = [json.loads(line) for line in out.read_text().splitlines()]
        db_path = tmp_path / "hub" / "data" / "hub.sqlite"
        deadline = time.monotonic() + 60
        while True:
            have = stored(db_path)
            if all(len(have.get(t, [])) == len(records) for t, records in published.items()):
                break
            assert time.monotonic() < deadline, {t: (len(have.get(t, [])), len(r)) for t, r in published.items()}
            time.sleep(0.2)
        for table, records in published.items():
            assert have[table] == [(r["n"], r) for r in records]  # each once, in order, as published
    finally:
        for proc, _ in tables:
            proc.kill()
        hub.stop()
