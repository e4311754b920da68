"""Cards read by their printed faces: a found card (`hw.camera.outline`) matched against the taught faces.

A face is taught as pictures of it, cut out upright (`Look`: Y at 0.35 mm per pixel, U and V at a quarter of
that). Reading one card:
1. both upright orientations of the cut-out are compared with every taught look at low resolution (cosine of
   band-passed grey and colour: glare and lamp brightness drop out) → the best few faces;
2. the best face A is checked against each runner-up B where the two differ: the squared differences of the
   card to A and to B, weighted by where A and B differ (|A − B|, smoothed). On faces that differ only in a
   small numeral or a corner index the weight is all on that numeral; on unrelated faces it spreads out.
   `(d_B − d_A) / (d_B + d_A)` is near 1 when the card is A, near 0 when it is neither, below 0 when B;
3. A is the answer only when it is similar enough at all (a card's back, a hand, a card not taught are not)
   and beats every runner-up by `MARGIN`; else nothing is read. A wrong card is far worse than none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from hw.camera.outline import CHROMA_SCALE, PATCH, Found, Shape, f32, find_cards, rectify

MIN_SIMILARITY = 0.45
"""The best look's cosine at low resolution, below which the card is nothing taught (set on french-paris and
our style `a`; a back, a hand, an untaught card stay well below it)."""
MARGIN = 0.3
"""How much nearer the best face must be than each runner-up where the two differ (`(d_B − d_A)/(d_B + d_A)`)."""
RUNNERS_UP = 4
SAME_LOOK = 2.0
"""The largest local squared difference (Gaussian σ 4 patch pixels, unit-contrast band) between two captures of
one card: 0.4–1.7 on the simulated camera; a card differing in one small numeral or pip mostly 4.9 and more, but
Alles klar?'s II and IV under glare below 3."""
COARSE = 4  # the first comparison at a quarter of the patch: 45 x 63
BAND_SIGMA = 12.0  # the grey's slow changes (glare, the lamp) removed: a Gaussian of this many patch pixels
CHROMA_WEIGHT = 1.5  # colour beside grey, per coarse pixel (ANNAOTTO's red and blue are one grey)
SHIFT = 4  # patch pixels a card may sit off its taught place after rectifying (its outline found ±1.5 mm)


def band(y: Any) -> Any:
    """Grey without its slow changes, unit contrast: what the print shows, not how it is lit."""
    y = cv2.GaussianBlur(y.astype(np.float32), (0, 0), 1.0)
    y -= cv2.GaussianBlur(y, (0, 0), BAND_SIGMA)
    y /= float(y.std()) + 1e-3
    return y


def coarse(y_band: Any, uv: Any) -> Any:
    """The low-resolution vector of a card (grey band and, with colour, U and V), unit length."""
    w, h = PATCH[0] // COARSE, PATCH[1] // COARSE
    parts = [cv2.resize(y_band, (w, h), interpolation=cv2.INTER_AREA).ravel()]
    if uv is not None:
        for plane in uv.astype(np.float32) - 128.0:
            parts.append(cv2.resize(plane, (w, h), interpolation=cv2.INTER_LINEAR).ravel() * (CHROMA_WEIGHT / 16))
    v = np.concatenate(parts)
    v -= v.mean()
    return v / (float(np.linalg.norm(v)) + 1e-6)


@dataclass
class Look:
    """One taught picture of a face, upright: grey (uint8, PATCH) and colour (2 planes a quarter of it, or None)."""

    face: str
    y: Any
    uv: Any = None
    band: Any = field(default=None, repr=False)
    vectors: dict[bool, Any] = field(default_factory=dict, repr=False)  # coloured? → coarse vector

    def __post_init__(self) -> None:
        self.band = band(self.y)

    def vector(self, colour: bool) -> Any:
        if colour not in self.vectors:
            self.vectors[colour] = coarse(self.band, self.uv if colour else None)
        return self.vectors[colour]


@dataclass(frozen=True, slots=True)
class Match:
    face: str | None  # None: no read
    similarity: float
    margin: float  # how much the best beat its closest runner-up (1.0 with no runner-up)
    runner_up: str | None = None
    upside_down: bool = False


