"""Taught decks on disk: `DATA/faces/GAME/DECK/` holds `deck.json` and one PNG per taught look.

`deck.json` is {"format": 1, "game": …, "deck": …, "shape": [long_px, aspect], "looks": [[face, file], …]}.
Each look is written before the manifest that names it, and the manifest is replaced atomically after every
capture: a kiosk switched off in the middle of teaching keeps every face taught until then. A deck directory
comes from this kiosk's own data directory (or a backup of it), but is still read as outside input: names,
counts and picture sizes are bounded, and a look whose face is not in the game's deck is dropped.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hw.camera.outline import PATCH, Shape

FORMAT = 1
MAX_LOOKS = 600  # ANNAOTTO's 152 faces, each with a few looks
MAX_DECKS = 8
NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


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
        import cv2
        import numpy as np

        out = []
        w, h = PATCH
        for face, name in self.looks:
            y = cv2.imread(str(self.path / name), cv2.IMREAD_GRAYSCALE)
            if y is None or y.shape != (h, w):
                continue
            both = cv2.imread(str(self.path / _uv_name(name)), cv2.IMREAD_GRAYSCALE)
            uv = None
            if both is not None and both.shape == (h // 4, 2 * (w // 4)):
                uv = np.stack([both[:, : w // 4], both[:, w // 4:]])
            out.append((face, y, uv))
        return out


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


def load_deck(path: Path, game: str, known_faces: set[str]) -> TaughtDeck | None:
    """A taught deck from its directory, checked; None when its manifest is missing or not one of ours."""
    try:
        raw = json.loads((path / "deck.json").read_text(encoding="utf-8")[:1_000_000])
    except (OSError, ValueError):
        return None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT or raw.get("game") != game:
        return None
    looks = []
    for item in raw.get("looks", [])[:MAX_LOOKS] if isinstance(raw.get("looks"), list) else []:
        if (isinstance(item, list) and len(item) == 2 and item[0] in known_faces and isinstance(item[1], str)
                and re.fullmatch(r"[0-9]{3}-[0-9a-f]{6}\.png", item[1])):
            looks.append((item[0], item[1]))
    shape = raw.get("shape")
    size = (0.0, 0.0)
    if isinstance(shape, list) and len(shape) == 2 and all(isinstance(v, int | float) for v in shape):
        size = (float(shape[0]), float(shape[1]))
    return TaughtDeck(path, game, path.name, looks, size)


def decks(data_dir: Path, game: str, known_faces: set[str]) -> list[TaughtDeck]:
    """Every taught deck of a game, by name."""
    root = faces_dir(data_dir, game)
    if not root.is_dir():
        return []
    found = []
    for path in sorted(root.iterdir())[:MAX_DECKS]:
        if path.is_dir() and NAME.match(path.name):
            deck = load_deck(path, game, known_faces)
            if deck is not None:
                found.append(deck)
    return found


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
    return FaceBook(looks, Shape(long_px, aspect, size_tolerance=0.06 + spread,
                                 aspect_tolerance=0.05 + max(abs(s[1] - aspect) for s in shapes)))
