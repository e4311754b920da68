"""Merges serialised (issue #34): two opposite merges at the same moment — "Anna is anna" and "anna is Anna" —
both passed their check before either was written, and the two spellings then named each other: their histories
swapped on the leaderboard. The store now checks and writes in one transaction."""

from __future__ import annotations

import threading
import time

import pytest

from hub.ingest import Incoming
from hub.store import MergeRefused, Store
from tests.hub_app import OWN, hub_client, log_in
from tests.hub_tables import LoggedTable, paired, random_records


def test_the_store_refuses_a_merge_that_would_make_a_cycle(tmp_path) -> None:
    store = Store(tmp_path / "hub.sqlite")
    try:
        store.merge_player("Anna", "anna", 1.0)
        with pytest.raises(MergeRefused):
            store.merge_player("anna", "Anna", 2.0)  # anna already counts as … itself via Anna: a swap
        store.merge_player("Ann", "Anna", 3.0)
        with pytest.raises(MergeRefused):
            store.merge_player("anna", "Ann", 4.0)  # a longer cycle: anna → Ann → Anna → anna
        with pytest.raises(MergeRefused):
            store.merge_player("Anna", "Bob", 5.0)  # merged already: undo first
    finally:
        store.close()


def test_two_opposite_merges_at_once_leave_one_merge_and_no_swap(tmp_path) -> None:
    with hub_client(tmp_path) as (client, hub):
        for i, name in enumerate(("Anna", "anna")):
            table = LoggedTable(f"t{i + 1}")
            paired(hub.ingest, "c1", table)
            records = random_records(table, "magische-7", seed=i)
            for record in records:
                if record["kind"] == "start":
                    record["header"]["players"][0] = name
            records = table.reseal(records)  # renamed after signing: signed again, as that table would have
            hub.ingest.process([Incoming("log", "c1", table.table, r, time.time()) for r in records])
        log_in(client)
        for _ in range(10):
            start = threading.Barrier(2)
            answers: list[int] = []

            def merge(alias: str, name: str, start: threading.Barrier = start, answers: list[int] = answers) -> None:
                start.wait()
                answers.append(client.post("/staff/merge", data={"alias": alias, "name": name, "confirm": "1"},
                                           headers=OWN).status_code)

            threads = [threading.Thread(target=merge, args=pair) for pair in (("Anna", "anna"), ("anna", "Anna"))]
            [t.start() for t in threads]
            [t.join() for t in threads]
            aliases = hub.reader.aliases()
            assert len(aliases) == 1 and sorted(answers) == [200, 400], (aliases, answers)
            (alias,) = aliases
            assert client.post("/staff/unmerge", data={"alias": alias}, headers=OWN).status_code == 200
