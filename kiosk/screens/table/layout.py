"""Laying out the table screen's parts: a column filled with whole blocks, rects split into columns or rows."""

from __future__ import annotations

from kiosk.drawing.view import Rect


class Stack:
    """A column filled from the top with blocks that each fit whole: what finds no room is left out, never cut."""

    def __init__(self, rect: Rect, gap: int):
        self.x, self.y, self.w, h = rect
        self.bottom = self.y + h
        self.gap = gap

    def take(self, height: int) -> Rect | None:
        if height > self.bottom - self.y:
            return None
        rect = (self.x, self.y, self.w, height)
        self.y += height + self.gap
        return rect


def cols(rect: Rect, n: int, gap: int) -> list[Rect]:
    x, y, w, h = rect
    each = (w - gap * (n - 1)) / max(n, 1)
    return [(round(x + i * (each + gap)), y, round(each), h) for i in range(n)]


def rows(rect: Rect, n: int, gap: int) -> list[Rect]:
    x, y, w, h = rect
    each = (h - gap * (n - 1)) / max(n, 1)
    return [(x, round(y + i * (each + gap)), w, round(each)) for i in range(n)]
