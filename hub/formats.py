"""Numbers, times and spreadsheet cells as the owner reads them: in the page's language and the café's time zone.

Times on the pages are the hub's receive times (its own clock), shown in the café's zone; a table's own clock
(`at` in its records) may be wrong (shared/cafe-protocol.md), so it is only shown beside them. The café day
(an evening running past midnight) starts at DAY_STARTS_AT local time.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from babel.numbers import format_decimal

DAY_STARTS_AT = 6  # hours after midnight: a games evening that ends at 2 a.m. is still the evening before
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as the start of a formula


def number(value: float | int | None, lang: str, places: int = 1, *, trim: bool = False) -> str:
    """A number as the page's language writes it (Babel's locale data): `1.234,5` in German, `1,234.5` in
    English, with `places` decimals (whole numbers, e.g. scores, without any); `trim` drops trailing zeros
    (a tournament's 2, 2,5 and 1,33). The minus is the typographic one."""
    if value is None:
        return ""
    decimals = "0" * places
    if isinstance(value, int) and not trim:
        decimals = ""
    pattern = "#,##0" + (("." + ("#" if trim else "0") * places) if decimals else "")
    return format_decimal(value, format=pattern, locale=lang, decimal_quantization=True).replace("-", "−")


def local(received: float, zone: ZoneInfo) -> dt.datetime:
    return dt.datetime.fromtimestamp(received, zone)


def when(received: float | None, zone: ZoneInfo, lang: str) -> str:
    """Date and time: `25.11.2026, 21:03` in German, `2026-11-25 21:03` in English."""
    if received is None:
        return ""
    at = local(received, zone)
    return at.strftime("%d.%m.%Y, %H:%M") if lang == "de" else at.strftime("%Y-%m-%d %H:%M")


def date(day: dt.date, lang: str) -> str:
    return day.strftime("%d.%m.%Y") if lang == "de" else day.isoformat()


def clock_text(at: str | None, zone: ZoneInfo | None = None, lang: str = "en") -> str:
    """A table's own clock as it wrote it (ISO with its offset), in the café's zone when given (the same moment
    the table's clock meant, shown beside the café-time pages), as date and time of day."""
    if not at:
        return ""
    try:
        moment = dt.datetime.fromisoformat(at)
    except ValueError:
        return at[:19].replace("T", " ")
    if zone is None or moment.tzinfo is None:
        return at[:19].replace("T", " ")
    return when(moment.timestamp(), zone, lang)


def cafe_day(received: float, zone: ZoneInfo) -> dt.date:
    """The evening a moment belongs to: before DAY_STARTS_AT it is still the day before."""
    return (local(received, zone) - dt.timedelta(hours=DAY_STARTS_AT)).date()


def day_bounds(day: dt.date, zone: ZoneInfo) -> tuple[float, float]:
    """The receive-time range [start, end) of one café day."""
    start = dt.datetime.combine(day, dt.time(DAY_STARTS_AT), zone)
    end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(DAY_STARTS_AT), zone)
    return start.timestamp(), end.timestamp()


def duration(seconds: float | None) -> str:
    """A game's length: `40 s`, `42 min`, `1 h 05 min`; the same in both languages."""
    if seconds is None or seconds < 0:
        return ""
    if seconds < 60:
        return f"{round(seconds)} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def csv_cell(value: object) -> object:
    """A cell a spreadsheet shows as text: one starting like a formula gets a leading apostrophe (OWASP)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
