"""A table's daily storage quota at the hub (issue #34): a table whose key is in the wrong hands could sign
records as fast as the broker takes them (500 of 60 KB went in within 0.7 s before signing). Beyond its
day's quota a record is dropped with the reason `quota`, counted and named to staff; the table keeps it,
and the next day it is stored when it comes again (replay)."""

from __future__ import annotations

import json
import time

from hub.ingest import Incoming, Ingest
from hub.store import Store
from tests.hub_app import hub_client, log_in
from tests.hub_tables import LoggedTable, paired, random_records


def body_bytes(records: list[dict]) -> list[int]:
    return [len(json.dumps(r, ensure_ascii=False)) for r in records]


def test_a_table_beyond_its_daily_quota_is_dropped_shown_and_stored_the_next_day(tmp_path) -> None:
    store = Store(tmp_path / "hub.sqlite")
    try:
        table = LoggedTable("t1")
        records = random_records(table, "magische-7", seed=1) + random_records(table, "magische-7", seed=2)
        quota = sum(body_bytes(records[:40]))  # room for the first 40 records today
        ingest = Ingest(store, lambda cafe, t, n: None, daily_quota=quota)
        paired(ingest, "c1", table)
        today = 100 * 86400.0 + 3600
        ingest.process([Incoming("log", "c1", "t1", r, today) for r in records])
        stored = store.db.execute("SELECT COUNT(*), SUM(LENGTH(body)) FROM records").fetchone()
        assert stored[0] == 40 and stored[1] <= quota
        (dropped,) = store.db.execute("SELECT count FROM drops WHERE tbl='t1' AND reason='quota'").fetchone()
        assert dropped >= 1
        tomorrow = today + 86400
        ingest.process([Incoming("log", "c1", "t1", r, tomorrow) for r in records[40:]])  # the replay
        (count,) = store.db.execute("SELECT COUNT(*) FROM records").fetchone()
        assert count == len(records)
    finally:
        store.close()


def test_the_staff_page_names_the_quota(tmp_path) -> None:
    with hub_client(tmp_path, daily_quota=2000) as (client, hub):
        table = LoggedTable("t1")
        paired(hub.ingest, "c1", table)
        records = random_records(table, "magische-7", seed=3)
        hub.ingest.process([Incoming("log", "c1", "t1", r, time.time()) for r in records])
        log_in(client)
        page = client.get("/staff?lang=en").text
        assert "over the table&#39;s daily storage quota" in page or "over the table's daily storage quota" in page
        assert "Tageskontingent" in client.get("/staff?lang=de").text
