"""Card scanners: the real `SerialScanner` on real pseudo-terminals through pyserial, and the line checks."""

from __future__ import annotations

import os
import queue
import time
import tty
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hw.inputs import CardScan, ReaderNews
from hw.scanners import CardLineProtocol, CodeFilter, Framing, SerialScanner
from hw.wedge import KeyDecoder, TypedScanner
from referee.cards import plausible_code

WAIT = 10.0
ENDS = {"CR": b"\r", "LF": b"\n", "CRLF": b"\r\n"}


class Pty:
    """A serial device for tests: a pseudo-terminal behind a stable symlink (like /dev/serial/by-id/…)."""

    def __init__(self, link: Path):
        self.link = link
        self.master = self.slave = -1
        self.plug()

    def plug(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.master)
        os.symlink(os.ttyname(self.slave), self.link)

    def unplug(self):
        self.link.unlink()
        os.close(self.master)
        os.close(self.slave)
        self.master = -1

    def write(self, data: bytes):
        os.write(self.master, data)


@pytest.fixture
def pty_dev(tmp_path):
    dev = Pty(tmp_path / "scanner")
    yield dev
    if dev.master >= 0:
        dev.unplug()


def start(port, q, **kw) -> SerialScanner:
    sc = SerialScanner("north", str(port), q, **kw).start()
    assert sc.connected.wait(WAIT)
    return sc


@pytest.mark.parametrize("terminator", ["CR", "LF", "CRLF"])
def test_codes_arrive_in_every_framing(pty_dev, terminator):
    q: queue.Queue = queue.Queue()
    sc = start(pty_dev.link, q, framing=Framing(terminator))
    try:
        end = ENDS[terminator]
        pty_dev.write(b"AK:8.II#1" + end + b"M7:3" + end)
        pty_dev.write(b"AC:K" + end[:1])  # a terminator split over two writes
        pty_dev.write(end[1:] + b"PS:7.R" + end)
        got = [q.get(timeout=WAIT) for _ in range(4)]
        assert [(g.code, g.reader) for g in got] == [("AK:8.II#1", "north"), ("M7:3", "north"), ("AC:K", "north"),
                                                     ("PS:7.R", "north")]
        assert all(isinstance(g, CardScan) and g.t_ns > 0 for g in got)
    finally:
        sc.stop()
    assert q.empty()


def test_prefix_and_suffix_are_stripped(pty_dev):
    q: queue.Queue = queue.Queue()
    sc = start(pty_dev.link, q, framing=Framing("CR", prefix="]C0", suffix="!"))
    try:
        pty_dev.write(b"]C0AK:8.II!\r")
        assert q.get(timeout=WAIT).code == "AK:8.II"
    finally:
        sc.stop()


def test_garbage_and_overlong_lines_become_errors_and_reading_goes_on(pty_dev):
    q: queue.Queue = queue.Queue()
    sc = start(pty_dev.link, q, framing=Framing("CR", max_line=32))
    try:
        pty_dev.write(b"\x00\x13\x07\r")            # control bytes
        pty_dev.write(b"\xffAK:8\xfe\r")            # not ASCII
        pty_dev.write(b"hello world\r")            # clean text, not a card
        pty_dev.write(b"AK:" + b"9" * 200 + b"\r")  # far too long, in one line
        pty_dev.write(b"AK:8.II\r")                 # still reading afterwards
        got = [q.get(timeout=WAIT) for _ in range(5)]
    finally:
        sc.stop()
    assert [g.reason for g in got[:4]] == ["noise", "not-ascii", "not-a-card", "too-long"]
    assert all(isinstance(g, ReaderNews) and g.reader == "north" for g in got[:4])
    assert got[4] == CardScan("AK:8.II", "north", got[4].t_ns)
    assert q.empty()


def test_closing_the_device_and_opening_it_again_resumes_reading(pty_dev):
    q: queue.Queue = queue.Queue()
    sc = start(pty_dev.link, q, framing=Framing("LF"), retry_s=(0.02, 0.2))
    try:
        pty_dev.write(b"AK:8.II\n")
        assert q.get(timeout=WAIT).code == "AK:8.II"
        pty_dev.write(b"M7:")  # a line cut off by the unplug
        # wait until the partial line has been read before pulling the plug
        opens = sc.opens
        deadline = time.monotonic() + WAIT
        while not sc.protocol.buffer and time.monotonic() < deadline:
            time.sleep(0.01)
        pty_dev.unplug()
        lost = [q.get(timeout=WAIT), q.get(timeout=WAIT)]
        assert [e.reason for e in lost] == ["cut-off", "disconnected"]
        pty_dev.plug()
        assert sc.wait_opened(opens, WAIT)
        assert q.get(timeout=WAIT).reason == "reconnected"
        pty_dev.write(b"M7:4\n")
        got = q.get(timeout=WAIT)
        assert (type(got), got.code, got.reader) == (CardScan, "M7:4", "north")
    finally:
        sc.stop()


