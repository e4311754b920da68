"""The simulated table: the real adapters on gpiozero mock pins and pseudo-terminals.

`SimTable` builds the same `hw.table.Table` the kiosk uses on real hardware, but
on a `MockFactory` of `TimedMockPin`s (a press drives the button's mock pin low,
with a chosen edge time if given) and, for every serial or "sim" scanner, on a
pseudo-terminal reached through a stable symlink, so `SerialScanner` reads real
bytes from a real tty and survives `unplug()` / `replug()` like a USB scanner.
Wedge scanners become `TypedScanner`s fed with typed text.

Drive it from
- the keyboard: `key(name, down)` with the per-seat key map of the config (`keys`);
- typed codes: `type_text("AK:8.II\\n", reader)`;
- a control socket: `serve(path)` accepts JSON lines on a UNIX socket, one
  command per line, one JSON reply per line:

      {"cmd": "press", "seat": "Anna", "button": "slap", "t_ns": 123456789}
      {"cmd": "release", "seat": "Anna", "button": "slap"}
      {"cmd": "tap", "seat": "Ben", "button": "confirm"}
      {"cmd": "scan", "code": "AK:8.II#1", "reader": "Anna"}
      {"cmd": "type", "text": "AK:8.II\\n", "reader": "table"}
      {"cmd": "raw", "reader": "Anna", "hex": "ff00 0d"}
      {"cmd": "unplug", "reader": "Anna"}   {"cmd": "replug", "reader": "Anna"}
      {"cmd": "ping"}  {"cmd": "seats"}  {"cmd": "readers"}  {"cmd": "help"}

  With a `[camera]` in the config, the simulated overhead camera (`hw.camera.sim`) adds
  `lay`, `cover`, `uncover`, `take` and `camera` (unplug / replug / stall / resume).

  → {"ok": true, ...} or {"ok": false, "error": "..."}. The kiosk adds commands
  (`screenshot`, `state`) with `add_command(name, handler)`; a handler gets the
  request dict, runs on the socket's thread and returns a dict (merged into the
  reply) or None.

Run standalone: `python -m hw.sim [--config FILE] [--socket PATH]` prints every
input as a JSON line; `python -m hw.sim --send PATH '{"cmd": "ping"}'` sends one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import queue
import selectors
import socket
import struct
import sys
import tempfile
import threading
import tty
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from hw.buttons import BUTTONS
from hw.config import TableConfig, load, load_default_sim
from hw.mockpins import timed_mock_factory
from hw.scanners import TERMINATORS
from hw.sinks import as_sink
from hw.table import Table
from hw.wedge import TypedScanner

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], "dict[str, Any] | None"]


class SimSerialDevice:
    """A simulated serial scanner: a pseudo-terminal whose slave is reached through a stable symlink."""

    def __init__(self, link: str | Path):
        self.link = Path(link)
        self.master = self.slave = -1
        self.plug()

    @property
    def plugged(self) -> bool:
        return self.master >= 0

    def plug(self) -> None:
        if self.plugged:
            return
        master, slave = os.openpty()
        tty.setraw(master)
        tmp = self.link.with_name(self.link.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.link)
        self.master, self.slave = master, slave

    def unplug(self) -> None:
        """The device disappears: its path goes away and the reader's next read fails."""
        if not self.plugged:
            return
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        os.close(self.master)
        os.close(self.slave)
        self.master = self.slave = -1

    def write(self, data: bytes) -> None:
        if not self.plugged:
            raise OSError("the simulated scanner is unplugged")
        view = memoryview(data)
        while view:
            n = os.write(self.master, view)
            view = view[n:]

    close = unplug


