"""Logging: levels on every line, journald priorities (`<N>`) when stderr is the journal, `--log-level`."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys

import pytest

from kiosk.service import logs

pytestmark = pytest.mark.usefixtures("restore_logging")  # the kiosk's main() sets up logging


def test_journal_lines_carry_the_syslog_priority_of_their_level():
    out = io.StringIO()
    logs.setup("debug", stream=out, journal=True)
    log = logging.getLogger("referee-kiosk")
    log.debug("d")
    log.info("i")
    log.warning("w")
    log.error("e")
    log.critical("c")
    assert out.getvalue().splitlines() == ["<7>referee-kiosk: d", "<6>referee-kiosk: i", "<4>referee-kiosk: w",
                                           "<3>referee-kiosk: e", "<2>referee-kiosk: c"]


def test_a_traceback_stays_on_its_records_line_in_the_journal():
    out = io.StringIO()
    logs.setup("info", stream=out, journal=True)
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger("x").exception("failed")
    [line] = out.getvalue().splitlines()
    assert line.startswith("<3>x: failed ⏎ Traceback") and "RuntimeError: boom" in line


def test_on_a_terminal_the_level_is_spelled_out_and_the_level_filters():
    out = io.StringIO()
    logs.setup("warning", stream=out, journal=False)
    logging.getLogger("hw.scanners").info("quiet")
    logging.getLogger("hw.scanners").warning("scanner gone")
    assert out.getvalue() == "warning: hw.scanners: scanner gone\n"


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown log level"):
        logs.setup("loud", stream=io.StringIO())


def _run_kiosk(tmp_path, *args: str, journal: bool) -> str:
    read, write = os.pipe()
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "JOURNAL_STREAM")}
    env["SDL_VIDEODRIVER"] = "dummy"
    if journal:
        st = os.fstat(write)
        env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "--frames", "2", "--data-dir", str(tmp_path), *args],
                            env=env, stdout=subprocess.DEVNULL, stderr=write)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as err:
        text = err.read()
    assert proc.wait(120) == 0, text
    return text


def test_the_kiosk_logs_with_journal_priorities_under_systemd(tmp_path):
    text = _run_kiosk(tmp_path, journal=True)
    lines = text.splitlines()
    assert lines and all(line.startswith("<") for line in lines), text
    assert f"<6>referee-kiosk: event log {tmp_path / 'events.sqlite3'}" in lines


def test_log_level_warning_keeps_info_out(tmp_path):
    assert "event log" in _run_kiosk(tmp_path, journal=False)
    assert _run_kiosk(tmp_path, "--log-level", "warning", journal=False) == ""
