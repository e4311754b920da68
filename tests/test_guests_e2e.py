"""Guests and staff on a real `referee-kiosk --sim` process through its control socket: leave with a hold,
resume from the history, the admin corner, the button test with real seat buttons, backup while it runs."""

from __future__ import annotations

import sqlite3

from kiosk.__main__ import main
from tests.kiosk_process import KioskProcess


def test_leave_resume_admin_and_backup_on_a_running_kiosk(tmp_path) -> None:
    kiosk = KioskProcess(tmp_path)
    try:
        kiosk.game_with_one_card()
        assert main(["--data-dir", str(tmp_path), "backup", "-o", str(tmp_path / "live.sqlite3")]) == 0
        copy = sqlite3.connect(tmp_path / "live.sqlite3")
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("SELECT COUNT(*) FROM events").fetchone() == (1,)
        assert kiosk.touch("leave")["screen"] == "confirm"
        assert kiosk.cmd("touch", action="yes:0", held=0.3)["screen"]["screen"] == "confirm", "a tap is no hold"
        assert kiosk.cmd("touch", action="yes:0", held=2.5)["screen"]["screen"] == "menu"
        kiosk.touch("games")
        kiosk.touch("game:1")
        assert kiosk.state()["status"] == "paused"
        kiosk.touch("resume")
        kiosk.touch("yes:0")
        state = kiosk.wait(lambda s: s["screen"] == "table")
        assert state["events"] == 1
        assert kiosk.cmd("admin")["screen"] == "admin"
        for key in "1234":
            kiosk.touch(f"key:{key}")
        assert kiosk.touch("key:OK")["mode"] == "menu"
        kiosk.touch("admin:buttons")
        kiosk.cmd("tap", seat="Cleo", button="confirm")
        state = kiosk.wait(lambda s: s.get("lit") == ["Cleo:confirm"])
        assert state["screen"] == "button-test"
    finally:
        kiosk.close()
