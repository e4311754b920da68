"""The simulated table: real adapters on mock pins and ptys, driven by keys, typed codes and the control socket."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
import threading

import pytest

from hw.config import loads
from hw.inputs import ButtonPress, CardScan, ReaderNews
from hw.sim import ControlClient, SimHardware

WAIT = 10.0
MS = 1_000_000


@pytest.fixture
def sim(tmp_path):
    with SimHardware(workdir=tmp_path) as s:
        yield s


def get(sim, n=1):
    return [sim.inputs.get(timeout=WAIT) for _ in range(n)]


def test_presses_drive_the_real_bank_through_mock_pins(sim):
    sim.press("Anna", "slap", t_ns=5_000 * MS)
    assert sim.table.buttons.is_pressed("Anna", "slap")  # the mock pin is really low
    sim.release("Anna", "slap", t_ns=5_080 * MS)
    sim.tap("Ben", "confirm", t_ns=6_000 * MS)
    assert get(sim, 2) == [ButtonPress("Anna", "slap", 5_000 * MS), ButtonPress("Ben", "confirm", 6_000 * MS)]


def test_keyboard_keys_map_to_seat_buttons(sim):
    assert sim.key("w", down=True, t_ns=1_000 * MS)
    assert sim.key("w", down=False, t_ns=1_050 * MS)
    assert not sim.key("z")
    assert get(sim) == [ButtonPress("Ben", "slap", 1_000 * MS)]


def test_scans_go_through_a_real_pty_in_each_framing(sim):
    for reader in ("Anna", "Ben", "Cleo", "table"):  # CR, CRLF, LF, CR
        sim.scan("AK:8.II#1", reader)
        got = get(sim)[0]
        assert (type(got), got.code, got.reader) == (CardScan, "AK:8.II#1", reader)


def test_typed_text_and_raw_noise(sim):
    sim.type_text("M7:3\nnot a card\n", "Dev")
    sim.raw(b"\x01\x02\r", "Dev")
    got = get(sim, 3)
    assert [getattr(g, "code", None) or g.reason for g in got] == ["M7:3", "not-a-card", "noise"]


def test_unplug_and_replug_a_simulated_scanner(sim):
    sim.unplug("Anna")
    assert [g.reason for g in get(sim)] == ["disconnected"]
    assert sim.replug("Anna")
    assert [g.reason for g in get(sim)] == ["reconnected"]
    sim.scan("AO:2", "Anna")
    assert get(sim)[0].code == "AO:2"


def test_control_socket_drives_everything_and_reports_errors(sim, tmp_path):
    sock = tmp_path / "ctl.sock"
    sim.serve(sock)
    with ControlClient(sock) as c:
        assert c.send("ping") == {"ok": True, "pong": True}
        assert c.send("press", seat="Cleo", button="slap", t_ns=9_000 * MS) == {"ok": True}
        assert c.send("release", seat="Cleo", button="slap", t_ns=9_070 * MS) == {"ok": True}
        assert c.send("scan", code="PS:7.R", reader="Cleo") == {"ok": True}
        assert c.send("raw", reader="Cleo", hex="ff 0a") == {"ok": True}
        assert c.send("key", key="1", t_ns=9_500 * MS) == {"ok": True, "mapped": True}
        assert c.send("press", seat="Zoe", button="slap")["error"] == "unknown seat 'Zoe'"
        assert c.send("press", seat="Anna", button="kick")["ok"] is False
        assert c.send("press", seat="Anna", button="slap", t_ns="soon")["ok"] is False
        assert "unknown command" in c.send("dance")["error"]
        assert [r["name"] for r in c.send("readers")["readers"]] == ["Anna", "Ben", "Cleo", "Dev", "table"]
        c.sock.sendall(b"this is not json\n")
        assert c.file.readline().startswith(b'{"ok": false, "error": "not JSON')
    got = get(sim, 4)  # buttons arrive synchronously, scans from the reader thread: compare per source
    presses = [g for g in got if isinstance(g, ButtonPress)]
    from_scanner = [g for g in got if not isinstance(g, ButtonPress)]
    assert presses == [ButtonPress("Cleo", "slap", 9_000 * MS), ButtonPress("Anna", "confirm", 9_500 * MS)]
    assert (from_scanner[0].code, from_scanner[0].reader) == ("PS:7.R", "Cleo")
    assert isinstance(from_scanner[1], ReaderNews) and from_scanner[1].reason == "not-ascii"


def test_control_socket_is_extensible_by_the_kiosk(sim, tmp_path):
    shots = []
    sim.add_command("screenshot", lambda req: shots.append(req["path"]) or {"saved": req["path"]})
    sim.add_command("state", lambda req: {"state": {"turn": "Anna"}})
    sim.add_command("boom", lambda req: 1 / 0)
    sock = tmp_path / "ctl.sock"
    sim.serve(sock)
    with ControlClient(sock) as c:
        assert c.send("screenshot", path="/tmp/x.png") == {"ok": True, "saved": "/tmp/x.png"}
        assert c.send("state") == {"ok": True, "state": {"turn": "Anna"}}
        assert c.send("boom")["ok"] is False
        assert "screenshot" in c.send("help")["commands"]
        assert c.send("ping")["ok"]  # still serving after a failing extension
    assert shots == ["/tmp/x.png"]


def test_two_scripts_at_once(sim, tmp_path):
    sock = tmp_path / "ctl.sock"
    sim.serve(sock)
    results = []

    def script(seat, t):
        with ControlClient(sock) as c:
            results.append(c.send("tap", seat=seat, button="slap", t_ns=t))

    threads = [threading.Thread(target=script, args=(s, (20_000 + i) * MS)) for i, s in enumerate(["Anna", "Dev"])]
    for th in threads:
        th.start()
    for th in threads:
        th.join(WAIT)
    assert results == [{"ok": True}, {"ok": True}]
    assert sorted(p.seat for p in get(sim, 2)) == ["Anna", "Dev"]


def test_wedge_scanners_are_simulated_by_typed_text(tmp_path):
    config = loads('[seats.a]\nconfirm = 5\nslap = 6\n[scanners.w]\ntype = "wedge"\ndevice = "/dev/input/none"\n')
    with SimHardware(config, workdir=tmp_path) as sim:
        sim.scan("AC:K", "w")
        got = get(sim)[0]
        assert (type(got), got.code, got.reader) == (CardScan, "AC:K", "w")
        with pytest.raises(ValueError, match="nothing to unplug"):
            sim.unplug("w")


def test_hw_opens_no_optional_backend_at_import_time():
    """evdev, lgpio and RPi are imported when an adapter opens, never by importing hw (the layers, what hw must not
    import at all, are tests/test_layers.py's)."""
    code = ("import sys, hw, hw.sim, hw.table, hw.config, hw.buttons, hw.scanners, hw.wedge, hw.race, hw.mockpins;"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('evdev', 'lgpio', 'RPi')];"
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_bad_commands_are_answered_and_the_socket_lives_on(sim, tmp_path):
    sock = tmp_path / "ctl.sock"
    sim.serve(sock)
    with ControlClient(sock) as c:
        c.sock.sendall(b"[" * 100_000 + b"\n")
        assert json.loads(c.file.readline())["error"].startswith("not JSON")
        c.sock.sendall(b'{"cmd": "ping"' + b"\xff\xfe\n")
        assert json.loads(c.file.readline())["ok"] is False
        assert c.send("tap", seat="Anna", button="slap", t_ns=1, hold_ms=1e308)["ok"] is False
        assert c.send("tap", seat="Anna", button="slap", t_ns=10**40)["ok"] is False
        assert c.send("raw", reader="Anna", hex=5)["ok"] is False
        assert c.send("scan")["error"] == "missing or unknown 'code'"
        assert c.send("unplug", reader=["x"])["ok"] is False
        c.sock.sendall(b"   \n")
        assert json.loads(c.file.readline())["error"] == "an empty line is no command"
        c.sock.sendall(json.dumps([1, 2]).encode() + b"\n")
        assert json.loads(c.file.readline())["ok"] is False
        assert c.send("ping") == {"ok": True, "pong": True}


def test_an_endless_line_gets_an_answer_and_the_connection_closes(sim, tmp_path):
    sock = tmp_path / "ctl.sock"
    sim.serve(sock)
    with ControlClient(sock) as c:
        with contextlib.suppress(OSError):
            c.sock.sendall(b"x" * (2 << 20))
        assert "longer than" in json.loads(c.file.readline())["error"]
    with ControlClient(sock) as c:
        assert c.send("ping")["ok"]


def test_the_socket_is_private_whatever_the_umask(sim, tmp_path):
    sock = tmp_path / "ctl.sock"
    old = os.umask(0)
    try:
        sim.serve(sock)
    finally:
        os.umask(old)
    assert stat.S_IMODE(sock.stat().st_mode) == 0o600
    assert not list(tmp_path.glob("*.tmp"))


def test_a_peer_of_another_uid_is_refused(sim, tmp_path):
    sock = tmp_path / "ctl.sock"
    server = sim.serve(sock)
    server.allowed_uids = {os.getuid() + 4242}  # this test's own uid is now "someone else"
    with ControlClient(sock) as c:
        try:
            c.sock.sendall(b'{"cmd": "ping"}\n')
            answer = c.file.readline()
        except (BrokenPipeError, ConnectionResetError):
            answer = b""
        assert answer == b""  # closed without an answer
    server.allowed_uids = {os.getuid()}
    with ControlClient(sock) as c:
        assert c.send("ping")["ok"]
