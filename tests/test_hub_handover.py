"""The hub's handover (`hub/handover.py`) against Debian's real mosquitto with dynamic security: a table that asks,
is accepted, claims its bundle with the code and then reaches the broker over TLS with what it got; a wrong,
a replayed and an unsigned claim; a refused table that gets nothing; the bounds on who may ask."""

from __future__ import annotations

import json
import ssl
import threading
import time

import paho.mqtt.client as mqtt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from paho.mqtt.enums import CallbackAPIVersion

from cafe import contract, dynsec, handover
from cafe.signing import public_text
from hub.dynsec import BrokerUsers
from hub.handover import MAX_PER_ADDRESS, Handover
from hub.pairing import Pairing
from hub.store import Store
from tests.mosquitto import CafeBroker


class Table:
    """A table's side of the handover: its own key, the protocol's bytes."""

    def __init__(self, name: str):
        self.name = name
        self.private = Ed25519PrivateKey.generate()
        self.key = public_text(self.private.public_key())

    def hello(self, desk: Handover, address: str = "10.0.0.9") -> handover.Answer:
        reply = desk.hello({"v": 1, "table": self.name, "key": self.key}, address, time.time())
        return handover.Answer(reply.status, reply.body)

    def claim(self, desk: Handover, code: str, salt: str) -> tuple[handover.Instance, handover.Keys, dict]:
        instance = handover.Instance("nord", self.name, self.key, salt)
        keys = handover.derive(code, instance)
        made = handover.proof(keys, instance)
        message = {"v": 1, "table": self.name, "key": self.key, "proof": made,
                   "sig": handover.b64url(self.private.sign(instance.claim_bytes(made)))}
        return instance, keys, message


@pytest.fixture(scope="module")
def cafe(tmp_path_factory):
    """A café broker, the hub's connection to it (as the hub's service makes it) and its key list."""
    folder = tmp_path_factory.mktemp("handover")
    broker = CafeBroker(folder, "nord").start()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="hub", protocol=mqtt.MQTTv311)
    client.username_pw_set("hub", broker.password("hub"))
    users = BrokerUsers(lambda topic, payload: client.publish(topic, payload, qos=1).rc == mqtt.MQTT_ERR_SUCCESS)
    client.on_message = lambda c, u, m: users.on_response(m.payload)
    subscribed = threading.Event()
    client.on_subscribe = lambda *args: subscribed.set()
    client.on_connect = lambda c, *args: c.subscribe(dynsec.RESPONSE_TOPIC, qos=1)
    client.connect(broker.host, broker.port)
    client.loop_start()
    assert subscribed.wait(10)
    store = Store(folder / "hub.sqlite")
    pairing = Pairing(store)
    desk = Handover(folder, "nord", pairing, users.add_table, broker.tls_address,
                    broker.files.ca)
    pairing.on_decision(lambda d: desk.decided(d.cafe, d.table, d.key, d.accepted))
    yield broker, desk, pairing
    desk.close()
    client.loop_stop()
    store.close()
    broker.stop()


def code_of(desk: Handover, table: str) -> str:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        found = [c for c in desk.codes(time.time()) if c["table"] == table and c["state"] != "making"]
        if found:
            assert found[0]["state"] == "live", found[0]
            return found[0]["code"]
        time.sleep(0.02)
    raise TimeoutError(f"no code for {table}")


def reaches_broker(broker: CafeBroker, bundle: handover.Bundle, ca_path) -> bool:
    """The table connects over TLS with the bundle's password and CA and publishes its status (PUBACK ok)."""
    ca_path.write_text(bundle.ca)
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=bundle.username, protocol=mqtt.MQTTv5)
    client.username_pw_set(bundle.username, bundle.password)
    client.tls_set(ca_certs=str(ca_path), cert_reqs=ssl.CERT_REQUIRED)
    answered, result = threading.Event(), []
    client.on_connect = lambda c, u, f, rc, p: (result.append(not rc.is_failure), answered.set())
    client.connect(*contract_address(bundle.broker))
    client.loop_start()
    try:
        assert answered.wait(10)
        if not result[0]:
            return False
        info = client.publish(contract.status_topic("nord", bundle.table), b"{}", qos=1)
        info.wait_for_publish(10)
        return info.is_published()
    finally:
        client.disconnect()
        client.loop_stop()


def contract_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host, int(port)


