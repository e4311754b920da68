"""Cards read by their printed faces: a found card (`hw.camera.outline`) matched against the taught faces.

A face is taught as pictures of it, cut out upright (`Look`: Y at 0.35 mm per pixel, U and V at a quarter of
that). Each picture is seen twice over: its `band` (grey without its slow changes, its contrast evened out: what
the print shows, not how it is lit) for the low-resolution comparison and the shift, and its `detail` (the grey's
fine structure, a difference of Gaussians: strokes, numerals, a corner index; a lamp's glare, a broad smooth
bump, hardly shows in it) for everything that decides. Reading one card:
1. the cut-out in both upright orientations is compared with every taught look at low resolution (cosine of
   band and colour) → the few faces it may be;
2. the card is shifted onto each by phase correlation (its outline places it to a pixel or two; a print sits a
   little off on its card), and each candidate A is held against each other B where the two differ: the squared
   differences of the card's detail (and colour) to A and to B, weighted by where A and B differ beyond a
   fraction of a pixel's shift. On faces that differ only in a small numeral or a corner index the weight is all
   on that numeral; `(d_B − d_A) / (d_B + d_A)` is near 1 when the card is A, near 0 when it is neither, below 0
   when B;
3. A is the answer only when the card looks like it everywhere (`_fits`: no part of the card's detail differs
   from A's more than a capture's noise and a lamp's glare do; a back, a hand, another card do), and it beats
   every other candidate and every taught face that looks like A by `MARGIN`; else nothing is read. A wrong
   card is far worse than none.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import cv2
import numpy as np

from hw.camera.geometry import Found, Shape, f32
from hw.camera.outline import CHROMA_SCALE, PATCH, chroma_of, find_cards, rectify

MIN_SIMILARITY = 0.45
"""The best look's cosine at low resolution, below which the card is nothing taught."""
MAX_MISFIT = 8.0
"""The most the card's detail may differ from the answer's anywhere (`_misfit`): two captures of one card differ by
up to about 3 (a sharp and a soft lens, a glare's rim); a different numeral, card or back by far more."""
MARGIN = 0.3
"""How much nearer the winner must be than each rival where the two differ (`(d_B − d_A)/(d_B + d_A)`)."""
SAME_LOOK = 1.5
"""Teaching's wrong-card check: a card is a taught face's when its detail differs from that look's nowhere by more
than this (`_misfit`; two captures of one card on the pile: mostly under 1; two faces that differ only in a tiny
numeral: from 1.8) …"""
SAME_COLOUR = 1.0
"""… nor its colour by more than this (`_colour_misfit`)."""
CANDIDATES = 6  # faces of the coarse look held against each other
CLOSE = 0.25  # … those within this much cosine of the best
NEIGHBOURS = 6  # taught faces that look most like the winner, always held against it
COARSE = 4  # the first comparison at a quarter of the patch: 45 x 63
BAND_SIGMA = 12.0  # the band: the grey's slow changes (glare, the lamp) removed, a Gaussian of this many patch pixels
PRE_SIGMA = 0.8  # a little blur first: a card read sharp and one taught through a soft lens look alike
CONTRAST_SIGMA = 10.0  # the print's contrast evened out over this many patch pixels (3.5 mm) …
FLOOR = 0.3  # … but not raised where there is little print (paper grain, sensor noise): this share of the mean
DETAIL_SIGMAS = (1.0, 3.0)  # the detail: a difference of Gaussians of these many patch pixels, …
STROKE_PERCENTILE = 99.5  # … at a quarter of its strongest strokes per unit (this percentile of its size): a
# numeral's stroke differs alike on a card printed sparsely and one printed all over
CHROMA_UNIT = 24.0  # U and V levels per unit, beside the unit-contrast grey
SLIGHT = 0.3  # of the detail's spread: two looks differing less than this somewhere (grain, a glare's rim) do not
COLOUR_TOLERANCE = 0.5  # units of U or V two looks of a face may differ by (a glare that saturates the paper)
CHROMA_WEIGHT = 1.5  # colour beside grey in the coarse look (ANNAOTTO's red and blue are one grey)
WEIGHT_SIGMA = 3.0  # where two faces differ, widened by this many patch pixels (a card a pixel off)
WEIGHT_FLOOR = 1e-3  # of the largest weight: pixels weighing less are left out of the sums
MISFIT_SIGMA = 2.0  # the card's difference from a look, averaged over this many patch pixels (a stroke's width)
SHIFT = 4.0  # patch pixels a card may sit off its taught place after its outline placed it
SHIFT_TOLERANCE = 1.0  # patch pixels a print may sit off where the outline and the phase correlation put it
PAIRS_KEPT = 400  # pair weights kept between frames (each a few kB to 700 kB, where the two differ)
BLANK = 1e-3  # grey levels (rms): a picture flatter than this shows no print

