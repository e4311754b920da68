"""The hub adds a table's broker user through Mosquitto's dynamic security plugin, over its own MQTT connection.

The hub's user is the plugin's admin (`cafe/dynsec.py` wrote it so): it publishes command batches to
`$CONTROL/dynamic-security/v1` and reads the answers on `…/response`, which the plugin publishes to every
subscriber of that topic (QoS 0) — each batch carries a random correlation id and only its own answer is taken.
Runs on a web request's worker thread and blocks it (a few milliseconds on loopback, `TIMEOUT_S` at most);
never on paho's network thread, which only hands answers over (`on_response`).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections.abc import Callable
from typing import Any

from cafe import dynsec

log = logging.getLogger("hub.dynsec")

TIMEOUT_S = 10.0
MAX_RESPONSE = 256 * 1024  # the plugin's answer to a short batch is a few hundred bytes


class BrokerUserError(RuntimeError):
    """The broker did not add the table's user; the message says why (shown to staff)."""


class BrokerUsers:
    """Command batches to the plugin and their answers. `publish(topic, payload)` sends on the hub's connection."""

    def __init__(self, publish: Callable[[str, bytes], bool]):
        self.publish = publish
        self._lock = threading.Lock()
        self._waiting: dict[str, tuple[threading.Event, list[list[dict[str, Any]]]]] = {}

    def on_response(self, payload: bytes) -> None:
        """paho's thread: an answer on the response topic, handed to the batch that waits for it."""
        if len(payload) > MAX_RESPONSE:
            return
        try:
            responses = json.loads(payload)["responses"]
            tag = str(responses[0]["correlationData"]).split(":", 1)[0]
        except (ValueError, KeyError, IndexError, TypeError):
            return  # another admin's batch without our tags, or not the plugin's answer
        with self._lock:
            waiting = self._waiting.get(tag)
        if waiting is not None and isinstance(responses, list):
            waiting[1].append([r for r in responses if isinstance(r, dict)])
            waiting[0].set()

    def run(self, commands: list[dict[str, Any]], timeout: float = TIMEOUT_S) -> list[dict[str, Any]]:
        """Send one batch and wait for its answers (in the order of the commands)."""
        tag = secrets.token_hex(8)
        tagged = [{**command, "correlationData": f"{tag}:{i}"} for i, command in enumerate(commands)]
        done: tuple[threading.Event, list[list[dict[str, Any]]]] = (threading.Event(), [])
        with self._lock:
            self._waiting[tag] = done
        try:
            if not self.publish(dynsec.CONTROL_TOPIC, json.dumps({"commands": tagged}).encode()):
                raise BrokerUserError("the hub is not connected to the broker")
            if not done[0].wait(timeout):
                raise BrokerUserError("the broker did not answer (is the dynamic security plugin loaded, "
                                      "and the hub its admin?)")
        finally:
            with self._lock:
                self._waiting.pop(tag, None)
        return done[1][0]

    def add_table(self, cafe: str, table: str, password: str) -> None:
        """Make `table-<id>` able to publish as the table, with `password` (new, or replacing its old one)."""
        first = self.run(dynsec.table_first(cafe, table))
        problems = dynsec.failures(first)
        client = first[-1].get("data", {}).get("client") if first and not first[-1].get("error") else None
        if not problems:
            problems = dynsec.failures(self.run(dynsec.table_second(table, password, client)))
        if problems:
            raise BrokerUserError("; ".join(problems))
        log.info("broker user %s %s", f"table-{table}", "has a new password" if client else "added")
