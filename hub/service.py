"""The running hub: the MQTT subscriber (paho-mqtt 2, persistent session), the writer, the web app.

The subscriber's network thread only turns messages into `Incoming` items; the
writer (`hub.ingest`) stores and acknowledges them. Acks are manual: the broker
keeps a QoS 1 message for the hub's session until the hub has it on disk. No
message can stop either thread: whatever one raises drops that message (acknowledged,
logged at a limited rate), paho swallows what escapes a callback, and a supervisor
starts a thread again that died anyway (reported on /api/health).
"""

from __future__ import annotations

import logging
import ssl
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from cafe import contract, dynsec
from hub import handover, topics
from hub.config import HubConfig
from hub.dynsec import BrokerUsers
from hub.evenings.desk import Desk
from hub.guard import UNLOCK_NAME
from hub.health import integrity
from hub.ingest import Incoming, Ingest
from hub.live import Broadcaster
from hub.pairing import Pairing
from hub.queries import Reader
from hub.sessions import Sessions
from hub.store import Store
from hub.supervisor import Supervisor
from hub.web import Hub, create_app

log = logging.getLogger("hub")

DB_NAME = "hub.sqlite"
SESSIONS_NAME = "staff-sessions.sqlite"


class Service:
    def __init__(self, config: HubConfig):
        self.config = config
        self.data_dir = Path(config.data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.store = Store(self.data_dir / DB_NAME)
        self.pairing = Pairing(self.store, trust_first_key=config.trust_first_key)  # the staff accept tables here
        self.ingest = Ingest(self.store, self.request_replay, self.pairing)
        self.broadcaster = Broadcaster()
        self.ingest.listeners.append(self.broadcaster.from_thread)
        self.client = self._client()
        self.connected = threading.Event()
        self.generation = 0  # counts connections: an ack belongs to the one its message came on
        self.connected_since: float | None = None
        self.writer = self._writer()
        self.supervisor = Supervisor()
        self.supervisor.watch("hub-writer", lambda: self.writer.is_alive(), self._restart_writer)
        self.supervisor.watch("hub-mqtt", self._network_alive, self._restart_network)
        reader = Reader(self.data_dir / DB_NAME)
        self.desk = Desk(self.data_dir, self.data_dir / DB_NAME, self.assign,  # club nights
                         known_tables=lambda cafe: self.hub.known_tables(cafe), aliases=reader.aliases)
        self.ingest.listeners.append(self.desk.on_news)
        self.reader = reader
        self.users = BrokerUsers(self._publish_now)  # the dynamic security plugin, over this connection
        self.handover = handover.open_desk(config, self.data_dir, self.pairing, self.users.add_table)
        if self.handover is not None:  # staff's accept makes the table's broker user and its one-time code
            self.pairing.on_decision(self.handover.on_decision)
        self.hub = Hub(reader, self.ingest, self.broadcaster, self.announce,
                       config.cafe, config.staff_password_hash, config.timezone, config.table_names,
                       evenings=self.desk, health=self.health, handover=self.handover,
                       unlock_file=self.data_dir / UNLOCK_NAME)

    def app(self) -> Any:
        return create_app(self.hub, Sessions(self.data_dir / SESSIONS_NAME))

    # ------------------------------------------------------------------ MQTT

    def _client(self) -> mqtt.Client:
        config = self.config
        # MQTT 3.1.1 with clean_session=false: Debian 12's Mosquitto 2.0.11 keeps such a session across its own
        # restart, but forgets an MQTT 5 one (session expiry) whose client was connected when it stopped.
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=config.session_id, clean_session=False,
                             protocol=MQTTProtocolVersion.MQTTv311, manual_ack=True)
        if config.username:
            password = Path(config.password_file).read_text().strip() if config.password_file else None
            client.username_pw_set(config.username, password)
        if config.tls:
            client.tls_set(ca_certs=config.ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        client.suppress_exceptions = True  # a callback's exception is logged by paho, never ends its loop
        client.enable_logger(logging.getLogger("hub.mqtt"))
        client.reconnect_delay_set(1, 5)
        client.max_inflight_messages_set(100)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        return client

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.warning("broker refused the hub: %s", reason)
            return
        log.info("connected to %s (session present: %s)", self.config.broker, flags.session_present)
        self.generation += 1
        client.subscribe(topics.subscription(self.config.cafe), qos=1)
        if self.handover is not None:
            client.subscribe(dynsec.RESPONSE_TOPIC, qos=0)
        self.connected.set()
        self.connected_since = time.time()
        self.broadcaster.from_thread({"type": "link", "broker": True})

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()
        self.connected_since = None
        log.info("disconnected from the broker: %s", reason)
        self.broadcaster.from_thread({"type": "link", "broker": False})

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == dynsec.RESPONSE_TOPIC:  # the plugin's answer to the hub's own command
            self.users.on_response(bytes(message.payload))
            return
        ack = None
        try:
            ack = self._acker(client, message.mid, message.qos) if message.qos > 0 else None
            item = topics.incoming(message.topic, bytes(message.payload), time.time(), ack, bool(message.retain))
            if item is None and str(message.topic).endswith("/announce"):
                heard = topics.announcement(message.topic, bytes(message.payload))
                if heard is not None:  # the staff page shows what the tables show, after a restart too
                    self.hub.heard_announcement(*heard)
        except Exception as error:  # nothing a message carries may end the network loop
            item = None
            topics.dropped.warning("on_message", "dropped a message on %s: %r", str(message.topic)[:200], error)
        if item is None:  # not ours to store (our own replay/announce, or not the contract): let it go
            if ack is not None:
                ack()
            return
        self.ingest.put(item)

    def _acker(self, client: mqtt.Client, mid: int, qos: int) -> Callable[[], None]:
        """The PUBACK for one message, sent only on the connection that brought it: after a reconnect the
        broker sends it again (the session keeps it) and the same mid may name another message."""
        generation = self.generation

        def ack() -> None:
            if self.generation == generation:
                client.ack(mid, qos)
        return ack

    def request_replay(self, cafe: str, table: str, first: int) -> None:
        self.client.publish(topics.replay_topic(cafe, table), topics.encode(topics.replay_payload(first)), qos=1)

    def announce(self, cafe: str, payload: dict[str, Any] | None) -> None:
        """Retained on the café's announce topic; None clears it (an empty retained payload)."""
        body = b"" if payload is None else topics.encode(payload)
        self.client.publish(topics.announce_topic(cafe), body, qos=1, retain=True)

    def assign(self, cafe: str, table: str, payload: dict[str, Any] | None) -> None:
        """Club nights: a table's assignment, retained on its `assign` topic; None clears it."""
        body = b"" if payload is None else topics.encode(payload)
        self.client.publish(contract.assign_topic(cafe, table), body, qos=1, retain=True)

    def _writer(self) -> threading.Thread:
        return threading.Thread(target=self.ingest.run, name="hub-writer", daemon=True)

    def _restart_writer(self) -> None:
        self.writer = self._writer()
        self.writer.start()

    def _network_alive(self) -> bool:
        thread = self.client._thread  # paho's network thread (loop_start); no public handle exists
        return thread is not None and thread.is_alive()

    def _restart_network(self) -> None:
        self.client._thread = None  # loop_start refuses while it still holds the dead thread
        self.client.loop_start()

    def health(self) -> dict[str, Any]:
        """What /api/health reports: the broker link, the worker threads, what was stored and dropped."""
        threads = self.supervisor.report()
        connected = self.connected.is_set()
        return {"ok": connected and all(t["alive"] for t in threads.values()),
                "broker": {"connected": connected, "connections": self.generation, "since": self.connected_since},
                "threads": threads, "stored": self.ingest.stored,
                "dropped": {"messages": topics.dropped.total, "records": self.ingest.dropped},
                "gaps_given_up": self.ingest.gaps_given_up(), **integrity(self.reader, self.ingest)}

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        self.writer.start()
        self.client.connect_async(self.config.broker_host, self.config.broker_port, keepalive=30)
        self.client.loop_start()
        self.supervisor.start()

    def _publish_now(self, topic: str, payload: bytes) -> bool:
        """A message that matters only now (a command to the broker): False while the broker is not there."""
        return self.connected.is_set() and self.client.publish(topic, payload, qos=1).rc == mqtt.MQTT_ERR_SUCCESS

    def stop(self) -> None:
        self.supervisor.stop()
        if self.handover is not None:
            self.handover.close()
        self.client.disconnect()
        self.client.loop_stop()
        self.ingest.stop()
        self.writer.join(timeout=10)
        self.store.close()


__all__ = ["Incoming", "Service"]
