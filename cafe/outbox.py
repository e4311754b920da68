"""The outbox the table's publisher sends from: what `cafe` needs of a durable log, and nothing more.

The café contract lives here, the log lives with whoever keeps it (the kiosk's SQLite event log implements
this): the publisher reads numbered records in order and remembers, per broker, how far that broker has
acknowledged them. It opens its own outbox on its own thread (`OpenOutbox`), so a log whose connections
are not shared between threads (SQLite) works as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol


class OutboxRecord(Protocol):
    """One sealed log record (`shared/cafe-protocol.md`, "Log records", "Integrity"): its number and the bytes
    that go out — sealed when it was written, so every (re)send is the same bytes."""

    @property
    def n(self) -> int:
        """Table-wide, strictly increasing across games and restarts, never reused."""
        ...

    @property
    def data(self) -> bytes:
        """The record's MQTT payload (UTF-8 JSON with `prev`, `h`, `sig`), as the log keeps it."""
        ...


class Outbox(Protocol):
    """A durable, numbered record log seen from the publisher's thread."""

    def sealed(self, after_n: int = 0, limit: int | None = None) -> Sequence[OutboxRecord]:
        """The sealed records with n > after_n, in order of n (at most `limit`), up to the first not sealed."""
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
