"""One validator for the whole config: the mistakes the kiosk used to start with (or crash on) are refused
by `--check-config` with their line, and the kiosk refuses them the same way at start (exit 78, no traceback)."""

from __future__ import annotations

import io
import re
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from kiosk.__main__ import EX_CONFIG, main
from kiosk.settings import settings as settings_mod
from kiosk.settings.config import check_config, loads
from kiosk.settings.pin import check_pin

EXAMPLE = (Path(__file__).resolve().parent.parent / "config" / "table.example.toml").read_text()


pytestmark = pytest.mark.usefixtures("restore_logging")  # the kiosk's main() sets up logging


def with_kiosk(*lines: str) -> str:
    head, _, _ = EXAMPLE.partition("[kiosk]")
    return head + "[kiosk]\n" + "\n".join(lines) + "\n"


def line_of(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


def check(tmp_path: Path, text: str) -> tuple[int, list[str]]:
    path = tmp_path / "table.toml"
    path.write_text(text)
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["--check-config", str(path)])
    return code, out.getvalue().splitlines()


@pytest.mark.parametrize(("text", "fragment", "message"), [
    (with_kiosk("demo_after_s = [1, 2]"), "demo_after_s", "kiosk.demo_after_s must be a number, not an array"),
    (with_kiosk("data_dir = 5"), "data_dir", "kiosk.data_dir must be a string, not an integer"),
    (with_kiosk('data_dir = ""'), "data_dir", "kiosk.data_dir is empty"),
    (with_kiosk('language = "klingon"'), "language", "kiosk.language = 'klingon' is not one of de, en"),
    (with_kiosk("language = 5"), "language", "kiosk.language must be a string"),
    (with_kiosk('admin_pin_hash = "1234"'), "admin_pin_hash", "admin_pin_hash is not a PIN hash"),
    (with_kiosk('admin_pin = "1234"'), "admin_pin", "unknown key 'admin_pin' in [kiosk]"),
    (with_kiosk("admin_hold_s = -1"), "admin_hold_s", "kiosk.admin_hold_s = -1 is out of range"),
    (with_kiosk("demo_after_s = nan"), "demo_after_s", "kiosk.demo_after_s = nan is out of range"),
    (with_kiosk("screen_size = [800]"), "screen_size", "kiosk.screen_size must be [width, height]"),
    (with_kiosk("rotate = 45"), "rotate", "kiosk.rotate = 45 is not one of 0, 90, 180, 270"),
    (with_kiosk("volume = 101"), "volume", "kiosk.volume = 101 is out of range"),
    (with_kiosk('mute = "no"'), "mute", "kiosk.mute must be true or false, not a string"),
    (with_kiosk("idle_pause_s = -5"), "idle_pause_s", "kiosk.idle_pause_s = -5 is out of range"),
    (with_kiosk('screen_size = [800, "480"]'), "screen_size", "kiosk.screen_size must be an integer"),
    (EXAMPLE.replace('port = "/dev/serial/by-path/platform-xhci-hcd.0-usb-0:2:1.0"', 'port = ""'),
     'port = ""', "scanners.east.port is empty"),
    (EXAMPLE.replace('port = "/dev/serial/by-path/platform-xhci-hcd.0-usb-0:2:1.0"', 'port = "ttyUSB0"'),
     'port = "ttyUSB0"', "must be an absolute path"),
    (EXAMPLE.replace('device = "/dev/input/by-id/usb-Barcode_Scanner-event-kbd"', 'device = "kbd"'),
     'device = "kbd"', "must be an absolute path"),
    ("kiosk = 5\n" + EXAMPLE.replace("[kiosk]", "[kiosk_old]"), "kiosk = 5", "kiosk must be a table"),
    (EXAMPLE + "[extras]\nx = 1\n", "[extras]", "unknown key 'extras'"),
])
def test_a_mistake_is_refused_with_its_line_by_the_check_and_at_start(tmp_path, text, fragment, message):
    code, lines = check(tmp_path, text)
    path = tmp_path / "table.toml"
    assert code == 1 and lines[-1] == f"{path}: NOT OK"
    wanted = f"{path}:{line_of(text, fragment)}: "
    assert any(line.startswith(wanted) and message in line for line in lines), lines
    assert main(["--config", str(path), "--frames", "1", "--data-dir", str(tmp_path / "d")]) == EX_CONFIG
    assert not (tmp_path / "d").exists()


def test_the_kiosk_table_takes_every_value_it_checks(tmp_path):
    text = with_kiosk('data_dir = "games"', 'language = "en"', "demo_after_s = 0", "admin_hold_s = 1.5",
                      "screen_size = [1280, 720]", "rotate = 270", "volume = 0", "mute = true",
                      "idle_pause_s = 0",
                      'admin_pin_hash = "pbkdf2_sha256$1000$salt$' + "0" * 64 + '"')
    path = tmp_path / "table.toml"
    path.write_text(text)
    settings = settings_mod.load(path)
    assert (settings.data_dir, settings.language, settings.demo_after_s, settings.admin_hold_s) == (
        tmp_path / "games", "en", 0.0, 1.5)
    assert (settings.width, settings.height) == (1280, 720)
    assert (settings.rotate, settings.volume, settings.mute, settings.idle_pause_s) == (270, 0, True, 0.0)
    assert check(tmp_path, text)[0] == 0


def test_a_hash_from_hash_pin_is_accepted_and_checks_its_pin(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("4711\n"))
    assert main(["--hash-pin"]) == 0
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(r'admin_pin_hash = "pbkdf2_sha256\$\d+\$\w+\$[0-9a-f]{64}"', line)
    config = loads(with_kiosk(line))
    assert check_pin("4711", config.kiosk.admin_pin_hash) and not check_pin("1234", config.kiosk.admin_pin_hash)


def test_a_pin_that_is_not_digits_gets_no_hash(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("12\n"))
    assert main(["--hash-pin"]) == 2
    assert "4 to 8 digits" in capsys.readouterr().err


def test_a_toml_error_at_the_end_of_the_document_still_has_a_line(tmp_path):
    text = EXAMPLE + '[kiosk.more\n'
    ok, messages = check_config(_write(tmp_path, text))
    assert not ok and re.match(rf"{re.escape(str(tmp_path))}/t.toml:\d+: not valid TOML", messages[0]), messages


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(text)
    return path
