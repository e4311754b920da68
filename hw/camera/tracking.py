"""Which laying a face seen in a zone is: a card read by its face carries no copy number, so two copies of
one face (alcasan's several 7s, Profi-Sort's two packs) are told apart by where they lie.

A face seen where no card of that face was seen before in this zone (its centre more than `NEAR` of a card's
long side away, or its long axis more than `TURN` degrees off) is a new laying and gets a token of its own,
`FACE@N`; seen again where it lay, it is the same card (a hand passed, the next card half over it). The
tokens go to the zone's `ZoneMemory` exactly as label codes do, so the same rules count them ("2 frames in
a row, once per laying"). A zone that showed nothing for `forget_s` was cleared: its cards are forgotten.
Trade-off (docs/decisions.md FACE3): a copy laid within NEAR and TURN of its twin is not seen as new (the
camera cannot see it: nothing changed in the picture), and a card slid further than that counts again.

With labels on too, a label read inside a face's outline is that card's: the card counts once, under the
label's code when the label was read (its copy number), else under its face.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from hw.camera.decode import Seen
from hw.camera.faces import FaceSeen

NEAR = 0.2  # of a card's long side: 18 mm for a 88 mm card
TURN = 20.0  # degrees (a card's long axis, 0–180)
MAX_CARDS = 64  # cards remembered per zone (a pile shows a dozen at most)


@dataclass
class _Card:
    token: str
    face: str
    x: float
    y: float
    angle: float
    code: str  # what its CardScan carries: the label's code once one was read on it, else the face


class FaceTracker:
    """One zone's cards seen by face (see the module's docstring)."""

    def __init__(self, forget_s: float = 4.0):
        self.forget_ns = round(forget_s * 1e9)
        self.cards: list[_Card] = []
        self.last_ns: int | None = None
        self.count = 0

    def frame(self, faces: list[FaceSeen], labels: list[Seen], t_ns: int) -> tuple[list[str], dict[str, str]]:
        """The frame's tokens for `ZoneMemory` (faces' tokens and the labels not on a face) and token → code."""
        if self.last_ns is not None and t_ns - self.last_ns >= self.forget_ns:
            self.cards.clear()
        if faces or labels:
            self.last_ns = t_ns
        tokens, codes = [], {}
        free = list(labels)
        for seen in faces:
            card = self._card(seen)
            for label in list(free):
                if label.code.partition("#")[0] == seen.face and cv2.pointPolygonTest(
                        seen.card.corners.reshape(-1, 1, 2), (label.x, label.y), False) >= 0:
                    free.remove(label)
                    if card.code == card.face:
                        card.code = label.code
            tokens.append(card.token)
            codes[card.token] = card.code
        for label in free:
            tokens.append(label.code)
            codes[label.code] = label.code
        return tokens, codes

    def _card(self, seen: FaceSeen) -> _Card:
        near = NEAR * seen.card.long_px
        for card in self.cards:
            turn = abs(card.angle - seen.angle) % 180
            if card.face == seen.face and np.hypot(card.x - seen.x, card.y - seen.y) <= near and min(
                    turn, 180 - turn) <= TURN:
                card.x, card.y, card.angle = seen.x, seen.y, seen.angle
                return card
        self.count += 1
        card = _Card(f"{seen.face}@{self.count}", seen.face, seen.x, seen.y, seen.angle, seen.face)
        self.cards = [*self.cards[-(MAX_CARDS - 1):], card]
        return card

    def clear(self) -> None:
        self.cards.clear()
        self.last_ns = None
