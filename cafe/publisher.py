"""The table's link to the café broker: retained status, the durable log in order, replay answers, announcements.

Runs in its own thread (plus paho's network thread per connection) and never
blocks the display loop or the referee: the kiosk only hands it a status dict
(`set_status`) and the number of the last log record (`notify`), both O(1).

The publisher sends from an outbox (`cafe.outbox.Outbox`; the kiosk's event log
is one), opened on its own thread through the `open_outbox` it is given, and keeps
at most `window` records in flight; `acked` advances only on the broker's PUBACK,
to just below the lowest record still unacknowledged, and is remembered in the
outbox (`Outbox.set_acked`). Every connection is a fresh
paho client that starts publishing at `acked + 1`, so after a broker restart, a
network loss or a kill of the kiosk the broker may see a record twice but never
out of order, and nothing is lost. Reconnects back off from `backoff[0]` to
`backoff[1]` seconds.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from cafe import contract
from cafe.config import CafeLinkConfig
from cafe.outbox import OpenOutbox, Outbox

MAX_PASSWORD_FILE = 4096  # bytes read of cafe.password_file (--check-config refuses a larger one)
logger = logging.getLogger("cafe")

WINDOW = 64  # records in flight at once: enough to fill a loopback or LAN link, bounded memory
BACKOFF_S = (0.25, 3.0)
KEEPALIVE_S = 10  # a silent broker or network is noticed within 1.5 keep-alives
CONNACK_TIMEOUT_S = 10.0
STATUS_GAP_S = 1 / contract.STATUS_MAX_PER_S
# Woken by a new record, the thread waits for the frame that shows it (the kiosk hands the status over after each
# flip: `set_status`), at most this long: the display loop commits, draws and flips in a few ms, and the publisher's
# Python work (JSON, paho) must not take the GIL from it meanwhile, nor hold a record back once the frame is out.
SETTLE_S = 0.015
UNSUPPORTED_PROTOCOL = 0x84  # MQTT 5 CONNACK reason: the broker speaks only 3.1.1
BAD_LOGIN, NOT_AUTHORIZED, BAD_LOGIN_5, NOT_AUTHORIZED_5 = 4, 5, 0x86, 0x87  # CONNACK: 3.1.1's and MQTT 5's
PROBLEMS = ("certificate", "refused", "unreachable")


class Publisher:
    """One table's MQTT publisher thread. `start()`, then feed `set_status`/`notify`; `stop()` at exit."""

    def __init__(self, config: CafeLinkConfig, open_outbox: OpenOutbox, *,
                 on_online: Callable[[bool], None] | None = None,
                 on_announce: Callable[[dict[str, Any] | None], None] | None = None,
                 on_assign: Callable[[dict[str, Any] | None], None] | None = None,
                 on_problem: Callable[[str | None], None] | None = None,
                 window: int = WINDOW, backoff: tuple[float, float] = BACKOFF_S, keepalive: int = KEEPALIVE_S,
                 key: str | None = None):
        self.config = config
        self.open_outbox = open_outbox
        self.key = key  # the table's public key (`ed25519:…`), in every status: the hub pins it at pairing
        self.on_online = on_online or (lambda online: None)
        self.on_announce = on_announce or (lambda payload: None)
        self.on_assign = on_assign or (lambda payload: None)  # club nights: this table's assignment, or None
        self.on_problem = on_problem or (lambda problem: None)  # why the broker cannot be used (PROBLEMS), or None
        self.problem: str | None = None
        self.window = window
        self.backoff = backoff
        self.keepalive = keepalive
        self.topic_status = contract.status_topic(config.cafe, config.table)
        self.topic_log = contract.log_topic(config.cafe, config.table)
        self.topic_replay = contract.replay_topic(config.cafe, config.table)
        self.topic_announce = contract.announce_topic(config.cafe)
        self.topic_assign = contract.assign_topic(config.cafe, config.table)
        self.online = False
        self.acked: int = 0
        self.connections = 0  # successful connections so far (tests and drills read it)
        self.published = 0  # log records handed to the broker, repeats included
        self._latest_n = 0
        self._status: dict[str, Any] | None = None
        self._status_sent: dict[str, Any] | None = None
        self._status_at = 0.0
        self._wake = threading.Event()
        self._drawn = threading.Event()  # the frame after the last record is out (set by `set_status`)
        self._stopping = threading.Event()
        self._events: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()  # from paho's thread
        self._thread: threading.Thread | None = None
        self._protocol = mqtt.MQTTv5
        self._outbox: Outbox | None = None

    # --- the kiosk's side (display thread): O(1), never blocks

    def start(self) -> Publisher:
        self._thread = threading.Thread(target=self._run, name="cafe-publisher", daemon=True)
        self._thread.start()
        return self

    def set_status(self, fields: Mapping[str, Any]) -> None:
        """The table's status as the screen shows it (contract status fields without v/table/n/at); the kiosk
        hands it over after each flip, so it also says the frame is out and the publisher may work."""
        self._status = dict(fields)
        self._drawn.set()
        self._wake.set()

    def notify(self, n: int) -> None:
        """A log record up to `n` was committed (the EventLog listener)."""
        if n > self._latest_n:
            self._latest_n = n
            self._drawn.clear()  # committed before its frame is drawn: the publisher waits for that frame
            self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        """Leave cleanly: mark the table offline (retained) and disconnect."""
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    # --- the thread

    def _opened(self) -> Outbox:
        """The outbox the thread opened first of all (`_run`)."""
        if self._outbox is None:
            raise RuntimeError("the café publisher has not opened its outbox")
        return self._outbox

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._outbox = self.open_outbox()
                break
            except Exception:  # the log cannot be opened now (a storage fault): the game goes on, we retry
                logger.exception("café: cannot open the outbox")
                self._stopping.wait(self.backoff[1])
        else:
            return
        self.acked = self._opened().acked(self.config.destination)
        self._latest_n = max(self._latest_n, self._opened().last_n())
        delay = self.backoff[0]
        try:
            while not self._stopping.is_set():
                client = self._connect()
                if client is None:
                    self._stopping.wait(delay)
                    delay = min(delay * 2, self.backoff[1])
                    continue
                delay = self.backoff[0]
                try:
                    self._session(client)
                except Exception:
                    logger.exception("café: publishing failed; reconnecting")
                finally:
                    self._close(client)
                    self._set_online(False)
                if not self._stopping.is_set():
                    self._stopping.wait(delay)
        finally:
            self._outbox.close()

    def _client(self) -> mqtt.Client:
        cfg = self.config
        # With a broker user, the client id is the user's name (a café's broker ties the two together).
        client_id = cfg.username or f"table-{cfg.cafe}-{cfg.table}"
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                             protocol=self._protocol, reconnect_on_failure=False)
        client.max_inflight_messages_set(self.window + 4)  # the window and a status: paho never queues them
        client.will_set(self.topic_status, contract.encode(contract.offline_payload(cfg.table)),
                        qos=contract.QOS, retain=True)
        if cfg.username is not None:
            password = None
            if cfg.password_file is not None:
                with open(cfg.password_file, "rb") as handle:  # a password, not a file's worth: bounded
                    password = handle.read(MAX_PASSWORD_FILE).decode("utf-8", errors="replace").strip()
            client.username_pw_set(cfg.username, password)
        if cfg.tls:
            client.tls_set(ca_certs=str(cfg.ca_file) if cfg.ca_file else None, cert_reqs=ssl.CERT_REQUIRED)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client

    def _connect(self) -> mqtt.Client | None:
        """A connected client (CONNACK success), or None after a failed attempt."""
        self._drain_events()
        try:
            client = self._client()
            if self._protocol == mqtt.MQTTv5:
                client.connect(self.config.host, self.config.port, self.keepalive, clean_start=True)
            else:
                client.connect(self.config.host, self.config.port, self.keepalive)
        except ssl.SSLCertVerificationError as error:  # not the café's broker, or not for the name we reach it by
            self._set_problem("certificate", f"the broker's certificate is refused: {error.verify_message}")
            return None
        except (OSError, ValueError) as error:
            self._set_problem("unreachable", f"cannot reach {self.config.host}:{self.config.port}: {error}")
            return None
        client.loop_start()
        deadline = time.monotonic() + CONNACK_TIMEOUT_S
        answered = False
        while not self._stopping.is_set() and time.monotonic() < deadline:
            kind, value = self._next_event(deadline - time.monotonic())
            if kind == "connack":
                answered = True
                if not value.is_failure:
                    self.connections += 1
                    self._set_problem(None, "")
                    return client
                if value.value in (NOT_AUTHORIZED, BAD_LOGIN, NOT_AUTHORIZED_5, BAD_LOGIN_5):
                    self._set_problem("refused", f"the broker refused the table's user: {value}")
                if value.value in (1, UNSUPPORTED_PROTOCOL) and self._protocol == mqtt.MQTTv5:
                    self._protocol = mqtt.MQTTv311
                logger.warning("café: the broker refused the table: %s", value)
                break
            if kind == "lost":
                break
        if not answered and not self._stopping.is_set():
            self._try_the_other_version()
        self._close(client)
        return None

    def _try_the_other_version(self) -> None:
        """The broker took the connection but gave no CONNACK. A 3.1.1-only broker should refuse an MQTT 5
        CONNECT, but some cannot read one (its properties, its will's properties) and hang up or stay silent:
        the next attempt speaks the other version (a broker that speaks both takes either)."""
        self._protocol = mqtt.MQTTv311 if self._protocol == mqtt.MQTTv5 else mqtt.MQTTv5
        logger.info("café: no answer to the CONNECT; trying MQTT %s next", "3.1.1" if self._protocol == mqtt.MQTTv311
                 else "5")

    def _session(self, client: mqtt.Client) -> None:
        """Publish until the connection is lost or the kiosk stops."""
        cursor = self.acked + 1
        pending: dict[int, int] = {}  # mid → n of log records in flight
        self._status_sent = None
        client.subscribe([(self.topic_replay, contract.QOS), (self.topic_announce, contract.QOS),
                          (self.topic_assign, contract.QOS)])
        self._set_online(True)
        remembered = self.acked
        while not self._stopping.is_set():
            self._wake.clear()
            while True:
                try:
                    kind, value = self._events.get_nowait()
                except queue.Empty:
                    break
                if kind == "lost":
                    return
                if kind == "puback":
                    mid, reason = value
                    n = pending.pop(mid, None)
                    if n is not None and reason.is_failure:
                        logger.error("café: the broker refused log record %d: %s (check the ACL)", n, reason)
                        return
                elif kind == "replay":
                    cursor = min(cursor, value)
            lowest = min(pending.values()) if pending else cursor
            self.acked = max(self.acked, lowest - 1)
            if self.acked != remembered:
                self._opened().set_acked(self.config.destination, self.acked)
                remembered = self.acked
            pumped = self._pump(client, cursor, pending)
            if pumped is None:
                return
            cursor = pumped
            wait = self._send_status(client)
            if self._wake.wait(1.0 if wait is None else wait):
                self._drawn.wait(SETTLE_S)
        self._leave(client)

    def _pump(self, client: mqtt.Client, cursor: int, pending: dict[int, int]) -> int | None:
        """Hand the next records to paho while the window has room; the new cursor, or None if the link broke."""
        if cursor > self._latest_n:
            self._latest_n = max(self._latest_n, self._opened().last_n())
        while len(pending) < self.window and cursor <= self._latest_n:
            records = self._opened().sealed(after_n=cursor - 1, limit=self.window - len(pending))
            if not records:
                break
            for record in records:
                info = client.publish(self.topic_log, record.data, qos=contract.QOS)
                if info.rc != MQTTErrorCode.MQTT_ERR_SUCCESS:
                    return None
                pending[info.mid] = record.n
                self.published += 1
                cursor = record.n + 1
        return cursor

    def _send_status(self, client: mqtt.Client) -> float | None:
        """Publish the status if it changed, at most 10 a second; how long to wait before the next may go."""
        fields = self._status
        if fields is None:
            fields = {"screen": "menu"}
        current = {**fields, "n": self._latest_n, **({"key": self.key} if self.key else {})}
        if current == self._status_sent:
            return None
        left = self._status_at + STATUS_GAP_S - time.monotonic()
        if left > 0:
            return left
        try:
            payload = contract.status_payload(self.config.table, **current)
        except (contract.ContractError, TypeError):
            logger.exception("café: not a status: %r", current)
            self._status_sent = current
            return None
        client.publish(self.topic_status, contract.encode(payload), qos=contract.QOS, retain=True)
        self._status_sent = current
        self._status_at = time.monotonic()
        return None

    def _leave(self, client: mqtt.Client) -> None:
        """A clean exit sends no last will: say offline ourselves, and wait briefly for it to go out."""
        info = client.publish(self.topic_status, contract.encode(contract.offline_payload(self.config.table)),
                              qos=contract.QOS, retain=True)
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline and not info.is_published():
            kind, _ = self._next_event(deadline - time.monotonic())
            if kind == "lost":
                break
        client.disconnect()

    def _close(self, client: mqtt.Client) -> None:
        """End a connection that failed (or was refused): with MQTT 5 the broker is asked to send the last will,
        so the café sees the table offline as the table itself does."""
        with contextlib.suppress(Exception):  # already gone
            if self._protocol == mqtt.MQTTv5 and client.is_connected():
                client.disconnect(reasoncode=ReasonCode(PacketTypes.DISCONNECT, "Disconnect with will message"))
            else:
                client.disconnect()
        client.loop_stop()
        self._drain_events()

    def _next_event(self, timeout: float) -> tuple[str, Any]:
        try:
            return self._events.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return "", None

    def _drain_events(self) -> None:
        while True:
            try:
                self._events.get_nowait()
            except queue.Empty:
                return

    def _set_problem(self, problem: str | None, detail: str) -> None:
        """Why the last attempt failed (logged once per change, a warning for a certificate or a refusal)."""
        if problem == self.problem:
            return
        self.problem = problem
        if problem is not None:
            logger.log(logging.DEBUG if problem == "unreachable" else logging.WARNING, "café: %s", detail)
        try:
            self.on_problem(problem)
        except Exception:
            logger.exception("café: on_problem failed")

    def _set_online(self, online: bool) -> None:
        if online != self.online:
            self.online = online
            try:
                self.on_online(online)
            except Exception:
                logger.exception("café: on_online failed")

    # --- paho's network thread: only enqueue and wake

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self._events.put(("connack", reason))
        self._wake.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self._events.put(("lost", reason))
        self._wake.set()

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        self._events.put(("puback", (mid, reason)))
        self._wake.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            parsed, payload = contract.validate(message.topic, bytes(message.payload))
        except contract.ContractError as error:
            logger.warning("café: ignoring %s: %s", message.topic, error)
            return
        if parsed.kind == "replay" and payload is not None:
            self._events.put(("replay", int(payload["from"])))
            self._wake.set()
        elif parsed.kind == "announce":
            try:
                self.on_announce(payload)
            except Exception:
                logger.exception("café: on_announce failed")
        elif parsed.kind == "assign" and parsed.table == self.config.table:
            try:
                self.on_assign(payload)
            except Exception:
                logger.exception("café: on_assign failed")