class SimTable:
    """A table of simulated hardware driving the real adapters. Use as a context manager."""

    def __init__(self, config: TableConfig | None = None, sink: Any = None, *, workdir: str | Path | None = None):
        self.config = config or load_default_sim()
        self.inputs: queue.Queue | None = None
        if sink is None:
            self.inputs = queue.Queue()
            sink = self.inputs
        self.sink = as_sink(sink)
        self._tmp = None
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
        self.commands: dict[str, Handler] = {}
        self._servers: list[ControlServer] = []
        self.table: Table | None = None
        self.camera_scene: Any = None  # hw.camera.sim.TableScene when the config has [camera]
        if self.config.camera is not None:
            from hw.camera import sim as camera_sim

            self.camera_scene = camera_sim.TableScene(self.config.camera)
            self.commands.update(camera_sim.commands(self.camera_scene))

    # -- lifecycle
    def open(self) -> SimTable:
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
        for name, scanner in self.table.scanners.items():
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

    def __enter__(self) -> SimTable:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- buttons
    def pin(self, seat: str, button: str) -> Any:
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r} (one of {', '.join(BUTTONS)})")
        try:
            return self.table.buttons.pin(seat, button)
        except KeyError:
            raise ValueError(f"unknown seat {seat!r}") from None

    def _drive(self, seat: str, button: str, active: bool, t_ns: int | None) -> None:
        pin = self.pin(seat, button)
        dev = self.table.buttons.devices[seat, button]
        high = active == dev._active_state  # the level that means "pressed" (gpiozero keeps it private)
        if high:
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
        if reader not in self.table.scanners:
            raise ValueError(f"unknown reader {reader!r} (readers: {', '.join(self.table.scanners)})")
        return reader

    def raw(self, data: bytes, reader: str | None = None) -> None:
        """Bytes from a scanner, exactly as given (noise, partial lines …)."""
        name = self._reader(reader)
        scanner = self.table.scanners[name]
        if isinstance(scanner, TypedScanner):
            scanner.protocol.data_received(data)
        else:
            self.devices[name].write(data)

    def type_text(self, text: str, reader: str | None = None) -> None:
        """Typed text; each newline ends a line, sent with the reader's own terminator."""
        name = self._reader(reader)
        scanner = self.table.scanners[name]
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
        scanner = self.table.scanners[self._reader(reader)]
        opens = scanner.opens
        device.plug()
        return scanner.wait_opened(opens, timeout)

    def _serial_device(self, reader: str) -> SimSerialDevice:
        name = self._reader(reader)
        if name not in self.devices:
            raise ValueError(f"reader {name!r} is a typed (wedge) scanner: nothing to unplug")
        return self.devices[name]

    def _config_of(self, reader: str) -> Any:
        return next(sc for sc in self.config.scanners if sc.name == reader)

    # -- control socket
    def add_command(self, name: str, handler: Handler) -> None:
        """Extend the control socket (e.g. the kiosk's `screenshot`, `state`)."""
        self.commands[name] = handler

    def serve(self, path: str | Path) -> ControlServer:
        server = ControlServer(path, self.handle)
        self._servers.append(server)
        return server.start()

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """Run one control command; the reply dict always has "ok"."""
        if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
            return {"ok": False, "error": 'a command is a JSON object with a string "cmd"'}
        cmd = request["cmd"]
        try:
            extra = self.commands.get(cmd)
            if extra is not None:
                return {"ok": True, **(extra(request) or {})}
            builtin = getattr(self, f"_cmd_{cmd}", None)
            if builtin is None:
                known = sorted([*self._builtin_names(), *self.commands])
                return {"ok": False, "error": f"unknown command {cmd!r} (known: {', '.join(known)})"}
            return {"ok": True, **(builtin(request) or {})}
        except KeyError as exc:
            return {"ok": False, "error": f"missing or unknown {exc}"}
        except Exception as exc:  # a bad command is answered, never fatal (OverflowError, pygame.error …)
            return {"ok": False, "error": str(exc) or type(exc).__name__}

    def _builtin_names(self) -> list[str]:
        return [n[5:] for n in dir(self) if n.startswith("_cmd_")]

    @staticmethod
    def _t(req: dict[str, Any]) -> int | None:
        t = req.get("t_ns")
        if t is not None and (isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < 1 << 63):
            raise ValueError("t_ns must be an integer 0 .. 2**63-1 (monotonic nanoseconds)")
        return t

    def _cmd_ping(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"pong": True}

    def _cmd_help(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"commands": sorted([*self._builtin_names(), *self.commands])}

    def _cmd_seats(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"seats": [{"name": s.name, "keys": s.keys} for s in self.config.seats]}

    def _cmd_readers(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"readers": [{"name": sc.name, "seat": sc.seat, "type": sc.type,
                             "plugged": self.devices[sc.name].plugged if sc.name in self.devices else True}
                            for sc in self.config.scanners]}

    def _cmd_press(self, req: dict[str, Any]) -> None:
        self.press(req["seat"], req["button"], self._t(req))

    def _cmd_release(self, req: dict[str, Any]) -> None:
        self.release(req["seat"], req["button"], self._t(req))

    def _cmd_tap(self, req: dict[str, Any]) -> None:
        self.tap(req["seat"], req["button"], self._t(req), float(req.get("hold_ms", 60.0)))

    def _cmd_key(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"mapped": self.key(req["key"], bool(req.get("down", True)), self._t(req))}

    def _cmd_scan(self, req: dict[str, Any]) -> None:
        self.scan(req["code"], req.get("reader"))

    def _cmd_type(self, req: dict[str, Any]) -> None:
        self.type_text(req["text"], req.get("reader"))

    def _cmd_raw(self, req: dict[str, Any]) -> None:
        self.raw(bytes.fromhex(req["hex"]), req.get("reader"))

    def _cmd_unplug(self, req: dict[str, Any]) -> None:
        self.unplug(req["reader"])

    def _cmd_replug(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"reconnected": self.replug(req["reader"])}


