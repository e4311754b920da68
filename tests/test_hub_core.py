"""The hub's store, gap tracking, verification and ratings, fed with records of simulated tables."""

from __future__ import annotations

import random
import time

import pytest

from hub.ingest import GAP_GIVE_UP_S, Incoming, Ingest
from hub.queries import Reader
from hub.ratings import Ladder, Result, ranks
from hub.store import Store
from hub.verify import verify
from tests.hub_tables import TRANSCRIPTS, LoggedTable, paired, random_records, status, transcript


def feed(ingest: Ingest, cafe: str, records: list[dict], kind: str = "log") -> None:
    ingest.process([Incoming(kind, cafe, r["table"], r, time.time()) for r in records])


@pytest.fixture
def hub(tmp_path):
    asked: list[tuple[str, str, int]] = []
    store = Store(tmp_path / "hub.sqlite")
    ingest = Ingest(store, lambda c, t, n: asked.append((c, t, n)))
    yield ingest, Reader(tmp_path / "hub.sqlite"), asked
    store.close()


@pytest.mark.parametrize("path", sorted(TRANSCRIPTS.glob("*/*.jsonl")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_acceptance_transcript_replays_verified(path):
    header, events = transcript(path)
    records = list(LoggedTable("t1").game(header, events))
    start, *middle, end = records
    assert verify(start, middle, end).status == "verified"


def test_one_falsified_answer_is_disputed_at_that_event():
    records = random_records(LoggedTable("t1"), "magische-7", seed=3, falsify=5)
    start, *middle, end = records
    result = verify(start, middle, end)
    assert (result.status, result.seq, result.n) == ("disputed", 5, records[5]["n"])
    assert result.said["ok"] != result.says["ok"]


def test_a_falsified_final_score_is_disputed_at_the_end():
    start, *middle, end = random_records(LoggedTable("t1"), "alles-klar", seed=1)
    player = next(iter(end["scores"]))
    end = end | {"scores": end["scores"] | {player: end["scores"][player] + 1}}
    result = verify(start, middle, end)
    assert (result.status, result.n, result.seq) == ("disputed", end["n"], None)


def test_records_stored_once_whatever_the_duplicates_and_order(hub):
    ingest, reader, _ = hub
    table = LoggedTable("t1")
    paired(ingest, "c1", table)
    records = random_records(table, "annaotto", seed=7) + random_records(table, "alcasan", seed=2)
    shuffled = records + random.Random(1).sample(records, len(records) // 2)
    random.Random(2).shuffle(shuffled)
    for i in range(0, len(shuffled), 17):
        feed(ingest, "c1", shuffled[i:i + 17])
    assert reader.counts() == {"c1/t1": len(records)}
    games = reader.games()
    assert {g["check"] for g in games} == {"verified"}
    assert len(games) == 2


def test_a_gap_asks_for_a_replay_from_the_first_missing_record(hub):
    ingest, reader, asked = hub
    table = LoggedTable("t2")
    paired(ingest, "c1", table)
    records = random_records(table, "magische-7", seed=4)
    feed(ingest, "c1", records[:3])
    feed(ingest, "c1", records[5:8])
    assert asked == [("c1", "t2", 4)]
    feed(ingest, "c1", records[3:])
    assert reader.games()[0]["check"] == "verified"


def test_a_status_announcing_records_never_received_asks_for_them(hub):
    ingest, _, asked = hub
    table = LoggedTable("t3")
    paired(ingest, "c1", table)
    records = random_records(table, "magische-7", seed=5)
    feed(ingest, "c1", records[:4])
    feed(ingest, "c1", [status("t3", n=9, key=table.key)], kind="status")
    ingest.tick(time.time() + 5)
    assert asked == [("c1", "t3", 5)]


def test_a_gap_no_replay_fills_is_given_up_after_a_bound_and_reported(hub):
    ingest, _, asked = hub
    table = LoggedTable("t5")
    paired(ingest, "c1", table)
    records = random_records(table, "magische-7", seed=5)
    feed(ingest, "c1", records[:2])
    feed(ingest, "c1", [status("t5", n=10**12, key=table.key)], kind="status")  # claims records it never sends
    start = time.time()
    for step in range(0, int(GAP_GIVE_UP_S) + 300, 10):
        ingest.tick(start + step)
    assert asked and all(a == ("c1", "t5", 3) for a in asked)
    assert ingest.gaps_given_up() == [{"cafe": "c1", "table": "t5", "missing_from": 3, "upto": 2,
                                       "since": pytest.approx(start + 10)}]
    before = len(asked)
    ingest.tick(start + GAP_GIVE_UP_S + 900)
    assert len(asked) == before  # no longer asked
    feed(ingest, "c1", records[2:])  # the records came after all: the gap closes, nothing is given up
    ingest.tick(start + GAP_GIVE_UP_S + 1000)
    feed(ingest, "c1", [status("t5", n=records[-1]["n"], key=table.key)], kind="status")
    ingest.tick(start + GAP_GIVE_UP_S + 1010)
    assert ingest.gaps_given_up() == []


def test_a_poisoned_record_is_dropped_alone_and_acknowledged(hub):
    """One poisoned record costs only itself: every message is acknowledged, the poisoned one is dropped (its seal
    no longer holds) and counted for its table, the records before it are stored, those after it wait for its
    place in the chain, and the hub asks for it again; the real one fills it."""
    ingest, reader, asked = hub
    acked: list[int] = []
    table = LoggedTable("t6")
    paired(ingest, "c1", table)
    records = random_records(table, "magische-7", seed=6)
    poisoned = dict(records[1], game_uid=object())  # a value SQLite cannot bind: the batch's write fails
    batch = [records[0], poisoned, *records[2:]]
    ingest.process([Incoming("log", "c1", r["table"], r, time.time(), ack=lambda n=r["n"]: acked.append(n))
                    for r in batch])
    assert sorted(acked) == [r["n"] for r in records]  # every one acknowledged, the poisoned one too
    assert ingest.stored == 1 and asked == [("c1", "t6", 2)]
    assert [(d["table"], d["reason"], d["count"]) for d in reader.drops()] == [("t6", "signature", 1)]
    feed(ingest, "c1", [records[1]])  # the replay brings the real record 2: the waiting ones follow it
    assert ingest.stored == len(records)
    assert [g["check"] for g in reader.games()] == ["verified"]


def test_the_last_will_keeps_the_tables_last_game(hub):
    ingest, reader, _ = hub
    table = LoggedTable("t4")
    paired(ingest, "c1", table)
    feed(ingest, "c1", [status("t4", n=0, game="alcasan", players=["Anna", "Ben"], key=table.key)], kind="status")
    feed(ingest, "c1", [{"v": 1, "table": "t4", "online": False}], kind="status")
    (table,) = reader.tables()
    assert table["online"] is False
    assert table["status"]["game"] == "alcasan"


def test_disputed_games_are_not_rated_and_verified_ones_are(hub):
    ingest, _, _ = hub
    table = LoggedTable("t5")
    paired(ingest, "c1", table)
    feed(ingest, "c1", random_records(table, "magische-7", seed=8))
    feed(ingest, "c1", random_records(table, "magische-7", seed=9, falsify=2))
    board = ingest.board("magische-7")
    assert sum(p["played"] for p in board) == 2  # two players, one game


def test_merging_two_spellings_folds_their_games_together():
    ladder = Ladder()
    for i, name in enumerate(["Anna", "anna", "Anna"]):
        ladder.add(Result("m", [name, "Ben"], {name: 10 + i, "Ben": 1}, [name]))
    assert {s.player: s.played for s in ladder.board("m")} == {"Anna": 2, "anna": 1, "Ben": 3}
    merged = Ladder({"anna": "Anna"})
    for i, name in enumerate(["Anna", "anna", "Anna"]):
        merged.add(Result("m", [name, "Ben"], {name: 10 + i, "Ben": 1}, [name]))
    assert {s.player: (s.played, s.wins) for s in merged.board("m")} == {"Anna": (3, 3), "Ben": (3, 0)}


def test_ranks_follow_the_direction_the_winners_show():
    assert ranks(Result("g", ["A", "B", "C"], {"A": 9, "B": 3, "C": 5}, ["A"])) == [1, 3, 2]
    assert ranks(Result("g", ["A", "B", "C"], {"A": 1, "B": 7, "C": 5}, ["A"])) == [1, 3, 2]
    assert ranks(Result("g", ["A", "B"], {"A": 1, "B": 1}, ["A", "B"])) == [1, 1]


def test_an_undo_after_the_end_and_a_second_end_count_the_last_one(hub):
    ingest, reader, _ = hub
    table = LoggedTable("t6")
    paired(ingest, "c1", table)
    records = random_records(table, "magische-7", seed=11)
    end = records[-1]
    uid = end["game_uid"]
    undo = table._record(uid, "event", event={"type": "undo"},
                         answer={"seq": len(records) - 1, "ok": True, "error": None})
    last_event = table._record(uid, "event", event=records[-2]["event"],
                               answer=records[-2]["answer"] | {"seq": len(records)})
    second_end = table._record(uid, "end", status=end["status"], scores=end["scores"], winners=end["winners"])
    feed(ingest, "c1", records)
    assert reader.games()[0]["check"] == "verified"
    feed(ingest, "c1", [undo, last_event, second_end])
    (game,) = reader.games()
    assert (game["check"], game["end_n"]) == ("verified", second_end["n"])
    assert sum(p["played"] for p in ingest.board("magische-7")) == 2


def test_a_restarted_hub_takes_up_where_it_stopped(tmp_path):
    asked: list[tuple[str, str, int]] = []
    store = Store(tmp_path / "hub.sqlite")
    ingest = Ingest(store, lambda c, t, n: asked.append((c, t, n)))
    table = LoggedTable("t7")
    paired(ingest, "c1", table)
    first = random_records(table, "magische-7", seed=12)
    second = random_records(table, "magische-7", seed=13)
    feed(ingest, "c1", first + second[:-4])  # the second game's end (and three events) still missing
    board = ingest.board("magische-7")
    store.close()
    store = Store(tmp_path / "hub.sqlite")
    again = Ingest(store, lambda c, t, n: asked.append((c, t, n)))
    assert again.board("magische-7") == board  # the ratings are folded again from the store
    assert again.admission.upto(store.db, "c1", "t7", 0) == second[-5]["n"]
    feed(again, "c1", second[-1:])  # the end arrives first: a gap, a replay request from the first missing n
    assert asked == [("c1", "t7", second[-4]["n"])]
    feed(again, "c1", second[-4:-1])
    assert {g["check"] for g in Reader(tmp_path / "hub.sqlite").games()} == {"verified"}
    assert sum(p["played"] for p in again.board("magische-7")) == 4
    store.close()
