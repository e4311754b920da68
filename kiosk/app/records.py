"""The kiosk's records: the event log it writes now, or none while the storage fails, and opening it afresh.

The log object itself (`kiosk.eventlog.store.EventLog`) keeps the records; this holds which log is the current
one, since a storage fault's retry replaces it (`kiosk/app/routing.py`), and the café link then follows it.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from kiosk.eventlog.storage import Opened, open_log
from kiosk.eventlog.store import EventLog


class Records:
    """The current event log (`log`, None while it cannot be opened) at `path`."""

    def __init__(self, path: Path, log: EventLog | None):
        self.path = path
        self.log = log

    def reopen(self, table: str | None) -> Opened:
        """Open the log afresh (sealing its records for café table `table`, if any); the old one is closed once the
        new one is open, and stays current if the new one cannot be opened."""
        opened = open_log(self.path, table=table)
        if opened.log is not None:
            self.close()
            self.log = opened.log
        return opened

    def abandon(self, game_row: int) -> None:
        """Mark a paused game of the log abandoned (the admin menu, from its history)."""
        if self.log is not None:
            self.log.set_status(game_row, "abandoned")

    def close(self) -> None:
        if self.log is not None:
            with contextlib.suppress(Exception):
                self.log.close()
