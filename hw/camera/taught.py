"""Taught decks on disk: `DATA/faces/GAME/DECK/` holds `deck.json` and one PNG per taught look.

`deck.json` is {"format": 1, "game": …, "deck": …, "shape": [long_px, aspect], "looks": [[face, file], …]}.
Each look is written before the manifest that names it, and the manifest is replaced atomically after every
capture: a kiosk switched off in the middle of teaching keeps every face taught until then. A deck directory
comes from this kiosk's own data directory (or a backup of it), but is still read as outside input: names,
counts and picture sizes are bounded, and a look whose face is not in the game's deck is dropped. No file is read
through a symbolic link or when it is not a plain file, none beyond its size limit, and a picture whose PNG header
does not give the look's own size is never decoded (a small file can unpack to gigabytes).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = 1
MAX_LOOKS = 600  # ANNAOTTO's 152 faces, each with a few looks
MAX_DECKS = 8
NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
LOOK_NAME = re.compile(r"^[0-9]{3}-[0-9a-f]{6}\.png$")
MAX_MANIFEST = 1_000_000  # bytes: 600 looks take about 20 kB
MAX_PICTURE = 1_000_000  # bytes: a look's PNG takes about 40 kB
MAX_ENTRIES = 2_000  # directory entries looked at in a game's folder
LONG_PX = (48.0, 8_000.0)  # a card's long side in a frame, pixels: what a stored shape may say
ASPECT = (0.4, 1.0)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def faces_dir(data_dir: Path, game: str) -> Path:
    return Path(data_dir) / "faces" / game


@dataclass
class TaughtDeck:
    """One deck of a game as taught: its looks (face → picture files) and the cards' size in the frame."""

    path: Path
    game: str
    name: str
    looks: list[tuple[str, str]] = field(default_factory=list)
    shape: tuple[float, float] = (0.0, 0.0)

    def faces(self) -> set[str]:
        return {face for face, _ in self.looks}

    def add(self, face: str, y: Any, uv: Any, long_px: float, aspect: float) -> None:
        """A new look of `face`, saved at once (picture first, then the manifest)."""
        import cv2
        import numpy as np

        self.path.mkdir(parents=True, exist_ok=True)
        name = f"{len(self.looks):03d}-{os.urandom(3).hex()}.png"
        if uv is not None:  # the colour planes side by side, beside the grey picture
            _atomic(self.path / _uv_name(name), cv2.imencode(".png", np.hstack([uv[0], uv[1]]))[1].tobytes())
        _atomic(self.path / name, cv2.imencode(".png", y)[1].tobytes())
        self.looks.append((face, name))
        n = len(self.looks)
        self.shape = ((self.shape[0] * (n - 1) + long_px) / n, (self.shape[1] * (n - 1) + aspect) / n)
        self.save()

    def drop_last(self, face: str) -> bool:
        """Forget the newest look of `face` (a retake); False when it has none."""
        for i in range(len(self.looks) - 1, -1, -1):
            if self.looks[i][0] == face:
                _, name = self.looks.pop(i)
                self.save()
                (self.path / name).unlink(missing_ok=True)
                (self.path / _uv_name(name)).unlink(missing_ok=True)
                return True
        return False

    def save(self) -> None:
        text = json.dumps({"format": FORMAT, "game": self.game, "deck": self.name,
                           "shape": [round(v, 3) for v in self.shape], "looks": self.looks}, indent=1)
        _atomic(self.path / "deck.json", text.encode())

    def pictures(self) -> list[tuple[str, Any, Any]]:
        """(face, Y, UV or None) of every look whose picture reads back."""
        import numpy as np

        out = []
        from hw.camera.outline import PATCH  # OpenCV's, as the pictures are: a kiosk without it lists decks only

        w, h = PATCH
        for face, name in self.looks:
            y = _png(self.path / name, (w, h))
            if y is None:
                continue
            both = _png(self.path / _uv_name(name), (2 * (w // 4), h // 4))
            uv = None if both is None else np.stack([both[:, : w // 4], both[:, w // 4:]])
            out.append((face, y, uv))
        return out

    def clear(self) -> None:
        """Forget every look (the deck taught again from its first face); the manifest first, then the pictures."""
        names = [name for _, name in self.looks]
        self.looks, self.shape = [], (0.0, 0.0)
        self.save()
        for name in names:
            (self.path / name).unlink(missing_ok=True)
            (self.path / _uv_name(name)).unlink(missing_ok=True)


def _uv_name(name: str) -> str:
    return name.replace(".png", "-uv.png")


def _atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".taught-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_plain(path: Path, limit: int) -> bytes | None:
    """A plain file's bytes, never through a symbolic link (its last part) and never more than `limit`; None when
    it is missing, a link, not a plain file, larger, or unreadable."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(limit + 1)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _png(path: Path, size: tuple[int, int]) -> Any:
    """A grey PNG of exactly `size` (width, height) as uint8, or None; the header is checked before decoding."""
    import cv2
    import numpy as np

    data = read_plain(path, MAX_PICTURE)
    if data is None or len(data) < 24 or not data.startswith(PNG_MAGIC) or data[12:16] != b"IHDR":
        return None
    if (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) != size:
        return None
    picture = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    return picture if picture is not None and picture.shape == (size[1], size[0]) else None


def _looks(raw: Any, known_faces: set[str]) -> list[tuple[str, str]]:
    """The manifest's looks that name a face of the game and a picture file of ours."""
    looks = []
    for item in raw[:MAX_LOOKS] if isinstance(raw, list) else []:
        if (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and item[0] in known_faces
                and isinstance(item[1], str) and LOOK_NAME.match(item[1])):
            looks.append((item[0], item[1]))
    return looks


def _shape(raw: Any) -> tuple[float, float]:
    """The stored card size, when it is one a camera can see; else unknown (0, 0)."""
    if (isinstance(raw, list) and len(raw) == 2 and all(isinstance(v, int | float) and not isinstance(v, bool)
                                                         and math.isfinite(v) for v in raw)
            and LONG_PX[0] <= raw[0] <= LONG_PX[1] and ASPECT[0] <= raw[1] <= ASPECT[1]):
        return float(raw[0]), float(raw[1])
    return 0.0, 0.0


def load_deck(path: Path, game: str, known_faces: set[str]) -> TaughtDeck | None:
    """A taught deck from its directory, checked; None when its manifest is missing or not one of ours."""
    data = read_plain(path / "deck.json", MAX_MANIFEST)
    if data is None:
        return None
    try:
        raw = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested deeper than a manifest ever is
        return None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT or raw.get("game") != game:
        return None
    return TaughtDeck(path, game, path.name, _looks(raw.get("looks"), known_faces), _shape(raw.get("shape")))


def decks(data_dir: Path, game: str, known_faces: set[str]) -> list[TaughtDeck]:
    """Every taught deck of a game, by name."""
    root = faces_dir(data_dir, game)
    if not _plain_dir(root):
        return []
    try:
        names = sorted(entry.name for entry in itertools.islice(os.scandir(root), MAX_ENTRIES))
    except OSError:
        return []
    found = []
    for name in names:
        if NAME.match(name) and _plain_dir(root / name):
            deck = load_deck(root / name, game, known_faces)
            if deck is not None:
                found.append(deck)
        if len(found) == MAX_DECKS:
            break
    return found


def _plain_dir(path: Path) -> bool:
    """A directory that is not a symbolic link."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def remove_deck(deck: TaughtDeck) -> None:
    """A deck forgotten: its manifest first (it is no deck from then on), then its folder."""
    (deck.path / "deck.json").unlink(missing_ok=True)
    if _plain_dir(deck.path):
        shutil.rmtree(deck.path, ignore_errors=True)


def new_deck(data_dir: Path, game: str) -> TaughtDeck:
    """A new, empty deck of a game: `deck-1`, `deck-2` … (the first number not taken)."""
    root = faces_dir(data_dir, game)
    n = 1
    while (root / f"deck-{n}").exists():
        n += 1
    deck = TaughtDeck(root / f"deck-{n}", game, f"deck-{n}")
    deck.path.mkdir(parents=True, exist_ok=True)
    deck.save()
    return deck


def book(taught: list[TaughtDeck]) -> Any:
    """One `FaceBook` over every look of these decks (several designs of one game at once)."""
    from hw.camera.faces import FaceBook, Look

    looks = [Look(face, y, uv) for deck in taught for face, y, uv in deck.pictures()]
    shapes = [deck.shape for deck in taught if deck.shape[0]]
    if not shapes:
        return FaceBook(looks)
    long_px = sum(s[0] for s in shapes) / len(shapes)
    aspect = sum(s[1] for s in shapes) / len(shapes)
    spread = max(abs(s[0] / long_px - 1) for s in shapes)
    from hw.camera.outline import Shape

    return FaceBook(looks, Shape(long_px, aspect, size_tolerance=0.06 + spread,
                                 aspect_tolerance=0.05 + max(abs(s[1] - aspect) for s in shapes)))
