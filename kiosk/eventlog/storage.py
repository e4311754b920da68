"""Storage faults of the event log, told apart so the kiosk can keep running and say what is wrong.

A full disk (ENOSPC, SQLITE_FULL) refuses new events with a verdict on the screen and heals by
itself: every later write tries again, and the fault screen re-opens the log once space is back.
A corrupt `events.sqlite3` (not a database, malformed pages, a truncated file) is moved aside as
`events.sqlite3.corrupt-<UTC time>` and a fresh log started, with a notice for the staff. A data
directory that is read-only or cannot be made is an error screen and a `STATUS=` line for systemd.
No fault ever ends in a traceback (a crash loop under systemd, nothing on the screen).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from kiosk.eventlog.store import EventLog
from kiosk.i18n import N_, tr

logger = logging.getLogger(__name__)

FULL, READONLY, CORRUPT, IO = "full", "readonly", "corrupt", "io"
SENTENCES = {
    FULL: N_("Storage full – call staff"),
    READONLY: N_("Cannot write the game log – call staff"),
    CORRUPT: N_("The game log is damaged – call staff"),
    IO: N_("Storage error – call staff"),
}
# Free space the fault screen waits for before it tries the log again (a game's events are small).
FREE_ENOUGH = 256 * 1024


class StorageFault(Exception):
    """The event log could not be written (or read); `kind` is full | readonly | corrupt | io."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail

    def sentence(self) -> str:
        """What guests and staff read on the screen, in the current language."""
        return tr(SENTENCES[self.kind])


def fault_of(error: BaseException) -> StorageFault | None:
    """The storage fault an exception from sqlite3 or the file system means; None for anything else."""
    if isinstance(error, StorageFault):
        return error
    if isinstance(error, sqlite3.Error):
        name = getattr(error, "sqlite_errorname", "") or ""
        text = str(error).lower()
        if name == "SQLITE_FULL" or "disk is full" in text:
            return StorageFault(FULL, str(error))
        if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")) or (
                "readonly" in text or "unable to open" in text):
            return StorageFault(READONLY, str(error))
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text or "not a database" in text:
            return StorageFault(CORRUPT, str(error))
        return StorageFault(IO, str(error))
    if isinstance(error, OSError):
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            return StorageFault(FULL, str(error))
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOENT, errno.ENOTDIR):
            return StorageFault(READONLY, str(error))
        return StorageFault(IO, str(error))
    return None


@dataclass
class Opened:
    """The result of opening the log: the log, or the fault that keeps it shut; and a notice for the staff."""

    log: EventLog | None
    fault: StorageFault | None = None
    notice: str | None = None


def open_log(path: Path, now: float | None = None, table: str | None = None) -> Opened:
    """Open the event log (sealing its records for café table `table`, if any); a corrupt one is moved aside and a
    fresh one started (with a notice) — with a fresh key, since a key belongs to its log (`kiosk.eventlog.chain`)."""
    try:
        return Opened(_open_checked(path, table))
    except Exception as error:  # classified below; anything unknown is still not a crash loop
        fault = fault_of(error) or StorageFault(IO, f"{type(error).__name__}: {error}")
    if fault.kind != CORRUPT:  # the app logs it (once per distinct fault) and shows it
        logger.debug("event log %s: %s", path, fault)
        return Opened(None, fault)
    aside = set_aside(path, now)
    logger.error("event log %s is damaged (%s): moved aside to %s, a fresh log started", path, fault.detail, aside)
    try:
        fresh = _open_checked(path, table)
    except Exception as error:
        again = fault_of(error) or StorageFault(IO, str(error))
        logger.error("event log %s: a fresh log cannot be started either: %s", path, again)
        return Opened(None, again)
    notice = tr("The game log was damaged. It was set aside as {name} and a new log started.", name=aside.name)
    return Opened(fresh, notice=notice)


def _open_checked(path: Path, table: str | None = None) -> EventLog:
    event_log = EventLog(path, table=table)
    try:
        (verdict,) = event_log.db.execute("PRAGMA quick_check(1)").fetchone()
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"database disk image is malformed: {verdict}")
        event_log.current()  # the in-progress game's rows must read too
    except BaseException:
        event_log.close()
        raise
    return event_log


def set_aside(path: Path, now: float | None = None) -> Path:
    """Rename the damaged log (and its WAL) to `<name>.corrupt-<UTC time>`; drop the shared-memory index."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    if path.exists():
        os.replace(path, aside)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        os.replace(wal, aside.with_name(aside.name + "-wal"))
    with contextlib.suppress(FileNotFoundError):
        path.with_name(path.name + "-shm").unlink()
    return aside


def free_bytes(directory: Path) -> int:
    """Bytes an unprivileged writer can still use in `directory` (0 if it cannot be asked)."""
    try:
        st = os.statvfs(directory)
    except OSError:
        return 0
    return st.f_bavail * st.f_frsize
