"""The contract's Access section (`shared/cafe-protocol.md`) as data: who may write and read which topic.

One list per kind of user; Mosquitto's ACL file (`cafe.broker.acl_text`) and the dynamic security plugin's
roles (`cafe.dynsec`) are both written from it, so the two ways of setting up a café grant exactly the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from cafe import contract

HUB_USER = "hub"


@dataclass(frozen=True, slots=True)
class Grant:
    """`write` (publish) or `read` (subscribe and receive) on a topic or a filter."""

    access: str
    topic: str


def table_user(table: str) -> str:
    """A table's broker user, as the contract names it."""
    return f"table-{contract.check_id(table, 'table')}"


def table_grants(cafe: str, table: str) -> list[Grant]:
    """A table publishes only its own status and log and reads only its own replay and assign and the announce."""
    return [Grant("write", contract.status_topic(cafe, table)),
            Grant("write", contract.log_topic(cafe, table)),
            Grant("read", contract.replay_topic(cafe, table)),
            Grant("read", contract.announce_topic(cafe)),
            Grant("read", contract.assign_topic(cafe, table))]


def hub_grants(cafe: str) -> list[Grant]:
    """The hub reads the whole café and publishes replay, announce and every table's assign."""
    return [Grant("read", contract.cafe_filter(cafe)),
            Grant("write", contract.table_filter(cafe, "replay")),
            Grant("write", contract.announce_topic(cafe)),
            Grant("write", contract.table_filter(cafe, "assign"))]
