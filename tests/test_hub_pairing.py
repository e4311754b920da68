"""Pairing on the hub (`hub/pairing.py`, the staff page): a table the hub does not know waits to join with its key's
fingerprint, its records held and counted nowhere; staff accept (its records verified and stored) or refuse (its
records dropped, until staff accept after all); a key change needs the same acceptance and starts a new chain
while the old one stays as it was; whoever listens (the pairing handover) hears each decision."""

from __future__ import annotations

import html
import queue
import time

import pytest
from starlette.testclient import TestClient

from hub.auth import hash_password
from hub.ingest import Incoming, Ingest
from hub.live import Broadcaster
from hub.pairing import Decision
from hub.queries import Reader
from hub.store import Store
from hub.web import Hub, create_app
from tests.hub_tables import LoggedTable, random_records, status

PASSWORD = "Tischschlüssel"
ORIGIN = {"Origin": "http://testserver"}


class Cafe:
    """The hub's writer and pages in one process; the staff logged in."""

    def __init__(self, tmp_path):
        self.store = Store(tmp_path / "hub.sqlite")
        self.ingest = Ingest(self.store, lambda c, t, n: self.asked.append((t, n)))
        self.asked: list[tuple[str, int]] = []
        self.decisions: list[Decision] = []
        self.ingest.pairing.on_decision(self.decisions.append)
        self.reader = Reader(tmp_path / "hub.sqlite")
        hub = Hub(self.reader, self.ingest, Broadcaster(), lambda c, p: None, "nord", hash_password(PASSWORD),
                  health=lambda: {})
        self.client = TestClient(create_app(hub))
        self.client.post("/staff/login", data={"password": PASSWORD}, headers=ORIGIN)

    def send(self, table: LoggedTable, records: list[dict]) -> None:
        """The table's status (with its key) and records, as the broker delivers them."""
        self.ingest.process([Incoming("status", "nord", table.table, status(table.table, records[-1]["n"],
                                                                               key=table.key), time.time()),
                             *(Incoming("log", "nord", table.table, r, time.time()) for r in records)])

    def decide(self, table: LoggedTable, action: str) -> str:
        page = self.client.post(f"/staff/tables/{action}?lang=en", data={"cafe": "nord", "table": table.table,
                                                                         "key": table.key}, headers=ORIGIN)
        assert page.status_code == 200, page.text
        self.writer_turn()
        return page.text

    def writer_turn(self) -> None:
        """What the staff's decision queued for the writer (the service's writer thread does it at once)."""
        items = []
        while True:
            try:
                items.append(self.ingest.queue.get_nowait())
            except queue.Empty:
                break
        if items:
            self.ingest.process([i for i in items if i is not None])

    def staff_page(self) -> str:
        return html.unescape(self.client.get("/staff?lang=en").text)


@pytest.fixture
def cafe(tmp_path):
    cafe = Cafe(tmp_path)
    yield cafe
    cafe.client.close()
    cafe.store.close()


def test_a_new_table_waits_to_join_and_counts_nowhere_until_the_staff_accept_it(cafe):
    table = LoggedTable("t1")
    records = random_records(table, "magische-7", seed=3)
    cafe.send(table, records)
    assert cafe.reader.counts() == {} and cafe.reader.games() == []
    assert cafe.client.get("/api/tables").json() == []  # not on the guests' pages either
    page = cafe.staff_page()
    assert "Waiting to join" in page and table.signer.fingerprint in page and "a new table" in page
    assert f"{len(records)} records waiting" in page
    assert cafe.reader.integrity()["nord/t1"]["held"]["pairing"] == len(records)
    assert cafe.ingest.board("magische-7") == []

    page = cafe.decide(table, "accept")
    assert f"Table nord/t1 accepted (key {table.signer.fingerprint})." in page
    assert cafe.reader.counts() == {"nord/t1": len(records)}
    assert [g["check"] for g in cafe.reader.games()] == ["verified"]
    assert [t["table"] for t in cafe.client.get("/api/tables").json()] == ["t1"]
    assert "nord/t1" not in cafe.reader.integrity()  # nothing held, dropped or kept aside
    assert cafe.decisions == [Decision("nord", "t1", table.key, table.signer.fingerprint, True,
                                       cafe.decisions[0].at)]
    assert "Waiting to join" not in cafe.staff_page()


