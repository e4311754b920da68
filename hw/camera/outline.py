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
    thin = cv2.Canny(small, 20, 60)
    edges = cv2.dilate(thin, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
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
        _keep(found, _refined(grey, _found(contour, rect), shape), shape)
    for guess in _from_lines(thin, shape):
        if all(np.hypot(guess.x - f.x, guess.y - f.y) > 0.25 * f.short_px for f in found):
            _keep(found, _refined(grey, guess, shape), shape)
    return _one_per_card(found, shape)


def _keep(found: list[Found], card: Found | None, shape: Shape) -> None:
    if card is not None and shape.fits(card.long_px, card.short_px):
        found.append(card)


def _from_lines(edges: Any, shape: Shape) -> list[Found]:
    """Rough outlines from straight edges (OpenCV's probabilistic Hough transform on the half-size edges): two
    parallel segments a card's width (or length) apart, the card's middle halfway between them and along them
    where they overlap. A white card on white cards, whose edges meet theirs and its own print's in one edge
    map, has no closed loop of its own, but its sides are straight. Only while the cards' size is known."""
    if not shape.long_px:
        return []
    long_half, short_half = shape.long_px / 2, shape.long_px * shape.aspect / 2  # half-size pixels
    segments = cv2.HoughLinesP(edges, 1, np.pi / 360, HOUGH_VOTES, minLineLength=0.4 * short_half, maxLineGap=4)
    if segments is None:
        return []
    s = segments.reshape(-1, 4).astype(np.float32)[:MAX_SEGMENTS]
    p, q = s[:, :2], s[:, 2:]
    u = (q - p) / (np.linalg.norm(q - p, axis=1)[:, None] + 1e-6)
    u[u[:, 0] < 0] *= -1  # one direction per line: the angle in (-90°, 90°]
    angle = np.degrees(np.arctan2(u[:, 1], u[:, 0]))
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    turn = np.abs((angle[:, None] - angle[None, :] + 90) % 180 - 90)
    apart = np.abs(((p[:, None, :] - p[None, :, :]) * n[:, None, :]).sum(axis=2))
    guesses = []
    for width, length in ((short_half, long_half), (long_half, short_half)):
        ii, jj = np.nonzero((turn < 2.0) & (np.abs(apart - width) < 0.08 * width))
        for i, j in zip(ii, jj, strict=True):
            if i < j:
                guesses.append(_guess(p[[i, j]], q[[i, j]], u[i], n[i], width, length))
    return [g for g in guesses if g is not None][:MAX_GUESSES]


HOUGH_VOTES = 40  # half-size edge pixels on a line
MAX_SEGMENTS = 300
MAX_GUESSES = 12


def _guess(p: Any, q: Any, u: Any, n: Any, width: float, length: float) -> Found | None:
    """A card of `width` x `length` (half-size pixels) between two parallel segments (their ends p, q)."""
    t0 = max(min(p[0] @ u, q[0] @ u), min(p[1] @ u, q[1] @ u))
    t1 = min(max(p[0] @ u, q[0] @ u), max(p[1] @ u, q[1] @ u))
    if t1 - t0 < 0.3 * length:  # the two hardly overlap: not two sides of one card
        return None
    along = np.concatenate([p @ u, q @ u])
    side = np.concatenate([p @ n, q @ n])
    centre = float(along.min() + along.max()) / 2 * u + float(side.min() + side.max()) / 2 * n
    a, b = u * length / 2, n * width / 2
    corners = f32([centre - a - b, centre - a + b, centre + a + b, centre + a - b])
    return _ordered((corners + 0.5) * 2 - 0.5)  # half size → full size


def _found(contour: Any, rect: Any) -> Found:
    """The card's four corners: where lines through the contour's sides meet (the contour's own polygon where it
    has four corners, else its minimum-area rectangle, whose sides a card out of plane, a trapezoid, does not
    follow)."""
    peri = cv2.arcLength(contour, True)
    approx = cv2.approxPolyDP(contour, 0.02 * peri, True)
    quad = approx if len(approx) == 4 and cv2.isContourConvex(approx) else cv2.boxPoints(rect)
    corners = _straightened(contour.reshape(-1, 2).astype(np.float32), quad.reshape(-1, 2).astype(np.float32))
    return _ordered((corners.astype(np.float32) + 0.5) * 2 - 0.5)  # half size → full size


def _ordered(corners: Any) -> Found:
    """A card from its four corners (full size), ordered clockwise from a short side."""
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


def _straightened(points: Any, corners: Any) -> Any:
    """A quadrilateral's corners where lines fitted through the contour's points along each side meet (twice: the
    points within ROUGH_BAND of the polygon's side, then within 2 pixels of the first line). The polygon's own
    sides cut across the contour, and its corners lie a few pixels off on a rounded card corner."""
    lines = []
    for i in range(4):
        line = (corners[i], corners[(i + 1) % 4] - corners[i])
        for band in (ROUGH_BAND, 2.0):
            a, along = line
            length = float(np.linalg.norm(along)) + 1e-6
            t = (points - a) @ along / length ** 2
            off = np.abs((points - a) @ f32([-along[1], along[0]])) / length
            near = points[(t > 0.15) & (t < 0.85) & (off < band)]
            if len(near) < 8:
                return corners
            vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            v = f32([vx, vy]) * (1.0 if vx * along[0] + vy * along[1] >= 0 else -1.0)
            p = f32([x0, y0])
            line = (p + v * float(np.dot(a - p, v)), v * length)  # from a's foot, as long as the side
        lines.append(line)
    return f32([_meet(lines[i - 1], lines[i]) for i in range(4)])


ROUGH_BAND = 12.0  # half-size pixels either side of the polygon's side where the contour's points are taken


SAMPLES = 24  # points per side where the edge is looked for across it
REACH = 26  # pixels either side of the rough outline where the card's edge may lie (a printed frame 3 mm inside)
FINE_REACH = 4  # … and either side of where the whole side's edge was found
MIN_STEP = 8  # grey levels: a white card's edge on a white card below shows only as its thin shadow


def _refined(grey: Any, card: Found, shape: Shape) -> Found | None:
    """The card's outline: each side moved to the card's edge (`_move_sides`), then fitted through the edge's
    points to a fraction of a pixel (`_fit_sides`); None when a side shows no edge or opposite sides are not
    parallel (to PARALLEL degrees)."""
    moved = _move_sides(grey, card, shape)
    fitted = None if moved is None else _fit_sides(grey, moved)
    if fitted is None:
        return None
    c = fitted.corners
    angles = [np.degrees(np.arctan2(*(c[(i + 1) % 4] - c[i])[::-1])) for i in range(4)]
    for i in (0, 1):
        if abs((angles[i] - angles[i + 2]) % 360 - 180) > PARALLEL:
            return None
    return fitted


PARALLEL = 3.0  # degrees: a card a little out of plane turns its sides by about one


def _profiles(grey: Any, card: Found, i: int, reach: int) -> tuple[Any, Any, Any]:
    """Grey across side i at SAMPLES points, from `reach` pixels inside to `reach` outside: (profiles
    (SAMPLES, 2 reach + 1), the points on the side, its outward normal)."""
    corners = card.corners
    a, b = corners[i], corners[(i + 1) % 4]
    along = b - a
    normal = f32([-along[1], along[0]]) / (float(np.linalg.norm(along)) + 1e-6)
    if np.dot((a + b) / 2 - corners.mean(axis=0), normal) < 0:
        normal = -normal  # pointing out of the card
    t = np.linspace(0.15, 0.85, SAMPLES, dtype=np.float32)[:, None]
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)[None, :]
    points = a + t * along  # (SAMPLES, 2)
    xs = (points[:, 0:1] + offsets * normal[0]).astype(np.float32)
    ys = (points[:, 1:2] + offsets * normal[1]).astype(np.float32)
    profile = cv2.remap(grey, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    return profile, points, normal


def _peaks(step: Any) -> Any:
    """Where a step (inside minus outside) is a local maximum of at least MIN_STEP."""
    peak = step >= MIN_STEP
    peak[..., 1:-1] &= (step[..., 1:-1] >= step[..., :-2]) & (step[..., 1:-1] >= step[..., 2:])
    return peak


def _move_sides(grey: Any, card: Found, shape: Shape) -> Found | None:
    """Each side moved, as a whole, to the grey step where the card's edge is: the whole side's profiles
    (their median) show a card's faint edge on a white card below that single profiles lose in noise. Of the
    steps on two opposite sides (each at least WEAK of that side's strongest), the two nearest a card's known size
    apart, rather inside than outside it, whose whole length shows an edge (`_support`: not a printed frame well
    inside the edge, nor a lower card's edge just outside it, nor a frame on one side and a lower card on the
    other); while the size is not known (the first card taught, alone on the mat), the outermost strong step of
    each side that runs its whole length."""
    centre = card.corners.mean(axis=0)
    sides = []  # per side: (step positions from the centre, their strengths, points, normal, the side's distance)
    for i in range(4):
        profile, points, normal = _profiles(grey, card, i, REACH)
        median = np.median(profile, axis=0)
        step = median[:-2] - median[2:]
        peaks = np.flatnonzero(_peaks(step))
        if not peaks.size:
            return None
        peaks = peaks[step[peaks] >= WEAK * step[peaks].max()]
        distance = float(np.dot(points.mean(axis=0) - centre, normal))
        sides.append((peaks + 1 - REACH + distance, step[peaks], points, normal, distance))
    chosen = [0.0] * 4
    for a, b, size in ((0, 2, shape.long_px), (1, 3, shape.long_px * shape.aspect)):
        pair = _pair_of_edges(grey, sides[a], sides[b], size)
        if pair is None:
            return None
        chosen[a], chosen[b] = pair
    lines = []
    for i, (_, _, points, normal, distance) in enumerate(sides):
        lines.append((points[0] + (chosen[i] - distance) * normal, points[-1] - points[0]))
    return _with_corners(card, f32([_meet(lines[i - 1], lines[i]) for i in range(4)]))


def _pair_of_edges(grey: Any, first: tuple[Any, ...], second: tuple[Any, ...], size: float
                   ) -> tuple[float, float] | None:
    """Where two opposite sides lie (distances from the rough centre): see `_move_sides`."""
    (wa, _, pa, na, da), (wb, _, pb, nb, db) = first, second
    if not size:  # the outermost strong step whose whole length shows: a card alone on the mat, taught
        return _outermost(grey, first), _outermost(grey, second)
    total = wa[:, None] + wb[None, :]
    off = np.abs(total - size) + OUTER * np.maximum(total - size, 0)
    for flat in np.argsort(off, axis=None)[:CHOICES]:
        ka, kb = np.unravel_index(flat, off.shape)
        if off[ka, kb] > SIZE_PX + SIZE_SHARE * size:
            break  # no two edges a card apart
        if _support(grey, pa, na, wa[ka] - da) and _support(grey, pb, nb, wb[kb] - db):
            return float(wa[ka]), float(wb[kb])
    return None


def _outermost(grey: Any, side: tuple[Any, ...]) -> float:
    where, strength, points, normal, distance = side
    for k in np.argsort(-where):
        if strength[k] >= STRONG * strength.max() and _support(grey, points, normal, float(where[k] - distance)):
            return float(where[k])
    return float(where[np.argmax(strength)])


def _support(grey: Any, points: Any, normal: Any, offset: float) -> bool:
    """Whether a step runs along the side moved by `offset`, within two pixels in most of its SEGMENTS (each
    segment's median profile: a faint edge shows there): a card's straight edge does; a lower card's edge crossing
    the line, or a corner of the print, shows in one or two."""
    moved = points + offset * normal
    across = np.arange(-3, 4, dtype=np.float32)[None, :]
    xs = (moved[:, 0:1] + across * normal[0]).astype(np.float32)
    ys = (moved[:, 1:2] + across * normal[1]).astype(np.float32)
    profile = cv2.remap(grey, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    median = np.median(profile.reshape(SEGMENTS, -1, profile.shape[1]), axis=1)
    step = median[:, :-2] - median[:, 2:]  # steps at -2 … +2
    shown = _peaks(step * 2).any(axis=1)  # (a segment's median: half the step a side's median needs)
    return int(shown.sum()) >= SEGMENTS - 1


SIZE_PX = 6  # pixels two opposite edges may lie off a card's known size, and …
SIZE_SHARE = 0.03  # … this share of it (a card a little out of plane looks narrower at its far end)
OUTER = 0.5  # a pixel too far apart counts this much more than a pixel too close (a lower card's edge outside)
WEAK = 0.15  # a step weaker than this share of the side's strongest is print or shadow, not the card's edge
CHOICES = 6  # pairs of steps tried, nearest the size first
STRONG = 0.3  # of a side's strongest step: a card's edge on the mat, while its size is not known yet
SEGMENTS = 4  # parts of a side, all but one of which must show its edge


def _with_corners(card: Found, corners: Any) -> Found:
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    return replace(card, corners=corners, x=float(corners[:, 0].mean()), y=float(corners[:, 1].mean()),
                   long_px=float((sides[1] + sides[3]) / 2), short_px=float((sides[0] + sides[2]) / 2))


def _fit_sides(grey: Any, card: Found) -> Found | None:
    """The outline to a fraction of a pixel: on each side, the grey step nearest it at SAMPLES points (within
    FINE_REACH, then within a pixel of the first fit), a straight line fitted through them (Huber: a glare, a
    finger, a corner of the print stay out), the corners where the lines meet. The rough outline is a pixel or two
    off, enough to blur the difference between two numerals; the fitted one puts every taught and read card in
    the same place."""
    start = card.corners
    for reach in (FINE_REACH, 2):
        lines = []
        for i in range(4):
            line = _edge_line(grey, card, i, reach)
            if line is None:
                return None
            lines.append(line)
        card = _with_corners(card, f32([_meet(lines[i - 1], lines[i]) for i in range(4)]))
    if np.abs(card.corners - start).max() > 3 * FINE_REACH:
        return None
    return card


def _edge_line(grey: Any, card: Found, i: int, reach: int) -> tuple[Any, Any] | None:
    """The line through side i's edge points (see `_fit_sides`), or None when too few profiles show an edge."""
    profile, points, normal = _profiles(grey, card, i, reach)
    step = profile[:, :-2] - profile[:, 2:]  # inside minus outside, centred differences
    distance = np.where(_peaks(step), np.abs(np.arange(step.shape[1]) + 1 - reach)[None, :], 10_000)
    k = np.clip(np.argmin(distance, axis=1), 1, step.shape[1] - 2)
    rows = np.arange(SAMPLES)
    left, mid, right = step[rows, k - 1], step[rows, k], step[rows, k + 1]
    curve = left - 2 * mid + right
    sub = k + np.clip(0.5 * (left - right) / np.where(curve < 0, curve, -1e-6), -0.5, 0.5)
    edge = points + ((sub + 1 - reach)[:, None]) * normal
    good = distance[rows, k] < 10_000  # a visible step; elsewhere (a glare, a finger) keep out of the fit
    if good.sum() < SAMPLES // 3:
        return None
    vx, vy, x0, y0 = cv2.fitLine(edge[good].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return f32([x0, y0]), f32([vx, vy])


def corner_shift(a: Any, b: Any) -> float:
    """How far two outlines' corners lie apart (pixels, the largest), whichever corner each starts at."""
    return float(min(np.abs(np.roll(b, k, axis=0) - a).max() for k in range(4)))


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
