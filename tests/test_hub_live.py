"""The hub end to end: real Mosquitto, the hub as a process, tables as processes, a real browser (chromium).

A table plays a game through the broker while the overview page is open: every
move shows on the page; the finished game is verified; a table that reports one
answer falsely gets its game disputed at that move; a SIGKILLed table goes offline
on the page through its last will.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from cafe import contract
from tests.hub_browser import browser
from tests.hub_process import ROOT, HubProcess

MOVE_DEADLINE_MS = 1000  # the promise: the overview shows each move within 1 s


def start_table(broker: str, cafe: str, table: str, data_dir: Path, *args: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "tests.hub_table_proc", "--broker", broker, "--cafe", cafe,
                             "--table", table, "--data-dir", str(data_dir), *args],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def get_json(url: str) -> object:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.load(response)


def wait_for(check, timeout: float = 30.0, what: str = ""):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


class Watcher:
    """An independent subscriber: sees every log record the table publishes, as the broker delivers it."""

    def __init__(self, broker: str, cafe: str):
        host, _, port = broker.rpartition(":")
        self.events: list[dict] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5)
        self.client.on_message = lambda c, u, m: self.events.append(json.loads(m.payload))
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe(contract.table_filter(cafe, "log"), qos=1)
        self.client.connect(host, int(port))
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def hub(mosquitto, tmp_path):
    with HubProcess(tmp_path / "hub", mosquitto.address, "cafe-1") as process:
        yield process


def test_a_table_plays_live_on_the_overview_then_goes_offline_when_killed(mosquitto, hub, tmp_path):
    watcher = Watcher(mosquitto.address, "cafe-1")
    with browser() as chromium:
        page = chromium.new_page()
        page.goto(hub.url + "/?lang=en")
        page.wait_for_selector("#live:not([hidden])")
        table = start_table(mosquitto.address, "cafe-1", "t1", tmp_path / "t1", "--game", "magische-7",
                            "--seed", "3", "--pace", "0.15", "--noise", "5")
        try:
            card = '.card[data-key="cafe-1/t1"]'
            page.wait_for_selector(card, timeout=10_000)
            seen = 0
            while True:
                wait_for(lambda seen=seen: len(watcher.events) > seen, what="the next record")
                record = watcher.events[seen]
                seen += 1
                if record["kind"] == "event":
                    # each move reaches the page within the promised second of reaching the broker's subscribers
                    page.wait_for_function(
                        "([sel, n]) => { const l = document.querySelector(sel + ' .last');"
                        " return l && Number(l.dataset.n) >= n; }",
                        arg=[card, record["n"]], timeout=MOVE_DEADLINE_MS)
                if record["kind"] == "end":
                    break
            assert page.inner_text(card + " .game") == "Die magische 7"
            uid = record["game_uid"]
            game = wait_for(lambda: (g := get_json(f"{hub.url}/api/games/{uid}"))["check"] != "pending" and g,
                            what="the verification")
            assert game["check"] == "verified" and game["status"] == "finished"
            page.goto(f"{hub.url}/games/{uid}?lang=en")
            assert page.inner_text(".badge") == "verified"
            page.goto(hub.url + "/?lang=en")
            page.wait_for_selector(card + ".online")
            page.wait_for_selector("#live:not([hidden])")
            table.send_signal(signal.SIGKILL)
            table.wait()
            page.wait_for_selector(card + ".offline", timeout=10_000)
            assert page.text_content(card + " .state") == "offline"
        finally:
            table.kill()
            watcher.close()


def test_one_falsified_answer_is_disputed_at_that_move_in_the_browser(mosquitto, hub, tmp_path):
    table = start_table(mosquitto.address, "cafe-1", "t2", tmp_path / "t2", "--game", "alles-klar", "--seed", "5",
                        "--pace", "0", "--falsify", "4")
    assert table.stdout is not None and table.stdout.readline().strip() == "done"
    table.kill()
    games = wait_for(lambda: [g for g in get_json(f"{hub.url}/api/games?table=t2") if g["check"] != "pending"],
                     what="the verification")
    (game,) = games
    assert game["check"] == "disputed"
    assert game["dispute"]["seq"] == 4
    detail = get_json(f"{hub.url}/api/games/{game['game_uid']}")
    falsified = next(r for r in detail["records"] if r["kind"] == "event" and r["answer"]["seq"] == 4)
    assert game["dispute"]["n"] == falsified["n"]
    with browser() as chromium:
        page = chromium.new_page()
        page.goto(f"{hub.url}/games/{game['game_uid']}?lang=de")
        assert page.inner_text(".badge") == "strittig"
        disputed = page.locator("li.disputed")
        assert disputed.count() == 1
        assert disputed.get_attribute("data-n") == str(falsified["n"])
        assert "Zug 4" in page.inner_text(".verification")
