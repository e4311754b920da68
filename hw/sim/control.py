"""The control socket: JSON lines over a UNIX stream socket, one request line → one reply line.

`ControlServer` serves a handler (the simulated table's `SimHardware.handle`, which the kiosk extends with its
own commands) on one thread; `ControlClient` is a script's end of it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import selectors
import socket
import struct
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

Handler = Callable[[Any], dict[str, Any]]
"""One request (the parsed JSON line, whatever it is) → its reply, which always has "ok"."""


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
                conn = key.fileobj
                if not isinstance(conn, socket.socket):
                    continue
                try:
                    self._read(conn)
                except Exception:  # whatever a client sends, the socket's thread lives on
                    log.exception("control socket: dropped a connection")
                    self._drop(conn)

    def _accept(self) -> None:
        if self._sock is None:
            return
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
        reply: dict[str, Any] = json.loads(line)
        return reply

    def close(self) -> None:
        self.file.close()
        self.sock.close()

    def __enter__(self) -> ControlClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
