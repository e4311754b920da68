"""The running hub: the MQTT subscriber (paho-mqtt 2, persistent session), the writer, the web app.

The subscriber's network thread only turns messages into `Incoming` items; the
writer (`hub.ingest`) stores and acknowledges them. Acks are manual: the broker
keeps a QoS 1 message for the hub's session until the hub has it on disk.
"""

from __future__ import annotations

import logging
import secrets
import ssl
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from cafe import contract
from hub import topics
from hub.config import HubConfig
from hub.evenings.desk import Desk
from hub.ingest import Incoming, Ingest
from hub.live import Broadcaster
from hub.queries import Reader
from hub.store import Store
from hub.web import Hub, create_app

log = logging.getLogger("hub")

DB_NAME = "hub.sqlite"


def session_secret(data_dir: Path) -> str:
    """The key that signs staff session cookies: made once, kept in the data directory (mode 0600)."""
    path = data_dir / "session.key"
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()


class Service:
    def __init__(self, config: HubConfig):
        self.config = config
        self.data_dir = Path(config.data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.store = Store(self.data_dir / DB_NAME)
        self.ingest = Ingest(self.store, self.request_replay)
        self.broadcaster = Broadcaster()
        self.ingest.listeners.append(self.broadcaster.from_thread)
        self.client = self._client()
        self.connected = threading.Event()
        self.generation = 0  # counts connections: an ack belongs to the one its message came on
        self.writer = threading.Thread(target=self.ingest.run, name="hub-writer", daemon=True)
        self.desk = Desk(self.data_dir, self.data_dir / DB_NAME, self.assign)  # club nights
        self.ingest.listeners.append(self.desk.on_news)
        self.hub = Hub(Reader(self.data_dir / DB_NAME), self.ingest, self.broadcaster, self.announce,
                       config.cafe, config.staff_password_hash, config.timezone, config.table_names,
                       evenings=self.desk)

    def app(self) -> Any:
        return create_app(self.hub, session_secret(self.data_dir))

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
        self.connected.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()
        log.info("disconnected from the broker: %s", reason)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        received = time.time()
        ack = self._acker(client, message.mid, message.qos) if message.qos > 0 else None
        item = topics.incoming(message.topic, message.payload, received, ack)
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

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        self.writer.start()
        self.client.connect_async(self.config.broker_host, self.config.broker_port, keepalive=30)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        self.ingest.stop()
        self.writer.join(timeout=10)
        self.store.close()


__all__ = ["Incoming", "Service"]