def test_accepted_table_claims_its_bundle_once_with_the_code(cafe, tmp_path) -> None:
    broker, desk, pairing = cafe
    t3 = Table("t3")
    assert t3.hello(desk).body["state"] == "waiting"
    assert pairing.state("nord", "t3", t3.key) == "waiting"  # on the staff's list, with its fingerprint
    pairing.accept("nord", "t3", t3.key, time.time())
    code = code_of(desk, "t3")
    answer = t3.hello(desk).body
    assert answer["state"] == "accepted" and answer["tries_left"] == handover.CODE_TRIES
    wrong = "000000000000" if code.replace(" ", "") != "000000000000" else "111111111111"
    _, _, message = t3.claim(desk, wrong, answer["salt"])
    refused = desk.claim(message, time.time())
    assert (refused.status, refused.body["tries_left"]) == (403, handover.CODE_TRIES - 1)
    instance, keys, message = t3.claim(desk, code, answer["salt"])
    reply = desk.claim(message, time.time())
    assert reply.status == 200
    bundle = handover.open_sealed(keys, instance, reply.body)
    assert (bundle.broker, bundle.username) == (broker.tls_address, "table-t3")
    assert bundle.ca == broker.files.ca.read_text()
    assert reaches_broker(broker, bundle, tmp_path / "ca.crt")
    again = desk.claim(message, time.time())  # the same claim replayed: the code is spent
    assert again.status == 410 and again.body["state"] == "paired"
    assert t3.hello(desk).body["state"] == "paired"
    assert [c for c in desk.codes(time.time()) if c["table"] == "t3"] == []


def test_a_refused_table_gets_nothing(cafe, tmp_path) -> None:
    broker, desk, pairing = cafe
    t4 = Table("t4")
    t4.hello(desk)
    pairing.refuse("nord", "t4", t4.key, time.time())
    assert t4.hello(desk).body["state"] == "refused"
    assert desk.codes(time.time()) == [] or all(c["table"] != "t4" for c in desk.codes(time.time()))
    _, _, message = t4.claim(desk, "123456789012", handover.new_salt())
    assert desk.claim(message, time.time()).status == 410
    guess = handover.Bundle("nord", "t4", broker.tls_address, "table-t4", "guessed-password-123",
                            broker.files.ca.read_text())
    assert not reaches_broker(broker, guess, tmp_path / "ca.crt")  # no broker user was made


def test_five_wrong_codes_void_it_and_a_new_code_is_a_new_password(cafe, tmp_path) -> None:
    broker, desk, pairing = cafe
    t5 = Table("t5")
    t5.hello(desk)
    pairing.accept("nord", "t5", t5.key, time.time())
    first = code_of(desk, "t5")
    salt = t5.hello(desk).body["salt"]
    for left in range(handover.CODE_TRIES - 1, -1, -1):
        _, _, message = t5.claim(desk, "999999999999" if first != "9999 9999 9999" else "888888888888", salt)
        assert desk.claim(message, time.time()).body.get("tries_left") == left
    _, _, message = t5.claim(desk, first, salt)
    assert desk.claim(message, time.time()).status == 410  # void: even the right code is too late
    assert t5.hello(desk).body["state"] == "expired"
    assert desk.new_code("t5", t5.key)
    second = code_of(desk, "t5")
    salt = t5.hello(desk).body["salt"]
    instance, keys, message = t5.claim(desk, second, salt)
    unsigned = dict(message, sig=handover.b64url(Table("t5").private.sign(instance.claim_bytes(message["proof"]))))
    assert desk.claim(unsigned, time.time()).status == 403  # signed by another key: no try spent
    assert t5.hello(desk).body["tries_left"] == handover.CODE_TRIES
    bundle = handover.open_sealed(keys, instance, desk.claim(message, time.time()).body)
    assert reaches_broker(broker, bundle, tmp_path / "ca.crt")


def test_who_may_ask_is_bounded(cafe) -> None:
    _, desk, _ = cafe
    assert desk.hello({"v": 1, "table": "T!", "key": "ed25519:x"}, "10.0.0.7", time.time()).status == 400
    asked = [Table(f"b{i}").hello(desk, "10.0.0.7").status for i in range(MAX_PER_ADDRESS + 1)]
    assert asked == [200] * MAX_PER_ADDRESS + [429]
    assert Table("b9").hello(desk, "10.0.0.8").status == 200  # another address may


def test_the_answers_to_the_plugin_are_matched_to_their_batch(cafe) -> None:
    """Another admin's batch answered on the same topic is not taken for ours (BrokerUsers.on_response)."""
    users = BrokerUsers(lambda topic, payload: True)
    users.on_response(json.dumps({"responses": [{"command": "listClients", "correlationData": "other:0"}]}).encode())
    users.on_response(b"not json")
    with pytest.raises(Exception, match="did not answer"):
        users.run([{"command": "listClients"}], timeout=0.2)
