"""The simulated overhead camera: frames of the table rendered from the project's own label images.

`TableScene` holds what lies on the table: cards laid into zones (at any angle, slightly out of
plane, face up with their camera label, or face down), a hand over a zone, and the camera's state
(unplugged, stalled). `render(view, size)` draws the part of the camera's view the ISP would crop
to, at 0.15 mm per pixel: a felt mat, the cards (each a card face carrying the `--camera` label: its
DataMatrix from `referee.labels.datamatrix`, the same symbol and module size the labels print),
optical blur, sensor noise, a glare spot and the hand.

`SimPicamera2` is picamera2's twin over a scene (`camera_properties`, `create_video_configuration`,
`configure`, `stream_configuration`, `start`, `capture_buffer(name, wait=…)`, `stop`, `close`,
YUV420 buffers with a padded stride), so the simulated kiosk and the tests run the Pi's own path
(`hw.camera.sources.Picamera2Source`).

Driven through the simulated table's control socket (`hw.sim`):
    {"cmd": "lay", "code": "AO:RED.DOTS#1", "zone": "pile"}   (optional "angle", "face_down", "tilt" (0–0.2:
        out of plane), "design" (a printed face, `hw.camera.printed`), "sticker" (its camera label on it),
        "at": [fx, fy] (where in the zone, fractions: beside or half over another card))
    {"cmd": "scene", "blur": 1.6, "noise": 3, "glare": false, "colour": true,
     "designs": {"AK": "ak-b"}, "sticker": false}              (any of them: the picture's blur σ in pixels, the
        sensor's noise, the lamp's glare, colour frames; the design a card of a deck prefix is printed in when a
        `lay` names none, and whether its label is stuck on; a printed card turns the frames colour)
    {"cmd": "cover", "zone": "pile", "seconds": 0.8}           (no "seconds": until {"cmd": "uncover"})
    {"cmd": "take", "zone": "pile"}                            (optional "code": one card only)
    {"cmd": "camera", "state": "unplug" | "replug" | "stall" | "resume"}
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

from hw.camera.zones import CameraConfig, Zone

MM_PER_PX = 0.15
CARD_MM = (63.0, 88.0)
LABEL_MM = (38.1, 21.2)  # the a4-corner sticker, stuck in the card's top-left corner
LABEL_PADDING_MM = 1.5
SIM_CAMERA = CameraConfig(
    source="sim",
    # the pile in the middle of the table: 210 x 150 mm, a 1400 x 1000 crop at 0.15 mm per pixel
    zones=(Zone("pile", (0.3480, 0.3071, 0.6519, 0.6929)),),
    fps=10.0, size=(4608, 2592),
)
"""The camera `--sim --camera` adds to the simulated table (`with_sim_camera`)."""


def with_sim_camera(config: Any) -> Any:
    """A table config with the simulated camera, unless it has a camera already."""
    return config if config.camera is not None else replace(config, camera=SIM_CAMERA)


def px(mm: float) -> int:
    return max(1, round(mm / MM_PER_PX))


# --- sprites -------------------------------------------------------------------------------------


def label_image(code: str) -> Any:
    """The card's camera label as printed (white, the DataMatrix at its right, the card's words at its left)."""
    from PIL import Image, ImageDraw

    from referee.labels.datamatrix import QUIET_MODULES, camera_module_mm, datamatrix
    from referee.labels.faces import label_text

    matrix = datamatrix(code)
    n = len(matrix)
    module = camera_module_mm(n, LABEL_MM[1] - 2 * LABEL_PADDING_MM)
    label = Image.new("L", (px(LABEL_MM[0]), px(LABEL_MM[1])), 245)
    modules = Image.new("L", (n, n), 245)
    modules.putdata([20 if dark else 245 for row in matrix for dark in row])
    side = n * module / MM_PER_PX
    symbol = modules.resize((round(side), round(side)), Image.Resampling.BOX, reducing_gap=None)
    x = label.width - px(LABEL_PADDING_MM) - symbol.width
    label.paste(symbol, (x, (label.height - symbol.height) // 2))
    draw = ImageDraw.Draw(label)
    try:
        words = label_text(code.partition("#")[0], "de")
    except ValueError:
        words = code
    draw.multiline_text((px(LABEL_PADDING_MM), px(LABEL_PADDING_MM)), words.replace(" · ", "\n"), fill=30)
    assert QUIET_MODULES * module < LABEL_PADDING_MM + 1  # the symbol's quiet zone lies on the white label
    return label


def _shade(code: str) -> int:
    """A card face's grey, different per face (the printed art under the label)."""
    return 120 + hashlib.sha256(code.partition("#")[0].encode()).digest()[0] % 100


