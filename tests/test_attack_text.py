"""Text from outside that once crashed a table: a NUL in a retained announcement and a player named `Eve\\x00` in a
retained club-night assignment, published straight to a real Mosquitto as an attacker with a broker password would
(no hub in between to clean it), heard by a real kiosk process, also after its restart."""

from __future__ import annotations

import json
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from cafe import contract
from tests.cafe_table import cafe_args
from tests.kiosk_process import KioskProcess


def publish_retained(broker, topic: str, body: bytes) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="attacker", protocol=mqtt.MQTTv311)
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        client.publish(topic, body, qos=1, retain=True).wait_for_publish(10)
    finally:
        client.disconnect()
        client.loop_stop()


def raw(payload: dict) -> bytes:
    """JSON as an attacker sends it: no sender-side check."""
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


def poison(broker) -> None:
    announcement = {"v": 1, "text": {"de": "Happy hour\x00", "en": "Happy hour\x00"}, "until": None}
    publish_retained(broker, contract.announce_topic("nord"), raw(announcement))
    assignment = {"v": 1, "evening": "e1", "round": 1, "game": "alles-klar", "options": {},
                  "players": ["Eve\x00", "Bob", "Cleo"], "dealer": None, "title": {"de": "Runde\x00", "en": "Round"},
                  "at": contract.now_iso()}
    publish_retained(broker, contract.assign_topic("nord", "t1"), raw(assignment))


def test_a_nul_in_a_retained_announcement_or_assignment_ends_no_kiosk(tmp_path, mosquitto) -> None:
    poison(mosquitto)
    for _ in range(2):  # and again after a restart: the poison is retained
        kiosk = KioskProcess(tmp_path, cafe_args(mosquitto.address, "nord", "t1"))
        try:
            time.sleep(2.0)  # connected, heard the retained messages, drew them
            assert kiosk.proc.poll() is None, kiosk.stderr_text()[-3000:]
            state = kiosk.state()
            assert state["screen"] == "menu", state
            assert "null character" not in kiosk.stderr_text()
        finally:
            kiosk.close()
