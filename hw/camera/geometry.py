"""Cards as shapes in a picture: their size (`Shape`), an outline found (`Found`), and the little geometry the
outline's finders share (`hw.camera.outline`, `hw.camera.sides`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np


def f32(values: Any) -> Any:
    """An array of 32-bit floats, as OpenCV's geometry takes them (`np.float32(values)`, which numpy's stubs
    only accept for one number)."""
    return np.asarray(values, dtype=np.float32)


@dataclass(frozen=True, slots=True)
class Shape:
    """The cards' size in a frame at full density: the long side in pixels and short / long, with tolerances, and
    the sizes of other decks read at once (two designs of one game, printed at different sizes)."""

    long_px: float = 0.0  # 0: not known yet (nothing taught): any size from MIN_LONG up
    aspect: float = 0.68
    size_tolerance: float = 0.06  # a card out of plane by a few degrees, the outline found to a pixel
    aspect_tolerance: float = 0.05
    others: tuple[tuple[float, float], ...] = ()  # (long_px, aspect) of other decks

    def each(self) -> list[Shape]:
        """One shape per deck size."""
        return [replace(self, others=()), *(replace(self, long_px=long_px, aspect=aspect, others=())
                                            for long_px, aspect in self.others)]

    def fits(self, long_side: float, short_side: float) -> bool:
        return any(shape._fits(long_side, short_side) for shape in self.each())

    def _fits(self, long_side: float, short_side: float) -> bool:
        if long_side < MIN_LONG:
            return False
        if abs(short_side / long_side - self.aspect) > (self.aspect_tolerance if self.long_px else 0.15):
            return False
        return not self.long_px or abs(long_side / self.long_px - 1) <= self.size_tolerance


MIN_LONG = 120  # pixels: a card smaller than this in the frame carries too little to read


@dataclass(frozen=True, slots=True)
class Found:
    """A card whose outline was found: its corners (full-frame pixels, a short side first), centre, angle."""

    corners: Any  # float32 (4, 2): p0→p1 a short side, clockwise
    x: float
    y: float
    angle: float  # of its long axis, degrees in [0, 180)
    long_px: float
    short_px: float
    fit: float = 0.0  # how well its edges fit the size and show (`hw.camera.sides._pair`'s cost: lower is better)


def with_corners(card: Found, corners: Any) -> Found:
    """The card with new corners (p0→p1 still a short side); its size is its longer sides' (a card a little out of
    plane looks narrower at its far end, not at its near end)."""
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    return replace(card, corners=corners, x=float(corners[:, 0].mean()), y=float(corners[:, 1].mean()),
                   long_px=float(max(sides[1], sides[3])), short_px=float(max(sides[0], sides[2])))


def corner_shift(a: Any, b: Any) -> float:
    """How far two outlines' corners lie apart (pixels, the largest), whichever corner each starts at."""
    return float(min(np.abs(np.roll(b, k, axis=0) - a).max() for k in range(4)))


def end_for_end(a: Any, b: Any) -> bool:
    """Whether outline b starts at the other end of the card from a (its corners rolled by two): its cut-out is
    a's turned by 180°. A card whose diagonal lies level may start at either end from one frame to the next."""
    return bool(np.abs(np.roll(b, 2, axis=0) - a).max() < np.abs(b - a).max())


def meet(first: tuple[Any, Any], second: tuple[Any, Any]) -> Any:
    (p, d), (q, e) = first, second
    cross = d[0] * e[1] - d[1] * e[0]
    if abs(cross) < 1e-6:
        return (p + q) / 2
    t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / cross
    return p + t * d


