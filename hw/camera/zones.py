"""The `[camera]` section of the table config: where frames come from and which zones are read.

    [camera]             source ("picamera2" | "v4l2" | "sim"), device (v4l2: /dev/video…), fps,
                         confirm_frames, forget_s, recount_s, stall_s, size = [width, height] (the full
                         view in pixels), labels (read the cards' camera labels, default true), faces (read
                         the faces taught for the game in play, default true: on once a deck is taught)
    [camera.zones.NAME]  area = [x0, y0, x1, y1] (fractions of the camera's full view, left/top to
                         right/bottom), seat = "NAME" (a seat's own zone; without: a pile or trick zone,
                         whose card belongs to the seat that may act now)

Areas are fractions of the view, not pixels, so the same config holds when the frame size changes
(a cropped stream, the scaled-down calibration picture). `check_camera` validates the section with
the table config's own checker (`hw.config`), so every problem comes with its line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SOURCES = ("picamera2", "v4l2", "sim")
CAMERA_KEYS = ("source", "device", "fps", "confirm_frames", "forget_s", "recount_s", "stall_s", "size", "labels",
               "faces", "zones")
ZONE_KEYS = ("area", "seat")
READER = "camera"
"""The reader name of the camera as a whole (its "disconnected" / "reconnected" errors)."""
MIN_ZONE = 0.02  # a zone narrower than 2 % of the view cannot hold a card


def zone_reader(zone: str) -> str:
    """The reader name a zone's `CardScan`s carry."""
    return f"{READER}:{zone}"


def seat_reader(seat: str) -> str:
    """The reader name of a pile zone's scan once the kiosk knows whose card it is."""
    return f"{READER}@{seat}"


def seat_of_reader(reader: str) -> str | None:
    """The seat a `seat_reader` name carries, else None."""
    prefix = f"{READER}@"
    return reader[len(prefix):] or None if reader.startswith(prefix) else None


@dataclass(frozen=True, slots=True)
class Zone:
    name: str
    area: tuple[float, float, float, float]
    """x0, y0, x1, y1 as fractions of the camera's full view."""
    seat: str | None = None
    """None: a pile or trick zone (the seat that may act now); else the seat whose own area it is."""

    @property
    def reader(self) -> str:
        return zone_reader(self.name)


@dataclass(frozen=True, slots=True)
class CameraConfig:
    source: str
    zones: tuple[Zone, ...]
    device: str | None = None
    fps: float = 10.0
    confirm_frames: int = 2
    """A code counts once it was seen in this many consecutive frames after it was not there."""
    forget_s: float = 4.0
    """A counted card not seen for this long is gone (a zone showing no code this long was cleared)."""
    recount_s: float = 1.5
    """A card that was gone counts again only after this long in view without a break (`presence`)."""
    stall_s: float = 2.0
    """No frame for this long: the camera is reported disconnected (and reconnected when frames come back)."""
    size: tuple[int, int] = (4608, 2592)
    """The full view in pixels (Camera Module 3: 4608 × 2592)."""
    labels: bool = True
    """Cards are read by their camera labels (stickers)."""
    faces: bool = True
    """Cards are read by their printed faces once a deck of the game in play is taught (`hw.camera.taught`)."""

    def zone(self, name: str) -> Zone:
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise KeyError(name)

    def crop(self) -> tuple[float, float, float, float]:
        """The union of the zones (fractions of the view): what the ISP crops to."""
        return (min(z.area[0] for z in self.zones), min(z.area[1] for z in self.zones),
                max(z.area[2] for z in self.zones), max(z.area[3] for z in self.zones))


