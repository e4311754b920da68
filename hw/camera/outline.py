"""Cards found on the mat by their outline, and cut out upright: OpenCV's edges, contours and perspective warp.

A card is a rectangle of a known size: every closed edge loop (Canny on a half-size copy, its gaps closed by
one dilation) whose minimum-area rectangle has a card's proportions, a card's size and fills that rectangle is
a card whose whole outline is in view — the top card of a pile, a card laid beside it; a card half under
another, or under a hand, has no closed outline and is not found (it is not read, never misread).
Nested loops (a printed frame inside a card, the inner and outer side of one edge) are one card: the one whose
size is nearest the expected one. `rectify` warps a card to `PATCH` pixels, its long side vertical, in one of
its two upright orientations (the matcher tries both: `hw.camera.faces`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

PATCH = (180, 252)
"""A rectified card, width x height: 63 x 88 mm at 0.35 mm per pixel (Alles klar?'s 5 mm numerals: 14 pixels)."""
CHROMA_SCALE = 4  # the patch's colour planes are a quarter of its size: a card's colours are broad areas


def f32(values: Any) -> Any:
    """An array of 32-bit floats, as OpenCV's geometry takes them (`np.float32(values)`, which numpy's stubs
    only accept for one number)."""
    return np.asarray(values, dtype=np.float32)


@dataclass(frozen=True, slots=True)
class Shape:
    """The cards' size in a frame at full density: the long side in pixels and short / long, with tolerances."""

    long_px: float = 0.0  # 0: not known yet (nothing taught): any size from MIN_LONG up
    aspect: float = 0.68
    size_tolerance: float = 0.06  # a card out of plane by a few degrees, the outline found to a pixel
    aspect_tolerance: float = 0.05

    def fits(self, long_side: float, short_side: float) -> bool:
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


def find_cards(grey: Any, shape: Shape | None = None) -> list[Found]:
    """Every card with its whole outline in `grey` (a uint8 array), largest first."""
    shape = shape or Shape()
    small = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    edges = cv2.dilate(cv2.Canny(small, 20, 60), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    rough = replace(shape, size_tolerance=max(shape.size_tolerance, 0.2), aspect_tolerance=0.15)  # a printed frame too
    found: list[Found] = []
    for contour in contours:
        if len(contour) < 4:
            continue
        _, (w, h), _ = rect = cv2.minAreaRect(contour)
        long_side, short_side = 2 * max(w, h), 2 * min(w, h)
        if not long_side or not rough.fits(long_side, short_side):
            continue
        if cv2.contourArea(contour) < 0.9 * w * h:  # not a filled rectangle: a lower card's visible part
            continue
        card = _refined(grey, _found(contour, rect), shape)
        if card is not None and shape.fits(card.long_px, card.short_px):
            found.append(card)
    return _one_per_card(found, shape)


def _found(contour: Any, rect: Any) -> Found:
    """The card's four corners: the contour's own where it has four (a card slightly out of plane is a
    trapezoid), else its minimum-area rectangle's."""
    peri = cv2.arcLength(contour, True)
    approx = cv2.approxPolyDP(contour, 0.02 * peri, True)
    corners = approx.reshape(-1, 2) if len(approx) == 4 and cv2.isContourConvex(approx) else cv2.boxPoints(rect)
    corners = (corners.astype(np.float32) + 0.5) * 2 - 0.5  # half size → full size
    centre = corners.mean(axis=0)
    order = np.argsort(np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0]))
    corners = corners[order]  # clockwise in image coordinates (y down)
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:  # make p0→p1 a short side
        corners = np.roll(corners, -1, axis=0)
        sides = np.roll(sides, -1)
    axis = corners[3] - corners[0]  # a long side
    angle = float(np.degrees(np.arctan2(axis[1], axis[0])) % 180)
    return Found(corners, float(centre[0]), float(centre[1]), angle, float((sides[1] + sides[3]) / 2),
                 float((sides[0] + sides[2]) / 2))


SAMPLES = 24  # points per side where the edge is looked for across it
REACH = (24, 3)  # pixels either side of the rough outline, then of the first fit


def _refined(grey: Any, card: Found, shape: Shape) -> Found | None:
    """The card's outline fitted (twice, the second time close around the first), or None when its sides are not
    those of a card (opposite sides more than PARALLEL degrees apart)."""
    for i, reach in enumerate(REACH):
        fitted = _fit_sides(grey, card, reach, shape if i == 0 else Shape())
        if fitted is None:
            return None
        card = fitted
    c = card.corners
    angles = [np.degrees(np.arctan2(*(c[(i + 1) % 4] - c[i])[::-1])) for i in range(4)]
    for i in (0, 1):
        if abs((angles[i] - angles[i + 2]) % 360 - 180) > PARALLEL:
            return None
    return card


PARALLEL = 3.0  # degrees: a card a little out of plane turns its sides by about one


