"""No message can stop the hub (issue #24): poison payloads through the real Mosquitto to the hub as a process,
then an honest game, which is stored and verified. The hub stays connected (one broker connection from start to
end), acknowledges every bad message so the broker does not send it again, logs a flood of them in a few lines,
and starts again beside a poisoned retained status."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from cafe import contract
from tests.hub_process import HubProcess
from tests.test_hub_live import get_json, start_table, wait_for

CAFE = "cafe-1"
NESTED = b"[" * 30000 + b"]" * 30000  # 60 000 bytes, under the 64 KiB limit: json.loads raises RecursionError


def record(table: str, n: object, **fields: object) -> bytes:
    body = {"v": 1, "table": table, "n": n, "at": contract.now_iso(), "game_uid": "evil", "kind": "end",
            "status": "finished", "scores": {"A": 1}, "winners": ["A"], **fields}
    return json.dumps(body).encode()


def poisons() -> list[tuple[str, bytes, bool]]:
    """(topic, payload, retained): each alone once silenced the hub, or would have."""
    log, status = contract.log_topic(CAFE, "t1"), contract.status_topic(CAFE, "t1")
    return [
        (log, NESTED, False),
        (log, b'{"v":1,"x":' + NESTED + b"}", False),
        (status, NESTED, False),
        (log, record("t1", 2**63), False),
        (log, record("t1", 2**62), False),
        (log, record("t1", 2**53), False),
        (log, b"\xff\xfe{\"v\":1}", False),
        (log, record("t2", 1), False),  # a record for another table, on t1's topic
        (log, b'{"v":1,"n":' + b"9" * 5000 + b"}", False),
        (log, b"", False),
    ]


class Probe:
    """A client that publishes anything (as a table's broker user could) and hears the hub's replay requests."""

    def __init__(self, address: str):
        host, _, port = address.rpartition(":")
        self.replays: list[dict] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv311)
        self.client.on_message = lambda c, u, m: self.replays.append(json.loads(m.payload))
        self.client.connect(host, int(port))
        self.client.loop_start()
        self.client.subscribe(contract.table_filter(CAFE, "replay"), qos=1)

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def health(url: str) -> dict:
    try:
        with urllib.request.urlopen(url + "/api/health", timeout=5) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:  # 503 while degraded: the body says why
        return json.load(error)


def test_poison_messages_are_dropped_and_an_honest_game_after_them_is_verified(mosquitto, tmp_path):
    probe = Probe(mosquitto.address)
    probe.publish(contract.status_topic(CAFE, "t9"), NESTED, retain=True)  # kills every start of an unguarded hub
    hub = HubProcess(tmp_path / "hub", mosquitto.address, CAFE).start()
    table = None
    try:
        wait_for(lambda: health(hub.url)["broker"]["connected"], what="the hub connected")
        for topic, payload, retain in poisons():
            probe.publish(topic, payload, retain)
        for _ in range(200):  # a flood of one kind: a few log lines, not 200
            probe.publish(contract.log_topic(CAFE, "t1"), NESTED)
        wait_for(lambda: health(hub.url)["dropped"]["messages"] >= 1 + len(poisons()) + 200, what="every drop")

        table = start_table(mosquitto.address, CAFE, "t1", tmp_path / "t1", "--game", "magische-7", "--seed", "4",
                            "--pace", "0")
        assert table.stdout is not None and table.stdout.readline().strip() == "done"
        (game,) = wait_for(lambda: [g for g in get_json(f"{hub.url}/api/games") if g["check"] != "pending"],
                           what="the honest game checked")
        assert game["check"] == "verified" and game["table"] == "t1" and game["game_uid"] != "evil"
        state = health(hub.url)
        assert state["ok"] and state["broker"]["connections"] == 1, state  # never dropped by the broker
        assert all(t["alive"] and t["restarts"] == 0 for t in state["threads"].values()), state
        assert state["gaps_given_up"] == []
        assert all(r["from"] < 1000 for r in probe.replays), probe.replays  # no replay asked for a made-up n
        lines = [line for line in hub.log_tail(200_000).splitlines() if "dropped a message on" in line]
        assert 1 <= len(lines) <= 12, lines
        assert "Traceback" not in hub.log_tail(200_000)

        hub.stop()  # the poisoned retained status is still there at the next start
        hub.start()
        wait_for(lambda: health(hub.url)["ok"], what="the hub up again beside the retained poison")
        assert [g["game_uid"] for g in get_json(f"{hub.url}/api/games")] == [game["game_uid"]]
    finally:
        if table is not None:
            table.kill()
        probe.close()
        hub.stop()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the death is the point
def test_a_dead_thread_is_started_again_and_reported(tmp_path):
    """The supervisor: a watched thread that dies is logged and started again, and the report says so."""
    import threading

    from hub.supervisor import Supervisor

    runs: list[int] = []
    hold = threading.Event()

    def work() -> None:
        runs.append(1)
        if len(runs) == 1:
            raise RuntimeError("a bug nobody foresaw")
        hold.wait()

    threads = [threading.Thread(target=work, daemon=True)]
    threads[0].start()

    def restart() -> None:
        threads.append(threading.Thread(target=work, daemon=True))
        threads[-1].start()

    supervisor = Supervisor(every_s=0.05)
    supervisor.watch("worker", lambda: threads[-1].is_alive(), restart)
    supervisor.start()
    try:
        wait_for(lambda: len(runs) == 2, timeout=5, what="the restart")
        report = supervisor.report()["worker"]
        assert report["alive"] and report["restarts"] == 1 and report["last_restart"] <= time.time()
    finally:
        hold.set()
        supervisor.stop()


def test_the_live_mark_follows_the_hubs_broker_link_not_the_web_server(mosquitto, tmp_path):
    from tests.hub_browser import browser

    with HubProcess(tmp_path / "hub", mosquitto.address, CAFE) as hub, browser() as chromium:
        wait_for(lambda: health(hub.url)["broker"]["connected"], what="the hub connected")
        page = chromium.new_page()
        page.goto(hub.url + "/?lang=en")
        page.wait_for_selector("#live:not([hidden])")
        mosquitto.stop()  # the web server still answers; the tables' news no longer arrives
        page.wait_for_selector("#live[hidden]", state="attached", timeout=15_000)
        assert page.is_visible("#lost")
        state = health(hub.url)
        assert not state["ok"] and not state["broker"]["connected"]
        page.reload()  # a page loaded meanwhile does not claim "live" either
        page.wait_for_timeout(1500)
        assert not page.is_visible("#live") and page.is_visible("#lost")
        mosquitto.start()
        page.wait_for_selector("#live:not([hidden])", timeout=20_000)
        assert health(hub.url)["ok"]
