"""The admin PIN against a guest (issue #34): the default 1234 opens only the change of PIN, a newer configured
hash wins over a PIN set in the menu (the owner takes a table back through its config), the lockout counts in
monotonic time and is bounded when read, and `--check-config` refuses what would freeze or swamp the table (a
hash of 99,999,999 iterations, an 8192 × 8192 screen, a 300 MB password file)."""

from __future__ import annotations

import io
import json
import os
import time
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from kiosk.__main__ import main
from kiosk.screens.admin import AdminScreen
from kiosk.settings.pin import MAX_WAIT_S, PinGuard, check_pin, hash_pin
from kiosk.settings.settings import DEFAULT_PIN_HASH
from tests.kiosk_helpers import make_app, press, texts

pytestmark = pytest.mark.usefixtures("restore_logging")  # the kiosk's main() sets up logging


def type_pin(app, pin: str) -> None:
    for key in pin:
        press(app, f"key:{key}")
    press(app, "key:OK")


def enter(app, pin: str) -> None:
    app.router.show(AdminScreen(app.host, app.router.screen))
    type_pin(app, pin)


def test_the_default_pin_opens_only_the_change_of_pin(tmp_path) -> None:
    app = make_app(tmp_path, pin_hash=DEFAULT_PIN_HASH)
    enter(app, "1234")
    assert app.router.screen.name == "admin" and app.router.screen.mode == "new"
    assert "Choose your own PIN first: 1234 is known to everyone." in texts(app)
    press(app, "back")
    assert app.router.screen.name != "admin", "back leaves: no menu without a PIN of the table's own"
    enter(app, "1234")
    type_pin(app, "1234")
    type_pin(app, "1234")
    assert app.router.screen.mode == "new" and "Not 1234: everyone knows it." in texts(app)
    type_pin(app, "8642")
    type_pin(app, "8642")
    assert app.router.screen.mode == "menu" and "The new PIN is saved." in texts(app)
    again = make_app(tmp_path, pin_hash=DEFAULT_PIN_HASH)
    enter(again, "1234")
    assert again.router.screen.mode == "enter", "1234 opens nothing any more"
    enter(again, "8642")
    assert again.router.screen.mode == "menu"


def test_a_newer_configured_hash_wins_over_the_menus_pin(tmp_path) -> None:
    first = hash_pin("1111", iterations=1000)
    app = make_app(tmp_path, pin_hash=first)
    enter(app, "1111")
    press(app, "admin:pin")
    type_pin(app, "2222")
    type_pin(app, "2222")
    same = make_app(tmp_path, pin_hash=first)  # restarted with the same config: the menu's PIN counts
    enter(same, "1111")
    assert same.router.screen.mode == "enter"
    enter(same, "2222")
    assert same.router.screen.mode == "menu"
    owner = make_app(tmp_path, pin_hash=hash_pin("3333", iterations=1000))  # the owner wrote a new hash
    enter(owner, "2222")
    assert owner.router.screen.mode == "enter", "the guest's menu PIN is forgotten"
    enter(owner, "3333")
    assert owner.router.screen.mode == "menu"


def test_the_lockout_counts_in_monotonic_time_and_is_bounded_when_read(tmp_path) -> None:
    now = [5000.0]
    guard = PinGuard(tmp_path, DEFAULT_PIN_HASH, clock=lambda: now[0])
    for _ in range(5):
        guard.attempt("0000")
    assert guard.locked_for() == 30
    restarted = PinGuard(tmp_path, DEFAULT_PIN_HASH, clock=lambda: now[0] + 10)  # the same boot, 10 s later
    assert restarted.locked_for() == 20
    saved = json.loads((tmp_path / "admin-pin.json").read_text())
    saved["until"] = now[0] + 10 * 365 * 86400  # a wait read back as years (the wall clock stepped, a bad file)
    (tmp_path / "admin-pin.json").write_text(json.dumps(saved))
    assert PinGuard(tmp_path, DEFAULT_PIN_HASH, clock=lambda: now[0]).locked_for() == MAX_WAIT_S
    saved.update(boot="another boot", left=10 * 365 * 86400)
    (tmp_path / "admin-pin.json").write_text(json.dumps(saved))
    assert PinGuard(tmp_path, DEFAULT_PIN_HASH, clock=lambda: now[0]).locked_for() == MAX_WAIT_S
    old = {"failures": 7, "locked_until": time.time() + 7 * 365 * 86400}  # a file from before, wall-clock 2033
    (tmp_path / "admin-pin.json").write_text(json.dumps(old))
    assert PinGuard(tmp_path, DEFAULT_PIN_HASH).locked_for() == 0


def test_a_hash_of_too_many_iterations_is_refused_without_computing_it() -> None:
    huge = "pbkdf2_sha256$99999999$salt$" + "0" * 64  # 24 s of the display thread per wrong PIN on a Pi
    began = time.monotonic()
    assert not check_pin("1234", huge)
    assert time.monotonic() - began < 5  # (not a timing figure: computing it would take minutes here)


def check(tmp_path: Path, text: str) -> tuple[int, str]:
    path = tmp_path / "table.toml"
    path.write_text(text)
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["--check-config", str(path)])
    return code, out.getvalue()


EXAMPLE = (Path(__file__).resolve().parent.parent / "config" / "table.example.toml").read_text()


def with_kiosk(*lines: str) -> str:
    head, _, _ = EXAMPLE.partition("[kiosk]")
    return head + "[kiosk]\n" + "\n".join(lines) + "\n"


def test_check_config_refuses_iterations_screens_and_files_beyond_reason(tmp_path) -> None:
    code, out = check(tmp_path, with_kiosk('admin_pin_hash = "pbkdf2_sha256$99999999$salt$' + "0" * 64 + '"'))
    assert code == 1 and "admin_pin_hash has 99,999,999 iterations: use 1,000 to 600,000" in out
    code, out = check(tmp_path, with_kiosk(f'admin_pin_hash = "{hash_pin("2580")}"'))
    assert code == 0, out
    code, out = check(tmp_path, with_kiosk("screen_size = [8192, 8192]"))
    assert code == 1 and "kiosk.screen_size = 8192 is out of range (240..3840)" in out, out
    code, out = check(tmp_path, with_kiosk("screen_size = [3840, 3840]"))
    assert code == 1 and "at most 8,294,400 pixels" in out
    huge = tmp_path / "password"
    with open(huge, "wb") as handle:  # 300 MB, sparse: the check must not read it
        handle.truncate(300 * 1024 * 1024)
    cafe = '\n[cafe]\nbroker = "127.0.0.1:1883"\ncafe = "nord"\ntable = "t1"\nusername = "table-t1"\n'
    code, out = check(tmp_path, with_kiosk() + cafe + f'password_file = "{huge}"\n')
    assert code == 1 and "314,572,800 bytes, more than such a file holds (at most 4,096)" in out
    os.truncate(huge, 20)
    code, out = check(tmp_path, with_kiosk() + cafe + f'password_file = "{huge}"\n')
    assert code == 0, out
