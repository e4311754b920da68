"""The table controller checks, logs, then applies (issue #23): a write that fails leaves the referee as it was
(nothing reassigned, nothing taken back), a game's end that did not reach the log is written from its events,
and the game's panel reads the referee through the controller, never through fields set on it from outside."""

from __future__ import annotations

import pytest

from kiosk.app.controller import TableController
from kiosk.eventlog.storage import FULL
from kiosk.eventlog.store import EventLog
from referee.sim import random_game
from tests.mounts import can_mount, fill, free, rerun_in_namespace, tmpfs


def test_a_refused_write_leaves_the_referee_untouched(request, tmp_path) -> None:
    """On a full disk the event is refused before the referee hears it: the same game object, the same history
    list, the same state — for an event and for an undo alike."""
    if not can_mount():
        rerun_in_namespace(request)
        return
    with tmpfs(tmp_path / "fs", size="512k") as fs:
        header, plan = random_game("alles-klar", 21, 3)
        log = EventLog(fs / "events.sqlite3")
        controller = TableController.new_game(log, "alles-klar", list(header["players"]), header.get("dealer"))
        for event in plan[:4]:
            assert controller.submit(event).ok
        fill(fs)
        refused = []
        for event in [*plan[4:], {"type": "undo"}]:
            game, history, state = controller.referee.game, controller.referee.history, controller.referee.state()
            kept = list(history)
            feedback = controller.submit(event)
            if feedback.ok:
                continue
            refused.append(event)
            assert controller.storage_fault is not None and controller.storage_fault.kind == FULL
            assert controller.referee.game is game and controller.referee.history is history
            assert history == kept and controller.referee.state() == state == controller.state
            if len(refused) == 2:
                break
        assert len(refused) == 2, "a full disk must refuse events at last"
        assert log.events(controller.game_row) == controller.referee.history
        free(fs)
        assert controller.submit({"type": "undo"}).ok and controller.storage_fault is None
        log.close()


def logged_without_its_end(log: EventLog, seed: int) -> tuple[int, list[dict]]:
    """A whole game in the log, every event but no end: as a kill between the last event's commit and the
    end's leaves it."""
    header, plan = random_game("alles-klar", seed, 3)
    row = log.new_game(header)
    for event in plan:
        log.append(row, event)
    assert log.games()[-1].status == "playing"
    return row, plan


def test_a_game_whose_end_was_lost_is_finished_on_resume(tmp_path) -> None:
    log = EventLog(tmp_path / "events.sqlite3")
    logged_without_its_end(log, 31)
    controller = TableController.resume(log)
    assert controller is not None and controller.finished
    assert log.games()[-1].status == "finished"
    end = log.records()[-1]
    assert end.kind == "end" and end.fields["status"] == "finished"
    assert end.fields["winners"] == controller.state["winners"] and end.fields["scores"] == controller.state["scores"]
    assert TableController.resume(log) is None  # ended once, not playing any more
    log.close()


def test_a_game_whose_end_was_lost_is_finished_not_abandoned_by_the_next_game(tmp_path) -> None:
    log = EventLog(tmp_path / "events.sqlite3")
    logged_without_its_end(log, 32)
    log.new_game({"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A", "B"]})
    first, second = log.games()
    assert (first.status, second.status) == ("finished", "playing")
    ends = [r for r in log.records() if r.kind == "end"]
    assert [e.fields["status"] for e in ends] == ["finished"] and ends[0].fields["winners"]
    log.close()


@pytest.mark.parametrize("game", ["annaotto", "profi-sort", "alcasan"])
def test_the_panel_reads_the_referee_through_the_controller(tmp_path, game: str) -> None:
    header, plan = random_game(game, 41, 3 if game != "profi-sort" else 2)
    log = EventLog(tmp_path / "events.sqlite3")
    controller = TableController.new_game(log, game, list(header["players"]), header.get("dealer"),
                                          header.get("options"))
    ui = controller.ui
    assert ui.ruling is controller and vars(ui).keys().isdisjoint({"events", "hints", "check"})
    for event in plan[:6]:
        assert controller.submit(event).ok
        assert ui.hints == controller.referee.hints() and ui.events == controller.referee.history
    assert controller.undo().ok  # an undo replaces the referee's history list: the panel sees the new one
    assert ui.events is controller.referee.history and ui.hints == controller.referee.hints()
    assert ui.check(plan[5]).ok == controller.referee.check(plan[5]).ok
    log.close()
