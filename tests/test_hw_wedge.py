"""The real `WedgeScanner` loop against a stand-in for python-evdev whose device is a FIFO of input_event structs.

There is no /dev/uinput here, so the third-party `evdev` module is replaced by a small
fake with the same surface (InputDevice(path).fd/read/grab/ungrab/close, ecodes); the
FIFO carries real `struct input_event` records, and unplugging is the FIFO going away.
"""

from __future__ import annotations

import errno
import os
import queue
import struct
import sys
import types

import pytest

from hw.inputs import CardScan
from hw.wedge import WedgeScanner

WAIT = 10.0
EVENT = struct.Struct("llHHi")
EV_KEY = 1
KEYS = {"KEY_LEFTSHIFT": 42, "KEY_ENTER": 28, "KEY_SEMICOLON": 39, "KEY_DOT": 52, "KEY_3": 4, "KEY_8": 9,
        "KEY_A": 30, "KEY_K": 37, "KEY_I": 23, "KEY_2": 3}


def make_fake_evdev(grabs: list):
    class InputEvent:
        def __init__(self, sec, usec, type_, code, value):
            self.sec, self.usec, self.type, self.code, self.value = sec, usec, type_, code, value

    class InputDevice:
        def __init__(self, path):
            self.path = path
            self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)

        def grab(self):
            grabs.append(("grab", self.path))

        def ungrab(self):
            grabs.append(("ungrab", self.path))

        def read(self):
            data = os.read(self.fd, EVENT.size * 64)
            if not data:
                raise OSError(errno.ENODEV, "No such device")
            return [InputEvent(*EVENT.unpack_from(data, i)) for i in range(0, len(data) - EVENT.size + 1,
                                                                             EVENT.size)]

        def close(self):
            os.close(self.fd)

    ecodes = types.SimpleNamespace(EV_KEY=EV_KEY, KEY={code: name for name, code in KEYS.items()})
    module = types.ModuleType("evdev")
    module.InputDevice = InputDevice
    module.ecodes = ecodes
    return module


def typing_events(keys: list[str]) -> bytes:
    out = b""
    for k in keys:
        if k == "+SHIFT":
            out += EVENT.pack(0, 0, EV_KEY, KEYS["KEY_LEFTSHIFT"], 1)
        elif k == "-SHIFT":
            out += EVENT.pack(0, 0, EV_KEY, KEYS["KEY_LEFTSHIFT"], 0)
        else:
            down, sync, up = (EVENT.pack(0, 0, EV_KEY, KEYS[k], 1), EVENT.pack(0, 0, 0, 0, 0),
                              EVENT.pack(0, 0, EV_KEY, KEYS[k], 0))
            out += down + sync + up
    return out


CODE = ["+SHIFT", "KEY_A", "KEY_K", "KEY_SEMICOLON", "-SHIFT", "KEY_8", "KEY_DOT", "+SHIFT", "KEY_I", "KEY_I",
        "KEY_3", "-SHIFT", "KEY_2", "KEY_ENTER"]


@pytest.fixture
def fake_evdev(monkeypatch):
    grabs: list = []
    fake = make_fake_evdev(grabs)
    monkeypatch.setitem(sys.modules, "evdev", fake)
    monkeypatch.setitem(sys.modules, "evdev.ecodes", fake.ecodes)
    return grabs


def test_wedge_scanner_reads_grabs_survives_unplug_and_releases(fake_evdev, tmp_path):
    path = tmp_path / "usb-scanner-event-kbd"
    os.mkfifo(path)
    q: queue.Queue = queue.Queue()
    sc = WedgeScanner("west", str(path), q, retry_s=(0.02, 0.1)).start()
    try:
        assert sc.connected.wait(WAIT)
        writer = os.open(path, os.O_WRONLY)
        os.write(writer, typing_events(CODE))
        got = q.get(timeout=WAIT)
        assert (type(got), got.code, got.reader) == (CardScan, "AK:8.II#2", "west")
        opens = sc.opens
        path.unlink()       # the device node goes away …
        os.close(writer)    # … and its reads end
        assert q.get(timeout=WAIT).reason == "disconnected"
        os.mkfifo(path)
        assert sc.wait_opened(opens, WAIT)
        assert q.get(timeout=WAIT).reason == "reconnected"
        writer = os.open(path, os.O_WRONLY)
        os.write(writer, typing_events(["KEY_8", "KEY_ENTER"]))
        assert q.get(timeout=WAIT).reason == "not-a-card"
    finally:
        sc.stop()
        os.close(writer)
    assert fake_evdev[0] == ("grab", str(path))
    assert fake_evdev.count(("grab", str(path))) == 2
    assert fake_evdev[-1] == ("ungrab", str(path))


def test_wedge_scanner_without_evdev_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "evdev", None)  # import evdev → ImportError
    with pytest.raises(RuntimeError, match=r"tabletop-referee\[hid\]"):
        WedgeScanner("w", "/dev/input/none", print).start()
