"""Saving calibrated zones: the zones' `area` lines rewritten in the table config, every other line kept.

Its own module: it checks the new file with `hw.config`, which imports `hw.camera.zones`.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from hw.camera.zones import Zone
from hw.config import loads


def save_areas(path: str | Path, zones: tuple[Zone, ...]) -> None:
    """Write the zones' areas into the config file's `[camera.zones.NAME]` tables, leaving every other line
    as it is; the new file is checked by the config's own validation before it replaces the old one
    (ValueError when a zone has no table there, OSError when the file cannot be written)."""
    path = Path(path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$")
    area = re.compile(r"^(\s*area\s*=\s*)\[[^\]]*\](.*)$")
    current = None
    written: set[str] = set()
    wanted = {f"camera.zones.{z.name}": z for z in zones}
    for i, line in enumerate(lines):
        m = header.match(line)
        if m:
            current = re.sub(r"\s*\.\s*", ".", m.group(1)).replace('"', "")
            continue
        zone = wanted.get(current or "")
        m = area.match(line.rstrip("\n"))
        if zone is not None and m:
            values = ", ".join(f"{v:.4f}" for v in zone.area)
            lines[i] = f"{m.group(1)}[{values}]{m.group(2)}\n"
            written.add(zone.name)
    missing = sorted(set(z.name for z in zones) - written)
    if missing:
        raise ValueError(f"{path} has no area line for the zone(s) {', '.join(missing)}")
    text = "".join(lines)
    loads(text, str(path))  # ConfigError (a ValueError) rather than a file the kiosk cannot start with
    fd, tmp = tempfile.mkstemp(prefix=".camera-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
