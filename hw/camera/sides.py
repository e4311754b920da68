"""A card's sides measured where its edge is (`refined`): the straight edges along each side of a rough outline
(`hw.camera.outline`), the pair of opposite edges a card's size apart, then each edge fitted to a fraction of a
pixel.

An edge is a step across the side: grey inside minus grey outside (a light card on a dark mat, a card's thin
shadow on a white card below) or, where the colour changes more, that (a card printed dark to its edge, on a dark
mat). Along a side, the points where the profiles across it show such a step are gathered, and the straight lines
most of them lie on are that side's edges: the card's own edge, a printed frame inside it, a lower card's edge
outside it. Of those, the two on opposite sides nearest a card's known size apart (at the card's wider end), the
better shown and the stronger first, are the card's (a frame is a few millimetres too small, a lower card's edge
seldom lies parallel at just that distance); while the size is not known (the first card taught, alone on the mat),
each side's outermost strong edge. The edges chosen are then fitted to a fraction of a pixel and must lie on the
step they were fitted to.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

import cv2
import numpy as np

from hw.camera.geometry import Found, Shape, f32, meet, with_corners


class Picture(NamedTuple):
    """A picture cards are found in: grey (uint8) and its U and V planes at half size (None without colour)."""

    grey: Any
    chroma: Any = None


class Edge(NamedTuple):
    """A straight edge along one side of a rough outline: its offset from the side (pixels, outwards) at the side's
    middle and its change from one end of the samples to the other, the share of profiles showing it, the side's
    distance from the outline's centre (so `middle` is the edge's distance from that centre) and its strength."""

    offset: float
    slope: float
    support: float
    side: float
    strength: float = 0.0  # the median step where it shows, as a share of the side's strongest edge

    @property
    def middle(self) -> float:
        return self.side + self.offset


SAMPLES = 32  # profiles across each side
SPAN = (0.1, 0.9)  # … between these fractions of its length (a rounded corner and its neighbours stay out)
REACH = 20  # pixels either side of a rough side where the card's edge may lie
MIN_STEP = 8  # grey levels: a white card's edge on a white card below shows only as its thin shadow
COLOUR_STEP = 1.5  # a colour step (|ΔU| + |ΔV|) counts this many times a grey step
SLANT = 16  # pixels an edge may turn off its rough side over the samples' span (about 2° on a long side), …
SLANT_STEP = 2  # … in steps of this many (a step's error at the span's ends: a pixel, as a bin's tolerance)
NEAR_LINE = 1.5  # pixels a profile's step may lie off an edge and still show it
MIN_SUPPORT = 0.55  # share of a side's profiles that must show an edge: a glare, a finger, a stripe may hide the rest
WEAK_SUPPORT = 0.3  # … of one side only, this share: a lamp's glare on the mat as bright as the card beside it
EDGES = 6  # edges kept per side, best supported first
SIZE_PX = 4  # pixels two opposite edges may lie off a card's known size, and …
SIZE_SHARE = 0.02  # … this share of it (a card a little out of plane looks narrower at its far end)
SUPPORT_PX = 10.0  # a side's edge shown by all its profiles is worth this many pixels nearer the size, and …
STRENGTH_PX = 10.0  # … its strongest edge this many (a dark-rimmed card's rim beside its colour on the mat)
STRONG = 0.7  # of a side's strongest edge: the weakest that may be a card's edge while the size is not known
FINE_REACH = 2  # pixels either side of the chosen edge where the fit looks for it
PARALLEL = 3.0  # degrees: a card a little out of plane turns its sides by about one


def refined(picture: Picture, card: Found, shape: Shape, reach: tuple[int, int] = (REACH, REACH)) -> Found | None:
    """The card's outline from a rough one: each side's edges (`_edges`), the pair of opposite edges a card apart
    (`_pair`), fitted to a fraction of a pixel (`_fit`); None when a side shows no such edge, the sides are not
    parallel (to PARALLEL degrees), the card is not of the shape's size or a fitted side does not lie on its edge
    (`_shown`). `reach`: how far the short sides and the long sides of the rough outline may lie off."""
    centre = card.corners.mean(axis=0)
    edges = []
    for i in range(4):
        _, points, normal = _side(card, i)
        out = reach[i % 2]  # the short sides' reach, the long sides'
        step = _step(_across(picture, points, normal, np.arange(-out, out + 1, dtype=np.float32)))
        distance = float(np.dot(points.mean(axis=0) - centre, normal))
        edges.append([e._replace(side=distance) for e in _edges(step, out)])
        if not edges[-1]:
            return None
    paired = _pairs(edges, shape)
    if paired is None or sum(e.support < MIN_SUPPORT for e in paired[1]) > 1:  # one weakly shown side at most
        return None
    lines = [_line(card, i, edge) for i, edge in enumerate(paired[1])]
    fitted = _fit(picture, with_corners(card, f32([meet(lines[i - 1], lines[i]) for i in range(4)])))
    if fitted is None or not _parallel(fitted.corners) or (shape.long_px and not shape.fits(fitted.long_px,
                                                                                                fitted.short_px)):
        return None
    shown = [_shown(picture, fitted, i) for i in range(4)]
    return replace(fitted, fit=paired[0]) if min(shown) >= WEAK_SUPPORT and sorted(shown)[1] >= MIN_SUPPORT else None


def _shown(picture: Picture, card: Found, i: int) -> float:
    """The share of side i's profiles that step within a pixel of the fitted outline, at least twice MIN_STEP (a
    line fitted across a corner of the print, or turned off the edge, has few)."""
    _, points, normal = _side(card, i)
    step = _step(_across(picture, points, normal, np.arange(-4, 5, dtype=np.float32)))
    strongest = np.argmax(step, axis=1)
    good = (np.abs(strongest - 3) <= 1) & (step.max(axis=1) >= 2 * MIN_STEP)
    return float(good.mean())


def _side(card: Found, i: int) -> tuple[Any, Any, Any]:
    """Side i of a rough outline: (its ends, SAMPLES points along it within SPAN, its outward unit normal)."""
    corners = card.corners
    a, b = corners[i], corners[(i + 1) % 4]
    along = b - a
    normal = f32([-along[1], along[0]]) / (float(np.linalg.norm(along)) + 1e-6)
    if np.dot((a + b) / 2 - corners.mean(axis=0), normal) < 0:
        normal = -normal  # pointing out of the card
    t = np.linspace(SPAN[0], SPAN[1], SAMPLES, dtype=np.float32)[:, None]
    return (a, b), a + t * along, normal


def _across(picture: Picture, points: Any, normal: Any, offsets: Any) -> Any:
    """The picture sampled at `points` moved by each of `offsets` along `normal`: (points, offsets, channels)."""
    xs = (points[:, 0:1] + offsets[None, :] * normal[0]).astype(np.float32)
    ys = (points[:, 1:2] + offsets[None, :] * normal[1]).astype(np.float32)
    grey = cv2.remap(picture.grey, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if picture.chroma is None:
        return grey.astype(np.float32)[..., None]
    hx, hy = (xs + 0.5) / 2 - 0.5, (ys + 0.5) / 2 - 0.5  # the colour planes are half size
    planes = [cv2.remap(p, hx, hy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE) for p in picture.chroma]
    return np.stack([grey, *planes], axis=-1).astype(np.float32)


def _step(profile: Any) -> Any:
    """Centred differences along profiles (..., n, channels) → (..., n - 2): grey inside minus outside (a light
    card on a dark mat, a white card on its shadow on a white card below; not the shadow's outer rim), or where the
    colour changes more (COLOUR_STEP times |ΔU| + |ΔV|), that (a card printed dark to its edge, on a dark mat).
    A card with a dark rim shows its rim's inner side, whatever lies below."""
    grey = profile[..., :-2, 0] - profile[..., 2:, 0]
    if profile.shape[-1] == 1:
        return grey
    change = np.abs(profile[..., :-2, 1:] - profile[..., 2:, 1:]).sum(axis=-1)
    return np.maximum(grey, COLOUR_STEP * change)


def _peaks(step: Any) -> tuple[Any, Any]:
    """Where each profile's step is a local maximum of at least MIN_STEP: (profile index, offset to a fraction
    of a pixel, from the step's first sample)."""
    peak = step >= MIN_STEP
    peak[:, 0] = peak[:, -1] = False
    peak[:, 1:-1] &= (step[:, 1:-1] >= step[:, :-2]) & (step[:, 1:-1] > step[:, 2:])
    k, j = np.nonzero(peak)
    left, mid, right = step[k, j - 1], step[k, j], step[k, j + 1]
    curve = left - 2 * mid + right
    sub = np.clip(0.5 * (left - right) / np.where(curve < 0, curve, -1e-6), -0.5, 0.5)
    return k, j + sub


def _edges(step: Any, reach: int) -> list[Edge]:
    """The straight edges along a side (see the module's docstring): a small Hough transform over the profiles'
    steps (offset at the middle, slant), each edge then fitted through the steps near it."""
    k, j = _peaks(step)
    if not k.size:
        return []
    height = step[k, np.rint(j).astype(np.int64)]
    offset = j + 1 - reach  # outwards from the side
    t = k / (SAMPLES - 1) - 0.5
    slants = np.arange(-SLANT, SLANT + 1, SLANT_STEP, dtype=np.float32)
    at_middle = offset[None, :] - slants[:, None] * t[None, :]  # (slants, peaks)
    bins = np.rint(at_middle).astype(np.int64) + reach + SLANT + 1
    size = 2 * (reach + SLANT + 1) + 1
    shown = np.zeros((len(slants), size, SAMPLES), bool)
    shown[np.repeat(np.arange(len(slants)), len(k)), bins.ravel(), np.tile(k, len(slants))] = True
    shown[:, 1:-1] |= shown[:, :-2] | shown[:, 2:]  # a pixel either way
    votes = shown.sum(axis=2)
    best = votes.max(axis=0)
    found: list[tuple[int, int]] = []
    for b in np.argsort(-best)[: 4 * EDGES]:
        if best[b] < WEAK_SUPPORT * SAMPLES or any(abs(b - other) <= 2 for other, _ in found):
            continue
        found.append((int(b), int(np.argmax(votes[:, b]))))
        if len(found) == EDGES:
            break
    edges: list[Edge] = []
    for b, s in found:
        guess = (b - reach - SLANT - 1) + slants[s] * t
        near = np.abs(offset - guess) <= NEAR_LINE
        if near.sum() < 2:
            continue
        slope, middle = _line_fit(t[near], offset[near])
        on = near & (np.abs(offset - (middle + slope * t)) <= NEAR_LINE)
        support = len(set(k[on].tolist())) / SAMPLES
        twin = next((e for e in edges if abs(e.offset - middle) < 2 * NEAR_LINE), None)  # one edge, two slants
        if support >= WEAK_SUPPORT and (twin is None or twin.support < support):
            if twin is not None:
                edges.remove(twin)
            edges.append(Edge(float(middle), float(slope), support, 0.0, float(np.median(height[on]))))
    strongest = max((e.strength for e in edges), default=1.0)
    return [e._replace(strength=e.strength / strongest) for e in edges]


def _line_fit(t: Any, v: Any) -> tuple[float, float]:
    """Least squares v = middle + slope t: (slope, middle)."""
    tm, vm = float(t.mean()), float(v.mean())
    spread = float(((t - tm) ** 2).sum())
    slope = float(((t - tm) * (v - vm)).sum()) / spread if spread > 1e-9 else 0.0
    return slope, vm - slope * tm


def _pairs(edges: list[list[Edge]], shape: Shape) -> tuple[float, list[Edge]] | None:
    """Each side's edge (see `_pair`), for the deck size they fit best, and what choosing them costs."""
    best: tuple[float, list[Edge]] | None = None
    for size in shape.each():
        lengthwise = _pair(edges[0], edges[2], size.long_px)
        across = _pair(edges[1], edges[3], size.long_px * size.aspect)
        if lengthwise is not None and across is not None and (best is None or lengthwise[0] + across[0] < best[0]):
            best = (lengthwise[0] + across[0], [lengthwise[1], across[1], lengthwise[2], across[2]])
    return best


def _pair(first: list[Edge], second: list[Edge], size: float) -> tuple[float, Edge, Edge] | None:
    """The edges of two opposite sides and what choosing them costs: nearest `size` apart (within SIZE_PX and
    SIZE_SHARE), the better supported and the stronger the nearer; while the size is not known, each side's
    outermost strong edge."""
    if not size:
        one, other = _outermost(first), _outermost(second)
        return None if one is None or other is None else (0.0, one, other)
    best, chosen = np.inf, None
    for one in first:
        for other in second:
            off = abs(one.middle + other.middle + abs(one.slope - other.slope) * CORNER_T - size)
            cost = off + SUPPORT_PX * (2 - one.support - other.support) + STRENGTH_PX * (2 - one.strength
                                                                                      - other.strength)
            if off <= SIZE_PX + SIZE_SHARE * size and cost < best:
                best, chosen = cost, (one, other)
    return None if chosen is None else (best, *chosen)


CORNER_T = 0.5 / (SPAN[1] - SPAN[0])  # the corners on the samples' scale (-0.5 … 0.5 across SPAN): two opposite
# sides run opposite ways, so a turn moves their edges' offsets alike, a card narrower at one end oppositely


def _outermost(edges: list[Edge]) -> Edge | None:
    """A side's outermost strong edge shown along MIN_SUPPORT of it, else its best shown strong edge."""
    strong = [e for e in edges if e.strength >= STRONG]
    whole = [e for e in strong if e.support >= MIN_SUPPORT]
    if whole:
        return max(whole, key=lambda e: e.offset)
    return max(strong, key=lambda e: e.support, default=None)


def _line(card: Found, i: int, edge: Edge) -> tuple[Any, Any]:
    """An edge of side i as a line (a point on it, its direction)."""
    _, points, normal = _side(card, i)
    start = points[0] + (edge.offset - edge.slope / 2) * normal
    end = points[-1] + (edge.offset + edge.slope / 2) * normal
    return start, end - start


def _fit(picture: Picture, card: Found) -> Found | None:
    """The outline to a fraction of a pixel: on each side, the step at each profile nearest the edge chosen (within
    FINE_REACH), a straight line fitted through them (Huber: a glare, a finger, a corner of the print stay
    out), the corners where the lines meet. Three times, the last within a pixel of the one before."""
    for reach in (FINE_REACH, FINE_REACH, 1):
        lines = []
        for i in range(4):
            line = _edge_line(picture, card, i, reach)
            if line is None:
                return None
            lines.append(line)
        card = with_corners(card, f32([meet(lines[i - 1], lines[i]) for i in range(4)]))
    return card


def _edge_line(picture: Picture, card: Found, i: int, reach: int) -> tuple[Any, Any] | None:
    """The line through side i's edge points (see `_fit`): at each profile the step nearest the side; None when
    fewer than WEAK_SUPPORT of them show one."""
    _, points, normal = _side(card, i)
    step = _step(_across(picture, points, normal, np.arange(-reach - 2, reach + 3, dtype=np.float32)))
    k, j = _peaks(step)
    offset = j - reach - 1
    keep = np.abs(offset) <= reach
    k, offset = k[keep], offset[keep]
    nearest = np.full(SAMPLES, np.inf)
    np.minimum.at(nearest, k, np.abs(offset))
    mine = np.abs(offset) == nearest[k]
    k, offset = k[mine], offset[mine]
    if len(set(k.tolist())) < WEAK_SUPPORT * SAMPLES:
        return None
    edge = points[k] + offset[:, None] * normal
    vx, vy, x0, y0 = cv2.fitLine(edge.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return f32([x0, y0]), f32([vx, vy])


def _parallel(c: Any) -> bool:
    angles = [np.degrees(np.arctan2(*(c[(i + 1) % 4] - c[i])[::-1])) for i in range(4)]
    return all(abs((angles[i] - angles[i + 2]) % 360 - 180) <= PARALLEL for i in (0, 1))
