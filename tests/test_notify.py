"""sd_notify against a real NOTIFY_SOCKET: READY after the first frame, WATCHDOG while running, none when stuck."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest

from kiosk.service.notify import Notifier


def datagrams(sock: socket.socket, wait: float) -> list[str]:
    sock.settimeout(0.05)
    got, end = [], time.monotonic() + wait
    while time.monotonic() < end:
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            continue
    return got


def test_ready_once_then_watchdog_at_half_the_interval(tmp_path) -> None:
    path = str(tmp_path / "notify.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    now = [0.0]
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"}, clock=lambda: now[0])
    assert notifier.beat() == 1.0, "the next ping is due half the watchdog's time from now: the loop wakes then"
    got = datagrams(server, 0.2)
    assert got[0].startswith("READY=1") and got[1:] == ["WATCHDOG=1"]
    now[0] = 0.85
    assert notifier.beat() == pytest.approx(0.15)
    assert datagrams(server, 0.2) == [], "no ping well before half the interval"
    now[0] = 1.0 - 0.004  # the idle loop waking every `interval` may wake a few milliseconds early
    notifier.beat()
    assert datagrams(server, 0.2) == ["WATCHDOG=1"], "a ping on that wake, not one interval later (too late)"


def test_without_socket_nothing_happens() -> None:
    notifier = Notifier({})
    assert notifier.beat() is None, "no watchdog: the loop sleeps until something is due"
    assert not notifier.enabled


def test_a_ping_systemd_does_not_take_is_tried_again_an_interval_later_not_in_a_spin(tmp_path) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "nobody-listens.sock"), "WATCHDOG_USEC": "2000000"})
    assert notifier.beat() == 1.0 and notifier.errors >= 1


def test_the_kiosk_process_pings_and_a_stuck_loop_stops(tmp_path) -> None:
    path = str(tmp_path / "notify.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "400000", "SDL_VIDEODRIVER": "dummy"}
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "--data-dir", str(tmp_path)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        got: list[str] = []
        deadline = time.monotonic() + 30
        while not any(m.startswith("READY=1") for m in got) and time.monotonic() < deadline:
            got += datagrams(server, 0.5)
        assert any(m.startswith("READY=1") for m in got), got
        pings = [m for m in datagrams(server, 2.5) if m == "WATCHDOG=1"]
        assert len(pings) >= 3, "the idle loop keeps pinging"
        proc.send_signal(19)  # SIGSTOP: the loop is stuck
        time.sleep(0.3)
        datagrams(server, 0.2)
        assert [m for m in datagrams(server, 1.5) if m == "WATCHDOG=1"] == []
        proc.send_signal(18)  # SIGCONT
    finally:
        proc.kill()
        proc.wait()
