"""A café table for tests and drills: a real `referee-kiosk --sim` publishing to a broker, playing games forever.

The driver keeps the plan of the game in progress (a seeded simulated game) across kills of the kiosk: a
restarted kiosk resumes from its log and the driver continues from the number of events it shows. Every few
events it first scans a card no deck has, so the log also holds rejected attempts.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from kiosk.eventlog.store import EventLog
from referee import sim
from tests.kiosk_process import KioskProcess
from tests.test_kiosk_e2e import SEATS, play_event, start_game

BOGUS_CARD = "M7:9#1"  # a card of Die magische 7 in a game of Alles klar?: unknown-card
GAME = "alles-klar"


def cafe_args(address: str, cafe: str, table: str) -> list[str]:
    return ["--cafe-broker", address, "--cafe", cafe, "--table", table]


class CafeTable:
    def __init__(self, data_dir: Path, address: str, cafe: str = "nord", table: str = "t1",
                 mistakes_every: int = 6):
        self.data_dir = data_dir
        self.args = cafe_args(address, cafe, table)
        self.table = table
        self.mistakes_every = mistakes_every
        self.kiosk: KioskProcess | None = None
        self.plan: list[dict[str, Any]] = []
        self.seat_of: dict[str, str] = {}
        self.seed = 0
        self.rejected = 0

    def start(self) -> KioskProcess:
        self.kiosk = KioskProcess(self.data_dir, self.args)
        return self.kiosk

    def play(self, count: int) -> int:
        """Play `count` more events (starting games as needed); returns how many the kiosk confirmed."""
        kiosk = self.kiosk
        assert kiosk is not None
        played = 0
        while played < count:
            state = kiosk.state()
            if state["screen"] != "table" or state["state"].get("finished"):
                if state["screen"] == "table":
                    kiosk.touch("menu")
                names = start_game(kiosk, GAME, 3)
                self.seed += 1
                table = sim.get(GAME)(random.Random(self.seed), names)
                self.plan = list(sim.play(table))
                self.seat_of = dict(zip(names, SEATS, strict=False))
                continue
            done = state["events"]
            if done >= len(self.plan):
                raise AssertionError(f"the kiosk shows {done} events of a {len(self.plan)}-event plan")
            if self.mistakes_every and done % self.mistakes_every == 0 and not state.get("pending"):
                kiosk.cmd("scan", code=BOGUS_CARD, reader="table")
                kiosk.wait(lambda s: (s.get("feedback") or {}).get("error") == "unknown-card")
                self.rejected += 1
            play_event(kiosk, self.plan[done], self.seat_of, done + 1)
            played += 1
        return played

    def kill(self) -> None:
        if self.kiosk is not None:
            self.kiosk.kill()
            self.kiosk.close()
            self.kiosk = None

    def close(self) -> None:
        if self.kiosk is not None:
            self.kiosk.close()
            self.kiosk = None

    def log_records(self) -> list[dict[str, Any]]:
        """The table's own log records, as payloads (the truth the broker must carry)."""
        log = EventLog(self.data_dir / "events.sqlite3")
        try:
            return [r.payload(self.table) for r in log.records()]
        finally:
            log.close()


def replay_answers(header: dict[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`referee replay` (the command, in a process of its own) on a transcript: every answer line."""
    text = io.StringIO()
    text.write(json.dumps(header) + "\n")
    for event in events:
        text.write(json.dumps(event) + "\n")
    result = subprocess.run([sys.executable, "-m", "referee", "replay", "-"], input=text.getvalue(),
                            capture_output=True, text=True, timeout=120, check=True)
    return [json.loads(line) for line in result.stdout.splitlines()]


def games_of(records: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Records grouped by game_uid, each group in order of n."""
    games: dict[str, list[dict[str, Any]]] = {}
    for record in sorted(records, key=lambda r: r["n"]):
        games.setdefault(record["game_uid"], []).append(record)
    return games
