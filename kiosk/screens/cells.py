"""Splitting a screen area into touch targets that keep the least gap between them at every screen size.

Fractions of the screen (`Grid`) cannot promise a gap in pixels once the renderer enlarges small buttons to
the least touch size; these helpers work in pixels from the view's limits instead.
"""

from __future__ import annotations

import math

from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, Color, Rect, View, ui_scale
from kiosk.i18n import tr


def gap_of(view: View) -> int:
    """The gap to leave between touch targets: the limit plus a little air."""
    return math.ceil(view.limits.gap) + 2


def cols(rect: Rect, n: int, gap: int) -> list[Rect]:
    """`rect` cut into `n` side by side, `gap` pixels apart."""
    x, y, w, h = rect
    each = (w - gap * (n - 1)) / max(n, 1)
    return [(round(x + i * (each + gap)), y, math.floor(each), h) for i in range(n)]


def rows(rect: Rect, n: int, gap: int) -> list[Rect]:
    """`rect` cut into `n` one above the other, `gap` pixels apart."""
    x, y, w, h = rect
    each = (h - gap * (n - 1)) / max(n, 1)
    return [(x, round(y + i * (each + gap)), w, math.floor(each)) for i in range(n)]


def table(rect: Rect, n_cols: int, n_rows: int, gap: int) -> list[Rect]:
    """A grid of cells, row by row."""
    return [cell for row in rows(rect, n_rows, gap) for cell in cols(row, n_cols, gap)]


def top_bar(v: View, title: str, buttons: list[tuple[str, str, Color]], margin: int, gap: int) -> int:
    """A screen's title at the top left and its buttons at the top right, each button as wide as its word: the
    title beside them where it fits whole on one line, else on lines of its own under them (never cut).
    Returns where the screen's content starts."""
    lim = v.limits
    bar = max(round(lim.touch), v.lines_height(1))
    pad = max(4, round(6 * ui_scale(v.width, v.height)))
    x = v.width - margin
    for label, action, fill in reversed(buttons):
        w = max(round(lim.touch), measure.width(label, lim.cap) + 2 * pad + 16)
        x -= w
        v.button((x, margin // 2, w, bar), label, action, fill=fill, tag=action, group="top-bar")
        x -= gap
    room = x - margin - gap
    if measure.width(title, lim.cap) + 6 <= room:
        v.text((margin, margin // 2, room, bar), title, size=1.0, color=ACCENT, lines=1, tag="title")
        return margin // 2 + bar + gap
    y = margin // 2 + bar + gap // 2
    h = measure.height(title, v.width - 2 * margin, lim.cap)
    v.text((margin, y, v.width - 2 * margin, h), title, size=1.0, color=ACCENT, tag="title")
    return y + h + gap


def seat_name(seats: list[str], seat: str) -> str:
    """A seat as guests read it: by its number at the table ("seat 2", the configured order), not by its id in the
    config, which may look like a player's name (the simulated table's seats are Anna, Ben, Cleo, Dev)."""
    return tr("seat {seat}", seat=seats.index(seat) + 1) if seat in seats else tr("seat {seat}", seat=seat)
