"""Teaching a deck: staff lay each face in turn on the pile, the camera takes it when it lies still.

`Teacher` is fed the pile zone's frames on the camera's decoding thread (`CameraReader.teacher`) and keeps
what the teaching screen shows: the face asked for, how far along, the last card taken and what went wrong.
A card is taken when its outline stood still (to `STILL_PX`) in two frames in a row and it is not the card
taken last (the same place: staff have not laid the next one yet); the two frames' cut-outs are averaged.
Before it is kept it is read against every face taught so far (this deck's and the game's other decks'):
when it looks like another face than the one asked for, it is held back and the screen names the face it
looks like — the card laid is the wrong one, or that face was taught with the wrong card (retake it), or the
two are different cards that the camera sees alike (a deck may print two faces nearly the same): staff then
confirm that the card laid is the one asked for (`take_anyway`), and it is taught. Nothing ever stalls.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from hw.camera.faces import FaceBook, Look
from hw.camera.outline import Shape, corner_shift, find_cards, rectify
from hw.camera.taught import TaughtDeck

STILL_PX = 2.0  # corners moved less than this between two frames: the card lies still
SAME_PX = 6.0  # the card taken last still lies there: not the next one


@dataclass(frozen=True)
class TeachState:
    face: str | None  # the face to lay now; None: every face taught
    index: int  # of the faces, how many are taught
    total: int
    last: str | None  # the face taken last
    last_picture: Any  # its cut-out (uint8 grey), for the screen
    wrong: str | None  # the face the card just laid looks like, when it is not the one asked for
    seen: bool  # a card lies in the zone now
    held: bool = False  # that card is held back: `take_anyway` teaches it as the face asked for


class Teacher:
    """One deck being taught (see the module's docstring); thread-safe."""

    def __init__(self, deck: TaughtDeck, faces: list[str], others: FaceBook | None = None):
        self.deck = deck
        self.faces = list(faces)
        self.others = others  # the game's other decks, taught before
        self.lock = threading.Lock()
        self.asking = self._first_untaught()
        self.extra: str | None = None  # a face asked again for another look (copies printed differently)
        self.last: str | None = None
        self.last_picture: Any = None
        self.last_corners: Any = None
        self.wrong: str | None = None
        self.held: tuple[Any, Any, Any] | None = None  # (y, uv, card) of the card refused as `wrong`
        self.previous: Any = None  # (corners, y, uv) of the frame before
        self.seen = False
        self._book = self._make_book()

    def _first_untaught(self) -> int:
        taught = self.deck.faces()
        return next((i for i, face in enumerate(self.faces) if face not in taught), len(self.faces))

    def _make_book(self) -> FaceBook:
        looks = [Look(face, y, uv) for face, y, uv in self.deck.pictures()]
        if self.others is not None:
            looks += self.others.looks
        return FaceBook(looks, Shape(*self.deck.shape) if self.deck.shape[0] else Shape())

    def state(self) -> TeachState:
        with self.lock:
            face = self.extra or (self.faces[self.asking] if self.asking < len(self.faces) else None)
            return TeachState(face, len(self.deck.faces() & set(self.faces)), len(self.faces), self.last,
                              self.last_picture, self.wrong, self.seen, self.held is not None)

    def retake(self) -> None:
        """Forget the look taken last and ask for its face again."""
        with self.lock:
            if self.last is not None and self.deck.drop_last(self.last):
                self.extra = None
                self.asking = self.faces.index(self.last) if self.last in self.faces else self._first_untaught()
                self.last, self.last_picture, self.wrong, self.held = None, None, None, None
                self._book = self._make_book()

    def another_look(self) -> None:
        """Ask for the face taken last once more: its copies are printed in more than one way."""
        with self.lock:
            if self.last is not None:
                self.extra, self.wrong, self.held = self.last, None, None

    def take_anyway(self) -> bool:
        """Staff confirm that the card held back as looking like another face (`TeachState.wrong`) is the face
        asked for: it is taught as that face. False when no card is held back."""
        with self.lock:
            if self.held is None:
                return False
            y, uv, card = self.held
            self._keep(y, uv, card)
            return True

    def ask(self, face: str) -> None:
        """Ask for `face` next, whether it is taught or not (`referee-kiosk camera teach`: a picture of it comes)."""
        with self.lock:
            self.extra, self.wrong, self.held = face, None, None

    def still(self, grey: Any, chroma: Any = None) -> None:
        """A still picture of one card (`referee-kiosk camera teach`): it lies still by definition, and it is a new
        card even where the picture before had its card (pictures of a folder are framed alike)."""
        self.previous, self.last_corners = None, None
        self.frame(grey, chroma)
        self.frame(grey, chroma)

    def frame(self, grey: Any, chroma: Any = None, offset: tuple[int, int] = (0, 0)) -> None:
        """One frame of the pile zone (on the camera's decoding thread)."""
        cards = find_cards(grey, self._book.shape)
        self.seen = bool(cards)
        if not cards:
            self.previous = None
            return
        card = cards[0]
        y, uv = rectify(grey, chroma, card, offset)
        previous, self.previous = self.previous, (card.corners, y, uv)
        if previous is None or corner_shift(previous[0], card.corners) > STILL_PX:
            return  # still moving
        if self.last_corners is not None and corner_shift(self.last_corners, card.corners) < SAME_PX:
            return  # the card taken last, still there
        y = ((previous[1].astype(np.float32) + y) / 2).astype(np.uint8)
        if uv is not None and previous[2] is not None:
            uv = ((previous[2].astype(np.float32) + uv) / 2).astype(np.uint8)
        self._take(y, uv, card)

    def _take(self, y: Any, uv: Any, card: Any) -> None:
        with self.lock:
            face = self.extra or (self.faces[self.asking] if self.asking < len(self.faces) else None)
            if face is None:
                return
            same = self._book.same_as(y, uv)
            if same is not None and same != face:
                self.wrong, self.held = same, (y, uv, card)
                self.last_corners = card.corners  # say it once, until another card is laid
                return
            self._keep(y, uv, card)

    def _keep(self, y: Any, uv: Any, card: Any) -> None:
        """Teach the card as the face asked for (the lock held)."""
        face = self.extra or (self.faces[self.asking] if self.asking < len(self.faces) else None)
        if face is None:
            return
        self.deck.add(face, y, uv, card.long_px, card.short_px / card.long_px)
        self.last, self.last_picture, self.last_corners = face, y, card.corners
        self.wrong, self.held, self.extra = None, None, None
        self.asking = self._first_untaught()
        self._book.add(Look(face, y, uv))
        self._book.shape = Shape(*self.deck.shape)
