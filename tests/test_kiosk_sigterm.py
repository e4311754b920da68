"""systemd stops the kiosk with SIGTERM (`systemctl stop`/`restart`, a reboot): a kiosk in kiosk mode
ends on it at once with status 0, so systemd neither waits TimeoutStopSec=15 nor kills it and counts a
failure (which would start the failure screen). SDL turns SIGTERM into a QUIT event. Found by booting the
installed Pi root under emulation (scripts/pi-emulate.sh --boot: "State 'stop-sigterm' timed out.
Killing.")."""

from __future__ import annotations

import signal
import subprocess

import pytest

from tests.kiosk_process import KioskProcess


def test_a_kiosk_ends_on_sigterm_with_status_0(tmp_path):
    kiosk = KioskProcess(tmp_path, ["--kiosk"])
    try:
        assert kiosk.cmd("view")["ok"]  # up and drawing
        kiosk.proc.send_signal(signal.SIGTERM)
        try:
            status = kiosk.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pytest.fail("the kiosk ignored SIGTERM: systemd would kill it after TimeoutStopSec")
        assert status == 0, kiosk.stderr_text()[-2000:]
    finally:
        if kiosk.proc.poll() is None:
            kiosk.proc.kill()
            kiosk.proc.wait()
