"""The hub's side of `shared/cafe-protocol.md`, over `cafe.contract`: what it subscribes to, what it stores.

Every message is checked against the contract before it reaches the store; one
that breaks it, or makes any check fail in any way, is acknowledged and dropped
(with a rate-limited log line), so it can neither block the hub's queue at the
broker for ever nor stop the thread that reads it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from cafe import contract
from hub.ingest import Incoming
from hub.ratelog import RateLimitedLog

log = logging.getLogger("hub.topics")
dropped = RateLimitedLog(log)

ALL_CAFES = "+"


def subscription(cafe: str) -> str:
    """Everything of one café, or of every café (`+`) for a central hub."""
    return f"{contract.ROOT}/+/#" if cafe == ALL_CAFES else contract.cafe_filter(cafe)


def replay_topic(cafe: str, table: str) -> str:
    return contract.replay_topic(cafe, table)


def replay_payload(first: int) -> dict[str, Any]:
    return contract.replay_payload(first)


def announce_topic(cafe: str) -> str:
    return contract.announce_topic(cafe)


def announce_payload(de: str, en: str, until: str | None) -> dict[str, Any]:
    payload = contract.announce_payload({"de": de or en, "en": en or de}, until=until)
    contract.validate_announce(payload)
    return payload


def encode(payload: dict[str, Any]) -> bytes:
    return contract.encode(payload)


def announcement(topic: str, payload: bytes) -> tuple[str, dict[str, Any] | None] | None:
    """(café, announcement or None when cleared) for a valid message on a café's announce topic, else None."""
    try:
        parsed, body = contract.validate(topic, payload)
    except Exception:  # `incoming` has logged it already: only that message is lost
        return None
    return (parsed.cafe, body) if parsed.kind == "announce" else None


def incoming(topic: str, payload: bytes, received: float, ack: Callable[[], None] | None,
             retained: bool = False) -> Incoming | None:
    """A table's `status` or `log` message as an Incoming item; None for the hub's own topics or a bad message.
    A message on a table's `log` topic that is no record of the contract becomes a `bad` item, so the writer
    counts it for that table (an unsigned record: a table of an earlier version)."""
    try:
        parsed, body = contract.validate(topic, payload, retained)
    except Exception as error:  # whatever a payload does to a check, only that message is lost
        dropped.warning(topic.rsplit("/", 1)[0][:120], "dropped a message on %s: %s", topic[:200], str(error)[:300])
        return _bad(topic, payload, error, received, ack)
    if parsed.kind not in ("status", "log") or body is None or parsed.table is None:
        return None
    return Incoming(parsed.kind, parsed.cafe, parsed.table, body, received, ack)


def _bad(topic: str, payload: bytes, error: Exception, received: float,
         ack: Callable[[], None] | None) -> Incoming | None:
    try:
        parsed = contract.parse_topic(topic)
    except contract.ContractError:
        return None
    if parsed.kind != "log" or parsed.table is None:
        return None
    sample = payload[:2000].decode("utf-8", "replace")
    unsigned = b'"sig"' not in payload or b'"h"' not in payload
    return Incoming("bad", parsed.cafe, parsed.table, {"reason": "unsigned" if unsigned else "contract",
                                                       "sample": f"{str(error)[:200]}: {sample}"}, received, ack)
