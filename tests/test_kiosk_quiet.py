"""Quiet when idle (issue #23): the display loop sleeps until something happens, the audio device closes.

No timings are asserted: the loop's wake-ups are counted (the main thread's voluntary context
switches from /proc), and what wakes it is shown to work.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pygame

from hw.inputs import CardScan
from kiosk.app.app import App
from kiosk.app.audio import SLEEP_AFTER_S, Sounds
from kiosk.eventlog.store import EventLog
from kiosk.loop.inbox import Inbox
from kiosk.loop.waiting import Waker, input_devices
from kiosk.settings.settings import Settings
from tests.kiosk_helpers import MADE, make_app, settle
from tests.kiosk_process import KioskProcess


def wakeups(pid: int) -> int:
    status = Path(f"/proc/{pid}/task/{pid}/status").read_text()
    return int(status.split("voluntary_ctxt_switches:")[1].split()[0])


def test_an_idle_kiosk_s_loop_sleeps_instead_of_polling(tmp_path) -> None:
    """The old loop pumped SDL every 8 ms (about 375 wake-ups in 3 s); now it wakes about once a second."""
    kiosk = KioskProcess(tmp_path)
    try:
        assert kiosk.state()["screen"] == "menu"
        time.sleep(1.0)
        before = wakeups(kiosk.proc.pid)
        time.sleep(3.0)
        woke = wakeups(kiosk.proc.pid) - before
        assert woke < 40, f"the display loop woke {woke} times in 3 s of idle"
        assert kiosk.touch("lang")["screen"] == "menu", "a control-socket input still wakes it at once"
    finally:
        kiosk.close()


def test_an_input_from_another_thread_wakes_the_sleeping_loop(tmp_path) -> None:
    app = make_app(tmp_path)
    settle(app)
    assert app.waker.blocking and app.waker.devices == set(), "the dummy driver has no input devices to watch"
    threading.Timer(0.2, app.post, [CardScan("XX:NOT-A-CARD", "keyboard", time.monotonic_ns())]).start()
    frames = app.frames
    app.step(max_wait_ms=60_000)  # returns because of the scan, not the minute
    assert app.frames == frames + 1 and app.inputs.empty()


def test_a_hardware_thread_posting_to_the_inbox_wakes_the_sleeping_loop(tmp_path) -> None:
    """Hardware threads post to the composition's inbox (`kiosk.app.compose`), not through the App: an item posted
    there, even before the App exists, is taken, and a later one ends the loop's sleep at once."""
    inbox = Inbox()
    inbox.post(CardScan("XX:BEFORE-THE-APP", "keyboard", time.monotonic_ns()))  # the hardware opens first
    settings = Settings(data_dir=tmp_path, language="en", demo_after_s=0)
    app = App(settings, EventLog(settings.log_path), headless=True, inbox=inbox)
    MADE.append(app)
    settle(app)
    assert app.inputs.empty(), "the early scan was taken on the loop's first turns"
    threading.Timer(0.2, inbox.post, [CardScan("XX:NOT-A-CARD", "keyboard", time.monotonic_ns())]).start()
    frames = app.frames
    app.step(max_wait_ms=60_000)  # returns because of the scan, not the minute
    assert app.frames == frames + 1 and app.inputs.empty()


def test_a_readable_touch_device_ends_the_sleep_and_the_devices_are_found_in_proc(tmp_path) -> None:
    read, write = os.pipe()
    waker = Waker("kmsdrm", {read})
    threading.Timer(0.2, os.write, [write, b"x"]).start()
    waker.sleep(60.0)  # returns because the "touchscreen" became readable
    assert not waker.woken(), "a touch is SDL's to read, not a wake-up call"
    waker.close()
    os.close(read)
    os.close(write)
    fds = tmp_path / "fd"
    fds.mkdir()
    (fds / "7").symlink_to("/dev/input/event2")
    (fds / "8").symlink_to("/dev/dri/card0")
    assert input_devices(fds) == {7}
    assert not Waker("x11").blocking, "a desktop window keeps pumping SDL (its input is the window system's)"


def test_the_audio_device_closes_when_quiet_and_opens_for_the_next_cue(monkeypatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.quit()
    sounds = Sounds(70)
    try:
        assert sounds.available and pygame.mixer.get_init()
        sounds.tick(time.monotonic() + SLEEP_AFTER_S + 1)
        assert sounds.asleep and not pygame.mixer.get_init(), "no open device, no audio thread"
        sounds.play("accepted")
        assert not sounds.asleep and pygame.mixer.get_init() and pygame.mixer.get_busy()
    finally:
        sounds.close()