def _fit_sides(grey: Any, card: Found, reach: int, shape: Shape) -> Found | None:
    """The outline to a fraction of a pixel: on each side, the strongest grey step across it at SAMPLES points
    (the card's edge against the mat or the rim below it), a straight line fitted through them, the corners
    where the lines meet. The rough outline (a half-size contour) is a pixel or two off, enough to blur the
    difference between two numerals; the refined one puts every taught and read card in the same place."""
    corners = card.corners
    lines = []
    centre = corners.mean(axis=0)
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        along = b - a
        normal = f32([-along[1], along[0]]) / (float(np.linalg.norm(along)) + 1e-6)
        if np.dot((a + b) / 2 - centre, normal) < 0:
            normal = -normal  # pointing out of the card
        t = np.linspace(0.15, 0.85, SAMPLES, dtype=np.float32)[:, None]
        offsets = np.arange(-reach, reach + 1, dtype=np.float32)[None, :]
        points = a + t * along  # (SAMPLES, 2)
        xs = (points[:, 0:1] + offsets * normal[0]).astype(np.float32)
        ys = (points[:, 1:2] + offsets * normal[1]).astype(np.float32)
        profile = cv2.remap(grey, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        step = profile[:, :-2] - profile[:, 2:]  # inside minus outside, centred differences
        # of the strong steps, the one nearest the rough outline: the card's edge, not a dark printed frame
        # just inside it nor the edge of a card below it just outside
        strong = (step >= 0.25 * step.max(axis=1, keepdims=True)) & (step > 20)
        strong[:, 1:-1] &= (step[:, 1:-1] >= step[:, :-2]) & (step[:, 1:-1] >= step[:, 2:])
        # where this side should lie for a card of the known size, around the rough outline's centre
        target = 0.0
        if shape.long_px:
            half = (shape.long_px if i % 2 == 0 else shape.long_px * shape.aspect) / 2
            target = float(np.clip(half - float(np.dot((a + b) / 2 - centre, normal)), -reach, reach))
        offsets_k = np.arange(step.shape[1]) + 1 - reach
        distance = np.where(strong, np.abs(offsets_k - target)[None, :], 10_000)
        k = np.clip(np.argmin(distance, axis=1), 1, step.shape[1] - 2)
        rows = np.arange(SAMPLES)
        left, mid, right = step[rows, k - 1], step[rows, k], step[rows, k + 1]
        sub = k + 0.5 * (left - right) / np.where(left - 2 * mid + right == 0, -1e-6, left - 2 * mid + right)
        edge = points + ((sub + 1 - reach)[:, None]) * normal
        good = strong[rows, k]  # a visible step; elsewhere (a glare, a finger) keep out of the fit
        if good.sum() < SAMPLES // 3:
            return None
        vx, vy, x0, y0 = cv2.fitLine(edge[good].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((f32([x0, y0]), f32([vx, vy])))
    new = f32([_meet(lines[i - 1], lines[i]) for i in range(4)])
    if np.abs(new - corners).max() > 3 * reach:
        return None
    sides = np.linalg.norm(np.roll(new, -1, axis=0) - new, axis=1)
    return replace(card, corners=new, x=float(new[:, 0].mean()), y=float(new[:, 1].mean()),
                   long_px=float((sides[1] + sides[3]) / 2), short_px=float((sides[0] + sides[2]) / 2))


def _meet(first: tuple[Any, Any], second: tuple[Any, Any]) -> Any:
    (p, d), (q, e) = first, second
    cross = d[0] * e[1] - d[1] * e[0]
    if abs(cross) < 1e-6:
        return (p + q) / 2
    t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / cross
    return p + t * d


def _one_per_card(found: list[Found], shape: Shape) -> list[Found]:
    """Loops around one centre are one card: the one nearest the expected size (the largest if unknown)."""
    def preference(f: Found) -> float:
        return abs(f.long_px - shape.long_px) if shape.long_px else -f.long_px

    kept: list[Found] = []
    for f in sorted(found, key=preference):
        if all(np.hypot(f.x - k.x, f.y - k.y) > 0.25 * k.short_px for k in kept):
            kept.append(f)
    return sorted(kept, key=lambda f: -f.long_px)


def rectify(grey: Any, chroma: Any, card: Found, offset: tuple[int, int] = (0, 0)) -> tuple[Any, Any]:
    """The card cut out upright (p0→p1 its top edge): Y as uint8 (PATCH), and its U, V planes at a quarter of
    that (None without colour). `chroma` holds the frame's half-size U and V planes; `offset` is where `grey`
    starts in the frame those planes cover."""
    w, h = PATCH
    target = f32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    # twice the size, then halved by area: a straight warp down to 0.35 mm per pixel would alias
    matrix = cv2.getPerspectiveTransform(card.corners, target * 2 + 0.5)
    y = cv2.warpPerspective(grey, matrix, (2 * w, 2 * h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    y = cv2.resize(y, PATCH, interpolation=cv2.INTER_AREA)
    if chroma is None:
        return y, None
    half = (card.corners + f32(offset)) / 2
    cw, ch = w // CHROMA_SCALE, h // CHROMA_SCALE
    small = f32([[0, 0], [cw - 1, 0], [cw - 1, ch - 1], [0, ch - 1]])
    m = cv2.getPerspectiveTransform(half.astype(np.float32), small)
    uv = np.stack([cv2.warpPerspective(plane, m, (cw, ch), flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE)
                   for plane in chroma])
    return y, uv
