"""Frame sources behind one port: `open(crop)`, `read(timeout)` → `Frame` or None, `close()`.

- `Picamera2Source`: a Raspberry Pi camera through picamera2. The ISP crops to the zones' union
  (`ScalerCrop`, in sensor pixels) and the stream has the crop's own size, so zones keep full pixel
  density; frames are YUV420 and the Y plane is the grey picture zxing-cpp wants. picamera2 is Pi OS's
  apt package `python3-picamera2` (libcamera's Python bindings cannot come from pip); `camera` takes
  any object with picamera2's methods, which is how the simulated camera (`hw.camera.sim.SimPicamera2`)
  feeds this same code path in tests.
- A V4L2 webcam's source is the kiosk's (`kiosk.hardware.webcam.WebcamSource`, through `pygame.camera`: hw does
  not import pygame); the kiosk hands it to `hw.table.Table(camera_source=…)`.

`read` raises OSError when the device is gone; it returns None when no frame came within `timeout`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from hw.clock import now_ns

View = tuple[float, float, float, float]
FULL_VIEW: View = (0.0, 0.0, 1.0, 1.0)


@dataclass(frozen=True, slots=True)
class Frame:
    """A grey picture (PIL "L"), when it was taken, and which part of the camera's full view it shows; `chroma`:
    its colour as YUV420's U and V planes at half size (numpy uint8), None from a source without colour."""

    image: Any
    t_ns: int
    view: View = FULL_VIEW
    chroma: Any = None

    def box(self, area: View) -> tuple[int, int, int, int]:
        """An area of the full view (fractions) → its pixel box in this frame, clipped to the frame."""
        vx0, vy0, vx1, vy1 = self.view
        w, h = self.image.size
        sx, sy = w / (vx1 - vx0), h / (vy1 - vy0)
        x0, y0 = round((area[0] - vx0) * sx), round((area[1] - vy0) * sy)
        x1, y1 = round((area[2] - vx0) * sx), round((area[3] - vy0) * sy)
        return max(0, x0), max(0, y0), min(w, x1), min(h, y1)


class FrameSource(Protocol):
    def open(self, crop: View) -> None: ...

    def read(self, timeout: float) -> Frame | None: ...

    def close(self) -> None: ...


def _even(n: float) -> int:
    return max(2, int(n) // 2 * 2)


class Picamera2Source:
    """picamera2 (or its simulated twin): ScalerCrop to the zones, YUV420 at the crop's full density."""

    def __init__(self, fps: float = 10.0, camera: Callable[[], Any] | None = None):
        self.fps = fps
        self.factory = camera or _picamera2
        self.cam: Any = None
        self.size = (0, 0)
        self.stride = 0
        self.view: View = FULL_VIEW

    def open(self, crop: View) -> None:
        cam = self.factory()
        try:
            sensor_w, sensor_h = cam.camera_properties["PixelArraySize"]
            x, y = _even(crop[0] * sensor_w), _even(crop[1] * sensor_h)
            w, h = _even((crop[2] - crop[0]) * sensor_w), _even((crop[3] - crop[1]) * sensor_h)
            self.view = (x / sensor_w, y / sensor_h, (x + w) / sensor_w, (y + h) / sensor_h)
            config = cam.create_video_configuration(
                main={"size": (w, h), "format": "YUV420"}, buffer_count=2,
                controls={"ScalerCrop": (x, y, w, h), "FrameRate": self.fps})
            cam.configure(config)
            self.size = tuple(cam.stream_configuration("main")["size"])
            self.stride = cam.stream_configuration("main")["stride"]
            cam.start()
        except Exception:
            cam.close()
            raise
        self.cam = cam

    def read(self, timeout: float) -> Frame | None:
        from PIL import Image

        if self.cam is None:
            raise OSError("the camera is not open")
        try:
            buffer = self.cam.capture_buffer("main", wait=timeout)
        except TimeoutError:
            return None
        t_ns = now_ns()
        w, h = self.size
        data = memoryview(buffer).cast("B")
        # (a memoryview is a buffer, which Pillow reads; its stub names bytes and arrays only)
        image = Image.frombuffer("L", (w, h), data[: self.stride * h], "raw", "L", self.stride,  # type: ignore[arg-type]
                                 1).copy()
        return Frame(image, t_ns, self.view, _chroma(data, self.stride, w, h))

    def close(self) -> None:
        cam, self.cam = self.cam, None
        if cam is not None:
            try:
                cam.stop()
            finally:
                cam.close()


def _chroma(data: memoryview, stride: int, w: int, h: int) -> Any:
    """The U and V planes of a YUV420 buffer (half size), or None when it holds only the Y plane."""
    if len(data) < stride * h * 3 // 2:
        return None
    import numpy as np

    planes = np.frombuffer(data, np.uint8, stride * h // 2, stride * h).reshape(2, h // 2, stride // 2)
    return planes[:, :, : w // 2].copy()


def _picamera2() -> Any:
    try:
        from picamera2 import Picamera2
    except ImportError as error:
        raise OSError("picamera2 is missing: on a Pi, apt install python3-picamera2 and give the venv "
                      "--system-site-packages (scripts/install-pi.sh)") from error
    try:
        return Picamera2()
    except (IndexError, RuntimeError) as error:  # no camera attached, or it is busy
        raise OSError(f"no camera: {error}") from error
