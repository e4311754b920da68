"""The hub's side of the topics in `shared/cafe-protocol.md`: what it subscribes to, what a message is.

(Adapter over the contract; the topic builders and payload checks come from `cafe.contract` once it lands.)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hub.ingest import Incoming

ROOT = "tabletop-referee/v1"


def subscription(cafe: str) -> str:
    """Everything of one café, or of every café (`+`) for a central hub."""
    return f"{ROOT}/{cafe}/#"


def replay_topic(cafe: str, table: str) -> str:
    return f"{ROOT}/{cafe}/table/{table}/replay"


def replay_payload(first: int) -> dict[str, Any]:
    return {"v": 1, "from": first}


def announce_topic(cafe: str) -> str:
    return f"{ROOT}/{cafe}/announce"


def incoming(topic: str, payload: bytes, received: float, ack: Callable[[], None] | None) -> Incoming | None:
    """A table's `status` or `log` message as an Incoming item; None for anything else."""
    parts = topic.split("/")
    if len(parts) != 6 or "/".join(parts[:2]) != ROOT or parts[3] != "table" or parts[5] not in ("status", "log"):
        return None
    cafe, table, kind = parts[2], parts[4], parts[5]
    try:
        body = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(body, dict) or body.get("v") != 1:
        return None
    if kind == "log" and not (isinstance(body.get("n"), int) and body.get("kind") in ("start", "event", "end")):
        return None
    return Incoming(kind, cafe, table, body, received, ack)