def check_camera(checker: Any, value: Any, seat_names: set[str]) -> CameraConfig | None:
    """Validate `[camera]` with `hw.config`'s checker (its `err`, `table`, `string`, `number` helpers)."""
    path = ("camera",)
    section = checker.table(path, value, CAMERA_KEYS)
    if not isinstance(value, dict):
        return None
    before = len(checker.problems)
    source = checker.string((*path, "source"), section.get("source", "picamera2"), SOURCES)
    device = None
    if "device" in section:
        device = checker.path_string((*path, "device"), section["device"])
        if source is not None and source != "v4l2":
            checker.err((*path, "device"), f'camera.device is for source = "v4l2", not {source!r}')
    elif source == "v4l2":
        checker.err(path, 'a v4l2 camera needs a device (e.g. device = "/dev/video0")')
    found: dict[str, Any] = {}
    for key, lo, hi, integer in (("fps", 1, 60, False), ("confirm_frames", 1, 10, True),
                                 ("forget_s", 0.2, 600, False), ("recount_s", 0.1, 60, False),
                                 ("stall_s", 0.5, 60, False)):
        if key in section:
            found[key] = checker.number((*path, key), section[key], lo, hi, integer=integer)
    if "size" in section:
        found["size"] = _size(checker, (*path, "size"), section["size"])
    for key in ("labels", "faces"):
        if key in section:
            found[key] = checker.boolean((*path, key), section[key])
    if found.get("labels") is False and found.get("faces") is False:
        checker.err(path, "camera.labels and camera.faces are both false: the camera would read nothing "
                    "(leave one on, or remove [camera])")
    zones = _zones(checker, section.get("zones"), seat_names)
    if len(checker.problems) > before:
        return None
    values: dict[str, Any] = {k: float(v) if k.endswith("_s") or k == "fps" else v for k, v in found.items()}
    return CameraConfig(source or "picamera2", tuple(zones), device, **values)


def _size(checker: Any, path: tuple[str, ...], value: Any) -> tuple[int, int] | None:
    if not isinstance(value, list) or len(value) != 2:
        checker.err(path, f"{'.'.join(path)} must be [width, height] in pixels")
        return None
    sides = [checker.number(path, side, 64, 20_000, integer=True) for side in value]
    return None if None in sides else (sides[0], sides[1])


def _zones(checker: Any, value: Any, seat_names: set[str]) -> list[Zone]:
    path = ("camera", "zones")
    if value is None:
        checker.err(("camera",), "the camera has no zones: add [camera.zones.pile] with area = [x0, y0, x1, y1]")
        return []
    if not isinstance(value, dict) or not value:
        checker.err(path, "camera.zones must be tables [camera.zones.NAME]")
        return []
    zones = []
    seats_taken: dict[str, str] = {}
    for name, raw in value.items():
        zpath = (*path, name)
        section = checker.table(zpath, raw, ZONE_KEYS)
        if not isinstance(raw, dict):
            continue
        area = _area(checker, (*zpath, "area"), section.get("area"))
        seat = None
        if "seat" in section:
            seat = checker.string((*zpath, "seat"), section["seat"])
            if seat is not None and seat not in seat_names:
                checker.err((*zpath, "seat"), f"unknown seat {seat!r} (seats: {', '.join(sorted(seat_names))})")
            elif seat is not None and seat in seats_taken:
                checker.err((*zpath, "seat"), f"seat {seat!r} already has zone {seats_taken[seat]!r}")
            elif seat is not None:
                seats_taken[seat] = name
        if area is not None:
            zones.append(Zone(name, area, seat))
    return zones


def _area(checker: Any, path: tuple[str, ...], value: Any) -> tuple[float, float, float, float] | None:
    if value is None:
        checker.err(path[:-1], f"zone {path[-2]!r} has no area = [x0, y0, x1, y1] (fractions of the view)")
        return None
    if not isinstance(value, list) or len(value) != 4:
        checker.err(path, f"{'.'.join(path)} must be [x0, y0, x1, y1], fractions of the camera's view")
        return None
    numbers = [checker.number(path, v, 0.0, 1.0) for v in value]
    if None in numbers:
        return None
    x0, y0, x1, y1 = (float(v) for v in numbers)
    if x1 - x0 < MIN_ZONE or y1 - y0 < MIN_ZONE:
        checker.err(path, f"{'.'.join(path)}: x1 must exceed x0 and y1 exceed y0 (by at least {MIN_ZONE})")
        return None
    return x0, y0, x1, y1

