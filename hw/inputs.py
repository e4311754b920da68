"""The typed inputs the hardware layer produces, and nothing else (`../shared/DESIGN.md`).

Times are nanoseconds on the kiosk's monotonic clock (`time.monotonic_ns()` scale),
taken as close to the electrical edge or the scanner line as the backend allows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Button = Literal["confirm", "slap"]


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A seat's button went down at `t_ns` (the edge time, not when a callback ran)."""

    seat: str
    button: Button
    t_ns: int


@dataclass(frozen=True, slots=True)
class CardScan:
    """A plausible card code read by scanner `reader` at `t_ns` (the line's arrival)."""

    code: str
    reader: str
    t_ns: int


@dataclass(frozen=True, slots=True)
class ReaderNews:
    """A scanner said something that is not a card, or its device went away / came back: news of the reader, an
    input like a press or a scan (not an exception: nothing is raised).

    `reason` is stable: "noise", "not-ascii", "too-long", "cut-off", "not-a-card",
    "disconnected", "reconnected". The kiosk shows "could not read — scan again"
    for the first five.
    """

    reader: str
    reason: str
    detail: str
    t_ns: int


# Every `ReaderNews.reason`, stable ids for logs and staff (guests read a sentence instead).
READER_REASONS = ("noise", "not-ascii", "too-long", "cut-off", "not-a-card", "disconnected", "reconnected")

Input = ButtonPress | CardScan | ReaderNews