def test_a_refused_table_stays_refused_until_the_staff_change_their_mind(cafe):
    table = LoggedTable("t2")
    first = random_records(table, "magische-7", seed=4)
    cafe.send(table, first)
    page = cafe.decide(table, "refuse")
    assert f"Key {table.signer.fingerprint} of table nord/t2 refused." in page
    assert [(d["table"], d["reason"], d["count"]) for d in cafe.reader.drops()] == [("t2", "refused", len(first))]
    second = random_records(table, "alles-klar", seed=5)
    cafe.send(table, second)
    assert cafe.reader.counts() == {} and cafe.reader.drops()[0]["count"] == len(first) + len(second)
    assert "signed with a key the staff refused" in cafe.staff_page()

    cafe.decide(table, "accept")  # accepted after all: the hub asks the table for its log from the first record
    assert cafe.asked == [("t2", 1)]
    cafe.send(table, first + second)  # the table's replay
    assert cafe.reader.counts() == {"nord/t2": len(first) + len(second)}
    assert {g["check"] for g in cafe.reader.games()} == {"verified"}
    assert [d.accepted for d in cafe.decisions] == [False, True]


def test_a_key_change_needs_the_staff_and_starts_a_new_chain_beside_the_old(cafe):
    old = LoggedTable("t3")
    before = random_records(old, "magische-7", seed=6)
    cafe.send(old, before)
    cafe.decide(old, "accept")
    board = cafe.ingest.board("magische-7")
    assert board

    card = LoggedTable("t3", log="b")  # a new SD card: a fresh log from record 1, under a new key
    after = random_records(card, "magische-7", seed=7)
    cafe.send(card, after)
    page = cafe.staff_page()
    assert "a new key for a paired table" in page and card.signer.fingerprint in page
    assert cafe.reader.counts() == {"nord/t3": len(before)}  # nothing of the new card yet
    assert cafe.reader.drops() == [] and cafe.reader.conflicts() == []  # held, not taken for forgeries

    cafe.decide(card, "accept")
    assert cafe.reader.counts() == {"nord/t3": len(before) + len(after)}
    games = cafe.reader.games()
    assert len(games) == 2 and {g["check"] for g in games} == {"verified"}
    assert sum(p["played"] for p in cafe.ingest.board("magische-7")) == 4
    assert cafe.reader.conflicts() == []  # record 1 of the new card is no conflict: another chain
    late = random_records(old, "magische-7", seed=8)  # the old card, still about: its key is retired
    cafe.send(old, late)
    assert cafe.reader.counts() == {"nord/t3": len(before) + len(after)}
    assert cafe.reader.drops()[0]["reason"] == "retired"
    assert "signed with the table's old key" in cafe.staff_page()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_staff_pages_keys_and_records_not_stored_fit_a_phone_and_a_desk(cafe, tmp_path, lang):
    """Waiting to join (a new table and a key change), refused and accepted keys, conflicts and drops, in
    chromium at 360 px and 1366 px: nothing wider than the screen, the fingerprints whole."""
    import threading

    import uvicorn

    from tests.hub_browser import browser
    from tests.mosquitto import free_port

    paired_table, waiting, refused = LoggedTable("t1"), LoggedTable("t2"), LoggedTable("t3")
    cafe.send(paired_table, random_records(paired_table, "magische-7", seed=1))
    cafe.decide(paired_table, "accept")
    card = LoggedTable("t1", log="b")  # a new SD card: a new key for a paired table
    cafe.send(card, random_records(card, "alles-klar", seed=2))
    cafe.send(waiting, random_records(waiting, "magische-7", seed=3))
    cafe.send(refused, random_records(refused, "magische-7", seed=4))
    cafe.decide(refused, "refuse")
    records = random_records(paired_table, "magische-7", seed=5)
    cafe.send(paired_table, [*records, paired_table.reseal([records[2] | {"at": "2026-11-27T20:00:00+01:00"}])[0]])
    port = free_port()
    app = cafe.client.app
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        with browser() as chromium:
            for width, height in ((360, 740), (1366, 900)):
                page = chromium.new_page(viewport={"width": width, "height": height})
                page.goto(f"http://127.0.0.1:{port}/?lang={lang}")
                page.request.post(f"http://127.0.0.1:{port}/staff/login", form={"password": PASSWORD},
                                  headers={"Origin": f"http://127.0.0.1:{port}"})
                page.goto(f"http://127.0.0.1:{port}/staff?lang={lang}")
                assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
                shown = page.inner_text("main")
                for table in (waiting, refused, card):
                    assert table.signer.fingerprint in shown
                page.screenshot(path=str(tmp_path / f"staff-keys-{lang}-{width}.png"), full_page=True)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
