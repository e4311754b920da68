"""Sticker sheet geometries as data, in millimetres, measured from the page's top-left corner.

Each named layout is a common label sheet; any field can be overridden from the
command line (margins, gaps, grid, label size, page), and `check()` refuses a
geometry that does not fit its page, with a sentence that says why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any

from referee.labels.errors import LabelError

INCH = 25.4
PAGES: dict[str, tuple[float, float]] = {"A4": (210.0, 297.0), "Letter": (8.5 * INCH, 11.0 * INCH)}
SYMBOLOGIES = ("code128", "qr")
# Slack for sheets whose nominal sizes add up to the page edge (A4 3×8: 8 × 37 mm + 2 × 0.5 mm).
_EPS = 0.01


@dataclass(frozen=True)
class Layout:
    name: str
    title: str
    page: str  # a key of PAGES
    cols: int
    rows: int
    label_w: float
    label_h: float
    margin_left: float
    margin_top: float
    gap_x: float = 0.0
    gap_y: float = 0.0
    padding: float = 1.5  # blank edge inside each label (printer tolerance; the bar code's quiet zone is extra)
    symbology: str = "code128"

    @property
    def page_size(self) -> tuple[float, float]:
        return PAGES[self.page]

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def cell(self, index: int) -> tuple[float, float]:
        """The top-left corner (mm from the page's top-left) of label `index` on its page, row by row."""
        row, col = divmod(index % self.per_page, self.cols)
        return (
            self.margin_left + col * (self.label_w + self.gap_x),
            self.margin_top + row * (self.label_h + self.gap_y),
        )

    def used_size(self) -> tuple[float, float]:
        """Width and height from the page's top-left corner to the far edges of the last column and row."""
        return (
            self.margin_left + self.cols * self.label_w + (self.cols - 1) * self.gap_x,
            self.margin_top + self.rows * self.label_h + (self.rows - 1) * self.gap_y,
        )

    def with_overrides(self, **overrides: object) -> Layout:
        """A copy with the given fields replaced (None means keep)."""
        names = {f.name for f in fields(self)}
        unknown = set(overrides) - names
        if unknown:
            raise LabelError(f"unknown layout field {sorted(unknown)[0]!r}")
        given: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
        return replace(self, **given)

    def check(self) -> Layout:
        """Raise LabelError unless the sheet is possible: positive sizes, and every label on the page."""
        if self.page not in PAGES:
            raise LabelError(f"unknown page size {self.page!r} (known: {', '.join(PAGES)})")
        if self.symbology not in SYMBOLOGIES:
            raise LabelError(f"unknown symbology {self.symbology!r} (known: {', '.join(SYMBOLOGIES)})")
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, float) and not math.isfinite(value):
                raise LabelError(f"{f.name.replace('_', ' ')} must be a finite number of mm, not {value}")
        if self.cols < 1 or self.rows < 1:
            raise LabelError(f"the grid must have at least one column and one row, not {self.cols}x{self.rows}")
        if self.label_w <= 0 or self.label_h <= 0:
            raise LabelError(f"labels must have a positive size, not {self.label_w:g}x{self.label_h:g} mm")
        for name in ("margin_left", "margin_top", "gap_x", "gap_y", "padding"):
            if getattr(self, name) < 0:
                raise LabelError(f"{name.replace('_', ' ')} must not be negative ({getattr(self, name):g} mm)")
        if 2 * self.padding >= min(self.label_w, self.label_h):
            raise LabelError(
                f"a padding of {self.padding:g} mm leaves nothing of a {self.label_w:g}x{self.label_h:g} mm label"
            )
        page_w, page_h = self.page_size
        used_w, used_h = self.used_size()
        if used_w > page_w + _EPS:
            raise LabelError(
                f"{self.cols} columns of {self.label_w:g} mm (left margin {self.margin_left:g} mm, gap "
                f"{self.gap_x:g} mm) need {used_w:.1f} mm, but the {self.page} page is {page_w:.1f} mm wide"
            )
        if used_h > page_h + _EPS:
            raise LabelError(
                f"{self.rows} rows of {self.label_h:g} mm (top margin {self.margin_top:g} mm, gap "
                f"{self.gap_y:g} mm) need {used_h:.1f} mm, but the {self.page} page is {page_h:.1f} mm high"
            )
        return self


def _inch(x: float) -> float:
    return round(x * INCH, 3)


LAYOUTS: dict[str, Layout] = {
    layout.name: layout
    for layout in (
        # 70 × 37 mm, 24 per A4 sheet, edge to edge (e.g. Herma 4453, Avery Zweckform 3474-style sheets).
        # ANNAOTTO's longest codes get QR codes here (Code 128 would need bars under 0.25 mm).
        Layout("a4-3x8", "A4, 3 x 8 labels 70 x 37 mm", "A4", 3, 8, 70.0, 37.0, 0.0, 0.5),
        # 105 × 37 mm, 16 per A4 sheet, edge to edge (e.g. Avery Zweckform 3484): Code 128 for every code.
        Layout("a4-2x8", "A4, 2 x 8 labels 105 x 37 mm (every code as Code 128)", "A4", 2, 8, 105.0, 37.0, 0.0,
               0.5),
        # 63.5 × 38.1 mm, 21 per A4 sheet (Avery L7160 / J8160).
        Layout("a4-3x7", "A4, 3 x 7 labels 63.5 x 38.1 mm (L7160)", "A4", 3, 7, 63.5, 38.1, 7.25, 15.15, 2.5, 0.0),
        # Card corner: 38.1 × 21.2 mm, 65 per A4 sheet (Avery L7651 / J8651); 2D code.
        Layout(
            "a4-corner", "A4, 5 x 13 small labels 38.1 x 21.2 mm for the card corner (L7651), QR",
            "A4", 5, 13, 38.1, 21.2, 4.75, 10.7, 2.5, 0.0, 1.5, "qr",
        ),
        # 4" × 1", 20 per Letter sheet (Avery 5161): room for Code 128 of the longest codes.
        Layout(
            "letter-2x10", "US Letter, 2 x 10 labels 4 x 1 in (5161)",
            "Letter", 2, 10, _inch(4), _inch(1), _inch(0.156), _inch(0.5), _inch(0.1875), 0.0,
        ),
        # 2 5/8" × 1", 30 per Letter sheet (Avery 5160): Code 128 up to about 24 characters per code.
        Layout(
            "letter-3x10", "US Letter, 3 x 10 labels 2.625 x 1 in (5160)",
            "Letter", 3, 10, _inch(2.625), _inch(1), _inch(0.1875), _inch(0.5), _inch(0.125), 0.0,
        ),
        # Card corner: 1.75" × 0.5", 80 per Letter sheet (Avery 5167); 2D code.
        Layout(
            "letter-corner", "US Letter, 4 x 20 small labels 1.75 x 0.5 in for the card corner (5167), QR",
            "Letter", 4, 20, _inch(1.75), _inch(0.5), _inch(0.3), _inch(0.5), _inch(0.3), 0.0, 1.0, "qr",
        ),
    )
}
DEFAULT_LAYOUT = {"A4": "a4-3x8", "Letter": "letter-2x10"}


def get_layout(name: str) -> Layout:
    try:
        return LAYOUTS[name]
    except KeyError:
        raise LabelError(f"unknown layout {name!r} (known: {', '.join(LAYOUTS)})") from None
