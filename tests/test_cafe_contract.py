"""The café contract in code (cafe/contract.py) against the protocol's rules, and a real broker carrying it."""

from __future__ import annotations

import json
import threading

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cafe import contract as c
from cafe.signing import RecordSigner, new_private_key

SIGNER = RecordSigner(new_private_key())


def test_ids_follow_the_naming_rule() -> None:
    for good in ("t1", "a", "0-x", "a" * 32, "cafe-nord"):
        assert c.check_id(good) == good
    for bad in ("", "-a", "A1", "a_b", "a" * 33, "a/b", "a+", None, 7):
        with pytest.raises(c.ContractError):
            c.check_id(bad)


def test_topics_are_built_and_parsed_back() -> None:
    assert c.status_topic("nord", "t1") == "tabletop-referee/v1/nord/table/t1/status"
    assert c.log_topic("nord", "t1").endswith("/table/t1/log")
    assert c.replay_topic("nord", "t1").endswith("/table/t1/replay")
    assert c.announce_topic("nord") == "tabletop-referee/v1/nord/announce"
    assert c.cafe_filter("nord") == "tabletop-referee/v1/nord/#"
    assert c.parse_topic(c.log_topic("nord", "t1")) == c.Topic("nord", "t1", "log")
    assert c.parse_topic(c.announce_topic("nord")) == c.Topic("nord", None, "announce")
    for bad in ("tabletop-referee/v1/nord/table/t1/other", "tabletop-referee/v2/nord/announce",
                "tabletop-referee/v1/Nord/announce", "tabletop-referee/v1/nord/table/t1/log/x"):
        with pytest.raises(c.ContractError):
            c.parse_topic(bad)
    with pytest.raises(c.ContractError):
        c.status_topic("nord", "T1")


def test_payloads_are_checked_field_by_field() -> None:
    status = c.status_payload("t1", screen="table", game="alles-klar", game_uid="u1", players=["Anna", "Ben"],
                              turn="Ben", scores={"Anna": 1, "Ben": 0}, n=7)
    assert c.validate_status(json.loads(c.encode(status)), "t1") == status
    assert c.validate_status(c.offline_payload("t1"), "t1")["online"] is False
    for broken in ({"screen": "lobby"}, {"scores": {"Anna": "1"}}, {"n": -1}, {"at": "2026-01-01T10:00:00"},
                   {"v": 2}, {"table": "t2"}, {"finished": 1}):
        with pytest.raises(c.ContractError):
            c.validate_status({**status, **broken}, "t1")
    event = SIGNER.seal({"v": 1, "table": "t1", "n": 3, "at": c.now_iso(), "game_uid": "u1", "kind": "event",
                         "event": {"type": "play"}, "answer": {"seq": 2, "ok": False, "error": "not-your-turn"}},
                        prev="A" * 43)
    assert c.validate_log_record(event, "t1") is event
    for broken in ({"n": 0}, {"kind": "middle"}, {"answer": {"seq": 2, "ok": True, "error": "x"}},
                   {"answer": {"seq": 0, "ok": True, "error": None}}, {"game_uid": ""}):
        with pytest.raises(c.ContractError):
            c.validate_log_record({**event, **broken}, "t1")
    end = {**event, "kind": "end", "status": "finished", "scores": {"Anna": 2}, "winners": ["Anna"]}
    assert c.validate_log_record(end)
    with pytest.raises(c.ContractError):
        c.validate_log_record({**end, "status": "won"})
    assert c.replay_payload(5) == {"v": 1, "from": 5}
    with pytest.raises(c.ContractError):
        c.replay_payload(0)
    note = c.announce_payload({"de": "Turnier um 20 Uhr", "en": "Tournament at 8 pm"}, None)
    assert c.announce_text(note, "en") == "Tournament at 8 pm" and c.announce_text({"text": {"de": "Hallo"}}, "en")
    assert not c.announce_expired(note) and c.announce_expired({**note, "until": "2020-01-01T00:00:00+00:00"})
    with pytest.raises(c.ContractError):
        c.announce_payload({"fr": "Bonjour"})


def test_the_64_kib_limit_holds_both_ways() -> None:
    big = {"v": 1, "text": {"de": "x" * c.MAX_PAYLOAD}}
    with pytest.raises(c.ContractError):
        c.encode(big)
    with pytest.raises(c.ContractError):
        c.decode(b"{" + b" " * c.MAX_PAYLOAD + b"}")
    assert c.validate(c.announce_topic("nord"), b"") == (c.Topic("nord", None, "announce"), None)
    with pytest.raises(c.ContractError):
        c.validate(c.log_topic("nord", "t1"), b"[1]")


def test_a_real_broker_carries_a_retained_status_to_a_later_subscriber(mosquitto) -> None:
    status = c.status_payload("t1", screen="menu", n=0)
    pub = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    pub.connect(mosquitto.host, mosquitto.port)
    pub.loop_start()
    pub.publish(c.status_topic("nord", "t1"), c.encode(status), qos=c.QOS, retain=True).wait_for_publish(10)
    pub.disconnect()
    pub.loop_stop()
    got: list[tuple[str, bytes, bool]] = []
    arrived = threading.Event()

    def on_message(client, userdata, message) -> None:
        got.append((message.topic, message.payload, message.retain))
        arrived.set()

    sub = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    sub.on_message = on_message
    sub.on_connect = lambda client, *a: client.subscribe(c.table_filter("nord", "status"), qos=1)
    sub.connect(mosquitto.host, mosquitto.port)
    sub.loop_start()
    try:
        assert arrived.wait(10)
        topic, data, retained = got[0]
        assert retained and c.validate(topic, data)[1] == status
    finally:
        sub.disconnect()
        sub.loop_stop()
