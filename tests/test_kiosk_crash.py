"""Power-cut safety: SIGKILL the kiosk at random moments during a driven game, 50 times, and restart it.

After every kill: the log replays to a valid state, every event the screen had
confirmed is in the log (in order), and the restarted kiosk shows exactly the
log's replayed state.
"""

from __future__ import annotations

import random
import threading

import pytest

from kiosk.eventlog.store import EventLog, effective_events
from referee import sim
from referee.table import Referee
from tests.kiosk_process import KioskProcess
from tests.test_kiosk_e2e import SEATS, start_game

KILLS = 50


def log_state(data_dir) -> tuple[dict | None, list[dict]]:
    """The replayed state and the kept events of the log's latest game (playing or finished)."""
    log = EventLog(data_dir / "events.sqlite3")
    try:
        records = log.games()
        if not records:
            return None, []
        header, events = records[-1].header, log.events(records[-1].id)
        # The café log is written in the same transaction: its accepted event records are the events.
        assert [a.event for a in log.attempts(records[-1].id) if a.ok] == events
        assert [r.n for r in log.records()] == list(range(1, log.last_n() + 1))
        referee = Referee(header)
        kept = list(effective_events(events))
        for event in kept:
            assert referee.apply(event).ok, event
        return referee.state(), kept
    finally:
        log.close()


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_confirmed(tmp_path) -> None:
    rng = random.Random(20261122)
    plan: list[dict] = []
    seed = 0
    kills = 0
    while kills < KILLS:
        kiosk = KioskProcess(tmp_path)
        try:
            screen = kiosk.state()
            expected, logged = log_state(tmp_path)
            if screen["screen"] == "table":
                assert screen["state"] == expected, "the resumed state is the log's replay"
                done = screen["events"]
                assert plan[:done] == logged
            else:  # no game in progress (first run, or the last one finished): start one
                names = start_game(kiosk, "alles-klar", 3)
                seed += 1
                table = sim.get("alles-klar")(random.Random(seed), names)
                plan = list(sim.play(table))
                done = 0
            seat_of = dict(zip(kiosk.state()["state"]["scores"], SEATS, strict=False))
            confirmed = done
            killer = threading.Timer(rng.uniform(0.0, 0.12), kiosk.proc.kill)
            killer.start()
            try:
                for event in plan[done:]:
                    kiosk.cmd("scan", code=event["card"], reader=seat_of[event["player"]])
                    state = kiosk.wait(lambda s, n=confirmed + 1: s.get("events") == n or s.get("pending"))
                    if state.get("events") != confirmed + 1:
                        kiosk.touch(f"choose:{state['pending'].index(event['rank_choice'])}")
                        kiosk.wait_events(confirmed + 1)
                    confirmed += 1  # the screen confirmed it
            except (ConnectionError, OSError, TimeoutError, AssertionError, ValueError):
                pass  # killed mid-way
            killer.join()
            kiosk.proc.wait()
            kills += 1
            _, logged = log_state(tmp_path)
            assert logged[:confirmed] == plan[:confirmed], "every confirmed event is in the log, in order"
            assert logged == plan[: len(logged)], "the log holds nothing but the accepted events"
        finally:
            kiosk.close()
