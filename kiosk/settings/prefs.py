"""What staff set in the admin menu and the kiosk keeps across restarts: default language and volume.

Kept as a small JSON file in the data directory (`prefs.json`); a value set here wins over the config's,
so staff never need a shell to change them. A missing or unreadable file means "as configured".
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

FILE = "prefs.json"
VOLUME_STEP = 10  # percent per touch of the admin menu's − / +; 0 is mute


@dataclass
class Prefs:
    language: str | None = None
    volume: int | None = None  # percent

    @classmethod
    def load(cls, data_dir: Path) -> Prefs:
        try:
            raw = json.loads((Path(data_dir) / FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(raw, dict):
            return cls()
        language = raw.get("language") if raw.get("language") in ("de", "en") else None
        volume = raw.get("volume")
        volume = int(volume) if isinstance(volume, int) and 0 <= volume <= 100 else None
        return cls(language, volume)

    def save(self, data_dir: Path) -> None:
        path = Path(data_dir) / FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as out:
            json.dump(asdict(self), out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)


def step_volume(current: int, up: bool) -> int:
    """The volume after one touch of "+" (`up`) or "−": the next multiple of the step, from mute to 100 %,
    never wrapping around (issue #26: one button cycling up to 100 % before mute startled staff)."""
    if up:
        return min(100, (current // VOLUME_STEP + 1) * VOLUME_STEP)
    return max(0, (-(-current // VOLUME_STEP) - 1) * VOLUME_STEP)
