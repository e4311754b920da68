"""The kiosk's own settings: the `[kiosk]` table of the table's TOML config (all optional)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from kiosk.pin import hash_pin

# PIN 1234: good enough for a laptop; `--check-config` warns when a kiosk keeps it.
DEFAULT_PIN_HASH = hash_pin("1234", salt="tabletop-referee", iterations=1000)
ROTATIONS = (0, 90, 180, 270)


@dataclass
class Settings:
    data_dir: Path = field(default_factory=lambda: Path(platformdirs.user_data_dir("tabletop-referee")))
    language: str = "de"
    pin_hash: str = DEFAULT_PIN_HASH
    demo_after_s: float = 120.0
    idle_pause_s: float = 1200.0  # a game left alone this long is paused and the menu shows (0: never)
    admin_hold_s: float = 2.0
    width: int = 800
    height: int = 480
    rotate: int = 0  # degrees clockwise the picture is turned on the display: 0, 90, 180, 270
    volume: int = 70  # sound cues, 0-100
    mute: bool = False

    @property
    def log_path(self) -> Path:
        return self.data_dir / "events.sqlite3"


def from_mapping(raw: dict[str, Any], base: Path | None = None) -> Settings:
    s = Settings()
    if "data_dir" in raw:
        path = Path(raw["data_dir"]).expanduser()
        s.data_dir = path if path.is_absolute() or base is None else base / path
    s.language = raw.get("language", s.language)
    s.pin_hash = raw.get("admin_pin_hash", s.pin_hash)
    s.demo_after_s = float(raw.get("demo_after_s", s.demo_after_s))
    s.admin_hold_s = float(raw.get("admin_hold_s", s.admin_hold_s))
    s.idle_pause_s = float(raw.get("idle_pause_s", s.idle_pause_s))
    s.rotate = int(raw.get("rotate", s.rotate))
    if s.rotate not in ROTATIONS:
        raise ValueError(f"rotate = {s.rotate}: must be one of 0, 90, 180, 270")
    s.volume = int(raw.get("volume", s.volume))
    if not 0 <= s.volume <= 100:
        raise ValueError(f"volume = {s.volume}: must be 0 to 100")
    s.mute = bool(raw.get("mute", s.mute))
    size = raw.get("screen_size")
    if isinstance(size, list) and len(size) == 2:
        s.width, s.height = int(size[0]), int(size[1])
    return s


def load(path: Path | None) -> Settings:
    if path is None:
        return Settings()
    with open(path, "rb") as handle:
        raw = tomllib.load(handle)
    return from_mapping(raw.get("kiosk", {}), path.parent)
