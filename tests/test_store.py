"""The event log as the café's outbox: numbered records (start, every answered event, end), attempts, migration."""

from __future__ import annotations

import io
import json
import sqlite3

from kiosk.app.controller import TableController
from kiosk.eventlog.store import EventLog
from referee import sim
from referee.transcript import replay

BOGUS = {"type": "play", "player": "Anna", "card": "ZZ:0"}  # not a card of any deck: always rejected


def play_with_mistakes(log: EventLog, game: str, seed: int, every: int = 5) -> TableController:
    """A whole simulated game through the controller, with a rejected scan after every few events."""
    header, events = sim.random_game(game, seed)
    controller = TableController.new_game(log, game, header["players"], header.get("dealer"),
                                          header.get("options"))
    for i, event in enumerate(events):
        if i % every == 0:
            assert not controller.submit(dict(BOGUS)).ok
        assert controller.submit(event).ok, event
    return controller


def as_transcript(records: list) -> tuple[dict, list[dict], list[dict]]:
    """One game's records → its header, events and the answers the table gave."""
    assert records[0].kind == "start"
    header = records[0].fields["header"]
    events = [r.fields["event"] for r in records if r.kind == "event"]
    answers = [r.fields["answer"] for r in records if r.kind == "event"]
    return header, events, answers


def test_records_number_every_answered_event_and_replay_to_the_same_answers(tmp_path) -> None:
    log = EventLog(tmp_path / "events.sqlite3")
    for seed, game in enumerate(("alles-klar", "magische-7"), 1):
        play_with_mistakes(log, game, seed)
    records = log.records()
    assert [r.n for r in records] == list(range(1, len(records) + 1))
    games = log.games()
    assert [r.kind for r in records].count("start") == 2 and [r.kind for r in records].count("end") == 2
    for game in games:
        mine = [r for r in records if r.game_row == game.id]
        assert mine[-1].kind == "end" and mine[-1].fields["status"] == "finished"
        header, events, answers = as_transcript(mine)
        assert any(not a["ok"] for a in answers) and sum(a["ok"] for a in answers) == game.events
        text = io.StringIO()
        text.write(json.dumps(header) + "\n")
        for event in events:
            text.write(json.dumps(event) + "\n")
        steps = list(replay(io.StringIO(text.getvalue())))
        assert [{"seq": s.seq, "ok": s.answer.ok, "error": s.answer.error} for s in steps] == answers
        assert steps[-1].state["scores"] == mine[-1].fields["scores"]
        assert steps[-1].state["winners"] == mine[-1].fields["winners"]
        attempts = log.attempts(game.id)
        assert [a.seq for a in attempts] == list(range(1, len(events) + 1))
        assert [a.event for a in attempts] == events
        assert [(a.ok, a.error) for a in attempts] == [(a["ok"], a["error"]) for a in answers]
        assert [a.n for a in attempts] == [r.n for r in mine if r.kind == "event"]
    log.close()


def test_payload_is_the_protocols_record(tmp_path) -> None:
    log = EventLog(tmp_path / "events.sqlite3")
    play_with_mistakes(log, "alles-klar", 3)
    start, first_event = log.records(limit=2)
    payload = start.payload("t1")
    assert payload["v"] == 1 and payload["table"] == "t1" and payload["n"] == 1 and payload["kind"] == "start"
    assert payload["header"]["game"] == "alles-klar" and len(payload["game_uid"]) >= 8
    assert "+" in payload["at"][19:] or "-" in payload["at"][19:] or payload["at"].endswith("Z")
    event = first_event.payload("t1")
    assert event["answer"] == {"seq": 1, "ok": False, "error": "unknown-card"} and event["event"] == BOGUS
    assert log.records(after_n=1, limit=1)[0].n == 2


