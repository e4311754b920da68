"""A chain of cafés: two cafés' brokers bridged to a central one (the bridge config `referee-hub bridge-config`
writes), a hub on the central broker for every café: both cafés' tables and games appear, café as a filter."""

from __future__ import annotations

import subprocess
import sys

from hub.bridge import bridge_config
from tests.hub_browser import browser
from tests.hub_process import ROOT, HubProcess
from tests.mosquitto import Broker
from tests.test_hub_live import get_json, start_table, wait_for


def cafe_broker(workdir, cafe: str, central: str) -> Broker:
    config = "\n".join(["listener {port} 127.0.0.1", "allow_anonymous true", "persistence true",
                        "persistence_location {dir}/", "log_dest stderr", "log_type error", "log_type warning",
                        bridge_config(cafe, central)])
    return Broker(workdir, config=config).start()


def test_the_bridge_config_is_what_the_cli_prints():
    out = subprocess.run([sys.executable, "-m", "hub", "bridge-config", "--cafe", "cafe-a", "--central",
                          "127.0.0.1:1883"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out == bridge_config("cafe-a", "127.0.0.1:1883")
    assert "topic tabletop-referee/v1/cafe-a/# both 1" in out


def test_two_cafes_bridged_to_a_central_hub_both_appear(mosquitto, tmp_path):
    brokers = [cafe_broker(tmp_path / c, c, mosquitto.address) for c in ("cafe-a", "cafe-b")]
    tables = []
    try:
        with HubProcess(tmp_path / "hub", mosquitto.address, "+") as hub:
            for broker, cafe, game in zip(brokers, ("cafe-a", "cafe-b"), ("magische-7", "annaotto"), strict=True):
                tables.append(start_table(broker.address, cafe, "t1", tmp_path / f"{cafe}-t1", "--game", game,
                                          "--pace", "0"))
            for table in tables:
                assert table.stdout is not None and table.stdout.readline().strip() == "done"
            games = wait_for(lambda: len(g := [x for x in get_json(f"{hub.url}/api/games")
                                               if x["check"] == "verified"]) == 2 and g, what="both games")
            assert sorted(g["cafe"] for g in games) == ["cafe-a", "cafe-b"]
            tables_seen = get_json(f"{hub.url}/api/tables")
            assert sorted((t["cafe"], t["table"]) for t in tables_seen) == [("cafe-a", "t1"), ("cafe-b", "t1")]
            assert [t["cafe"] for t in get_json(f"{hub.url}/api/tables?cafe=cafe-b")] == ["cafe-b"]
            with browser() as chromium:
                page = chromium.new_page()
                page.goto(hub.url + "/")
                keys = page.eval_on_selector_all(".card", "cards => cards.map(c => c.dataset.key)")
                assert sorted(keys) == ["cafe-a/t1", "cafe-b/t1"]
                page.goto(hub.url + "/?cafe=cafe-a")
                keys = page.eval_on_selector_all(".card", "cards => cards.map(c => c.dataset.key)")
                assert keys == ["cafe-a/t1"]
    finally:
        for table in tables:
            table.kill()
        for broker in brokers:
            broker.stop()
