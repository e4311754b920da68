"""The face reader and teaching on still pictures (`referee-kiosk camera teach`, `camera read --faces`,
`camera restore`): for a deck photographed elsewhere, a frame saved on the Pi, a deck taught on another table.

A picture comes from outside: its file is read only when it is a plain file of at most `MAX_FILE` bytes, and
decoded only when its header says at most `MAX_PIXELS`. A colour picture is turned into the camera's own
YUV420 planes (grey, and colour at half size), so a still is read exactly as a frame of the Pi's camera is; a
grey picture has no colour. Stills must show the cards at the camera's scale (0.15 mm a pixel on the table,
as its frames do): the taught decks know a card's size in pixels.

Teaching a folder: one picture per face, named by the face's code (`AK_7.IV.png` or `AK:7.IV.png`; a copy
number `#2` is dropped), or, when no name is a code, taken in the deck's order (sorted by name). Every picture
is checked as the teaching screen checks a card: one that looks like a face already taught is refused and
named (`--anyway`: taught as its own face all the same).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hw.camera import taught
from hw.camera.taught import TaughtDeck
from kiosk.hardware.camera_faces import faces_of

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from hw.camera.faces import FaceBook

MAX_FILE = 50_000_000  # bytes: a 12-megapixel PNG is about 20 MB
MAX_PIXELS = 40_000_000  # a picture larger than this is no frame of the table's camera
MAX_PICTURES = 1_000  # pictures taken from one folder (ANNAOTTO has 81 faces)
PICTURE_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class StillError(ValueError):
    """A picture that cannot be read as a still of the table (missing, not a picture, too large)."""


def load_still(path: Path) -> tuple[NDArray[np.uint8], NDArray[np.uint8] | None]:
    """(grey uint8 array, YUV420 colour planes or None) of a picture file; StillError when it is not one."""
    import numpy as np
    from PIL import Image

    try:
        info = os.lstat(path)
    except OSError as error:
        raise StillError(error.strerror or str(error)) from None
    if not stat.S_ISREG(info.st_mode):
        raise StillError("not a plain file")
    if info.st_size > MAX_FILE:
        raise StillError(f"{info.st_size:,} bytes: larger than a still of the table ({MAX_FILE:,} at most)")
    try:
        with Image.open(path) as picture:
            if picture.width * picture.height > MAX_PIXELS:
                raise StillError(f"{picture.width} × {picture.height} pixels: larger than a frame of the camera")
            picture.load()
            grey_only = picture.mode in ("1", "L", "LA", "I", "I;16", "F")
            rgb = picture.convert("L" if grey_only else "RGB")
    except (OSError, SyntaxError, Image.DecompressionBombError) as error:  # not a picture, truncated, a bomb
        raise StillError(f"not a picture ({error})") from None
    w, h = rgb.width // 2 * 2, rgb.height // 2 * 2  # YUV420 halves both sides
    if w < 2 or h < 2:
        raise StillError("an empty picture")
    rgb = rgb.crop((0, 0, w, h))
    if grey_only:
        return np.asarray(rgb), None
    import cv2

    i420 = np.asarray(cv2.cvtColor(np.asarray(rgb), cv2.COLOR_RGB2YUV_I420), np.uint8)  # already uint8: no copy
    return np.ascontiguousarray(i420[:h]), i420[h:].reshape(2, h // 2, w // 2)


def pictures_in(folder: Path) -> list[Path]:
    """The picture files of a folder by name (plain files with a picture's extension), at most MAX_PICTURES."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as error:
        raise StillError(f"{folder}: {error.strerror or error}") from None
    found = [Path(e.path) for e in entries
             if e.name.lower().endswith(PICTURE_TYPES) and e.is_file(follow_symlinks=False)]
    if len(found) > MAX_PICTURES:
        raise StillError(f"{folder}: {len(found)} pictures, more than a deck has ({MAX_PICTURES} at most)")
    return found


def face_of_name(stem: str, faces: tuple[str, ...]) -> str | None:
    """The face a picture's file name names (`AK_7.IV`, `AK:7.IV`, `AK:7.IV#2`), or None."""
    code = stem.partition("#")[0]
    prefix, sep, rest = code.partition("_")
    candidates = [code, f"{prefix}:{rest}" if sep else code]
    return next((c for c in candidates if c in faces), None)


def faces_for(game: str, pictures: list[Path]) -> list[tuple[Path, str]]:
    """Each picture with the face it shows: by its name, or by its place in the deck's order."""
    faces = faces_of(game)
    named = [(p, face_of_name(p.stem, faces)) for p in pictures]
    if all(face is not None for _, face in named):
        return [(p, face) for p, face in named if face is not None]
    if any(face is not None for _, face in named):
        odd = ", ".join(p.name for p, face in named if face is None)
        raise StillError(f"some pictures are named by a face of {game} and some are not: {odd}")
    if len(pictures) > len(faces):
        raise StillError(f"{len(pictures)} pictures, but {game} has {len(faces)} faces")
    return list(zip(pictures, faces, strict=False))


@dataclass(frozen=True)
class Taught:
    """What became of one picture: `taught`, `looks-like` (the face it looks like: `other`), `no-card`."""

    path: Path
    face: str
    result: str
    other: str | None = None


def teach_folder(data_dir: Path, game: str, folder: Path, deck_name: str | None = None,
                 anyway: bool = False) -> tuple[TaughtDeck, list[Taught]]:
    """Teach a folder of stills as a deck of `game` (a new deck, or `deck_name` taught further)."""
    from hw.camera.teach import Teacher

    plan = faces_for(game, pictures_in(folder))
    known = taught.decks(data_dir, game, set(faces_of(game)))
    deck = next((d for d in known if d.name == deck_name), None)
    if deck_name is not None and deck is None:
        raise StillError(f"{game} has no deck {deck_name!r} (decks: {', '.join(d.name for d in known) or 'none'})")
    if deck is None:
        if len(known) >= taught.MAX_DECKS:
            raise StillError(f"{game} has {len(known)} decks already, as many as a table keeps")
        deck = taught.new_deck(data_dir, game)
    others = [d for d in known if d.name != deck.name]
    teacher = Teacher(deck, list(faces_of(game)), taught.book(others) if others else None)
    results = []
    for path, face in plan:
        grey, chroma = load_still(path)
        before = len(deck.looks)
        teacher.ask(face)
        teacher.still(grey, chroma)
        state = teacher.state()
        if state.held and anyway:
            teacher.take_anyway()
        if len(deck.looks) > before:
            results.append(Taught(path, face, "taught"))
        elif state.wrong is not None:
            results.append(Taught(path, face, "looks-like", state.wrong))
        else:
            results.append(Taught(path, face, "no-card"))
    return deck, results


def taught_book(data_dir: Path, game: str) -> FaceBook:
    """Every taught deck of `game` as one `FaceBook`; StillError when none is taught."""
    decks = [d for d in taught.decks(data_dir, game, set(faces_of(game))) if d.looks]
    if not decks:
        raise StillError(f"no deck of {game} is taught in {data_dir} (referee-kiosk camera teach)")
    return taught.book(decks)


def read_faces_in(book: FaceBook, path: Path) -> list[tuple[str, float, float]]:
    """The faces `book` knows found in one still, each once: (face, x, y), left to right."""
    from hw.camera.faces import read_faces

    grey, chroma = load_still(path)
    found: dict[str, tuple[str, float, float]] = {}
    for seen in read_faces(book, grey, chroma):
        found.setdefault(seen.face, (seen.face, seen.x, seen.y))
    return sorted(found.values(), key=lambda f: (f[1], f[2]))


def restore(data_dir: Path, folder: Path) -> list[tuple[str, str, int]]:
    """The taught decks of a backup (`FOLDER/faces/GAME/deck-N/`) added to this kiosk's as new decks, every
    picture decoded and checked on the way (nothing is copied as it is); (game, new deck, faces) per deck."""
    import kiosk.games

    added = []
    for game in kiosk.games.ids():
        for deck in taught.decks(Path(folder), game, set(faces_of(game))):  # FOLDER/faces/GAME/deck-N
            pictures = deck.pictures()
            if not pictures:
                continue
            if len(taught.decks(data_dir, game, set(faces_of(game)))) >= taught.MAX_DECKS:
                raise StillError(f"{game} has as many decks as a table keeps: {deck.path} was not restored")
            new = taught.new_deck(data_dir, game)
            for face, y, uv in pictures:
                new.add(face, y, uv, deck.shape[0], deck.shape[1])
            added.append((game, new.name, len(new.faces())))
    return added
