"""The kiosk's own settings: defaults, then the `[kiosk]` table of the table's config (all optional; checked by
`kiosk.settings.config`), then the command line."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from kiosk.settings.config import KioskConfig, KioskSection
from kiosk.settings.config import load as load_config
from kiosk.settings.pin import hash_pin

# PIN 1234: good enough for a laptop; `--check-config` warns when a kiosk keeps it.
DEFAULT_PIN_HASH = hash_pin("1234", salt="tabletop-referee", iterations=1000)
# `[kiosk]` keys that set the Settings field of the same name when given.
SAME_NAMED = ("language", "demo_after_s", "admin_hold_s", "idle_pause_s", "rotate", "volume", "mute")


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


def from_section(section: KioskSection, base: Path | None = None) -> Settings:
    """Settings from a checked `[kiosk]` table (`check_section` made it; nothing here can fail)."""
    s = Settings()
    if section.data_dir is not None:
        path = Path(section.data_dir).expanduser()
        s.data_dir = path if path.is_absolute() or base is None else base / path
    if section.admin_pin_hash is not None:
        s.pin_hash = section.admin_pin_hash
    for name in SAME_NAMED:
        value = getattr(section, name)
        if value is not None:
            setattr(s, name, value)
    if section.screen_size is not None:
        s.width, s.height = section.screen_size
    return s


def from_config(config: KioskConfig | None) -> Settings:
    if config is None:
        return Settings()
    return from_section(config.kiosk, Path(config.table.path).parent if config.table.path else None)


def load(path: Path | None) -> Settings:
    """The kiosk's settings from the table's config; hw.config.ConfigError (with lines) if the file is wrong."""
    return from_config(None if path is None else load_config(path))
