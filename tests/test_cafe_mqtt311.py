"""A café whose broker speaks only MQTT 3.1.1 (`shared/cafe-protocol.md`: "any MQTT 3.1.1/5 broker"): the
table's publisher gets no MQTT 5 session there, falls back to 3.1.1 and publishes every record, in order.

amqtt refuses a bare MQTT 5 CONNECT, but cannot read the publisher's (its will has MQTT 5 properties): it
waits 10 s and hangs up without a CONNACK. The publisher then tries 3.1.1 (cafe/publisher.py)."""

from __future__ import annotations

import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cafe.config import CafeLinkConfig
from cafe.publisher import Publisher
from kiosk.app.controller import TableController
from kiosk.eventlog.store import EventLog, outbox
from referee import sim
from tests.broker311 import Broker311
from tests.cafe_watch import Watcher

CAFE, TABLE = "sued", "t7"


@pytest.fixture
def broker311(tmp_path):
    broker = Broker311(tmp_path / "amqtt").start()
    try:
        yield broker
    finally:
        broker.stop()


def connack_of(broker: Broker311, protocol: int) -> str:
    """The broker's answer to a CONNECT of this MQTT version, as paho names it."""
    answers: list[str] = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=protocol)
    client.on_connect = lambda c, userdata, flags, reason, properties=None: answers.append(str(reason))
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        deadline = time.monotonic() + 10
        while not answers and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        client.disconnect()
        client.loop_stop()
    return answers[0] if answers else "no answer"


@pytest.mark.slow
def test_a_table_falls_back_to_mqtt_311_and_publishes_every_record(tmp_path, broker311) -> None:
    # The broker really refuses MQTT 5 (else this test would prove nothing) and takes 3.1.1.
    assert connack_of(broker311, mqtt.MQTTv5) == "Unsupported protocol version"
    assert connack_of(broker311, mqtt.MQTTv311) == "Success"
    path = tmp_path / "events.sqlite3"
    log = EventLog(path, table=TABLE)
    header, events = sim.random_game("magische-7", 5, 2)
    controller = TableController.new_game(log, "magische-7", header["players"], header.get("dealer"))
    for event in events[:8]:
        assert controller.submit(event).ok
    watcher = Watcher(broker311.host, broker311.port, CAFE)
    online: list[bool] = []
    publisher = Publisher(CafeLinkConfig(broker311.host, broker311.port, CAFE, TABLE), outbox(path),
                          on_online=online.append, backoff=(0.05, 0.2)).start()
    log.on_record(publisher.notify)
    try:
        deadline = time.monotonic() + 60  # one MQTT 5 attempt without an answer takes 10 s
        while publisher.acked < 9 and time.monotonic() < deadline:  # the start record and 8 events
            time.sleep(0.02)
        assert publisher.acked == 9, "the backlog was not acknowledged over MQTT 3.1.1"
        for event in events[8:]:
            assert controller.submit(event).ok
        truth = [r.payload(TABLE) for r in log.records()]
        watcher.wait(lambda: watcher.has_records(TABLE, len(truth)), 30, "not every record arrived")
        assert [r["n"] for r in watcher.log_arrivals(TABLE)] == list(range(1, len(truth) + 1))
        assert watcher.records(TABLE) == truth and truth[-1]["kind"] == "end"
        assert watcher.violations == []
        assert online == [True] and publisher.connections == 1
    finally:
        watcher.close()
        publisher.stop()
        log.close()