def test_a_missing_device_is_reported_once_and_picked_up_when_it_appears(tmp_path):
    q: queue.Queue = queue.Queue()
    link = tmp_path / "later"
    sc = SerialScanner("east", str(link), q, retry_s=(0.02, 0.1)).start()
    try:
        err = q.get(timeout=WAIT)
        assert (err.reason, err.reader) == ("disconnected", "east")
        dev = Pty(link)
        try:
            assert q.get(timeout=WAIT).reason == "reconnected"
            dev.write(b"AO:3\r")
            assert q.get(timeout=WAIT).code == "AO:3"
        finally:
            dev.unplug()
    finally:
        sc.stop()


def test_the_same_code_twice_within_the_window_counts_once(pty_dev):
    q: queue.Queue = queue.Queue()
    sc = start(pty_dev.link, q, dedupe_ms=60_000)
    try:
        pty_dev.write(b"AK:8.II\rAK:8.II\rM7:1\rAK:8.II\r")
        got = [q.get(timeout=WAIT) for _ in range(2)]
        assert [g.code for g in got] == ["AK:8.II", "M7:1"]
    finally:
        sc.stop()
    assert q.empty()


def test_stop_returns_promptly_from_a_blocking_read(pty_dev):
    q: queue.Queue = queue.Queue()
    sc = start(pty_dev.link, q)
    thread = sc._thread
    sc.stop()
    assert not thread.is_alive()


# ------------------------------------------------------------ the line checks alone

def test_dedupe_window_is_per_code_and_slides():
    f = CodeFilter("r", dedupe_ms=100)
    ms = 1_000_000
    assert isinstance(f.line(b"AK:1", 0), CardScan)
    assert f.line(b"AK:1", 50 * ms) is None
    assert f.line(b"AK:1", 140 * ms) is None      # still held under the scanner: window slides
    assert isinstance(f.line(b"AK:2", 141 * ms), CardScan)
    assert isinstance(f.line(b"AK:1", 300 * ms), CardScan)


def test_stray_cr_lf_and_empty_lines():
    f = CodeFilter("r")
    assert f.line(b"", 1) is None
    assert f.line(b"\n", 1) is None
    assert f.line(b"\nAK:1\r", 1) == CardScan("AK:1", "r", 1)


@settings(max_examples=300)
@given(st.binary(max_size=200))
def test_any_bytes_never_crash_and_never_become_a_non_card(data):
    out = []
    proto = CardLineProtocol("r", out.append, Framing("CR", max_line=40), dedupe_ms=0)
    proto.connection_made(None)
    for i in range(0, len(data), 7):
        proto.data_received(data[i:i + 7], t_ns=i)
    proto.connection_lost(None)
    for item in out:
        if isinstance(item, CardScan):
            assert plausible_code(item.code)
            assert item.code.encode() in data
        else:
            assert item.reason in {"noise", "not-ascii", "too-long", "cut-off", "not-a-card"}


def test_overlong_line_without_terminator_is_one_error_and_the_next_line_reads():
    out = []
    proto = CardLineProtocol("r", out.append, Framing("LF", max_line=16))
    proto.connection_made(None)
    for _ in range(50):
        proto.data_received(b"x" * 10, t_ns=1)
    proto.data_received(b"tail\nAK:5\n", t_ns=2)
    assert [getattr(o, "reason", getattr(o, "code", None)) for o in out] == ["too-long", "AK:5"]
    assert len(proto.buffer) == 0


def test_a_failing_sink_does_not_kill_the_reader():
    calls = []

    def sink(item):
        calls.append(item)
        raise RuntimeError("kiosk bug")

    proto = CardLineProtocol("r", sink)
    proto.data_received(b"AK:1\rAK:2\r", t_ns=5)
    assert [c.code for c in calls] == ["AK:1", "AK:2"]


# ------------------------------------------------------------ keyboard wedge: key decoding and typed twin

def keys(decoder, names):
    out = ""
    for name in names:
        if name == "+SHIFT":
            out += decoder.key("KEY_LEFTSHIFT", 1)
        elif name == "-SHIFT":
            out += decoder.key("KEY_LEFTSHIFT", 0)
        else:
            out += decoder.key(name, 1) + decoder.key(name, 0)
    return out


def test_key_decoder_types_a_card_code_with_shift_and_enter():
    d = KeyDecoder()
    typed = keys(d, ["+SHIFT", "KEY_A", "KEY_K", "KEY_SEMICOLON", "-SHIFT", "KEY_8", "KEY_DOT", "+SHIFT", "KEY_I",
                     "KEY_I", "KEY_3", "-SHIFT", "KEY_2", "KEY_ENTER"])
    assert typed == "AK:8.II#2\n"


def test_key_decoder_marks_unknown_keys_as_noise():
    out = []
    proto = CardLineProtocol("w", out.append, Framing("LF"))
    d = KeyDecoder()
    proto.data_received(keys(d, ["KEY_F5", "KEY_1", "KEY_ENTER"]).encode(), t_ns=1)
    assert out[0].reason == "noise"


def test_typed_scanner_uses_the_same_checks():
    out = []
    t = TypedScanner("typed", out.append, dedupe_ms=60_000)
    t.type_text("AK:8.II\nAK:8.II\nbanana\nÄK:1\n", t_ns=10)
    t.type_text("M7:")
    t.stop()
    assert [getattr(o, "code", None) or o.reason for o in out] == ["AK:8.II", "not-a-card", "not-ascii", "cut-off"]
