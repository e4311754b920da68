"""An independent subscriber for the café tests: every message on a café's topics, checked against the contract.

It subscribes to `tabletop-referee/v1/<cafe>/#` with a persistent session (as the
hub does), so the broker queues what tables publish while it is away or
restarting, and reconnects by itself. The session is MQTT 3.1.1's
`clean_session=false`: Debian 12's Mosquitto 2.0.11 forgets an MQTT 5 session
(session expiry) whose client was connected when the broker stopped. It keeps every message in arrival
order and every contract violation; it never fixes anything up — the tests
decide what the arrivals must look like.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from cafe import contract
from cafe.signing import IntegrityError, check_record, parse_public


@dataclass(frozen=True, slots=True)
class Arrival:
    topic: contract.Topic
    payload: dict[str, Any] | None
    retained: bool
    at: float


class Watcher:
    def __init__(self, host: str, port: int, cafe: str, client_id: str = "test-watcher",
                 username: str | None = None, password: str | None = None, ca_file: str | None = None):
        self.cafe = cafe
        self.arrivals: list[Arrival] = []
        self.violations: list[str] = []
        self.connects = 0
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311,
                                  clean_session=False)
        self.client.reconnect_delay_set(0.1, 1)
        if username:
            self.client.username_pw_set(username, password)
        if ca_file:
            self.client.tls_set(ca_certs=ca_file)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.connect(host, port, keepalive=5)
        self.client.loop_start()
        self.wait(lambda: self.connects > 0, 10, "the watcher never connected")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            return
        client.subscribe(contract.cafe_filter(self.cafe), qos=1)
        with self._changed:
            self.connects += 1
            self._changed.notify_all()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            topic, payload = contract.validate(message.topic, message.payload, bool(message.retain))
        except contract.ContractError as error:
            with self._changed:
                self.violations.append(f"{message.topic}: {error}: {message.payload[:200]!r}")
            return
        with self._changed:
            self.arrivals.append(Arrival(topic, payload, bool(message.retain), time.monotonic()))
            self._changed.notify_all()

    # --- reading

    def wait(self, predicate: Callable[[], bool], timeout: float = 30.0, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(what or "the watcher waited in vain")
                self._changed.wait(min(left, 0.2))

    def log_arrivals(self, table: str) -> list[dict[str, Any]]:
        """Every log record of `table` as it arrived, repeats included."""
        with self._lock:
            return [a.payload for a in self.arrivals
                    if a.topic.kind == "log" and a.topic.table == table and a.payload is not None]

    def records(self, table: str) -> list[dict[str, Any]]:
        """The table's records after dedupe by (table, n), in order of first arrival."""
        seen: set[int] = set()
        result = []
        for payload in self.log_arrivals(table):
            if payload["n"] not in seen:
                seen.add(payload["n"])
                result.append(payload)
        return result

    def statuses(self, table: str) -> list[Arrival]:
        with self._lock:
            return [a for a in self.arrivals if a.topic.kind == "status" and a.topic.table == table]

    def chain_problems(self, table: str) -> list[str]:
        """What is wrong with the table's signed chain as it arrived: each record checked against the key of
        the table's last status, each `prev` against the `h` of the record before it. Empty when it holds."""
        keys = [a.payload.get("key") for a in self.statuses(table) if a.payload and a.payload.get("key")]
        if not keys:
            return ["no status with a key"]
        key, problems, last = parse_public(keys[-1]), [], None
        for record in self.records(table):
            try:
                check_record(record, key)
            except IntegrityError as error:
                problems.append(f"record {record['n']}: {error}")
            if last is not None and record["n"] == last["n"] + 1 and record.get("prev") != last["h"]:
                problems.append(f"record {record['n']}: prev is not the h of record {last['n']}")
            last = record
        return problems

    def has_records(self, table: str, count: int) -> bool:
        return len({p["n"] for p in self.log_arrivals(table)}) >= count


def retained(host: str, port: int, topic: str, timeout: float = 10.0, username: str | None = None,
             password: str | None = None) -> dict[str, Any] | None:
    """What a newcomer gets on `topic` right away: the retained payload, checked against the contract."""
    got: list[tuple[bytes, bool]] = []
    done = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    if username:
        client.username_pw_set(username, password)

    def on_message(c: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        got.append((message.payload, bool(message.retain)))
        done.set()

    def on_subscribe(c: mqtt.Client, userdata: Any, mid: int, reasons: Any, properties: Any) -> None:
        # The broker sends retained messages right after the SUBACK; wait a moment for them.
        threading.Timer(0.5, done.set).start()

    client.on_message = on_message
    client.on_subscribe = on_subscribe
    client.on_connect = lambda c, *a: c.subscribe(topic, qos=1)
    client.connect(host, port)
    client.loop_start()
    try:
        done.wait(timeout)
    finally:
        client.disconnect()
        client.loop_stop()
    if not got:
        return None
    data, was_retained = got[0]
    assert was_retained, "a newcomer's first message on a status topic is the retained one"
    return contract.validate(topic, data)[1]