class FaceBook:
    """Every taught look of a game's faces (all its taught decks at once), and the matching."""

    def __init__(self, looks: list[Look], shape: Shape | None = None):
        self.looks = list(looks)
        self.shape = shape or Shape()
        self._matrix: dict[bool, Any] = {}
        self._weights: dict[tuple[int, int], Any] = {}

    def __len__(self) -> int:
        return len(self.looks)

    def faces(self) -> set[str]:
        return {look.face for look in self.looks}

    def _coarse_matrix(self, colour: bool) -> Any:
        if colour not in self._matrix:
            self._matrix[colour] = np.stack([look.vector(colour) for look in self.looks])
        return self._matrix[colour]

    def match(self, y: Any, uv: Any) -> Match:
        """The face of a cut-out card (`rectify`), or Match(None, …) when it is no taught face for sure."""
        if not self.looks:
            return Match(None, 0.0, 0.0)
        colour = uv is not None and all(look.uv is not None for look in self.looks)
        y_bands = [band(y), band(np.ascontiguousarray(y[::-1, ::-1]))]
        uvs = [uv, None if uv is None else np.ascontiguousarray(uv[:, ::-1, ::-1])]
        vectors = np.stack([coarse(b, u if colour else None) for b, u in zip(y_bands, uvs, strict=True)])
        scores = self._coarse_matrix(colour) @ vectors.T  # looks x orientations
        best_per_face: dict[str, tuple[float, int, int]] = {}
        for index, look in enumerate(self.looks):
            turn = int(np.argmax(scores[index]))
            entry = (float(scores[index, turn]), index, turn)
            if entry > best_per_face.get(look.face, (-2.0, 0, 0)):
                best_per_face[look.face] = entry
        ranked = sorted(best_per_face.values(), reverse=True)[: 1 + RUNNERS_UP]
        similarity, best, turn = ranked[0]
        if similarity < MIN_SIMILARITY:
            return Match(None, similarity, 0.0, self.looks[best].face)
        # the coarse look ranks faces that share most of their print by noise: each of the best few is held
        # against each other where the two differ, and the one that beats every other is the answer
        worst: list[tuple[float, str | None]] = [(1.0, None)] * len(ranked)
        for i, (_, a, a_turn) in enumerate(ranked):
            for j in range(i + 1, len(ranked)):
                _, b, b_turn = ranked[j]
                b_band = self.looks[b].band if b_turn == a_turn else self.looks[b].band[::-1, ::-1]
                score = self._discriminate(y_bands[a_turn], a, b, b_band, b_turn != a_turn)
                worst[i] = min(worst[i], (score, self.looks[b].face))
                worst[j] = min(worst[j], (-score, self.looks[a].face))
        winner = max(range(len(ranked)), key=lambda k: worst[k][0])
        margin, rival = worst[winner]
        _, best, turn = ranked[winner]
        face = self.looks[best].face
        return Match(face if margin >= MARGIN else None, float(scores[best, turn]), margin, rival, turn == 1)

    def same_as(self, y: Any, uv: Any) -> str | None:
        """The taught face this card is a picture of, nowhere differing by more than the noise of one capture and
        the next (teaching's wrong-card check: with few faces taught, "the best of those known" says nothing)."""
        colour = uv is not None and all(look.uv is not None for look in self.looks)
        bands = [band(y), band(np.ascontiguousarray(y[::-1, ::-1]))]
        uvs = [uv, None if uv is None else np.ascontiguousarray(uv[:, ::-1, ::-1])]
        vectors = np.stack([coarse(b, u if colour else None) for b, u in zip(bands, uvs, strict=True)])
        if not self.looks:
            return None
        scores = self._coarse_matrix(colour) @ vectors.T
        for index in np.argsort(-scores.max(axis=1))[:8]:
            turn = int(np.argmax(scores[index]))
            if scores[index, turn] < 0.8:
                break
            local = cv2.GaussianBlur((bands[turn] - self.looks[index].band) ** 2, (0, 0), 4.0)
            if float(local.max()) < SAME_LOOK:
                face: str = self.looks[index].face
                return face
        return None

    def _discriminate(self, observed: Any, best: int, other: int, other_band: Any, turned: bool) -> float:
        """(d_B − d_A)/(d_B + d_A): the card's squared difference to A and to B where A and B differ, the card
        placed onto each as well as it fits (a taught picture sits a pixel or two off another)."""
        a = self.looks[best].band
        key = (best, other if not turned else -1 - other)
        weight = self._weights.get(key)
        if weight is None:
            weight = cv2.GaussianBlur(np.abs(a - _aligned(other_band, a)), (0, 0), 3.0)
            weight = weight / (float(weight.sum()) + 1e-6)
            if len(self._weights) < 20_000:
                self._weights[key] = weight
        d_a = float((weight * (_aligned(observed, a) - a) ** 2).sum())
        b_on_a = _aligned(other_band, a)
        d_b = float((weight * (_aligned(observed, b_on_a) - b_on_a) ** 2).sum())
        return (d_b - d_a) / (d_b + d_a + 1e-9)


def _aligned(observed: Any, template: Any) -> Any:
    """The observed card shifted onto the template when phase correlation is sure of a shift of at most SHIFT
    pixels (a print a little off on its card); else as it is: the outline already placed it to a pixel."""
    (dx, dy), response = cv2.phaseCorrelate(template.astype(np.float64), observed.astype(np.float64))
    if response < 0.3 or abs(dx) > SHIFT or abs(dy) > SHIFT or (abs(dx) < 0.25 and abs(dy) < 0.25):
        return observed
    m = f32([[1, 0, -dx], [0, 1, -dy]])
    return cv2.warpAffine(observed, m, (observed.shape[1], observed.shape[0]), borderMode=cv2.BORDER_REPLICATE)


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
    for card in find_cards(grey, book.shape):
        y, uv = rectify(grey, chroma, card, offset)
        match = book.match(y, uv)
        if match.face is not None:
            seen.append(FaceSeen(match.face, card.x + offset[0], card.y + offset[1], card.angle, card))
    return seen


def chroma_size(patch: tuple[int, int] = PATCH) -> tuple[int, int]:
    return patch[0] // CHROMA_SCALE, patch[1] // CHROMA_SCALE
