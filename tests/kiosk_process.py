"""A real `referee-kiosk --sim` process, driven through its control socket as a script at the table would."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

E2E_CONFIG = Path(__file__).parent / "data" / "table.e2e.toml"
GUARD_MARK = "display loop guard:"  # how kiosk/app/app.py logs an error its display-loop guard caught
CUT_MARK = "text cut:"  # how kiosk/drawing/render.py logs a text it cut (kiosk.drawing.render.CUT_MARK)


class KioskProcess:
    # Every kiosk started during the current test: tests/conftest.py fails a test that leaves a guarded error
    # behind in one of them, unless the test set `expect_guarded_errors` on it (it injects faults on purpose).
    started: ClassVar[list[KioskProcess]] = []

    def __init__(self, data_dir: Path, extra: list[str] | None = None, env: dict[str, str] | None = None):
        KioskProcess.started.append(self)
        self.expect_guarded_errors = False
        self.expect_cut_texts = False
        self.data_dir = data_dir
        self.control = data_dir / "control.sock"
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", **(env or {})}
        env.pop("NOTIFY_SOCKET", None)
        if self.control.exists():
            self.control.unlink()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the process; closed by GC)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kiosk", "--sim", "--data-dir", str(data_dir), "--control", str(self.control),
             "--demo-after", "0", "--lang", "en", "--config", str(E2E_CONFIG), *(extra or [])],
            env=env, stdout=subprocess.DEVNULL, stderr=self._stderr)
        self.sock: socket.socket | None = None
        self._buf = b""
        self._taps: dict[tuple[Any, Any], float] = {}
        deadline = time.monotonic() + 60
        while self.sock is None:
            if self.proc.poll() is not None:
                raise RuntimeError(f"kiosk exited: {self.stderr_text()[-2000:]}")
            if time.monotonic() > deadline:
                raise TimeoutError("kiosk control socket did not appear")
            try:
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.connect(str(self.control))
                self.sock = sock
            except OSError:
                time.sleep(0.05)
        self.sock.settimeout(30)

    def guarded_errors(self) -> list[str]:
        """The lines the display loop's guard logged (each caught error, with its traceback below it)."""
        return [line for line in self.stderr_text().splitlines() if GUARD_MARK in line]

    def cut_texts(self) -> list[str]:
        """The texts the renderer logged as cut or drawn too small (each once)."""
        return [line for line in self.stderr_text().splitlines() if CUT_MARK in line]

    def stderr_text(self) -> str:
        """What the kiosk logged so far (a file, not a pipe: a pipe nobody reads would block its logging)."""
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    # A finger needs far longer than the 10 ms debounce to press a button again; the driver waits as
    # long between two taps of the same button (at machine speed a second tap would be bounce).
    TAP_GAP_S = 0.03

    def cmd(self, cmd: str, **fields: Any) -> dict[str, Any]:
        assert self.sock is not None
        if cmd == "tap":
            key = (fields.get("seat"), fields.get("button"))
            last = self._taps.get(key)
            wait = 0.0 if last is None else self.TAP_GAP_S - (time.monotonic() - last)
            if wait > 0:
                time.sleep(wait)
            self._taps[key] = time.monotonic()
        self.sock.sendall(json.dumps({"cmd": cmd, **fields}).encode() + b"\n")
        while b"\n" not in self._buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("kiosk closed the control socket")
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        reply = json.loads(line)
        assert reply.get("ok"), reply
        return reply

    def send_line(self, line: bytes) -> dict[str, Any] | None:
        """One raw line (any bytes) and its reply, whatever it says (drills send garbage)."""
        assert self.sock is not None
        self.sock.sendall(line + b"\n")
        while b"\n" not in self._buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("kiosk closed the control socket")
            self._buf += chunk
        answer, _, self._buf = self._buf.partition(b"\n")
        try:
            return json.loads(answer)
        except ValueError:
            return None

    def send_raw(self, request: dict[str, Any]) -> dict[str, Any]:
        """A request and its reply, not asserted ok."""
        return self.send_line(json.dumps(request).encode()) or {}

    def state(self) -> dict[str, Any]:
        return self.cmd("state")

    def touch(self, action: str) -> dict[str, Any]:
        return self.cmd("touch", action=action)["screen"]

    def wait(self, predicate, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if predicate(state):
                return state
            if time.monotonic() > deadline:
                raise TimeoutError(f"kiosk state never matched; last {state}")
            time.sleep(0.01)

    def wait_events(self, count: int, timeout: float = 20.0) -> dict[str, Any]:
        return self.wait(lambda s: s.get("events") == count, timeout)

    def admin_menu(self, pin: str = "1234", own: str = "2468") -> dict[str, Any]:
        """The admin menu through its PIN pad; the default PIN first makes staff choose their own (`own`)."""
        self.cmd("admin")
        screen: dict[str, Any] = {}
        for entry in (pin, own, own):
            for digit in entry:
                self.touch(f"key:{digit}")
            screen = self.touch("key:OK")
            if screen.get("mode") == "menu":
                return screen
        raise AssertionError(f"the admin menu did not open: {screen}")

    def game_with_one_card(self) -> None:
        """A game in progress, in the log: Die magische 7 for two, Anna's 7 laid (the e2e config's seats)."""
        self.touch("game:magische-7")
        self.touch("count:2")
        self.touch("start")
        self.cmd("scan", code="M7:7", reader="Anna")
        self.wait_events(1)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()
        if self.sock is not None:
            self.sock.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.sock is not None:
            self.sock.close()
