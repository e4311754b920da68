"""Club nights in the café contract (#27): the `assign` topic and payload, a `start` record's `assignment`, and the
ACL on a real Mosquitto — the hub publishes a table's assignment, only that table reads it, no table writes one."""

from __future__ import annotations

import json
import time

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cafe import contract as c
from cafe.broker import acl_text
from cafe.signing import RecordSigner, new_private_key
from tests.mosquitto import Broker, CafeBroker


def _assignment() -> dict:
    return c.assign_payload("dienstag-1", 2, "alles-klar", ["Anna", "Ben", "Cleo"], dealer="Ben",
                            title={"de": "Dienstagsturnier", "en": "Tuesday tournament"})


def test_the_assign_topic_is_built_and_parsed_back() -> None:
    topic = c.assign_topic("nord", "t3")
    assert topic == "tabletop-referee/v1/nord/table/t3/assign"
    assert c.parse_topic(topic) == c.Topic("nord", "t3", "assign")
    assert c.validate(topic, b"") == (c.Topic("nord", "t3", "assign"), None)  # an empty payload clears it
    _, body = c.validate(topic, c.encode(_assignment()))
    assert body is not None and body["players"] == ["Anna", "Ben", "Cleo"] and body["round"] == 2


@pytest.mark.parametrize("change", [
    {"evening": "Dienstag"}, {"round": 0}, {"round": True}, {"round": 2**53}, {"game": ""}, {"options": []},
    {"players": []}, {"players": ["Anna", "Anna"]}, {"players": ["Anna", ""]}, {"dealer": "Zoe"},
    {"title": {"de": 1}}, {"at": "gestern"}, {"v": 2},
])
def test_a_broken_assignment_is_refused(change: dict) -> None:
    with pytest.raises(c.ContractError):
        c.validate_assign({**_assignment(), **change})


def test_the_header_is_exactly_the_assignment_and_the_start_record_names_it() -> None:
    assignment = _assignment()
    header = c.assignment_header(assignment)
    assert header == {"format": c.TRANSCRIPT_FORMAT, "game": "alles-klar", "players": ["Anna", "Ben", "Cleo"],
                      "dealer": "Ben"}
    assert c.assignment_header({**assignment, "options": {"x": 1}})["options"] == {"x": 1}
    assert "dealer" not in c.assignment_header({**assignment, "dealer": None})
    start = RecordSigner(new_private_key()).seal({
        "v": 1, "table": "t3", "n": 7, "at": c.now_iso(), "game_uid": "g1", "kind": "start", "header": header,
        "assignment": c.assignment_ref(assignment)}, prev="A" * 43)
    assert c.validate_log_record(start, "t3")["assignment"] == {"evening": "dienstag-1", "round": 2}
    del start["assignment"]
    c.validate_log_record(start, "t3")  # a game started on its own carries none
    for bad in ({"evening": "x y", "round": 1}, {"evening": "e", "round": 0}, ["e", 1], {"evening": "e"}):
        with pytest.raises(c.ContractError):
            c.validate_log_record({**start, "assignment": bad}, "t3")
    assert c.assignment_title(assignment, "en") == "Tuesday tournament"
    assert c.assignment_title({**assignment, "title": {"de": "Nur Deutsch"}}, "en") == "Nur Deutsch"


def test_the_acl_lets_the_hub_write_and_each_table_read_its_own_assign() -> None:
    text = acl_text("nord", ["t1", "t2"])
    hub = text.split("user table-t1")[0]
    assert "topic write tabletop-referee/v1/nord/table/+/assign" in hub
    t1 = text.split("user table-t1")[1].split("user table-t2")[0]
    assert "topic read tabletop-referee/v1/nord/table/t1/assign" in t1 and "t2/assign" not in t1


def _client(broker: Broker, user: str, password_file, heard: list | None = None) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{user}-{time.monotonic_ns()}")
    client.username_pw_set(user, password_file.read_text().strip())
    if heard is not None:
        client.on_message = lambda _client, u, m: heard.append((m.topic, m.payload))
    client.connect(broker.host, broker.port)
    client.loop_start()
    return client


def _wait(cond, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def test_on_a_real_broker_only_the_named_table_reads_its_assignment(tmp_path) -> None:
    broker = CafeBroker(tmp_path, "nord", ["t1", "t2"]).start()  # the hub by dynamic security, the tables by files
    files = broker.files
    clients = []
    try:
        hub = _client(broker, "hub", files.passwords["hub"])
        clients.append(hub)
        payload = c.encode(_assignment())
        hub.publish(c.assign_topic("nord", "t1"), payload, qos=1, retain=True).wait_for_publish(5)
        # a table may not write an assignment, not even its own
        t2_heard: list = []
        t2 = _client(broker, "table-t2", files.passwords["table-t2"], t2_heard)
        clients.append(t2)
        t2.publish(c.assign_topic("nord", "t2"), payload, qos=1, retain=True).wait_for_publish(5)
        t2.subscribe([(c.assign_topic("nord", "t1"), 1), (c.assign_topic("nord", "t2"), 1)])
        t1_heard: list = []
        t1 = _client(broker, "table-t1", files.passwords["table-t1"], t1_heard)
        clients.append(t1)
        t1.subscribe(c.assign_topic("nord", "t1"), qos=1)
        assert _wait(lambda: t1_heard)
        assert json.loads(t1_heard[0][1])["players"] == ["Anna", "Ben", "Cleo"]  # retained: there on subscribing
        time.sleep(1.0)
        assert t2_heard == []  # neither t1's assignment nor the one t2 tried to set itself
        hub.publish(c.assign_topic("nord", "t1"), b"", qos=1, retain=True).wait_for_publish(5)
        assert _wait(lambda: len(t1_heard) == 2) and t1_heard[1][1] == b""  # cleared
    finally:
        for client in clients:
            client.disconnect()
            client.loop_stop()
        broker.stop()
