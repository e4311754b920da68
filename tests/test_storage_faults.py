"""Storage faults on real file systems: a full tmpfs (ENOSPC), a read-only one (EROFS), damaged log files.
The kiosk never crashes: a full disk refuses new events with a verdict and heals by itself; a damaged log is
moved aside with a notice; a read-only data directory is an error screen and a STATUS= line."""

from __future__ import annotations

import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from kiosk import i18n
from kiosk.app.controller import TableController
from kiosk.eventlog.storage import FULL, READONLY, open_log
from kiosk.eventlog.store import EventLog, effective_events
from referee import sim
from referee.sim import random_game
from referee.table import Referee
from tests.damage import KINDS, damage
from tests.kiosk_process import E2E_CONFIG, KioskProcess
from tests.mounts import can_mount, fill, free, remount, rerun_in_namespace, tmpfs
from tests.test_kiosk_e2e import SEATS, start_game

FULL_DE = "Speicher voll – Personal rufen"


@pytest.fixture(autouse=True)
def german():
    i18n.set_language("de")
    yield
    i18n.set_language("de")


def game_in_progress(path: Path, events: int = 10) -> tuple[dict, list[dict]]:
    header, plan = random_game("alles-klar", 7, 3)
    log = EventLog(path)
    controller = TableController.new_game(log, "alles-klar", list(header["players"]), header.get("dealer"))
    for event in plan[:events]:
        assert controller.submit(event).ok
    log.close()
    return header, plan


def test_a_full_disk_refuses_events_with_a_verdict_and_heals_when_space_is_freed(request, tmp_path):
    if not can_mount():
        rerun_in_namespace(request)
        return
    with tmpfs(tmp_path / "fs", size="512k") as fs:
        header, plan = random_game("alles-klar", 11, 3)
        log = EventLog(fs / "events.sqlite3")
        faults = []
        controller = TableController.new_game(log, "alles-klar", list(header["players"]), header.get("dealer"))
        controller.on_fault = faults.append
        fill(fs)
        refused = None
        for i, event in enumerate(plan):
            feedback = controller.submit(event)
            if not feedback.ok:
                refused = i
                break
        assert refused is not None, "a full disk must refuse an event at last"
        assert feedback.text("de") == FULL_DE and controller.storage_fault.kind == FULL
        assert [f.kind for f in faults] == [FULL]
        assert log.events(controller.game_row) == plan[:refused] == controller.referee.history
        assert not controller.submit(plan[refused]).ok  # still full: refused again, nothing changes
        assert controller.referee.history == plan[:refused]
        free(fs)
        rest = plan[refused:refused + 5]
        assert all(controller.submit(event).ok for event in rest)
        assert faults[-1] is None and controller.storage_fault is None
        assert log.events(controller.game_row) == plan[:refused + len(rest)]
        log.close()


def test_undo_when_full_is_refused_and_keeps_the_game_as_logged(request, tmp_path):
    if not can_mount():
        rerun_in_namespace(request)
        return
    with tmpfs(tmp_path / "fs", size="512k") as fs:
        header, plan = random_game("alles-klar", 12, 3)
        log = EventLog(fs / "events.sqlite3")
        controller = TableController.new_game(log, "alles-klar", list(header["players"]), header.get("dealer"))
        for event in plan[:5]:
            assert controller.submit(event).ok
        fill(fs)
        undone = 0
        while controller.undo().ok:  # space the WAL already holds may take a few
            undone += 1
            assert undone < 5
        assert controller.referee.history == list(effective_events(log.events(controller.game_row)))
        replay = Referee(controller.referee.header)
        for event in controller.referee.history:
            replay.apply(event)
        assert replay.state() == controller.referee.state() == controller.state
        free(fs)
        assert controller.undo().ok
        log.close()


def test_undo_of_the_last_event_and_the_status_are_one_transaction(tmp_path):
    header, plan = random_game("alles-klar", 5, 3)
    log = EventLog(tmp_path / "events.sqlite3")
    controller = TableController.new_game(log, "alles-klar", list(header["players"]), header.get("dealer"))
    for event in plan:
        controller.submit(event)
    assert log.games()[-1].status == "finished"
    before = log.db.total_changes
    assert controller.undo().ok
    assert log.games()[-1].status == "playing"
    assert TableController.resume(log) is not None
    # one transaction: the undo row, its café record and the status change were committed together
    assert log.db.total_changes - before == 3
    log.close()


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_log_is_moved_aside_and_a_fresh_one_started(tmp_path, kind):
    path = tmp_path / "events.sqlite3"
    game_in_progress(path, 40)
    data = damage(path, kind, random.Random(kind))
    opened = open_log(path, now=1_700_000_000)
    assert opened.log is not None and opened.fault is None
    aside = tmp_path / "events.sqlite3.corrupt-20231114T221320Z"
    assert aside.read_bytes() == data
    assert "events.sqlite3.corrupt-20231114T221320Z" in opened.notice and "beschädigt" in opened.notice
    assert opened.log.games() == [] and opened.log.current() is None
    opened.log.close()


def test_a_read_only_or_missing_data_dir_is_a_fault_not_a_crash(request, tmp_path):
    if not can_mount():
        rerun_in_namespace(request)
        return
    with tmpfs(tmp_path / "ro", size="1m", readonly=True) as ro:
        opened = open_log(ro / "events.sqlite3")
        assert opened.log is None and opened.fault.kind == READONLY
        missing = open_log(ro / "not" / "there" / "events.sqlite3")
        assert missing.log is None and missing.fault.kind == READONLY


# --- the kiosk process


