"""Splitting a screen area into touch targets that keep the least gap between them at every screen size.

Fractions of the screen (`Grid`) cannot promise a gap in pixels once the renderer enlarges small buttons to
the least touch size; these helpers work in pixels from the view's limits instead.
"""

from __future__ import annotations

import math

from kiosk.drawing.view import Rect, View


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
