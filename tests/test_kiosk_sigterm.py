"""systemd stops the kiosk with SIGTERM (`systemctl stop`/`restart`, a reboot): a kiosk in kiosk mode
ends on it at once with status 0, so systemd neither waits TimeoutStopSec=15 nor kills it and counts a
failure (which would start the failure screen). Found by booting the installed Pi root under emulation
(scripts/pi-emulate.sh --boot: "State 'stop-sigterm' timed out. Killing."). SDL turns SIGTERM into a QUIT
event only when it is pumped, and an idle loop sleeps for seconds: the kiosk's own handler stops the loop,
and Python's wake-up fd (the loop's wake pipe) ends its sleep whichever thread the kernel gave the signal to."""

from __future__ import annotations

import signal
import subprocess

import pytest

from kiosk.loop.frame_loop import IDLE_WAIT_MS
from tests.kiosk_process import KioskProcess


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_kiosk_ends_on_sigterm_or_ctrl_c_at_once_with_status_0(tmp_path, signum):
    kiosk = KioskProcess(tmp_path, ["--kiosk"])
    try:
        assert kiosk.cmd("view")["ok"]  # up and drawing
        kiosk.proc.send_signal(signum)  # the kernel may hand it to any thread (a scanner's)
        try:
            status = kiosk.proc.wait(timeout=IDLE_WAIT_MS / 1000 / 2)  # at once, not at the idle loop's next wake
        except subprocess.TimeoutExpired:
            pytest.fail("the kiosk ignored SIGTERM: systemd would kill it after TimeoutStopSec")
        assert status == 0, kiosk.stderr_text()[-2000:]
    finally:
        if kiosk.proc.poll() is None:
            kiosk.proc.kill()
            kiosk.proc.wait()
