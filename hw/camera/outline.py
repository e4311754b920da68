"""Cards found on the mat by their outline, and cut out upright: OpenCV's edges, contours, Hough lines and
perspective warp.

A card is a rectangle of a known size. Rough outlines come from a quarter-size copy of the picture (its edges:
Canny on grey and, with colour, on U and V): every closed edge loop whose minimum-area rectangle has a card's
proportions and size (a card alone, or on a pile where its whole edge shows), and every four straight lines
(OpenCV's Hough transform) two of which lie a card's width apart and two, across them, its length (a white card
on white cards, or one whose print runs to its edge, has no loop of its own, but its sides are straight). Each
rough outline is then measured on the full picture (`hw.camera.sides.refined`): a card whose four edges do not
show along most of their length (half under another card, under a hand) is not found: it is not read, never
misread. Outlines around one centre are one card. `rectify` warps a card to `PATCH` pixels, its long side
vertical, in one of its two upright orientations (the matcher tries both: `hw.camera.faces`).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from hw.camera.geometry import Found, Shape, f32, meet
from hw.camera.sides import REACH, Picture, refined

PATCH = (180, 252)
"""A rectified card, width x height: 63 x 88 mm at 0.35 mm per pixel (Alles klar?'s 5 mm numerals: 14 pixels)."""
CHROMA_SCALE = 4  # the patch's colour planes are a quarter of its size: a card's colours are broad areas
SMALL = 4  # rough outlines are looked for at a quarter of the picture's size
CANNY = (20, 60)  # grey levels, on the quarter-size grey
COLOUR_CANNY = (10, 30)  # U and V levels: a card's colour against the mat's
ROUGH_SIZE = 0.2  # a loop's rectangle may be this much off the cards' size (a printed frame, a rounded corner)
ROUGH_ASPECT = 0.12
MIN_FILLED = 0.85  # a loop's convex hull fills this much of its rectangle (not a lower card's L-shaped part)
LINE_PX = 3.0  # quarter-size pixels two lines may lie off a card's width or length apart
LINE_DEGREES = 2.0  # two lines this parallel are a card's opposite sides; this far off square, adjacent ones
MAX_ROUGH = 12  # rough outlines measured on the full picture, loops first
ROUGH_APART = 0.02  # of a card's width: rough outlines nearer than this are one
GOOD_FIT = 4.0  # a card whose edges fit this well (`Found.fit`) is not looked for again around it


def find_cards(grey: Any, shape: Shape | None = None, chroma: Any = None) -> list[Found]:
    """Every card with its whole outline in `grey` (a uint8 array), largest first. `chroma`: the picture's U and V
    planes at half size (None without colour): a card printed dark to its edge shows on a dark mat by its colour."""
    shape = shape or Shape()
    h, w = grey.shape
    small = cv2.resize(grey, (w // SMALL, h // SMALL), interpolation=cv2.INTER_AREA)
    edges = cv2.Canny(small, *CANNY)
    colour = chroma is not None and chroma.shape[1:] == (h // 2, w // 2)
    if colour:
        for plane in chroma:
            plane = cv2.resize(plane, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA)
            edges |= cv2.Canny(plane, *COLOUR_CANNY)
    rough = [(card, (REACH, REACH)) for card in _from_loops(edges, shape)] + _from_lines(edges, shape)
    picture = Picture(grey, chroma if colour else None)
    found: list[Found] = []
    tried = 0
    for guess, reach in rough:  # a guess at a card found already is not measured again; one a little off is,
        # unless the card there fits its size well (a lower card lying almost as the top one: edges of both may
        # make a card of about the size)
        if tried < MAX_ROUGH and all(_apart(guess, card, ROUGH_APART) and (_apart(guess, card) or card.fit > GOOD_FIT
                                                                             or not shape.long_px) for card in found):
            tried += 1
            card = refined(picture, guess, shape, reach)
            if card is not None:
                found.append(card)
    return _one_per_card(found, shape)


def _apart(one: Found, other: Found, share: float = 0.1) -> bool:
    """Whether two outlines are two cards (or a card and a frame printed on it): their centres `share` of a card
    apart, or their sizes, or turned 5° or more."""
    turn = abs(one.angle - other.angle) % 180
    return bool(np.hypot(one.x - other.x, one.y - other.y) > share * min(one.short_px, other.short_px)
                or abs(one.long_px / other.long_px - 1) > share or min(turn, 180 - turn) > 5)


def _full(corners: Any) -> Any:
    """Quarter-size pixel coordinates → the picture's."""
    return (f32(corners) + 0.5) * SMALL - 0.5


def _from_loops(edges: Any, shape: Shape) -> list[Found]:
    """Rough outlines from closed edge loops (see the module's docstring), their edges joined by one dilation."""
    contours, _ = cv2.findContours(cv2.dilate(edges, np.ones((3, 3), np.uint8)), cv2.RETR_LIST,
                                   cv2.CHAIN_APPROX_SIMPLE)
    found: list[Found] = []
    for contour in contours:
        if len(contour) < 4:
            continue
        _, (a, b), _ = rect = cv2.minAreaRect(contour)
        long_side, short_side = max(a, b) * SMALL, min(a, b) * SMALL
        if not long_side or not any(_roughly(size, long_side, short_side) for size in shape.each()):
            continue
        if cv2.contourArea(cv2.convexHull(contour)) < MIN_FILLED * a * b:
            continue
        card = _ordered(_full(cv2.boxPoints(rect)))
        if all(_apart(card, other, ROUGH_APART) for other in found):
            found.append(card)
    return found


MIN_LONG = 120  # pixels: a card smaller than this in the frame carries too little to read


def _roughly(shape: Shape, long_side: float, short_side: float) -> bool:
    """Whether a loop's rectangle may be a card of this shape (its printed frame too)."""
    if abs(short_side / long_side - (shape.aspect if shape.long_px else 0.68)) > ROUGH_ASPECT:
        return False
    return abs(long_side / shape.long_px - 1) <= ROUGH_SIZE if shape.long_px else long_side >= MIN_LONG


def _from_lines(edges: Any, shape: Shape) -> list[tuple[Found, tuple[int, int]]]:
    """Rough outlines from straight segments (OpenCV's probabilistic Hough transform on the quarter-size edges),
    each with how far its sides may lie off: two parallel segments a card's width apart are its long sides, two a
    card's length apart its short sides; the card's middle is where the lines halfway between two such pairs
    cross (to a few pixels), else halfway along the one pair's segments (to a tenth of a card). Only while the
    cards' size is known."""
    if not shape.long_px:
        return []
    sizes = shape.each()
    segments = cv2.HoughLinesP(edges, 1, np.pi / 180, SEGMENT_VOTES, maxLineGap=SEGMENT_GAP,
                               minLineLength=SEGMENT_SHARE * min(s.long_px * s.aspect for s in sizes) / SMALL)
    if segments is None:
        return []
    s = segments.reshape(-1, 4).astype(np.float32)[:MAX_SEGMENTS]
    p, q = s[:, :2], s[:, 2:]
    u = (q - p) / (np.linalg.norm(q - p, axis=1)[:, None] + 1e-6)
    u[(u[:, 0] < 0) | ((u[:, 0] == 0) & (u[:, 1] < 0))] *= -1  # one direction per line
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    apart = np.abs(((p[:, None, :] - p[None, :, :]) * n[:, None, :]).sum(axis=2))
    parallel = (np.abs(u @ n.T) < np.sin(np.radians(LINE_DEGREES))) & np.triu(np.ones(apart.shape, bool), 1)
    found: list[tuple[Found, tuple[int, int]]] = []
    for size in sizes:
        width, length = size.long_px * size.aspect / SMALL, size.long_px / SMALL
        mids = [_middles(p, q, u, parallel & (np.abs(apart - gap) < LINE_PX)) for gap in (width, length)]
        found += _crossed(mids[0], mids[1], width, length)
    return found


def _middles(p: Any, q: Any, u: Any, paired: Any) -> list[tuple[Any, Any]]:
    """The lines halfway between pairs of segments (ends p, q, directions u): (the pair's middle, direction)."""
    found: list[tuple[Any, Any]] = []
    for i, j in zip(*np.nonzero(paired), strict=True):
        ends = np.concatenate([p[[i, j]], q[[i, j]]])
        along = (ends - ends.mean(axis=0)) @ u[i]
        middle = ends.mean(axis=0) + (along.max() + along.min()) / 2 * u[i]
        if all(np.abs(middle - other).max() > 2 for other, _ in found):
            found.append((middle, u[i]))
    return found[:MAX_PAIRS]


SEGMENT_VOTES = 20  # quarter-size edge pixels on a segment
SEGMENT_SHARE = 0.3  # of a card's width: the shortest segment looked at
SEGMENT_GAP = 3  # quarter-size pixels a segment may skip
MAX_SEGMENTS = 200
MAX_PAIRS = 24
GUESS_REACH = 0.15  # of a card's length: how far the sides across one pair of segments may lie off (a guess)


def _crossed(long_pairs: list[Any], short_pairs: list[Any], width: float, length: float
             ) -> list[tuple[Found, tuple[int, int]]]:
    """Cards from the mid-lines of pairs of long sides and of short sides (see `_from_lines`)."""
    found: list[tuple[Found, tuple[int, int]]] = []
    guess = round(GUESS_REACH * length * SMALL)
    crossed = set()
    for middle, u in long_pairs:
        crossing = []
        for k, (other, v) in enumerate(short_pairs):
            centre = meet((middle, u), (other, v))
            if abs(float(u @ v)) < 0.06 and np.abs(centre - middle).max() < length / 2:
                crossing.append(centre)
                crossed.add(k)
        for centre, reach in ([(c, (REACH, REACH)) for c in crossing] or [(middle, (guess, REACH))]):
            a, b = u * length / 2, f32([-u[1], u[0]]) * width / 2
            card = _ordered(_full(f32([centre - a - b, centre - a + b, centre + a + b, centre + a - b])))
            if all(_apart(card, other, ROUGH_APART) for other, _ in found):
                found.append((card, reach))
    for k, (middle, v) in enumerate(short_pairs):  # short sides whose long sides show no pair: guessed along them
        if k in crossed:
            continue
        u = f32([v[1], -v[0]])
        a, b = u * length / 2, v * width / 2
        card = _ordered(_full(f32([middle - a - b, middle - a + b, middle + a + b, middle + a - b])))
        if all(_apart(card, other, ROUGH_APART) for other, _ in found):
            found.append((card, (REACH, guess)))
    return found


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


def _one_per_card(found: list[Found], shape: Shape) -> list[Found]:
    """Outlines around one centre are one card: the one nearest the expected size (the largest if unknown)."""
    def preference(f: Found) -> float:
        if not shape.long_px:
            return -f.long_px
        return min(abs(f.long_px - s.long_px) + abs(f.short_px - s.long_px * s.aspect) for s in shape.each())

    kept: list[Found] = []
    for f in sorted(found, key=preference):
        if all(np.hypot(f.x - k.x, f.y - k.y) > 0.25 * k.short_px for k in kept):
            kept.append(f)
    return sorted(kept, key=lambda f: -f.long_px)


def chroma_of(chroma: Any, grey: Any, offset: tuple[int, int]) -> Any:
    """The half-size U and V planes under `grey` (a crop of the frame at `offset`), or None without colour."""
    if chroma is None:
        return None
    (h, w), (x, y) = grey.shape, offset
    planes = chroma[:, y // 2: y // 2 + h // 2, x // 2: x // 2 + w // 2]
    return planes if planes.shape[1:] == (h // 2, w // 2) else None


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
