"""Logging for the kiosk: stdlib `logging` to stderr, with journald priorities when systemd reads it.

Under systemd, stderr goes to the journal (`$JOURNAL_STREAM` is set); journald reads a leading `<N>`
(the syslog priority, as in sd-daemon.h) on each line as that line's priority, so
`journalctl -p warning -u referee-kiosk` finds warnings and errors. On a terminal the level is spelled
out instead. One line per record: a traceback is folded onto the record's line with `⏎` markers, so
the journal keeps its priority on every part of it.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

LEVELS = ("debug", "info", "warning", "error", "critical")

# logging level → syslog priority (sd-daemon.h: SD_DEBUG 7 … SD_CRIT 2)
PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


def syslog_priority(levelno: int) -> int:
    """The syslog priority for a logging level (levels between the named ones round to the more severe)."""
    for level in sorted(PRIORITY, reverse=True):
        if levelno >= level:
            return PRIORITY[level]
    return 7


class JournalFormatter(logging.Formatter):
    """`<N>logger: message` — the prefix journald turns into the entry's priority."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record).replace("\n", " ⏎ ")
        return f"<{syslog_priority(record.levelno)}>{text}"


class TerminalFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        return text if record.levelno == logging.INFO else f"{record.levelname.lower()}: {text}"


def under_journal(environ: dict[str, str] | None = None, stream: TextIO | None = None) -> bool:
    """True when `stream` (stderr) is the journal's socket: `$JOURNAL_STREAM` names its device:inode."""
    env = os.environ if environ is None else environ
    value = env.get("JOURNAL_STREAM", "")
    if not value:
        return False
    stream = sys.stderr if stream is None else stream
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return value == f"{st.st_dev}:{st.st_ino}"


def setup(level: str = "info", stream: TextIO | None = None, journal: bool | None = None) -> logging.Handler:
    """Send every logger's records at `level` and above to `stream` (stderr); returns the handler."""
    if level not in LEVELS:
        raise ValueError(f"unknown log level {level!r} (one of {', '.join(LEVELS)})")
    stream = sys.stderr if stream is None else stream
    journal = under_journal(stream=stream) if journal is None else journal
    handler = logging.StreamHandler(stream)
    fmt = "%(name)s: %(message)s"
    handler.setFormatter(JournalFormatter(fmt) if journal else TerminalFormatter(fmt))
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "_referee", False):
            root.removeHandler(old)
    handler._referee = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper()))
    sys.excepthook = _log_uncaught
    return handler


def _log_uncaught(kind: type[BaseException], value: BaseException, tb: object) -> None:
    """A crash is a critical record (priority 2 in the journal), traceback included."""
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, value, tb)  # type: ignore[arg-type]
        return
    logging.getLogger("referee-kiosk").critical("crashed: %s", value, exc_info=(kind, value, tb))  # type: ignore[arg-type]
