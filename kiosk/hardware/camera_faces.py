"""The taught decks as the kiosk uses them: the game in play's decks handed to the camera reader, and teaching.

A deck is taught per game and stored in the data directory (`hw.camera.taught`: `DATA/faces/GAME/deck-N/`).
When a game's table screen shows, every deck of that game with all its faces taught goes to the reader
(`CameraReader.set_faces`; docs/decisions.md TEACH11), loaded on a thread of its own (reading and preparing a
deck's pictures takes a moment: the screen must not wait), unless `[camera] faces = false`. Labels are read
beside the faces unless `[camera] labels = false`.

Teaching (`TeachSession`): the reader hands the pile zone's frames to a `hw.camera.teach.Teacher` instead of
counting cards; the session keeps which deck of which game is taught and what staff can do about the card
just taken (retake it, teach another print of it, take a card held back as looking like another face, teach
that other face again). When it ends, the game in play's decks are loaded afresh.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hw.camera import taught  # decks on disk: no OpenCV needed to list them (pictures and matching need it)

if TYPE_CHECKING:
    from hw.camera.reader import CameraReader
    from hw.camera.taught import TaughtDeck
    from hw.camera.teach import Teacher, TeachState

logger = logging.getLogger(__name__)


@functools.cache
def faces_of(game: str) -> tuple[str, ...]:
    """Every face of a game's deck in the deck's own order (ANNAOTTO: every side), as its definition lists them;
    copies of a face are one face (they look the same)."""
    from referee.labels import game_deck

    _, deck = game_deck(game)
    return tuple(deck.faces())


def deck_number(name: str) -> str:
    """The number staff know a deck by ("deck-2" → "2")."""
    return name.rpartition("-")[2] or name


@dataclass(frozen=True)
class Loaded:
    """What the reader reads by face now: the game and, per deck read, its name and how many faces it knows; the
    game's decks not yet read because a face of theirs is not taught (name, faces taught)."""

    game: str | None = None
    decks: tuple[tuple[str, int], ...] = ()
    ready: bool = True  # False while the decks are being loaded
    partial: tuple[tuple[str, int], ...] = ()


class TeachSession:
    """One deck being taught through the admin screens (see the module's docstring)."""

    def __init__(self, faces: CameraFaces, game: str, deck: TaughtDeck):
        self.owner = faces
        self.game = game
        self.deck = deck
        self.teacher = self._teacher()

    def _teacher(self) -> Teacher:
        from hw.camera.teach import Teacher

        others = [d for d in self.owner.decks(self.game) if d.name != self.deck.name]
        book = taught.book(others) if others else None
        return Teacher(self.deck, list(faces_of(self.game)), book)

    def state(self) -> TeachState:
        return self.teacher.state()

    def retake(self) -> None:
        self.teacher.retake()

    def another_look(self) -> None:
        self.teacher.another_look()

    def take_anyway(self) -> bool:
        return bool(self.teacher.take_anyway())

    def teach_again(self, face: str) -> None:
        """Forget every look of `face` (it was taught with another card) and ask for it next."""
        self.owner.reader.teacher = None
        with self.teacher.lock:
            while self.deck.drop_last(face):
                pass
        self.teacher = self._teacher()
        self.owner.reader.teacher = self.teacher


class CameraFaces:
    """The kiosk's taught decks and the reader they go to (see the module's docstring)."""

    def __init__(self, reader: CameraReader, data_dir: Path, enabled: bool = True):
        self.reader = reader
        self.data_dir = Path(data_dir)
        self.enabled = enabled
        self.loaded = Loaded()
        self.session: TeachSession | None = None
        self._lock = threading.Lock()
        self._generation = 0

    @staticmethod
    def can_read_faces() -> bool:
        """OpenCV is there: faces can be taught and read (a kiosk without the `camera` extra reads labels only)."""
        return importlib.util.find_spec("cv2") is not None

    def decks(self, game: str) -> list[TaughtDeck]:
        """The game's taught decks (each checked as it is read: `hw.camera.taught.load_deck`); none without
        OpenCV."""
        if not self.can_read_faces():
            return []
        return taught.decks(self.data_dir, game, set(faces_of(game)))

    def follow(self, game: str) -> None:
        """A game's table screen shows: the reader gets that game's decks (when not already its)."""
        if game != self.loaded.game:
            self.reload(game)

    def reload(self, game: str | None = None) -> None:
        """Load the decks of `game` (default: the one in play) and hand them to the reader, on a thread."""
        game = game or self.loaded.game
        if game is None:
            return
        with self._lock:
            self._generation += 1
            generation = self._generation
            self.loaded = Loaded(game, self.loaded.decks if game == self.loaded.game else (), False)
        threading.Thread(target=self._load, args=(game, generation), name="camera-faces", daemon=True).start()

    def _load(self, game: str, generation: int) -> None:
        """Hand the game's complete decks to the reader: a card of a face not taught would be matched against the
        faces that are, and one differing from a taught face only in a small numeral could pass for it."""
        faces, partial = set(faces_of(game)), []
        try:
            taught_decks = self.decks(game) if self.enabled else []
            found = [deck for deck in taught_decks if faces <= deck.faces()]
            partial = [(deck.name, len(deck.faces() & faces)) for deck in taught_decks if not faces <= deck.faces()]
            book = taught.book(found) if found else None
        except Exception:  # a deck that cannot be read is no reason to stop the table: labels still read
            logger.exception("camera: the taught decks of %s could not be loaded", game)
            found, book = [], None
        with self._lock:
            if generation != self._generation:
                return  # another game's table screen came since
            if book is not None or self.reader.book is not None:
                self.reader.set_faces(book)
            self.loaded = Loaded(game, tuple((deck.name, len(deck.faces())) for deck in found), True, tuple(partial))
        logger.info("camera: reading %s by %s", game, ", ".join(f"{n} ({k} faces)" for n, k in self.loaded.decks)
                 or "labels only")

    # --- teaching

    def teach(self, game: str, deck_name: str | None) -> TeachSession | None:
        """Start teaching a deck of `game` (None: a new deck); None when the game already has every deck it may."""
        deck = next((d for d in self.decks(game) if d.name == deck_name), None) if deck_name else None
        if deck is None:
            if len(self.decks(game)) >= taught.MAX_DECKS:
                return None
            deck = taught.new_deck(self.data_dir, game)
        self.session = TeachSession(self, game, deck)
        self.reader.teacher = self.session.teacher
        return self.session

    def stop_teaching(self) -> None:
        """Teaching ends: the reader counts cards again, with the game's decks as they are now."""
        session, self.session = self.session, None
        self.reader.teacher = None
        if session is not None and session.game == self.loaded.game:
            self.reload()

    def report(self) -> dict[str, Any]:
        """For the control socket's state: what is read, and the teaching under way."""
        teaching = None
        if self.session is not None:
            state = self.session.state()
            teaching = {"game": self.session.game, "deck": self.session.deck.name, "face": state.face,
                        "taught": state.index, "of": state.total, "last": state.last, "wrong": state.wrong,
                        "held": state.held, "seen": state.seen}
        return {"labels": bool(self.reader.labels), "enabled": self.enabled, "game": self.loaded.game,
                "decks": [list(d) for d in self.loaded.decks], "ready": self.loaded.ready, "teaching": teaching}
