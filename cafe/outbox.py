"""The outbox the table's publisher sends from: what `cafe` needs of a durable log, and nothing more.

The café contract lives here, the log lives with whoever keeps it (the kiosk's SQLite event log implements
this): the publisher reads numbered records in order and remembers, per broker, how far that broker has
acknowledged them. It opens its own outbox on its own thread (`OpenOutbox`), so a log whose connections
are not shared between threads (SQLite) works as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol


class OutboxRecord(Protocol):
    """One log record (`shared/cafe-protocol.md`, "Log records"): its number and kind, and its payload."""

    @property
    def n(self) -> int:
        """Table-wide, strictly increasing across games and restarts, never reused."""
        ...

    @property
    def kind(self) -> str:
        """start | event | end"""
        ...

    def payload(self, table: str) -> dict[str, Any]:
        """The record's MQTT payload as the protocol names it, `v` and `table` included."""
        ...


class Outbox(Protocol):
    """A durable, numbered record log seen from the publisher's thread."""

    def records(self, after_n: int = 0, limit: int | None = None) -> Sequence[OutboxRecord]:
        """The records with n > after_n, in order of n (at most `limit`)."""
        ...

    def last_n(self) -> int:
        """The highest record number written so far (0 for an empty log)."""
        ...

    def acked(self, destination: str) -> int:
        """The highest n the broker at `destination` acknowledged (0: none yet)."""
        ...

    def set_acked(self, destination: str, n: int) -> None:
        """Remember that the broker acknowledged every record up to n; never moves back. Need not be durable:
        a record acknowledged but forgotten is simply sent again."""
        ...

    def close(self) -> None: ...


OpenOutbox = Callable[[], Outbox]
"""Opens the publisher's own connection to the outbox (on its thread); may raise while storage is failing."""