MAX_LINE = 1 << 20
SEND_TIMEOUT_S = 10.0  # a client that never reads its replies is dropped instead of blocking the thread


def _reply(reply: dict[str, Any]) -> bytes:
    return json.dumps(reply, allow_nan=False).encode() + b"\n"


class ControlServer:
    """JSON lines over a UNIX stream socket; one thread, woken only by connections, lines or `close()`."""

    def __init__(self, path: str | Path, handler: Handler):
        self.path = str(path)
        self.handler = handler
        self._sel = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._buffers: dict[socket.socket, bytearray] = {}
        self.allowed_uids = {os.getuid(), 0}

    def start(self) -> ControlServer:
        # Bound under a temporary name, made 0600, then renamed into place: whatever the umask, only the
        # kiosk's own user can ever connect by the real path (and `_allowed` checks each peer's uid too).
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        tmp = f"{self.path}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
        sock.bind(tmp)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)
        sock.listen(8)
        sock.setblocking(False)
        self._sock = sock
        self._sel.register(sock, selectors.EVENT_READ, "accept")
        self._sel.register(self._wake_r, selectors.EVENT_READ, "wake")
        self._thread = threading.Thread(target=self._run, name="sim-control", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while True:
            for key, _ in self._sel.select():
                if key.data == "wake":
                    return
                if key.data == "accept":
                    self._accept()
                    continue
                try:
                    self._read(key.fileobj)
                except Exception:  # whatever a client sends, the socket's thread lives on
                    log.exception("control socket: dropped a connection")
                    self._drop(key.fileobj)

    def _accept(self) -> None:
        try:
            conn, _ = self._sock.accept()
        except (BlockingIOError, InterruptedError, ConnectionAbortedError):
            return
        except OSError as exc:  # out of file descriptors: refuse this one, keep serving
            log.warning("control socket: accept failed: %s", exc)
            return
        if not self._allowed(conn):
            conn.close()
            return
        conn.setblocking(True)
        conn.settimeout(SEND_TIMEOUT_S)
        self._buffers[conn] = bytearray()
        self._sel.register(conn, selectors.EVENT_READ, "conn")

    def _allowed(self, conn: socket.socket) -> bool:
        """Only the kiosk's own user (or root) may drive the table: the peer's uid from SO_PEERCRED."""
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", creds)
        if uid in self.allowed_uids:
            return True
        log.warning("control socket: refused a connection from uid %d", uid)
        return False

    def _read(self, conn: socket.socket) -> None:
        try:
            data = conn.recv(65536)
        except OSError:
            data = b""
        if not data:
            self._drop(conn)
            return
        buf = self._buffers[conn]
        buf += data
        while (i := buf.find(b"\n")) >= 0:
            line = bytes(buf[:i]).strip()
            del buf[: i + 1]
            # Every line gets its reply, a blank one too (a client waiting for it would wait for ever).
            reply = self.answer(line) if line else _reply({"ok": False, "error": "an empty line is no command"})
            try:
                conn.sendall(reply)
            except OSError:
                self._drop(conn)
                return
        if len(buf) > MAX_LINE:
            with contextlib.suppress(OSError):
                conn.sendall(_reply({"ok": False, "error": f"line longer than {MAX_LINE} bytes: closing"}))
            self._drop(conn)

    def answer(self, line: bytes) -> bytes:
        """One request line → one reply line; every failure becomes {"ok": false, "error": …}."""
        try:
            request = json.loads(line)
        except (ValueError, RecursionError) as exc:  # RecursionError: 100,000 nested "["
            return _reply({"ok": False, "error": f"not JSON: {str(exc)[:200]}"})
        try:
            reply = self.handler(request)
        except Exception as exc:  # an extension's bug must not kill the socket
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        try:
            return _reply(reply)
        except (TypeError, ValueError, RecursionError) as exc:
            return _reply({"ok": False, "error": f"the reply is not JSON: {exc}"})

    def _drop(self, conn: socket.socket) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self._sel.unregister(conn)
        self._buffers.pop(conn, None)
        conn.close()

    def close(self) -> None:
        if self._thread is None:
            return
        os.write(self._wake_w, b"x")
        self._thread.join(5)
        self._thread = None
        for conn in list(self._buffers):
            self._drop(conn)
        self._sel.close()
        if self._sock is not None:
            self._sock.close()
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)


