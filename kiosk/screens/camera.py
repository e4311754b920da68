"""Staff's camera calibration: the camera's picture (scaled down) with its zones, codes read live, Save.

The picture is what the camera delivers (the ISP's crop around the zones, `hw.camera.sources`). A
zone's corner is chosen by touching its handle, then moved with the arrow buttons (1 % of the view a
touch, 5 % with the wide step); the reader uses the moved zones at once, so the codes read and their
zone show whether a card on the table lands where it should. Save writes the areas into the table
config (`hw.camera.save.save_areas`). A camera that sends no pictures says so here, as on the table
screen's banner, and the picture comes back when the camera does.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from hw.camera.save import save_areas
from hw.camera.zones import Zone
from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BAD, BUTTON, GOOD, INK, MUTED, PANEL, Grid, View
from kiosk.games.event_words import named
from kiosk.i18n import tr
from kiosk.screens import Host, Screen, cells

if TYPE_CHECKING:  # Pillow comes with the camera extra; the reader only where the table has a camera
    from PIL.Image import Image

    from hw.camera.decode import Seen
    from hw.camera.reader import CameraReader, Live
    from hw.camera.sources import Frame

REFRESH_S = 0.25  # the live picture's pace (a staff screen: no need for the camera's full rate)
ZONE_COLOURS = ((255, 200, 60), (90, 200, 255), (120, 230, 120), (255, 120, 200))
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")
STEPS = (0.01, 0.05)
MOVES = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


def _corner_word(corner: str) -> str:
    return {"top-left": tr("top left"), "top-right": tr("top right"), "bottom-right": tr("bottom right"),
            "bottom-left": tr("bottom left")}[corner]


class CameraScreen(Screen):
    name = "camera"
    takes_scans = True  # cards laid now are read here only: nothing reaches a game

    def __init__(self, app: Host, back: Screen):
        super().__init__(app)
        self.back = back
        camera = app.camera.reader if app.camera is not None else None
        self.zones: list[Zone] = list(camera.zones) if camera is not None else []
        self.selected: tuple[int, int] | None = (0, 0) if self.zones else None  # (zone, corner)
        self.step = 0
        self.message = ""
        self.next_refresh = time.monotonic() + REFRESH_S
        self.thumb: tuple[int, Image] | None = None  # (frame count, scaled picture)

    # --- the picture

    def _reader(self) -> CameraReader | None:
        return self.app.camera.reader if self.app.camera is not None else None

    def _live(self) -> Live | None:
        camera = self._reader()
        return camera.live() if camera is not None else None

    def _picture(self, live: Live | None, width: int, height: int) -> Image | None:
        """The newest frame, scaled down once per frame (not once per draw)."""
        if live is None or live.frame is None:
            return None
        if self.thumb is None or self.thumb[0] != live.frames:
            image = live.frame.image.copy()
            image.thumbnail((width, height))
            self.thumb = (live.frames, image)
        return self.thumb[1]

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        if g.portrait:  # the title over the two buttons
            v.text(g.r(0.03, 0.01, 0.94, 0.06), tr("Camera set-up"), size=1.0, color=ACCENT, tag="title")
            save, back = g.r(0.03, 0.075, 0.455, 0.065), g.r(0.515, 0.075, 0.455, 0.065)
        else:
            v.text(g.r(0.03, 0.02, 0.5, 0.1), tr("Camera set-up"), size=1.0, color=ACCENT, tag="title")
            save, back = g.r(0.56, 0.02, 0.2, 0.1), g.r(0.78, 0.02, 0.2, 0.1)
        v.button(save, tr("Save"), "save", fill=GOOD, group="top")
        v.button(back, tr("Back"), "back", group="top")
        # far enough from the buttons above for the corners' handles; in portrait the controls go below it
        area = g.r(0.03, 0.17, 0.94, 0.36) if g.portrait else g.r(0.03, 0.17, 0.6, 0.66)
        live = self._live()
        camera = self._reader()
        picture = self._picture(live, area[2], area[3])
        frame = live.frame if live is not None else None  # there is a picture only of a frame
        if picture is None or frame is None or live is None or camera is None or not camera.connected.is_set():
            v.text(area, tr("The camera sends no pictures – check its cable. It comes back by itself."),
                   size=0.9, color=BAD, fill=PANEL, align="center", tag="no-picture")
        else:
            self._draw_picture(v, area, picture, frame, live.seen)
        self._draw_controls(v, g, live)
        if self.message:
            lines = measure.height(self.message, round(0.94 * width), v.limits.cap)  # a path breaks after "/"
            v.text((round(0.03 * width), height - lines, round(0.94 * width), lines), self.message, size=0.75,
                   color=INK, tag="message")
        return v

    def _draw_picture(self, v: View, area: tuple[int, int, int, int], picture: Image, frame: Frame,
                      in_view: list[tuple[str, Seen]]) -> None:
        x, y = area[0] + (area[2] - picture.width) // 2, area[1] + (area[3] - picture.height) // 2
        rect = (x, y, picture.width, picture.height)
        v.picture(rect, picture, tag="picture")
        view = frame.view

        def to_screen(fx: float, fy: float) -> tuple[int, int]:
            return (round(x + (fx - view[0]) / (view[2] - view[0]) * picture.width),
                    round(y + (fy - view[1]) / (view[3] - view[1]) * picture.height))

        handle = round(v.limits.touch)  # a corner's handle: a finger's size, centred on the corner
        for i, zone in enumerate(self.zones):
            (x0, y0), (x1, y1) = to_screen(zone.area[0], zone.area[1]), to_screen(zone.area[2], zone.area[3])
            colour = ZONE_COLOURS[i % len(ZONE_COLOURS)]
            v.frame((x0, y0, x1 - x0, y1 - y0), colour, 3, tag=f"zone:{zone.name}")
            v.text((x0 + handle // 2 + 4, y0 + 4, max(40, x1 - x0 - handle - 8), handle // 2), zone.name, size=0.6,
                   color=colour, tag=f"zone-name:{zone.name}")
            for c, (cx, cy) in enumerate(((x0, y0), (x1, y0), (x1, y1), (x0, y1))):
                chosen = self.selected == (i, c)
                v.button((cx - handle // 2, cy - handle // 2, handle, handle), "", f"corner:{i}:{c}",
                         fill=colour if chosen else BUTTON, tag=f"corner:{zone.name}:{CORNERS[c]}")
        fw, fh = frame.image.size
        for _, seen in in_view:
            mx = round(x + seen.x / fw * picture.width)
            my = round(y + seen.y / fh * picture.height)
            v.frame((mx - 6, my - 6, 12, 12), GOOD, 3, tag=f"seen:{seen.code}")

    def _draw_controls(self, v: View, g: Grid, live: Live | None) -> None:
        """The chosen corner, the arrow pad around the step size, the codes in view: beside the picture
        (landscape) or under it (portrait)."""
        gap = cells.gap_of(v)
        side = round(v.limits.touch)
        column = g.r(0.03, 0.54, 0.94, 0.36) if g.portrait else g.r(0.66, 0.13, 0.31, 0.72)
        x, y, w, h = column
        said_h = v.lines_height(2)
        if self.selected is not None:
            zone, corner = self.zones[self.selected[0]], CORNERS[self.selected[1]]
            said = tr("Zone {zone}: {corner}", zone=zone.name, corner=_corner_word(corner))
            v.text((x, y, w, said_h), said, size=0.7, color=INK, tag="selected")
        y += said_h + gap // 2
        pad_w = min(w, 3 * round(side * 1.4) + 2 * gap) if g.portrait else w
        pad = cells.table((x, y, pad_w, 3 * side + 2 * gap), 3, 3, gap)
        arrows = {"up": (1, "↑"), "left": (3, "←"), "right": (5, "→"), "down": (7, "↓")}
        for move, (cell, arrow) in arrows.items():
            v.button(pad[cell], arrow, f"move:{move}", tag=f"move:{move}", group="pad")
        v.button(pad[4], f"{round(STEPS[self.step] * 100)} %", "step", tag="step", group="pad")
        seen = live.seen if live is not None else []
        # staff read the card's words and the zone (the zone's name as in the config)
        lines = [tr("{card} · zone {zone}", card=named(s.code), zone=zone) for zone, s in seen[:4]]
        lines = lines or [tr("No code in view")]
        if g.portrait:  # the codes beside the pad
            codes = (x + pad_w + 2 * gap, y, w - pad_w - 2 * gap, 3 * side + 2 * gap)
        else:
            top = y + 3 * side + 3 * gap
            codes = (x, top, w, column[1] + h - top)
        v.text(codes, "\n".join(lines), size=0.6, color=MUTED if not seen else INK, fill=PANEL, tag="codes")

    # --- reacting

    def on_action(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        if kind == "back":
            self.app.show(self.back)
        elif kind == "corner":
            zone, corner = arg.split(":")
            self.selected = (int(zone), int(corner))
        elif kind == "step":
            self.step = (self.step + 1) % len(STEPS)
        elif kind == "move" and self.selected is not None:
            self._move(*MOVES[arg])
        elif kind == "save":
            self._save()

    def _move(self, dx: int, dy: int) -> None:
        if self.selected is None:  # (moved only with a corner selected)
            return
        index, corner = self.selected
        zone = self.zones[index]
        x0, y0, x1, y1 = zone.area
        step = STEPS[self.step]
        if corner in (0, 3):
            x0 = min(max(0.0, x0 + dx * step), x1 - 0.05)
        else:
            x1 = max(min(1.0, x1 + dx * step), x0 + 0.05)
        if corner in (0, 1):
            y0 = min(max(0.0, y0 + dy * step), y1 - 0.05)
        else:
            y1 = max(min(1.0, y1 + dy * step), y0 + 0.05)
        self.zones[index] = replace(zone, area=(round(x0, 4), round(y0, 4), round(x1, 4), round(y1, 4)))
        reader = self._reader()
        if reader is not None:  # (there are zones to move only where there is a camera)
            reader.set_zones(tuple(self.zones))  # read with the moved zone at once
        self.message = ""

    def _save(self) -> None:
        path = self.app.camera.config_path if self.app.camera is not None else None
        if path is None:
            self.message = tr("No config file to save to: the zones hold until the kiosk restarts.")
            return
        try:
            save_areas(path, tuple(self.zones))
        except (OSError, ValueError) as error:
            self.message = tr("Could not save: {reason}", reason=str(error).splitlines()[0])
            return
        self.message = tr("Saved to {path}.", path=path)

    def on_tick(self, now: float) -> bool:
        if now >= self.next_refresh:
            self.next_refresh = now + REFRESH_S
            return True
        return False

    def next_wakeup(self) -> float | None:
        return self.next_refresh

    def model(self) -> dict[str, Any]:
        live = self._live()
        return {"screen": self.name, "zones": {z.name: list(z.area) for z in self.zones},
                "selected": None if self.selected is None else [self.zones[self.selected[0]].name,
                                                                 CORNERS[self.selected[1]]],
                "seen": [[zone, s.code] for zone, s in (live.seen if live is not None else [])],
                "picture": bool(live is not None and live.frame is not None), "message": self.message}
