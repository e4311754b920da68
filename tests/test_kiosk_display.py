"""A kiosk without a working display fails loudly (log line, STATUS=, exit 69, no READY=1); only a simulation
or an explicit --headless renders with SDL's dummy driver."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from kiosk.__main__ import EX_UNAVAILABLE, _headless_needed


def run(tmp_path, driver: str, *args: str) -> tuple[int, str, list[str]]:
    notify = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.settimeout(0.5)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "JOURNAL_STREAM")}
    env.update(SDL_VIDEODRIVER=driver, NOTIFY_SOCKET=str(notify))
    proc = subprocess.run([sys.executable, "-m", "kiosk", "--data-dir", str(tmp_path / "data"), "--frames", "1",
                           *args], env=env, capture_output=True, text=True, timeout=120)
    messages = []
    try:
        while True:
            messages.append(listener.recv(4096).decode())
    except TimeoutError:
        pass
    listener.close()
    return proc.returncode, proc.stderr, messages


@pytest.mark.parametrize("driver", ["kmsdrm", "no-such-driver"])
def test_a_kiosk_without_a_display_exits_69_with_a_log_line_and_a_status(tmp_path, driver):
    code, stderr, messages = run(tmp_path, driver, "--kiosk")
    assert code == EX_UNAVAILABLE, stderr
    assert "critical: referee-kiosk: no working display" in stderr and "Traceback" not in stderr
    assert any(m.startswith("STATUS=no working display") for m in messages), messages
    assert not any("READY=1" in m for m in messages)


def test_a_simulation_without_a_display_falls_back_to_the_dummy_driver(tmp_path):
    code, stderr, messages = run(tmp_path, "no-such-driver", "--sim", "--control", str(tmp_path / "c.sock"))
    assert code == 0, stderr
    assert "warning: kiosk.loop.display: no working display" in stderr and "dummy" in stderr
    assert any("READY=1" in m for m in messages)


def test_the_dummy_driver_only_when_asked_or_simulated(monkeypatch):
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    assert _headless_needed(kiosk_mode=True, simulate=False, asked=True)
    assert not _headless_needed(kiosk_mode=True, simulate=False)
    assert not _headless_needed(kiosk_mode=False, simulate=False)
    assert _headless_needed(kiosk_mode=False, simulate=True)
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    assert not _headless_needed(kiosk_mode=True, simulate=True)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert _headless_needed(kiosk_mode=True, simulate=False)