RIM = 3  # patch pixels (1 mm) along the cut-out's edge: the card's edge, its shadow, what lies beside it
CORNER = 12  # … and a rounded corner's radius (4 mm): the mat shows there


def _inside() -> Any:
    """1 on the card's own print, 0 on its rim and its rounded corners (float32, PATCH)."""
    w, h = PATCH
    mask = np.zeros((h, w), np.uint8)
    r = CORNER
    cv2.rectangle(mask, (RIM + r, RIM), (w - 1 - RIM - r, h - 1 - RIM), 1, -1)
    cv2.rectangle(mask, (RIM, RIM + r), (w - 1 - RIM, h - 1 - RIM - r), 1, -1)
    for cx, cy in ((RIM + r, RIM + r), (w - 1 - RIM - r, RIM + r), (RIM + r, h - 1 - RIM - r),
                   (w - 1 - RIM - r, h - 1 - RIM - r)):
        cv2.circle(mask, (cx, cy), r, 1, -1)
    return mask.astype(np.float32)


INSIDE = _inside()
INNER = cv2.erode(INSIDE, np.ones((13, 13), np.uint8))  # where a misfit counts: the print, not its cut-out edge
INSIDE_COLOUR = (cv2.resize(cv2.erode(INSIDE, np.ones((9, 9), np.uint8)), (PATCH[0] // CHROMA_SCALE,
                            PATCH[1] // CHROMA_SCALE), interpolation=cv2.INTER_AREA) > 0.99).astype(np.float32)


def _filled(y: Any) -> Any:
    """The grey as float, its rim and corners filled with the print's own edge (not the mat beside the card)."""
    f = y.astype(np.float32)
    ring = f[(INSIDE > 0) & (cv2.erode(INSIDE, np.ones((5, 5), np.uint8)) == 0)]
    return np.where(INSIDE > 0, f, float(np.median(ring)))


def band(y: Any) -> Any:
    """Grey without its slow changes, each part of it at unit contrast: what the print shows, not how it is lit.
    0 on the rim and in the corners (`INSIDE`), whatever lies there."""
    f = cv2.GaussianBlur(_filled(y), (0, 0), PRE_SIGMA)
    f -= _smooth(f, BAND_SIGMA)
    f *= INSIDE
    energy = _smooth(f * f, CONTRAST_SIGMA)
    rms = float(np.sqrt((f * f)[INSIDE > 0].mean()))
    if rms < BLANK:  # no print at all (a blank picture): nothing to compare, not 0 / 0
        return np.zeros_like(f)
    f = np.asarray(f / (np.sqrt(energy) + FLOOR * rms), np.float32)
    return f / (float(f[INSIDE > 0].std()) + 1e-3)


def detail(y: Any) -> Any:
    """The grey's fine structure (a difference of Gaussians), at unit spread over the print: strokes, numerals,
    a corner index. A lamp's glare, a broad smooth bump, and the lamp's brightness hardly show in it."""
    f = _filled(y)
    d = (cv2.GaussianBlur(f, (0, 0), DETAIL_SIGMAS[0]) - cv2.GaussianBlur(f, (0, 0), DETAIL_SIGMAS[1])) * INSIDE
    spread = float(np.percentile(np.abs(d[INSIDE > 0]), STROKE_PERCENTILE)) / 4
    return np.zeros_like(d) if spread < BLANK else np.asarray(d / spread, np.float32)


def _smooth(f: Any, sigma: float) -> Any:
    """A wide Gaussian blur, done at a quarter of the size (the same to a grey level, a tenth of the time)."""
    small = cv2.resize(f, (f.shape[1] // 4, f.shape[0] // 4), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / 4), (f.shape[1], f.shape[0]),
                      interpolation=cv2.INTER_LINEAR)


def colour_of(uv: Any) -> Any:
    """U and V as numbers around 0 in `CHROMA_UNIT`s, 0 near the rim (the frame's colour planes are a quarter of
    its size: a mat's green bleeds a few pixels into a card); None without colour."""
    return None if uv is None else (uv.astype(np.float32) - 128.0) / CHROMA_UNIT * INSIDE_COLOUR


def coarse(y_band: Any, uv_unit: Any) -> Any:
    """The low-resolution vector of a card (grey band and, with colour, U and V), unit length."""
    w, h = PATCH[0] // COARSE, PATCH[1] // COARSE
    parts = [cv2.resize(y_band, (w, h), interpolation=cv2.INTER_AREA).ravel()]
    if uv_unit is not None:
        for plane in uv_unit:
            parts.append(cv2.resize(plane, (w, h), interpolation=cv2.INTER_LINEAR).ravel() * CHROMA_WEIGHT)
    v = np.concatenate(parts)
    v -= v.mean()
    return v / (float(np.linalg.norm(v)) + 1e-6)


def cosines(looks: Any, cards: Any) -> Any:
    """looks (n, k) · cards (m, k) → (n, m), by numpy's own loops: BLAS threads for so small a product cost ten
    times its work (they spin on a busy machine)."""
    return np.einsum("ij,kj->ik", looks, cards)


def turned(a: Any) -> Any:
    """A picture (or a stack of planes) turned by 180°."""
    return None if a is None else np.ascontiguousarray(a[..., ::-1, ::-1])


@dataclass
class Look:
    """One taught picture of a face, upright: grey (uint8, PATCH) and colour (2 planes a quarter of it, or None)."""

    face: str
    y: Any
    uv: Any = None
    band: Any = field(default=None, repr=False)
    small_band: Any = field(default=None, repr=False)  # `halved(band)`: where the shift onto it is found
    detail: Any = field(default=None, repr=False)
    colour: Any = field(default=None, repr=False)  # `colour_of(uv)`
    vectors: dict[tuple[bool, int], Any] = field(default_factory=dict, repr=False)  # (coloured?, turn) → coarse
    _envelope: tuple[Any, Any] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.band = band(self.y)
        self.small_band = halved(self.band)
        self.detail = detail(self.y)
        self.colour = colour_of(self.uv)

    def envelope(self) -> tuple[Any, Any]:
        if self._envelope is None:
            self._envelope = envelope(self.detail)
        return self._envelope

    def vector(self, colour: bool, turn: int = 0) -> Any:
        key = (colour, turn)
        if key not in self.vectors:
            b = self.band if not turn else turned(self.band)
            c = (self.colour if not turn else turned(self.colour)) if colour else None
            self.vectors[key] = coarse(b, c)
        return self.vectors[key]


@dataclass(frozen=True, slots=True)
class Match:
    face: str | None  # None: no read
    similarity: float
    margin: float  # how much the best beat its closest rival (1.0 with no rival)
    runner_up: str | None = None
    upside_down: bool = False
    misfit: float = 0.0  # how far the card's detail differs from the answer's look at most (`_misfit`)


Hypothesis = tuple[int, int]  # (look index, turn: 1 when the card lies upside down against that look)


class _Pair(NamedTuple):
    """Where two looks A and B differ (B shifted onto A), as `FaceBook._versus` weighs a card: the detail's pixels
    that count (flat indices; the rest weigh next to nothing), their weights, A's and B's envelopes there, and the
    colour's weights and B's colour (None without colour)."""

    where: Any
    weight: Any
    mine: tuple[Any, Any]
    theirs: tuple[Any, Any]
    colour_weight: Any
    colour: Any


class _Seen:
    """One cut-out card, as `FaceBook.match` compares it: both orientations, and shifted onto looks."""

    def __init__(self, y: Any, uv: Any, colour: bool):
        b, c, d = band(y), colour_of(uv) if colour else None, detail(y)
        self.bands = [halved(b), halved(turned(b))]
        self.planes = [(d, c), (turned(d), turned(c))]
        self.vectors = np.stack([coarse(b, c), coarse(turned(b), turned(c))])
        self.on: dict[Hypothesis, tuple[Any, Any]] = {}


class FaceBook:
    """Every taught look of a game's faces (all its taught decks at once), and the matching."""

    def __init__(self, looks: list[Look], shape: Shape | None = None):
        self.looks = list(looks)
        self.shape = shape or Shape()
        self._matrix: dict[tuple[bool, int], Any] = {}
        self._pairs: OrderedDict[tuple[int, int, int], _Pair] = OrderedDict()
        self._neighbours: dict[tuple[bool, int], list[Hypothesis]] = {}

    def __len__(self) -> int:
        return len(self.looks)

    def add(self, look: Look) -> None:
        """One more look (teaching): what was worked out for the others stays."""
        self.looks.append(look)
        self._matrix.clear()
        self._neighbours.clear()

    def faces(self) -> set[str]:
        return {look.face for look in self.looks}

    def _coarse_matrix(self, colour: bool, turn: int = 0) -> Any:
        key = (colour, turn)
        if key not in self._matrix:
            self._matrix[key] = np.stack([look.vector(colour, turn) for look in self.looks])
        return self._matrix[key]

    def _colour(self, uv: Any) -> bool:
        return uv is not None and all(look.uv is not None for look in self.looks)

    def match(self, y: Any, uv: Any) -> Match:
        """The face of a cut-out card (`rectify`), or Match(None, …) when it is no taught face for sure."""
        if not self.looks:
            return Match(None, 0.0, 0.0)
        colour = self._colour(uv)
        seen = _Seen(y, uv, colour)
        scores = cosines(self._coarse_matrix(colour), seen.vectors)  # looks x orientations
        ranked = self._ranked(scores)
        similarity, best = ranked[0]
        if similarity < MIN_SIMILARITY:
            return Match(None, similarity, 0.0, self.looks[best[0]].face)
        candidates = [h for s, h in ranked[:CANDIDATES] if s >= similarity - CLOSE]
        leader = candidates[0]
        for other in candidates[1:]:  # the one that beats the others where they differ leads
            if self._versus(seen, leader, other) < 0:
                leader = other
        rivals = {self.looks[h[0]].face: h for h in [*candidates, *self._alike(leader, colour)]}
        rivals.pop(self.looks[leader[0]].face, None)
        margin, rival = 1.0, None
        for face, other in rivals.items():
            score = self._versus(seen, leader, other)
            if score < margin:
                margin, rival = score, face
        misfit = self._misfit(seen, leader)
        face = self.looks[leader[0]].face
        sure = margin >= MARGIN and misfit <= MAX_MISFIT
        return Match(face if sure else None, similarity, margin, rival, leader[1] == 1, misfit)

    def _ranked(self, scores: Any) -> list[tuple[float, Hypothesis]]:
        """Each face's best (look, turn) by the coarse look, best first."""
        best_per_face: dict[str, tuple[float, Hypothesis]] = {}
        turns = np.argmax(scores, axis=1)
        for index, look in enumerate(self.looks):
            entry = (float(scores[index, turns[index]]), (index, int(turns[index])))
            if entry > best_per_face.get(look.face, (-2.0, (0, 0))):
                best_per_face[look.face] = entry
        return sorted(best_per_face.values(), reverse=True)

    def _alike(self, leader: Hypothesis, colour: bool) -> list[Hypothesis]:
        """The taught looks most like the leader's (either way up): whatever the coarse look said, the answer
        must beat these where they differ."""
        index, turn = leader
        key = (colour, index)
        if key not in self._neighbours:
            mine = self.looks[index].vector(colour)
            near = []
            for t in (0, 1):
                cos = cosines(self._coarse_matrix(colour, t), mine[None])[:, 0]
                near += [(float(cos[j]), (j, t)) for j in range(len(self.looks))
                         if self.looks[j].face != self.looks[index].face]
            near.sort(reverse=True)
            seen_faces: set[str] = set()
            chosen: list[Hypothesis] = []
            for _, (j, t) in near:
                if self.looks[j].face not in seen_faces and len(chosen) < NEIGHBOURS:
                    seen_faces.add(self.looks[j].face)
                    chosen.append((j, t))
            self._neighbours[key] = chosen
        return [(j, t ^ turn) for j, t in self._neighbours[key]]

    def _on(self, seen: _Seen, hypothesis: Hypothesis) -> tuple[Any, Any]:
        """The card's detail and colour in the hypothesis' orientation, shifted onto its look (the shift found on
        the bands)."""
        if hypothesis not in seen.on:
            index, turn = hypothesis
            d, c = seen.planes[turn]
            seen.on[hypothesis] = shifted(d, c, seen.bands[turn], self.looks[index].small_band)
        return seen.on[hypothesis]

    def _misfit(self, seen: _Seen, hypothesis: Hypothesis) -> float:
        """How far the card's detail differs from the look's at most, beyond a fraction of a pixel's shift, averaged
        over a stroke's width (MISFIT_SIGMA): under 3 for two captures of one card, far more where a numeral, a
        figure or the whole card differs (grey only: a lamp's glare takes a card's colour, not its strokes)."""
        d, _ = self._on(seen, hypothesis)
        return misfit(d, self.looks[hypothesis[0]])

    def _versus(self, seen: _Seen, a: Hypothesis, b: Hypothesis) -> float:
        """(d_B − d_A)/(d_B + d_A): the card's squared difference to A and to B where A and B differ, each
        difference beyond what a fraction of a pixel's shift explains (`beyond`)."""
        pair = self._pair(a[0], b[0], a[1] ^ b[1])
        look = self.looks[a[0]]
        y, c = self._on(seen, a)
        there = y.ravel()[pair.where]
        d_a = float((pair.weight * beyond(there, *pair.mine) ** 2).sum())
        d_b = float((pair.weight * beyond(there, *pair.theirs) ** 2).sum())
        if pair.colour_weight is not None and c is not None:
            d_a += float((pair.colour_weight * (c - look.colour) ** 2).sum())
            d_b += float((pair.colour_weight * (c - pair.colour) ** 2).sum())
        return (d_b - d_a) / (d_b + d_a + 1e-9)

    def _pair(self, a: int, b: int, turn: int) -> _Pair:
        """Where looks a and b (b turned by `turn`) differ, b shifted onto a (see `_Pair`)."""
        key = (a, b, turn)
        found = self._pairs.get(key)
        if found is not None:
            self._pairs.move_to_end(key)
            return found
        first, second = self.looks[a], self.looks[b]
        other_y = second.detail if not turn else turned(second.detail)
        other_c = second.colour if not turn else turned(second.colour)
        other_y, other_c = shifted(other_y, other_c, second.small_band if not turn else turned(second.small_band),
                                   first.small_band)
        other_envelope = envelope(other_y)
        differ = sum(np.maximum(beyond(one, *two) - SLIGHT, 0) ** 2
                     for one, two in ((first.detail, other_envelope), (other_y, first.envelope())))
        weight_y = cv2.GaussianBlur(differ, (0, 0), WEIGHT_SIGMA).ravel()  # squared: a numeral outweighs a rim
        where = np.flatnonzero(weight_y > WEIGHT_FLOOR * weight_y.max())
        weight_c = None
        if first.colour is not None and other_c is not None:
            diff = (np.maximum(np.abs(first.colour - other_c) - COLOUR_TOLERANCE, 0) ** 2).sum(axis=0)
            weight_c = cv2.GaussianBlur(diff, (0, 0), WEIGHT_SIGMA / CHROMA_SCALE) * CHROMA_SCALE ** 2
        mine = first.envelope()
        found = _Pair(where, weight_y[where], (mine[0].ravel()[where], mine[1].ravel()[where]),
                      (other_envelope[0].ravel()[where], other_envelope[1].ravel()[where]), weight_c, other_c)
        self._pairs[key] = found
        if len(self._pairs) > PAIRS_KEPT:
            self._pairs.popitem(last=False)
        return found

    def same_as(self, y: Any, uv: Any) -> str | None:
        """The taught face this card is a picture of, nowhere differing by more than the noise of one capture and
        the next (`SAME_LOOK`; teaching's wrong-card check: with few faces taught, "the best of those known" says
        nothing)."""
        if not self.looks:
            return None
        colour = self._colour(uv)
        seen = _Seen(y, uv, colour)
        scores = cosines(self._coarse_matrix(colour), seen.vectors)
        for index in np.argsort(-scores.max(axis=1))[:8]:
            turn = int(np.argmax(scores[index]))
            if scores[index, turn] < 0.8:
                break
            hypothesis = (int(index), turn)
            if self._misfit(seen, hypothesis) < SAME_LOOK and self._colour_misfit(seen, hypothesis) < SAME_COLOUR:
                face: str = self.looks[index].face
                return face
        return None

    def _colour_misfit(self, seen: _Seen, hypothesis: Hypothesis) -> float:
        """How far the card's colour differs from the look's at most, beyond COLOUR_TOLERANCE (0 without colour):
        ANNAOTTO's red and pink waves are one grey."""
        _, c = self._on(seen, hypothesis)
        look = self.looks[hypothesis[0]]
        if c is None or look.colour is None:
            return 0.0
        gap = (np.maximum(np.abs(c - look.colour) - COLOUR_TOLERANCE, 0) ** 2).sum(axis=0)
        return float(cv2.GaussianBlur(gap, (0, 0), MISFIT_SIGMA / CHROMA_SCALE).max())


def envelope(y: Any) -> tuple[Any, Any]:
    """The highest and the lowest value each pixel may take when the picture is shifted by up to SHIFT_TOLERANCE
    pixels (to first order: the gradient's size times the shift)."""
    gx = cv2.Sobel(y, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(y, cv2.CV_32F, 0, 1, ksize=3) / 8
    reach = cv2.magnitude(gx, gy) * SHIFT_TOLERANCE
    return y + reach, y - reach


def beyond(y: Any, high: Any, low: Any) -> Any:
    """How far each pixel lies outside another picture's envelope (0 inside): a difference a small shift does
    not explain, so a card a little off its taught place differs only where its print does."""
    return np.maximum(np.maximum(y - high, low - y), 0)


def misfit(d: Any, look: Look) -> float:
    """See `FaceBook._misfit`: `d` is the card's detail on the look."""
    gap = beyond(d, *look.envelope())
    return float((cv2.GaussianBlur(gap * gap, (0, 0), MISFIT_SIGMA) * INNER).max())


def halved(b: Any) -> Any:
    """A band at half its size, as float64 (phase correlation's): a print's shift is found to a fifth of a pixel
    there, in a quarter of the time."""
    return cv2.resize(b, (b.shape[1] // 2, b.shape[0] // 2), interpolation=cv2.INTER_AREA).astype(np.float64)


def shifted(d: Any, uv: Any, b: Any, onto: Any) -> tuple[Any, Any]:
    """A card's detail (and colour) shifted as its half-size band `b` lies off a look's `onto` (`halved`), when
    phase correlation finds a shift of at most SHIFT pixels; else as it is."""
    (dx, dy), response = cv2.phaseCorrelate(onto, b)
    dx, dy = 2 * dx, 2 * dy
    if response < 0.2 or abs(dx) > SHIFT or abs(dy) > SHIFT or (abs(dx) < 0.1 and abs(dy) < 0.1):
        return d, uv
    m = f32([[1, 0, -dx], [0, 1, -dy]])
    d = cv2.warpAffine(d, m, (d.shape[1], d.shape[0]), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if uv is not None:
        mc = f32([[1, 0, -dx / CHROMA_SCALE], [0, 1, -dy / CHROMA_SCALE]])
        uv = np.stack([cv2.warpAffine(p, mc, (p.shape[1], p.shape[0]), flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE) for p in uv])
    return d, uv


@dataclass(frozen=True, slots=True)
class FaceSeen:
    """A card read by its face in a picture: its face, centre (pixels of that picture) and long axis angle."""

    face: str
    x: float
    y: float
    angle: float
    card: Found


def read_faces(book: FaceBook, grey: Any, chroma: Any = None, offset: tuple[int, int] = (0, 0)) -> list[FaceSeen]:
    """Every card in `grey` (uint8 array) whose face the book knows for sure; centres shifted by `offset`."""
    seen = []
    for card in find_cards(grey, book.shape, chroma_of(chroma, grey, offset)):
        y, uv = rectify(grey, chroma, card, offset)
        match = book.match(y, uv)
        if match.face is not None:
            seen.append(FaceSeen(match.face, card.x + offset[0], card.y + offset[1], card.angle, card))
    return seen


def chroma_size(patch: tuple[int, int] = PATCH) -> tuple[int, int]:
    return patch[0] // CHROMA_SCALE, patch[1] // CHROMA_SCALE
