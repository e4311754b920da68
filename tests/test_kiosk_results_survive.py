"""The results survive a restart (issue #22): a kiosk killed while the results screen shows comes back to that
game's results (its end is in the log), and "Nochmal" and "Menü" work from there; once left, they stay left."""

from __future__ import annotations

import random

from referee import sim
from tests.kiosk_process import KioskProcess
from tests.test_kiosk_e2e import SEATS, play_event, start_game


def play_to_the_end(kiosk: KioskProcess, game_id: str, players: int, seed: int) -> dict:
    names = start_game(kiosk, game_id, players)
    seat_of = dict(zip(names, SEATS, strict=False))
    events = list(sim.play(sim.get(game_id)(random.Random(seed), names)))
    for count, event in enumerate(events, start=1):
        play_event(kiosk, event, seat_of, count)
    state = kiosk.wait(lambda s: s.get("state", {}).get("finished"))
    assert "rematch" in kiosk.cmd("view")["buttons"]
    return state


def test_a_killed_kiosk_comes_back_to_the_results_and_menu_leaves_them_for_good(tmp_path) -> None:
    kiosk = KioskProcess(tmp_path)
    try:
        before = play_to_the_end(kiosk, "magische-7", 2, seed=5)
        kiosk.cmd("scan", code="M7:7#1", reader="Anna")  # the last card scanned once more
        assert kiosk.state()["state"] == before["state"]
        kiosk.kill()
        kiosk = KioskProcess(tmp_path)
        after = kiosk.state()
        assert after["screen"] == "table" and after["state"] == before["state"], after
        assert {"rematch", "history", "menu"} <= set(kiosk.cmd("view")["buttons"])
        assert kiosk.touch("menu")["screen"] == "menu"
        kiosk.close()
        kiosk = KioskProcess(tmp_path)
        assert kiosk.state()["screen"] == "menu", "left results stay left"
    finally:
        kiosk.close()


def test_play_again_from_results_shown_after_a_restart(tmp_path) -> None:
    kiosk = KioskProcess(tmp_path)
    try:
        before = play_to_the_end(kiosk, "magische-7", 2, seed=6)
        kiosk.close()  # a clean stop (systemd restart) as well as a kill
        kiosk = KioskProcess(tmp_path)
        assert kiosk.state()["state"] == before["state"]
        screen = kiosk.touch("rematch")
        assert screen["screen"] == "table" and screen["events"] == 0 and not screen["state"]["finished"]
        assert sorted(screen["state"]["scores"]) == sorted(before["state"]["scores"])
        kiosk.kill()
        kiosk = KioskProcess(tmp_path)
        assert kiosk.state()["events"] == 0, "the new game is the one in progress"
    finally:
        kiosk.close()
