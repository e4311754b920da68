"""A V4L2 webcam as the overhead camera's frame source, through `pygame.camera`.

pygame-ce is the kiosk's own dependency and its Linux backend speaks V4L2 directly, so a webcam needs
nothing more; hw does not import pygame, so this source lives here and the kiosk hands it to
`hw.table.Table(camera_source=…)`. There is no hardware crop: each frame is cropped to the zones here.
At 1080p only large symbols read (`../shared/HARDWARE-NOTES.md`): a webcam is for trying the reader,
not for play (`docs/decisions.md` CAM7).
"""

from __future__ import annotations

import time
from typing import Any

from hw.camera.sources import FULL_VIEW, Frame, View
from hw.clock import now_ns


class WebcamSource:
    """A V4L2 webcam through pygame.camera; the zones' union is cropped from each frame here."""

    def __init__(self, device: str, size: tuple[int, int] = (1920, 1080)):
        self.device = device
        self.size = size
        self.cam: Any = None
        self.crop: View = FULL_VIEW

    def open(self, crop: View) -> None:
        import pygame.camera

        pygame.camera.init()
        try:
            cam = pygame.camera.Camera(self.device, self.size, "RGB")
            cam.start()
        except (SystemError, OSError, ValueError) as error:
            raise OSError(f"cannot open {self.device}: {error}") from error
        self.cam = cam
        self.size = cam.get_size()
        self.crop = crop

    def read(self, timeout: float) -> Frame | None:
        import pygame
        from PIL import Image

        if self.cam is None:
            raise OSError("the webcam is not open")
        end = time.monotonic() + timeout
        try:
            while not self.cam.query_image():
                if time.monotonic() >= end:
                    return None
                time.sleep(0.005)
            surface = self.cam.get_image()
        except SystemError as error:  # pygame reports a vanished V4L2 device this way
            raise OSError(str(error)) from error
        t_ns = now_ns()
        w, h = surface.get_size()
        image = Image.frombytes("RGB", (w, h), pygame.image.tobytes(surface, "RGB")).convert("L")
        x0, y0, x1, y1 = self.crop
        box = (round(x0 * w), round(y0 * h), round(x1 * w), round(y1 * h))
        return Frame(image.crop(box), t_ns, self.crop)

    def close(self) -> None:
        cam, self.cam = self.cam, None
        if cam is not None:
            cam.stop()