def card_image(code: str, face_up: bool, design: str | None = None, sticker: bool = True) -> tuple[Any, Any]:
    """A card (its picture and its rounded-corner mask), upright: our grey label card, or a face printed in
    `design` (`hw.camera.printed`, RGB) with the camera label stuck on it when `sticker`."""
    from PIL import Image, ImageDraw

    if design is not None:
        from hw.camera.printed import picture

        card, mask = picture(design, code, face_up)
        if face_up and sticker:
            card = card.copy()
            card.paste(label_image(code).convert("RGB"), (px(2.5), card.height - px(2.5) - px(LABEL_MM[1])))
        return card, mask
    w, h = px(CARD_MM[0]), px(CARD_MM[1])
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=px(3), fill=255)
    if not face_up:  # the back: a dense pattern, never a symbol
        card = Image.new("L", (w, h), 60)
        draw = ImageDraw.Draw(card)
        for i in range(-h, w, px(2.5)):
            draw.line((i, 0, i + h, h), fill=110, width=px(0.6))
            draw.line((i + h, 0, i, h), fill=90, width=px(0.6))
        return card, mask
    card = Image.new("L", (w, h), _shade(code))
    draw = ImageDraw.Draw(card)
    draw.ellipse((w // 4, h // 3, 3 * w // 4, 3 * h // 4), fill=_shade(code) // 2)
    card.paste(label_image(code), (px(2.5), px(2.5)))
    return card, mask


def _pose(size: tuple[int, int], angle: float, tilt: float) -> tuple[Any, tuple[int, int]]:
    """The homography that lays a flat card picture of `size` on the table (OpenCV's pixel-centre coordinates)
    and the size of the picture that holds it: its top edge `tilt` (a fraction) narrower than its bottom by a
    true perspective, as a lens sees a card a little out of plane, then turned by `angle` degrees counter-clockwise
    about its centre (as Pillow's `rotate(expand=True)`)."""
    import math

    import cv2
    import numpy as np

    w, h = size
    d = w * tilt / 2
    flat = np.asarray([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    seen = np.asarray([[d * w / (w + 2 * d), 0], [w - d * w / (w + 2 * d), 0], [w, h], [0, h]], np.float32)
    tilted = cv2.getPerspectiveTransform(flat, seen).astype(np.float64)
    a = math.radians(angle)
    cos, sin = math.cos(a), math.sin(a)
    corners = [((x - w / 2) * cos + (y - h / 2) * sin, -(x - w / 2) * sin + (y - h / 2) * cos)
               for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
    nw = math.ceil(max(x for x, _ in corners)) - math.floor(min(x for x, _ in corners))
    nh = math.ceil(max(y for _, y in corners)) - math.floor(min(y for _, y in corners))
    turn = np.array([[cos, sin, nw / 2 - (w / 2) * cos - (h / 2) * sin],
                     [-sin, cos, nh / 2 + (w / 2) * sin - (h / 2) * cos], [0, 0, 1]])
    edge_to_centre = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]])
    return edge_to_centre @ turn @ tilted @ np.linalg.inv(edge_to_centre), (nw, nh)


def _laid_picture(picture: Any, mask: Any, angle: float, tilt: float, blur: float) -> tuple[Any, Any, Any]:
    """A card picture and its mask as the camera sees them laid (`_pose`) through a lens of blur `blur` (σ, px),
    and the mask before the blur.
    The picture is carried premultiplied by its mask, so its edge blends into what lies below as a lens blurs the
    whole scene, not into the black around the sprite (which made every card's edge a dark rim, and its outline
    look a pixel smaller the softer the lens)."""
    import cv2
    import numpy as np
    from PIL import Image

    matrix, size = _pose(picture.size, angle, tilt)
    colour = np.asarray(picture, np.float32)
    alpha = np.asarray(mask, np.float32) / 255.0
    premultiplied = colour * (alpha if colour.ndim == 2 else alpha[..., None])
    laid = cv2.warpPerspective(premultiplied, matrix, size, flags=cv2.INTER_LINEAR)
    sharp = cv2.warpPerspective(alpha, matrix, size, flags=cv2.INTER_LINEAR)
    cover = sharp
    if blur > 0:
        laid, cover = cv2.GaussianBlur(laid, (0, 0), blur), cv2.GaussianBlur(sharp, (0, 0), blur)
    safe = np.maximum(cover, 1e-3)
    colour = np.clip(laid / (safe if laid.ndim == 2 else safe[..., None]), 0, 255).astype(np.uint8)

    def grey(a: Any) -> Any:
        return Image.fromarray(np.clip(a * 255 + 0.5, 0, 255).astype(np.uint8))

    return Image.fromarray(colour), grey(cover), grey(sharp)


# --- the scene -----------------------------------------------------------------------------------


@dataclass
class Laid:
    code: str
    zone: str
    x_mm: float  # the card's centre in the camera's full view
    y_mm: float
    angle: float
    tilt: float
    face_up: bool
    design: str | None = None  # a printed face (`hw.camera.printed`); None: our grey card with its label
    sticker: bool = True  # the camera label stuck on a printed face
    sprite: Any = field(default=None, repr=False)  # (picture, mask) as seen, cached


class TableScene:
    """What lies on the simulated table; thread-safe (control socket vs. the camera's capture thread)."""

    def __init__(self, config: CameraConfig, *, blur: float = 0.6, noise: float = 3.0, glare: bool = True,
                 seed: int | None = None, colour: bool = False):
        self.config = config
        self.mode = "RGB" if colour else "L"  # colour: the frames' YUV420 buffers carry real chroma
        self.blur = blur
        self.noise = noise
        self.glare = glare
        self.rng = random.Random(seed)
        self.cards: list[Laid] = []
        self.hands: dict[str, float | None] = {}  # zone → monotonic time the hand leaves (None: stays)
        self.plugged = True
        self.stalled = False
        self.lock = threading.Lock()
        self._mats: dict[tuple[int, ...], Any] = {}  # mats and noise fields by size
        self.designs: dict[str, str] = {}  # deck prefix → the design its cards are printed in when a lay names none
        self.sticker = True  # a printed card carries its camera label unless a lay says otherwise

    @property
    def view_mm(self) -> tuple[float, float]:
        w, h = self.config.size
        return w * MM_PER_PX, h * MM_PER_PX

    def zone(self, name: str) -> Zone:
        try:
            return self.config.zone(name)
        except KeyError:
            known = ", ".join(z.name for z in self.config.zones)
            raise ValueError(f"no camera zone {name!r} (zones: {known})") from None

    # -- what players do
    def lay(self, code: str, zone: str, angle: float | None = None, face_up: bool = True,
            tilt: float | None = None, design: str | None = None, sticker: bool | None = None,
            at: tuple[float, float] | None = None) -> Laid:
        """A card laid into a zone: near its middle (or `at`, fractions of the zone), at a random angle unless
        given, slightly out of plane; printed in `design` (default: its deck's in `designs`) with or without its
        label (`card_image`; default `self.sticker`)."""
        z = self.zone(zone)
        design = design if design is not None else self.designs.get(code.partition(":")[0])
        sticker = self.sticker if sticker is None else sticker
        if design is not None and self.mode == "L":
            self.set_look(colour=True)  # printed cards are in colour, and so is the picture from now on
        vw, vh = self.view_mm
        x0, y0, x1, y1 = z.area
        jitter = min((x1 - x0) * vw, (y1 - y0) * vh) * 0.12
        fx, fy = at if at is not None else (0.5, 0.5)
        card = Laid(code, zone, (x0 + (x1 - x0) * fx) * vw + self.rng.uniform(-jitter, jitter),
                    (y0 + (y1 - y0) * fy) * vh + self.rng.uniform(-jitter, jitter),
                    self.rng.uniform(0, 360) if angle is None else float(angle),
                    self.rng.uniform(0.0, 0.04) if tilt is None else float(tilt), face_up, design, sticker)
        card.sprite = self._sprite(card)
        with self.lock:
            self.cards.append(card)
        return card

    def set_look(self, *, colour: bool | None = None, blur: float | None = None, noise: float | None = None,
                 glare: bool | None = None) -> None:
        """How the camera sees the table from now on: colour or grey frames, the blur σ (pixels), the sensor's
        noise, the lamp's glare; the cards lying there are drawn afresh."""
        with self.lock:
            if colour is not None:
                self.mode = "RGB" if colour else "L"
            self.blur = self.blur if blur is None else float(blur)
            self.noise = self.noise if noise is None else float(noise)
            self.glare = self.glare if glare is None else bool(glare)
            self._mats = {}
            cards = list(self.cards)
        for card in cards:
            if card.sprite is not None:
                card.sprite = self._sprite(card)

    def cover(self, zone: str, seconds: float | None = None) -> None:
        self.zone(zone)
        with self.lock:
            self.hands[zone] = None if seconds is None else time.monotonic() + seconds

    def uncover(self, zone: str) -> None:
        with self.lock:
            self.hands.pop(zone, None)

    def take(self, zone: str, code: str | None = None) -> int:
        """Cards picked up from a zone (all, or the one with `code`); how many."""
        self.zone(zone)
        with self.lock:
            keep = [c for c in self.cards if c.zone != zone or (code is not None and c.code != code)]
            taken = len(self.cards) - len(keep)
            self.cards = keep
        return taken

    # -- drawing
    def _sprite(self, card: Laid) -> tuple[Any, Any, Any]:
        """(picture, mask, shadow mask) as the camera sees the card: turned, out of plane, blurred. The shadow
        is the card's edge on what lies below it (its thickness and the lamp): a thin dark rim."""
        from PIL import ImageFilter

        picture, mask = card_image(card.code, card.face_up, card.design, card.sticker)
        picture, mask, sharp = _laid_picture(picture.convert(self.mode), mask, card.angle, card.tilt, self.blur)
        shadow = sharp.filter(ImageFilter.MaxFilter(5)).filter(ImageFilter.GaussianBlur(1.2)).point(lambda v: v // 2)
        return picture, mask, shadow

    def _glare(self, size: tuple[int, int]) -> Any:
        """A lamp's reflection: a soft bright spot right of the middle."""
        from PIL import Image

        key = (-2, -2, *size)
        glare = self._mats.get(key)
        if glare is None:
            spot = Image.radial_gradient("L").resize((size[0] // 3, size[0] // 3)).point(lambda v: max(0, 110 - v))
            glare = Image.new("L", size, 0)
            glare.paste(spot, (size[0] // 2, size[1] // 8))
            glare = self._mats[key] = glare.convert(self.mode)
        return glare

    def _mat(self, size: tuple[int, int]) -> Any:
        from PIL import Image, ImageFilter

        mat = self._mats.get(size)
        if mat is None:
            felt = Image.effect_noise(size, 18).filter(ImageFilter.GaussianBlur(2))
            if self.mode == "L":
                mat = self._mats[size] = felt.point(lambda v: 40 + v // 3)
            else:  # green felt
                mat = self._mats[size] = Image.merge("RGB", [felt.point(lambda v, k=k: k + v // 3)
                                                              for k in (15, 60, 30)])
        return mat

    def render(self, view: tuple[float, float, float, float], size: tuple[int, int], noise: bool = True) -> Any:
        """The part `view` (fractions) of the camera's full view as a grey picture of `size` pixels (`noise`:
        with this frame's sensor noise; without, `noisy()` adds it to many frames of a still table)."""
        from PIL import Image, ImageChops, ImageDraw, ImageFilter

        vw, vh = self.view_mm
        left_mm, top_mm = view[0] * vw, view[1] * vh
        scale = size[0] / ((view[2] - view[0]) * vw)  # pixels per mm in this picture
        frame = self._mat(size).copy()
        now = time.monotonic()
        with self.lock:
            cards = list(self.cards)
            hands = {z: until for z, until in self.hands.items() if until is None or until > now}
            self.hands = dict(hands)
        self._draw_cards(frame, cards, (left_mm, top_mm), scale)
        if self.glare:
            frame = ImageChops.add(frame, self._glare(size))
        for zone in hands:
            x0, y0, x1, y1 = self.zone(zone).area
            box = [((x0 - view[0]) * vw * scale), ((y0 - view[1]) * vh * scale),
                   ((x1 - view[0]) * vw * scale), ((y1 - view[1]) * vh * scale)]
            hand = Image.new("L", size, 0)
            draw = ImageDraw.Draw(hand)
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            rx, ry = (box[2] - box[0]) * 0.42, (box[3] - box[1]) * 0.45
            draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=255)
            for i in range(4):  # fingers
                fx = cx - rx + (i + 0.5) * rx / 2
                draw.rounded_rectangle((fx - rx / 10, cy - ry * 1.9, fx + rx / 10, cy), radius=rx / 10, fill=255)
            skin = 165 if self.mode == "L" else (200, 160, 130)
            frame.paste(Image.new(self.mode, size, skin), (0, 0), hand.filter(ImageFilter.GaussianBlur(6)))
        return self.noisy(frame) if noise else frame

    @staticmethod
    def _draw_cards(frame: Any, cards: list[Laid], corner_mm: tuple[float, float], scale: float) -> None:
        """The cards in the order laid, each over its thin shadow; a pile shows only its top dozen."""
        from PIL import Image

        by_zone: dict[str, int] = {}
        for card in reversed(cards):  # those far below are hidden anyway
            by_zone[card.zone] = by_zone.get(card.zone, 0) + 1
            card.sprite = card.sprite if by_zone[card.zone] <= 12 else None
        dark = 0 if frame.mode == "L" else (0, 0, 0)
        for card in cards:
            if card.sprite is None:
                continue
            picture, mask, shadow = card.sprite
            if abs(scale - 1 / MM_PER_PX) > 1e-6:
                w, h = round(picture.width * scale * MM_PER_PX), round(picture.height * scale * MM_PER_PX)
                smooth = Image.Resampling.BILINEAR
                picture, mask, shadow = (picture.resize((w, h), smooth), mask.resize((w, h), smooth),
                                         shadow.resize((w, h), smooth))
            x = round((card.x_mm - corner_mm[0]) * scale - picture.width / 2)
            y = round((card.y_mm - corner_mm[1]) * scale - picture.height / 2)
            frame.paste(dark, (x + 1, y + 1, x + 1 + shadow.width, y + 1 + shadow.height), shadow)
            frame.paste(picture, (x, y), mask)

    def noisy(self, picture: Any) -> Any:
        """A picture with one frame's sensor noise added."""
        from PIL import ImageChops

        if self.noise <= 0:
            return picture
        return ImageChops.add(picture, self._noise(picture.size), 1.0, -128)

    def _noise(self, size: tuple[int, int]) -> Any:
        """Sensor noise for one frame: a window at a random place in a larger noise field made once (making
        fresh Gaussian noise for 1.4 megapixels costs about 0.1 s, more than a frame's time)."""
        from PIL import Image

        key = (-1, -1, *size)
        field = self._mats.get(key)
        if field is None:
            field = Image.effect_noise((size[0] + 97, size[1] + 89), self.noise)
            field = self._mats[key] = field.convert(self.mode)
        dx, dy = self.rng.randrange(97), self.rng.randrange(89)
        return field.crop((dx, dy, dx + size[0], dy + size[1]))


# --- picamera2's twin ----------------------------------------------------------------------------


class SimPicamera2:
    """The parts of picamera2.Picamera2 the reader uses, over a `TableScene`; frames paced at `fps`."""

    def __init__(self, scene: TableScene, fps: float = 10.0):
        if not scene.plugged:
            raise OSError("no camera (simulated: unplugged)")
        self.scene = scene
        self.fps = fps
        self.camera_properties = {"PixelArraySize": tuple(scene.config.size)}
        self.config: dict[str, Any] | None = None
        self.started = False
        self._next = 0.0

    def create_video_configuration(self, main: dict[str, Any], buffer_count: int = 4,
                                   controls: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"main": dict(main), "buffer_count": buffer_count, "controls": dict(controls or {})}

    def configure(self, config: dict[str, Any]) -> None:
        if config["main"].get("format") != "YUV420":
            raise ValueError("the simulated camera delivers YUV420 only")
        self.config = config

    def _configured(self) -> dict[str, Any]:
        if self.config is None:
            raise RuntimeError("camera not configured")  # as picamera2 refuses a stream before `configure`
        return self.config

    def stream_configuration(self, name: str = "main") -> dict[str, Any]:
        w, h = self._configured()["main"]["size"]
        return {"size": (w, h), "format": "YUV420", "stride": -(-w // 64) * 64}

    def start(self) -> None:
        self.started = True
        self._next = time.monotonic()

    def capture_buffer(self, name: str = "main", wait: float | None = None) -> bytes:
        if not self.started:
            raise RuntimeError("camera not started")
        delay = self._next - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        self._next = max(self._next + 1 / self.fps, time.monotonic())
        if not self.scene.plugged:
            raise OSError("camera gone (simulated: unplugged)")
        if self.scene.stalled:
            time.sleep(wait if wait is not None else 1.0)
            raise TimeoutError("no frame")
        sensor_w, sensor_h = self.camera_properties["PixelArraySize"]
        x, y, w, h = self._configured()["controls"]["ScalerCrop"]
        size = self.stream_configuration()["size"]
        view = (x / sensor_w, y / sensor_h, (x + w) / sensor_w, (y + h) / sensor_h)
        picture = self.scene.render(view, size)
        return yuv420(picture, self.stream_configuration()["stride"])

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.started = False


def yuv420(picture: Any, stride: int) -> bytes:
    """A picture as picamera2's YUV420 buffer: the Y plane, then U and V at half size, rows padded to `stride`
    (a grey picture has no colour: its chroma is 128)."""
    import numpy as np

    w, h = picture.size
    if picture.mode == "L":
        y_plane, u, v = np.asarray(picture), None, None
    else:
        import cv2

        i420 = cv2.cvtColor(np.asarray(picture), cv2.COLOR_RGB2YUV_I420)
        y_plane = i420[:h]
        chroma = i420[h:].reshape(2, h // 2, w // 2)
        u, v = chroma[0], chroma[1]
    out = np.zeros((h * 3 // 2, stride), np.uint8)
    out[:h, :w] = y_plane
    half = out[h:].reshape(2, h // 2, stride // 2)
    half[:] = 128
    if u is not None:
        half[0, :, : w // 2], half[1, :, : w // 2] = u, v
    return out.tobytes()


def sim_source(scene: TableScene) -> Any:
    """The frame source of the simulated camera: the Pi's own adapter over picamera2's twin."""
    from hw.camera.sources import Picamera2Source

    return Picamera2Source(scene.config.fps, camera=lambda: SimPicamera2(scene, scene.config.fps))


def commands(scene: TableScene) -> dict[str, Any]:
    """The control socket's camera commands (`hw.sim.SimHardware` registers them)."""

    def lay(req: dict[str, Any]) -> dict[str, Any]:
        card = scene.lay(_text(req, "code"), _text(req, "zone", "pile"), _number(req, "angle", -360, 360),
                         not _flag(req, "face_down", False), _number(req, "tilt", 0.0, 0.2),
                         _text(req, "design", None), _flag(req, "sticker", None), _at(req))
        return {"angle": round(card.angle, 1), "design": card.design, "sticker": card.sticker}

    def look(req: dict[str, Any]) -> dict[str, Any]:
        designs = req.get("designs")
        if designs is not None:
            if not isinstance(designs, dict) or len(designs) > 16:
                raise ValueError('"designs" maps a deck prefix to a design: {"AK": "ak-a"}')
            for prefix, design in designs.items():
                if design is None:
                    scene.designs.pop(str(prefix)[:8], None)
                else:
                    scene.designs[_text({"p": prefix}, "p")[:8]] = _text({"d": design}, "d")
        if "sticker" in req:
            scene.sticker = bool(_flag(req, "sticker", True))
        colour = _flag(req, "colour", None)
        scene.set_look(colour=colour, blur=_number(req, "blur", 0.0, 3.0), noise=_number(req, "noise", 0.0, 30.0),
                       glare=_flag(req, "glare", None))
        return {"colour": scene.mode == "RGB", "blur": scene.blur, "noise": scene.noise, "glare": scene.glare,
                "designs": dict(scene.designs), "sticker": scene.sticker}

    def cover(req: dict[str, Any]) -> None:
        seconds = req.get("seconds")
        scene.cover(str(req.get("zone", "pile")), None if seconds is None else float(seconds))

    def uncover(req: dict[str, Any]) -> None:
        scene.uncover(str(req.get("zone", "pile")))

    def take(req: dict[str, Any]) -> dict[str, Any]:
        return {"taken": scene.take(str(req.get("zone", "pile")), req.get("code"))}

    def camera(req: dict[str, Any]) -> dict[str, Any]:
        state = req["state"]
        if state not in ("unplug", "replug", "stall", "resume"):
            raise ValueError('camera "state" is one of unplug, replug, stall, resume')
        with scene.lock:
            if state in ("unplug", "replug"):
                scene.plugged = state == "replug"
            else:
                scene.stalled = state == "stall"
        return {"plugged": scene.plugged, "stalled": scene.stalled}

    return {"lay": lay, "cover": cover, "uncover": uncover, "take": take, "camera": camera, "scene": look}


def _text(req: dict[str, Any], key: str, default: Any = ...) -> Any:
    """A short text field of a control request (a code, a zone, a design); `default` when it may be missing."""
    value = req.get(key, default)
    if value is ...:
        raise KeyError(key)
    if value is None and default is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise ValueError(f'"{key}" must be a text of 1 to 64 characters')
    return value


def _number(req: dict[str, Any], key: str, lo: float, hi: float) -> float | None:
    """A number field of a control request within [lo, hi], or None when it is missing."""
    value = req.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise ValueError(f'"{key}" must be a number from {lo:g} to {hi:g}')
    return float(value)


def _at(req: dict[str, Any]) -> tuple[float, float] | None:
    """A lay's "at": [fx, fy], where in the zone (fractions), or None."""
    at = req.get("at")
    if at is None:
        return None
    if not (isinstance(at, list) and len(at) == 2):
        raise ValueError('"at" is [fx, fy]: where in the zone, fractions 0–1')
    fx, fy = (_number({"at": v}, "at", 0.0, 1.0) for v in at)
    if fx is None or fy is None:
        raise ValueError('"at" is [fx, fy]: where in the zone, fractions 0–1')
    return fx, fy


def _flag(req: dict[str, Any], key: str, default: bool | None) -> bool | None:
    value = req.get(key, default)
    if value is not None and not isinstance(value, bool):
        raise ValueError(f'"{key}" must be true or false')
    return value