class ControlClient:
    """A script's end of the control socket."""

    def __init__(self, path: str | Path, timeout: float = 10.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(path))
        self.file = self.sock.makefile("rb")

    def send(self, cmd: str, **args: Any) -> dict[str, Any]:
        self.sock.sendall(json.dumps({"cmd": cmd, **args}).encode() + b"\n")
        line = self.file.readline()
        if not line:
            raise ConnectionError("the simulator closed the control socket")
        return json.loads(line)

    def close(self) -> None:
        self.file.close()
        self.sock.close()

    def __enter__(self) -> ControlClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def input_to_json(item: Any) -> str:
    return json.dumps({"input": type(item).__name__, **asdict(item)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hw.sim", description="Run the simulated table.")
    parser.add_argument("--config", help="table TOML (default: the simulation default)")
    parser.add_argument("--socket", default="referee-sim.sock", help="control socket path")
    parser.add_argument("--send", nargs=2, metavar=("SOCKET", "JSON"), help="send one command and print the reply")
    args = parser.parse_args(argv)
    if args.send:
        with ControlClient(args.send[0]) as client:
            request = json.loads(args.send[1])
            print(json.dumps(client.send(request.pop("cmd"), **request)))
        return 0
    config = load(args.config) if args.config else load_default_sim()
    with SimTable(config) as sim:
        sim.serve(args.socket)
        print(f"simulated table {config.name!r}: control socket {args.socket}", file=sys.stderr)
        try:
            while True:
                print(input_to_json(sim.inputs.get()), flush=True)
        except KeyboardInterrupt:
            return 0


if __name__ == "__main__":
    sys.exit(main())
