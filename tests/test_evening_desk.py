"""The club night's desk (#27) over the hub's real store and ingest: rounds drawn and sent, games filed by their
start record's assignment and verified, late arrival, drop-out, byes, a disputed game accepted, a result entered,
a table replayed, undo until the next round, a restarted hub, guests' check-in limits."""

from __future__ import annotations

import random
import time
from fractions import Fraction

import pytest

from cafe import contract
from hub.evenings.desk import GUESTS_PER_ADDRESS, Desk, DeskError
from hub.ingest import Incoming, Ingest
from hub.store import Store
from referee import sim
from tests.hub_tables import LoggedTable, paired

TABLES = ["t1", "t2", "t3", "t4"]


class Cafe:
    """The hub's store and writer, the desk over them, and the tables' logs; assignments as the broker got them."""

    def __init__(self, tmp_path):
        self.tmp_path = tmp_path
        self.store = Store(tmp_path / "hub.sqlite")
        self.ingest = Ingest(self.store, lambda c, t, n: None)
        self.sent: list[tuple[str, dict | None]] = []
        self.desk = self.open_desk()
        self.ingest.listeners.append(self.desk.on_news)
        self.logs = {t: LoggedTable(t) for t in TABLES}
        self.seed = 0

    def open_desk(self) -> Desk:
        return Desk(self.tmp_path, self.tmp_path / "hub.sqlite", lambda cafe, table, a: self.sent.append((table, a)))

    def assigned(self, table: str) -> dict | None:
        return next((a for t, a in reversed(self.sent) if t == table and a is not None), None)

    def play(self, table: str, falsify: int | None = None, abandon_after: int | None = None) -> dict:
        """The table plays the game it was assigned, as a kiosk logs it; returns the end record."""
        assignment = self.assigned(table)
        assert assignment is not None, f"{table} has no assignment"
        header = contract.assignment_header(assignment)
        self.seed += 1
        events = list(sim.play(sim.get(header["game"])(random.Random(self.seed), header["players"],
                                                       dealer=header.get("dealer"))))
        if abandon_after is not None:
            events = events[:abandon_after]
        log = self.logs[table]
        if self.ingest.pairing.pinned("nord", table) is None:
            paired(self.ingest, "nord", log)
        records = list(log.game(header, events, falsify=falsify,
                                end="abandoned" if abandon_after is not None else None))
        records[0]["assignment"] = contract.assignment_ref(assignment)
        records = log.reseal(records)
        self.ingest.process([Incoming("log", "nord", table, r, time.time()) for r in records])
        return records[-1]


@pytest.fixture
def cafe(tmp_path):
    c = Cafe(tmp_path)
    yield c
    c.store.close()


def _independent(ends: list[dict]) -> dict[str, Fraction]:
    """Tournament points 3/2/1/0 (ties shared) from the games' end records, most points best (Alles klar?)."""
    points: dict[str, Fraction] = {}
    for end in ends:
        scores = end["scores"]
        for p, v in scores.items():
            better = sum(1 for w in scores.values() if w > v)
            same = sum(1 for w in scores.values() if w == v)
            share = sum(([3, 2, 1, 0, 0, 0])[better:better + same]) / Fraction(same)
            points[p] = points.get(p, Fraction(0)) + share
    return points


def test_an_evening_of_rounds_with_a_late_arrival_and_a_drop_out(cafe) -> None:
    desk = cafe.desk
    desk.create("dienstag", cafe="nord", game="alles-klar", rounds=3, tables=TABLES, seating="mixing",
                title={"de": "Dienstag", "en": "Tuesday"})
    names = [f"P{i:02}" for i in range(12)]
    for name in names:
        desk.check_in("dienstag", name)
    evening = desk.start_round("dienstag", seed=1)
    first = evening.played[0]
    assert sorted(len(t.players) for t in first.tables) == [3, 3, 3, 3] and first.byes == ()
    assert {t for t, a in cafe.sent if a} == {t.table for t in first.tables}
    desk.check_in("dienstag", "Late")  # plays from round 2
    desk.drop("dienstag", "P03")  # plays round 1 to its end, then no more
    ends = [cafe.play(t.table) for t in first.tables]
    evening = desk.evening("dienstag")
    assert [t.state for t in evening.played[0].tables] == ["verified"] * 4
    assert all(a is None for t, a in cafe.sent[-4:])  # each table's assignment cleared when its game ended
    desk.close_round("dienstag")
    evening = desk.start_round("dienstag", seed=2)
    second = [p for t in evening.played[1].tables for p in t.players]
    assert "Late" in second and "P03" not in second and len(second) == 12
    ends += [cafe.play(t.table) for t in evening.played[1].tables]
    desk.close_round("dienstag")
    evening = desk.start_round("dienstag", seed=3)
    ends += [cafe.play(t.table) for t in evening.played[2].tables]
    evening = desk.end("dienstag")
    lines = evening.standings()
    assert {line.player: line.points for line in lines if line.played} == _independent(ends)
    assert [line.points for line in lines] == sorted((line.points for line in lines), reverse=True)
    with pytest.raises(DeskError):
        desk.start_round("dienstag")  # ended

    again = cafe.open_desk()  # the hub restarted: the same evening, folded from the same log
    assert again.evening("dienstag").standings() == lines


