"""The simulated table: the real adapters (`hw.table.Table`) on gpiozero mock pins and pseudo-terminals,
driven by key, typed text and the control socket's commands (`hw.sim.commands`)."""

from __future__ import annotations

import queue
import tempfile
from pathlib import Path
from typing import Any

from hw.buttons import BUTTONS
from hw.config import ScannerConfig, TableConfig, load_default_sim
from hw.inputs import Input
from hw.mockpins import TimedMockPin, timed_mock_factory
from hw.scanners import TERMINATORS, SerialScanner
from hw.sim import commands as control_commands
from hw.sim.control import ControlServer
from hw.sim.serial_device import SimSerialDevice
from hw.sinks import as_sink
from hw.table import Table
from hw.wedge import TypedScanner


class SimHardware:
    """A table of simulated hardware driving the real adapters. Use as a context manager."""

    def __init__(self, config: TableConfig | None = None, sink: Any = None, *, workdir: str | Path | None = None):
        self.config = config or load_default_sim()
        self.inputs: queue.Queue[Input] | None = None
        if sink is None:
            self.inputs = queue.Queue()
            sink = self.inputs
        self.sink = as_sink(sink)
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if workdir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="referee-sim-")
            workdir = self._tmp.name
        self.workdir = Path(workdir)
        self.factory = timed_mock_factory()
        self.devices: dict[str, SimSerialDevice] = {}
        self.keymap: dict[str, tuple[str, str]] = {}
        for seat in self.config.seats:
            for button, key in seat.keys.items():
                self.keymap[key] = (seat.name, button)
        self.commands: dict[str, control_commands.Command] = control_commands.builtin(self)
        self._servers: list[ControlServer] = []
        self.table: Table | None = None
        self.camera_scene: Any = None  # hw.camera.sim.TableScene when the config has [camera]
        if self.config.camera is not None:
            from hw.camera import sim as camera_sim

            self.camera_scene = camera_sim.TableScene(self.config.camera)
            self.commands.update(camera_sim.commands(self.camera_scene))

    # -- lifecycle
    def open(self) -> SimHardware:
        if self.table is not None:
            return self
        ports = {}
        for sc in self.config.scanners:
            if sc.type != "wedge":
                device = SimSerialDevice(self.workdir / f"scanner-{sc.name}")
                self.devices[sc.name] = device
                ports[sc.name] = str(device.link)
        camera_source = None
        if self.camera_scene is not None:
            from hw.camera.sim import sim_source

            camera_source = sim_source(self.camera_scene)
        self.table = Table(self.config, self.sink, pin_factory=self.factory, ports=ports, typed_wedges=True,
                           camera_source=camera_source).open()
        self.wait_connected()
        return self

    def wait_connected(self, timeout: float = 10.0) -> bool:
        """Wait until every plugged simulated serial scanner has its port open."""
        ok = True
        for name, scanner in self.opened_table().scanners.items():
            if name in self.devices and self.devices[name].plugged:
                ok = scanner.connected.wait(timeout) and ok
        return ok

    def close(self) -> None:
        for server in self._servers:
            server.close()
        self._servers.clear()
        if self.table is not None:
            self.table.close()
            self.table = None
        for device in self.devices.values():
            device.close()
        self.devices.clear()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> SimHardware:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def opened_table(self) -> Table:
        if self.table is None:
            raise RuntimeError("the simulated table is not open")
        return self.table

    # -- buttons
    def pin(self, seat: str, button: str) -> TimedMockPin:
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r} (one of {', '.join(BUTTONS)})")
        buttons = self.opened_table().buttons
        if buttons is None:
            raise ValueError("this table has no seat buttons")
        try:
            pin: TimedMockPin = buttons.pin(seat, button)
        except KeyError:
            raise ValueError(f"unknown seat {seat!r}") from None
        return pin

    def _drive(self, seat: str, button: str, pressed: bool, t_ns: int | None) -> None:
        pin = self.pin(seat, button)
        wiring = next(p for p in self.config.button_pins() if (p.seat, p.button) == (seat, button))
        if pressed == wiring.pressed_level:  # the level of a pressed button: high, or low with a pull-up
            pin.drive_high(t_ns)
        else:
            pin.drive_low(t_ns)

    def press(self, seat: str, button: str, t_ns: int | None = None) -> None:
        """The button goes down at `t_ns` (monotonic ns; default now)."""
        self._drive(seat, button, True, t_ns)

    def release(self, seat: str, button: str, t_ns: int | None = None) -> None:
        self._drive(seat, button, False, t_ns)

    def tap(self, seat: str, button: str, t_ns: int | None = None, hold_ms: float = 60.0) -> None:
        self.press(seat, button, t_ns)
        up = None if t_ns is None else t_ns + round(hold_ms * 1_000_000)
        self.release(seat, button, up)

    def key(self, key: str, down: bool = True, t_ns: int | None = None) -> bool:
        """A keyboard key went down/up; True if it is a seat button in the key map."""
        hit = self.keymap.get(key)
        if hit is None:
            return False
        (self.press if down else self.release)(hit[0], hit[1], t_ns)
        return True

    # -- scanners
    def _reader(self, reader: str | None) -> str:
        if reader is None:
            if not self.config.scanners:
                raise ValueError("this table has no scanners")
            shared = [sc.name for sc in self.config.scanners if sc.seat is None]
            return shared[0] if shared else self.config.scanners[0].name
        scanners = self.opened_table().scanners
        if reader not in scanners:
            raise ValueError(f"unknown reader {reader!r} (readers: {', '.join(scanners)})")
        return reader

    def raw(self, data: bytes, reader: str | None = None) -> None:
        """Bytes from a scanner, exactly as given (noise, partial lines …)."""
        name = self._reader(reader)
        scanner = self.opened_table().scanners[name]
        if isinstance(scanner, TypedScanner):
            scanner.protocol.data_received(data)
        else:
            self.devices[name].write(data)

    def type_text(self, text: str, reader: str | None = None) -> None:
        """Typed text; each newline ends a line, sent with the reader's own terminator."""
        name = self._reader(reader)
        scanner = self.opened_table().scanners[name]
        if isinstance(scanner, TypedScanner):
            scanner.type_text(text)
            return
        end = TERMINATORS[self._config_of(name).framing.terminator]
        data = text.replace("\r\n", "\n").replace("\r", "\n").encode("utf-8", "replace").replace(b"\n", end)
        self.devices[name].write(data)

    def scan(self, code: str, reader: str | None = None) -> None:
        """A card is scanned: the code and the scanner's terminator."""
        name = self._reader(reader)
        sc = self._config_of(name)
        self.type_text(sc.framing.prefix + code + sc.framing.suffix + "\n", name)

    def unplug(self, reader: str) -> None:
        """Pull the scanner's cable: the reader reports "disconnected" and starts retrying."""
        self._serial_device(reader).unplug()

    def replug(self, reader: str, timeout: float = 10.0) -> bool:
        """Plug it back in; wait (up to `timeout`) until the reader has reopened it."""
        device = self._serial_device(reader)
        if device.plugged:
            return True
        scanner = self.opened_table().scanners[self._reader(reader)]
        if not isinstance(scanner, SerialScanner):
            raise ValueError(f"reader {reader!r} is no serial scanner")
        opens = scanner.opens
        device.plug()
        return scanner.wait_opened(opens, timeout)

    def _serial_device(self, reader: str) -> SimSerialDevice:
        name = self._reader(reader)
        if name not in self.devices:
            raise ValueError(f"reader {name!r} is a typed (wedge) scanner: nothing to unplug")
        return self.devices[name]

    def _config_of(self, reader: str) -> ScannerConfig:
        return next(sc for sc in self.config.scanners if sc.name == reader)

    # -- control socket
    def add_command(self, name: str, handler: control_commands.Command) -> None:
        """Extend the control socket (e.g. the kiosk's `screenshot`, `state`)."""
        self.commands[name] = handler

    def serve(self, path: str | Path) -> ControlServer:
        server = ControlServer(path, self.handle)
        self._servers.append(server)
        return server.start()

    def handle(self, request: Any) -> dict[str, Any]:
        """Run one control command; the reply dict always has "ok"."""
        return control_commands.answer(self.commands, request)