def start(tmp_path: Path, data: Path) -> tuple[subprocess.Popen, Path, socket.socket]:
    control = tmp_path / "c.sock"
    notify = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.settimeout(0.2)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "NOTIFY_SOCKET": str(notify)}
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "--sim", "--data-dir", str(data), "--control",
                             str(control), "--demo-after", "0", "--config", str(E2E_CONFIG)],
                            env=env, stdout=subprocess.DEVNULL, stderr=(log := tempfile.TemporaryFile()))  # noqa: SIM115
    proc.log_file = log  # a file, not a pipe: a pipe nobody reads would block the kiosk's logging
    return proc, control, listener


def ask(control: Path, proc: subprocess.Popen, request: dict, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            proc.log_file.seek(0)
            raise AssertionError(proc.log_file.read().decode()[-3000:])
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(30)
                sock.connect(str(control))
                sock.sendall(json.dumps(request).encode() + b"\n")
                return json.loads(sock.makefile("rb").readline())
        except (FileNotFoundError, ConnectionRefusedError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def until(control, proc, predicate, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = ask(control, proc, {"cmd": "state"})
        if predicate(state):
            return state
        assert time.monotonic() < deadline, state
        time.sleep(0.05)


def messages(listener: socket.socket) -> list[str]:
    got = []
    try:
        while True:
            got.append(listener.recv(4096).decode())
    except TimeoutError:
        return got


def test_the_kiosk_shows_a_read_only_data_dir_and_recovers_when_it_is_writable(request, tmp_path):
    if not can_mount():
        rerun_in_namespace(request)
        return
    with tmpfs(tmp_path / "data", size="4m", readonly=True) as data:
        proc, control, listener = start(tmp_path, data)
        try:
            state = until(control, proc, lambda s: s.get("screen") == "storage-fault")
            assert state["fault"] == READONLY and state["text"] == "Spielprotokoll nicht beschreibbar – Personal rufen"
            got = messages(listener)
            assert any(m.startswith("STATUS=storage fault (readonly)") for m in got), got
            remount(data, readonly=False)
            until(control, proc, lambda s: s.get("screen") == "menu", timeout=30)
            assert any("STATUS=table screen up" in m for m in messages(listener))
            assert (data / "events.sqlite3").exists()
        finally:
            proc.terminate()
            proc.wait(30)
            listener.close()


def test_the_kiosk_starts_on_a_damaged_log_with_a_notice(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    game_in_progress(data / "events.sqlite3")
    (data / "events.sqlite3").write_bytes(random.Random(1).randbytes(8192))
    proc, control, listener = start(tmp_path, data)
    try:
        state = until(control, proc, lambda s: s.get("screen") == "storage-fault")
        assert state["fault"] is None and "beiseitegelegt" in state["text"]
        assert ask(control, proc, {"cmd": "touch", "action": "ok"})["screen"]["screen"] == "menu"
        assert [p.name.startswith("events.sqlite3.corrupt-") for p in data.glob("events.sqlite3.corrupt-*")] == [True]
        assert sqlite3.connect(data / "events.sqlite3").execute("PRAGMA quick_check").fetchone() == ("ok",)
    finally:
        proc.terminate()
        proc.wait(30)
        listener.close()


def test_the_kiosk_says_storage_full_on_screen_and_goes_on_when_space_is_back(request, tmp_path):
    if not can_mount():
        rerun_in_namespace(request)
        return
    with tmpfs(tmp_path / "data", size="1m") as data:
        kiosk = KioskProcess(data, extra=["--lang", "de"])
        try:
            names = start_game(kiosk, "alles-klar", 3)
            plan = list(sim.play(sim.get("alles-klar")(random.Random(3), names)))
            seat_of = dict(zip(names, SEATS, strict=False))
            fill(data)
            done = 0
            for event in plan:
                kiosk.cmd("scan", code=event["card"], reader=seat_of[event["player"]])
                state = kiosk.wait(lambda s, n=done + 1: s.get("events") == n or s.get("pending")
                                   or (s.get("feedback") or {}).get("text") == FULL_DE)
                if state.get("pending"):
                    kiosk.touch(f"choose:{state['pending'].index(event['rank_choice'])}")
                    state = kiosk.wait(lambda s, n=done + 1: s.get("events") == n
                                       or (s.get("feedback") or {}).get("text") == FULL_DE)
                if state["events"] == done:
                    break
                done += 1
            assert state["feedback"] == {"ok": False, "error": None, "text": FULL_DE}
            assert any(t.startswith(FULL_DE) for t in kiosk.cmd("view")["texts"]), "the verdict panel says it"
            assert kiosk.proc.poll() is None
            free(data)
            time.sleep(0.8)  # the scanner's dedupe window: the same card again
            kiosk.cmd("scan", code=plan[done]["card"], reader=seat_of[plan[done]["player"]])
            state = kiosk.wait(lambda s: s.get("events") == done + 1 or s.get("pending"))
            if state.get("pending"):
                kiosk.touch(f"choose:{state['pending'].index(plan[done]['rank_choice'])}")
            kiosk.wait_events(done + 1)
        finally:
            kiosk.close()
        log = EventLog(data / "events.sqlite3")
        assert log.events(log.games()[-1].id) == plan[:done + 1]
        log.close()


def test_export_from_a_damaged_log_says_so_without_a_traceback(tmp_path):
    (tmp_path / "events.sqlite3").write_bytes(random.Random(2).randbytes(5000))
    result = subprocess.run([sys.executable, "-m", "kiosk", "--data-dir", str(tmp_path), "export", "-o",
                             str(tmp_path / "out")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "corrupt: file is not a database" in result.stderr
    assert "Traceback" not in result.stderr