def test_byes_rotate_where_no_split_exists(cafe) -> None:
    desk = cafe.desk
    desk.create("m7", cafe="nord", game="magische-7", rounds=3, tables=TABLES)
    for name in "ABCDEFG":
        desk.check_in("m7", name)
    byes = []
    for number in (1, 2, 3):
        evening = desk.start_round("m7", seed=number)
        byes += evening.played[-1].byes
        assert sorted(len(t.players) for t in evening.played[-1].tables) in ([2, 2, 2], [2, 4])
        desk.close_round("m7")
    assert len(byes) == 3 and len(set(byes)) == 3
    line = next(line for line in desk.evening("m7").standings() if line.player == byes[0])
    assert line.byes == 1 and line.points == Fraction(3, 2)


def test_disputed_accepted_entered_replayed_and_undone(cafe) -> None:
    desk = cafe.desk
    desk.create("abend", cafe="nord", game="alles-klar", rounds=2, tables=TABLES[:3])
    for name in "ABCDEFGHI":
        desk.check_in("abend", name)
    evening = desk.start_round("abend", seed=5)
    t1, t2, t3 = (t.table for t in evening.played[0].tables)
    cafe.play(t1, falsify=2)
    cafe.play(t2, abandon_after=4)
    cafe.play(t3)
    states = {t.table: t.state for t in desk.evening("abend").played[0].tables}
    assert states == {t1: "disputed", t2: "abandoned", t3: "verified"}
    assert all(line.played <= 1 for line in desk.evening("abend").standings())
    counted = {p for line in desk.evening("abend").standings() if line.played for p in [line.player]}
    assert counted == set(evening.played[0].tables[2].players)  # only the verified game counts by itself

    desk.accept("abend", 1, t1, note="Karte war richtig")
    assert next(t for t in desk.evening("abend").played[0].tables if t.table == t1).state == "accepted"
    desk.undo("abend")
    assert next(t for t in desk.evening("abend").played[0].tables if t.table == t1).state == "disputed"
    desk.accept("abend", 1, t1)

    players = evening.played[0].tables[1].players
    with pytest.raises(DeskError):
        desk.enter("abend", 1, t2, {p: 1 for p in players}, note="")  # a note is required
    desk.enter("abend", 1, t2, {p: i + 1 for i, p in enumerate(players)}, note="Stromausfall, Stand übernommen")
    entered = next(t for t in desk.evening("abend").played[0].tables if t.table == t2)
    assert entered.state == "entered" and entered.winners == [players[0]] and entered.note.startswith("Strom")
    desk.undo("abend")
    before = cafe.assigned(t2)
    desk.replay("abend", 1, t2, note="nochmal")
    again = cafe.assigned(t2)
    assert again is not None and again["players"] == before["players"] and again["at"] != before["at"]
    assert next(t for t in desk.evening("abend").played[0].tables if t.table == t2).state == "waiting"
    cafe.play(t2)
    assert next(t for t in desk.evening("abend").played[0].tables if t.table == t2).state == "verified"

    desk.close_round("abend")
    desk.undo("abend")  # closing is taken back: the round is open again
    assert not desk.evening("abend").played[0].closed
    desk.close_round("abend")
    desk.start_round("abend", seed=6)
    assert {t for t, a in cafe.sent[-3:] if a} == set(TABLES[:3])
    desk.undo("abend")  # no game of round 2 has started: its start is taken back, the assignments cleared
    assert len(desk.evening("abend").played) == 1 and all(a is None for _, a in cafe.sent[-3:])
    evening = desk.start_round("abend", seed=6)
    cafe.play(evening.played[1].tables[0].table)
    with pytest.raises(DeskError) as refused:
        desk.undo("abend")  # a game of the new round started: what came before is final
    assert refused.value.message == "A game of round {round} has started: its start cannot be taken back."


def test_guests_check_in_only_while_open_and_a_few_per_address(cafe) -> None:
    desk = cafe.desk
    desk.create("gast", cafe="nord", game="alles-klar", rounds=1, tables=TABLES)
    for i in range(GUESTS_PER_ADDRESS):
        desk.check_in("gast", f"Gast {i}", via="guest", address="10.0.0.7")
    with pytest.raises(DeskError):
        desk.check_in("gast", "Noch einer", via="guest", address="10.0.0.7")
    desk.check_in("gast", "Nachbar", via="guest", address="10.0.0.8")
    with pytest.raises(DeskError):
        desk.check_in("gast", "Nachbar", via="staff")  # already in
    desk.remove("gast", "Gast 0")  # staff see and remove every entry
    desk.set_checkin("gast", False)
    with pytest.raises(DeskError):
        desk.check_in("gast", "Zu spät", via="guest", address="10.0.0.9")
    desk.check_in("gast", "Zu spät")  # staff still can
    assert sorted(desk.evening("gast").entrants) == ["Gast 1", "Gast 2", "Nachbar", "Zu spät"]
