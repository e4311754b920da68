"""The guard around the display loop (issue #22), on a real kiosk process: a screen that raises never ends the
kiosk; the error is logged at ERROR with its traceback, the table screen is rebuilt from the log, a calm notice
shows, and the same fault five times within a minute exits non-zero for systemd to restart it."""

from __future__ import annotations

import random

from kiosk.app.fault_injection import ENV
from kiosk.loop.guard import EXIT_CODE, REPEAT
from referee import sim
from tests.kiosk_process import KioskProcess
from tests.test_kiosk_e2e import SEATS, play_event, start_game

NOTICE = "A glitch – the game goes on"


def faulty_kiosk(tmp_path) -> KioskProcess:
    kiosk = KioskProcess(tmp_path, env={ENV: "1"})
    kiosk.expect_guarded_errors = True  # this test makes screens raise on purpose
    return kiosk


def test_a_raising_screen_is_logged_rebuilt_from_the_log_and_the_game_goes_on(tmp_path) -> None:
    kiosk = faulty_kiosk(tmp_path)
    try:
        names = start_game(kiosk, "magische-7", 2)
        seat_of = dict(zip(names, SEATS, strict=False))
        events = list(sim.play(sim.get("magische-7")(random.Random(3), names)))
        for n, event in enumerate(events[:3], 1):
            play_event(kiosk, event, seat_of, n)
        before = kiosk.state()
        assert before["guarded_errors"] == 0

        kiosk.cmd("fault", where="input")  # the next input's handler raises
        kiosk.cmd("scan", code=events[3]["card"], reader=seat_of[events[3]["player"]])
        after = kiosk.wait(lambda s: s["guarded_errors"] == 1)
        assert after["screen"] == "table" and after["state"] == before["state"] and after["events"] == 3
        assert NOTICE in kiosk.cmd("view")["texts"]
        log = kiosk.stderr_text()
        line = next(x for x in log.splitlines() if "display loop guard: injected fault (input)" in x)
        assert line.startswith("error: "), line  # logged at ERROR (the terminal's form of the level)
        assert "Traceback (most recent call last)" in log and "InjectedFault" in log

        play_event(kiosk, events[3], seat_of, 4)  # the game goes on from the log
        kiosk.cmd("fault", where="draw")  # drawing raises
        after = kiosk.wait(lambda s: s["guarded_errors"] == 2)
        assert after["screen"] == "table" and after["events"] == 4
        for n, event in enumerate(events[4:], 5):
            play_event(kiosk, event, seat_of, n)
        assert kiosk.state()["state"]["finished"]
        assert kiosk.proc.poll() is None
    finally:
        kiosk.close()


def test_the_same_fault_repeating_exits_for_a_restart_and_the_game_resumes(tmp_path) -> None:
    kiosk = faulty_kiosk(tmp_path)
    try:
        names = start_game(kiosk, "alles-klar", 3)
        seat_of = dict(zip(names, SEATS, strict=False))
        event = next(iter(sim.play(sim.get("alles-klar")(random.Random(4), names))))
        play_event(kiosk, event, seat_of, 1)
        for n in range(1, REPEAT):
            kiosk.cmd("fault", where="tick")
            kiosk.wait(lambda s, n=n: s["guarded_errors"] == n)
        assert kiosk.proc.poll() is None, f"{REPEAT - 1} faults: still up"
        kiosk.send_raw({"cmd": "fault", "where": "tick"})
        assert kiosk.proc.wait(20) == EXIT_CODE
        assert "exiting for a restart" in kiosk.stderr_text()
    finally:
        kiosk.close()
    again = KioskProcess(tmp_path)  # what systemd does: start it again; the game is where it was
    try:
        assert again.state()["screen"] == "table" and again.state()["events"] == 1
    finally:
        again.close()


def test_no_fault_command_without_the_test_flag(tmp_path) -> None:
    kiosk = KioskProcess(tmp_path)
    try:
        reply = kiosk.send_raw({"cmd": "fault", "where": "draw"})
        assert not reply.get("ok") and "unknown command" in reply.get("error", "")
        assert kiosk.state()["guarded_errors"] == 0
    finally:
        kiosk.close()


def test_the_suite_fails_a_test_that_leaves_a_guarded_error_behind(tmp_path) -> None:
    from tests.conftest import left_guarded_errors

    kiosk = faulty_kiosk(tmp_path)
    try:
        kiosk.cmd("fault", where="draw")
        kiosk.wait(lambda s: s["guarded_errors"] == 1)
        kiosk.expect_guarded_errors = False  # as if the test had not asked for it
        assert left_guarded_errors([kiosk], []) and "injected fault (draw)" in left_guarded_errors([kiosk], [])[0]
        kiosk.expect_guarded_errors = True
        assert left_guarded_errors([kiosk], []) == []
    finally:
        kiosk.close()
