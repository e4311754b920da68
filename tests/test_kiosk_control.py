"""The kiosk's control socket: bad requests are answered with an error and the kiosk keeps running."""

from __future__ import annotations

import json

import pytest

from tests.kiosk_process import KioskProcess


@pytest.fixture
def kiosk(tmp_path):
    k = KioskProcess(tmp_path)
    yield k
    k.close()


def raw(kiosk: KioskProcess, request: dict) -> dict:
    kiosk.sock.sendall(json.dumps(request).encode() + b"\n")
    while b"\n" not in kiosk._buf:
        kiosk._buf += kiosk.sock.recv(65536)
    line, _, kiosk._buf = kiosk._buf.partition(b"\n")
    return json.loads(line)


@pytest.mark.parametrize("request_", [
    {"cmd": "touch", "action": "choose:x"},
    {"cmd": "touch", "action": "game:nope"},
    {"cmd": "touch"},
    {"cmd": "touch", "action": {"a": 1}},
    {"cmd": "screenshot", "path": "/nonexistent/dir/shot.png"},
    {"cmd": "screenshot", "path": 5},
    {"cmd": "screenshot"},
    {"cmd": "screenshot", "path": "relative.png"},
])
@pytest.mark.slow
def test_a_bad_request_is_an_error_and_the_kiosk_lives_on(kiosk, tmp_path, request_):
    reply = raw(kiosk, request_)
    assert reply["ok"] is False and reply["error"], reply
    assert kiosk.proc.poll() is None
    shot = tmp_path / "after.png"
    assert kiosk.cmd("screenshot", path=str(shot))["ok"] and shot.stat().st_size > 0
    assert kiosk.state()["ok"]
