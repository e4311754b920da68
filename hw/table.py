"""The table's hardware from its config: one `ButtonBank`, the seat lights, a reader per scanner, the camera.

Nothing is opened until `open()`. The kiosk (composition root) builds one `Table`
with a `queue.Queue` as sink and reads typed inputs from it; the simulator builds
the same `Table` on mock pins and pseudo-terminals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hw.buttons import ButtonBank
from hw.config import TableConfig
from hw.lights import SeatLights
from hw.scanners import SerialScanner
from hw.sinks import as_sink
from hw.wedge import TypedScanner, WedgeScanner


def pin_factory_named(name: str) -> Any:
    """A gpiozero pin factory by its entry-point name (lgpio, rpigpio, pigpio, native, mock)."""
    from importlib.metadata import entry_points

    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name == name:
            return ep.load()()
    raise ValueError(f"no gpiozero pin factory named {name!r}")


def camera_source_for(camera: Any) -> Any:
    """The frame source `[camera]` names when hw makes it (picamera2); nothing is opened yet."""
    from hw.camera.sources import Picamera2Source

    if camera.source == "picamera2":
        return Picamera2Source(camera.fps)
    if camera.source == "v4l2":
        raise ValueError("a V4L2 webcam's frame source is the kiosk's (kiosk.hardware.webcam): "
                         "pass it as camera_source")
    raise ValueError('the camera is simulated (source = "sim"): run it with hw.sim')


class Table:
    """Buttons and scanners of one table.

    `pin_factory`: a gpiozero factory; default: the config's `pin_factory`, else
    gpiozero's own choice. `ports`: scanner id → port path overriding the config
    (the simulator's pseudo-terminals). `typed_wedges`: wedge scanners become
    `TypedScanner`s fed with text (simulation). `camera_source`: the overhead camera's frame source
    (the simulated camera's); default: the one `[camera]` names.
    """

    def __init__(self, config: TableConfig, sink: Any, *, pin_factory: Any = None,
                 ports: Mapping[str, str] | None = None, typed_wedges: bool = False, camera_source: Any = None):
        self.config = config
        self.sink = as_sink(sink)
        self.pin_factory = pin_factory
        self.ports = dict(ports or {})
        self.typed_wedges = typed_wedges
        self.buttons: ButtonBank | None = None
        self.lights: SeatLights | None = None
        self.scanners: dict[str, Any] = {}
        self.camera_source = camera_source
        self.camera: Any = None  # hw.camera.reader.CameraReader when the config has [camera]
        self.seat_of_reader = {sc.name: sc.seat for sc in config.scanners}

    def open(self) -> Table:
        if self.buttons is not None:
            return self
        factory = self.pin_factory
        if factory is None and self.config.pin_factory:
            factory = self.pin_factory = pin_factory_named(self.config.pin_factory)
        try:
            self.buttons = ButtonBank(self.config.button_pins(), self.sink, pin_factory=factory,
                                      debounce_ms=self.config.debounce_ms).open()
            # The seat lights on the buttons' own factory (None: the same gpiozero default the buttons got).
            buttons = {seat: [dev for (s, _), dev in self.buttons.devices.items() if s == seat]
                       for seat in (p.seat for p in self.config.light_pins())}
            self.lights = SeatLights(self.config.light_pins(), pin_factory=factory, buttons=buttons).open()
            for sc in self.config.scanners:
                self.scanners[sc.name] = self._scanner(sc).start()
            if self.config.camera is not None:
                from hw.camera.reader import CameraReader

                source = self.camera_source or camera_source_for(self.config.camera)
                self.camera = CameraReader(self.config.camera, source, self.sink).start()
        except BaseException:
            self.close()
            raise
        return self

    def _scanner(self, sc: Any) -> Any:
        if sc.type == "wedge" and not self.typed_wedges:
            return WedgeScanner(sc.name, sc.device, self.sink, framing=sc.framing, dedupe_ms=sc.dedupe_ms)
        if sc.type == "wedge":
            return TypedScanner(sc.name, self.sink, framing=sc.framing, dedupe_ms=sc.dedupe_ms)
        port = self.ports.get(sc.name, sc.port)
        if port is None:
            raise ValueError(f"scanner {sc.name!r} is simulated (type = \"sim\"): run it with hw.sim")
        return SerialScanner(sc.name, port, self.sink, baudrate=sc.baud, framing=sc.framing, dedupe_ms=sc.dedupe_ms)

    def close(self) -> None:
        if self.camera is not None:
            self.camera.stop()
            self.camera = None
        for scanner in self.scanners.values():
            scanner.stop()
        self.scanners.clear()
        if self.lights is not None:
            self.lights.close()
            self.lights = None
        if self.buttons is not None:
            self.buttons.close()
            self.buttons = None

    def __enter__(self) -> Table:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()