def test_n_is_never_reused_across_restarts_and_abandoned_games(tmp_path) -> None:
    path = tmp_path / "events.sqlite3"
    log = EventLog(path)
    header, events = sim.random_game("alles-klar", 4)
    controller = TableController.new_game(log, "alles-klar", header["players"], header.get("dealer"))
    for event in events[:5]:
        controller.submit(event)
    log.close()
    log = EventLog(path)
    assert log.last_n() == 6
    resumed = TableController.resume(log)
    assert resumed is not None and resumed.referee.state() == controller.referee.state()
    TableController.new_game(log, "alles-klar", header["players"])  # abandons the unfinished one
    kinds = [(r.n, r.kind) for r in log.records()]
    assert kinds[6] == (7, "end") and kinds[7] == (8, "start")
    end = log.records(after_n=6, limit=1)[0]
    assert end.fields["status"] == "abandoned" and end.fields["scores"] == controller.referee.state()["scores"]
    uids = {r.game_uid for r in log.records()}
    assert len(uids) == 2
    log.close()


def test_undo_after_the_end_reopens_and_a_later_end_follows(tmp_path) -> None:
    log = EventLog(tmp_path / "events.sqlite3")
    controller = play_with_mistakes(log, "alles-klar", 5, every=1000)
    assert controller.finished
    last = controller.history[-1].event
    assert controller.undo().ok and not controller.finished
    assert controller.submit(last).ok and controller.finished
    kinds = [r.kind for r in log.records()]
    assert kinds[-4:] == ["end", "event", "event", "end"]
    controller.abandon()  # a finished game stays finished
    assert log.games()[-1].status == "finished" and log.records()[-1].kind == "end"


def test_acked_n_only_moves_forward_per_destination(tmp_path) -> None:
    log = EventLog(tmp_path / "events.sqlite3")
    assert log.acked("b:1883/c/t") == 0
    log.set_acked("b:1883/c/t", 5)
    log.set_acked("b:1883/c/t", 3)
    log.set_acked("other", 1)
    assert log.acked("b:1883/c/t") == 5 and log.acked("other") == 1
    log.close()
    assert EventLog(tmp_path / "events.sqlite3").acked("b:1883/c/t") == 5


def test_listeners_hear_the_last_n_after_each_commit(tmp_path) -> None:
    log = EventLog(tmp_path / "events.sqlite3")
    heard: list[int] = []
    log.on_record(heard.append)
    play_with_mistakes(log, "alles-klar", 6)
    # One call per commit with its last n. Each record is a commit of its own: the game's end too, which the
    # controller writes after its last event (that one is logged before the referee applies it).
    assert heard == sorted(set(heard)) and heard[-1] == log.last_n()
    assert len(heard) == log.last_n()


OLD_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, header TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'playing',
                    seats TEXT NOT NULL DEFAULT '{}', started REAL NOT NULL, ended REAL);
CREATE TABLE events (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, event TEXT NOT NULL,
                     at REAL NOT NULL, PRIMARY KEY (game_id, seq));
"""


def test_an_old_log_gets_its_records_and_resumes(tmp_path) -> None:
    path = tmp_path / "events.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    finished_header, finished = sim.random_game("alles-klar", 7)
    playing_header, playing = sim.random_game("magische-7", 8)
    db.execute("INSERT INTO games VALUES (1, ?, 'finished', '{}', 100.0, 200.0)", (json.dumps(finished_header),))
    db.execute("INSERT INTO games VALUES (2, ?, 'playing', '{}', 300.0, NULL)", (json.dumps(playing_header),))
    for game_id, events in ((1, finished), (2, playing[:4])):
        for seq, event in enumerate(events, 1):
            db.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (game_id, seq, json.dumps(event), 100.0 + seq))
    db.commit()
    db.close()
    log = EventLog(path)
    records = log.records()
    assert [r.n for r in records] == list(range(1, len(finished) + 2 + 1 + 4 + 1))
    assert [r.kind for r in records[: len(finished) + 2]] == ["start"] + ["event"] * len(finished) + ["end"]
    assert records[len(finished) + 1].fields["winners"]  # replayed for the migration
    assert [a.event for a in log.attempts(2)] == playing[:4]
    controller = TableController.resume(log)
    assert controller is not None and len(controller.referee.history) == 4
    controller.submit(playing[4])
    assert log.records()[-1].n == len(records) + 1
    log.close()
    assert EventLog(path).records() == EventLog(path).records()  # a second open migrates nothing again
