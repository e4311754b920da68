"""Quiet when idle (issue #23): the display loop sleeps until something happens, the audio device closes.

No timings are asserted: the loop's wake-ups are counted (the main thread's voluntary context
switches from /proc), and what wakes it is shown to work.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pygame
import pytest

from hw.inputs import CardScan
from kiosk.app.app import App
from kiosk.app.audio import SLEEP_AFTER_S, Sounds
from kiosk.eventlog.store import EventLog
from kiosk.loop.inbox import Inbox
from kiosk.loop.waiting import NETLINK_KOBJECT_UEVENT, Waker, device_monitors, input_devices, opened_by
from kiosk.settings.settings import Settings
from tests.kiosk_helpers import MADE, make_app, settle, start_game
from tests.kiosk_process import KioskProcess


def wakeups(pid: int) -> int:
    status = Path(f"/proc/{pid}/task/{pid}/status").read_text()
    return int(status.split("voluntary_ctxt_switches:")[1].split()[0])


@pytest.mark.slow
def test_an_idle_kiosk_s_loop_sleeps_instead_of_polling(tmp_path) -> None:
    """The old loop pumped SDL every 8 ms (about 375 wake-ups in 3 s), the next one woke once a second; now an
    idle kiosk wakes only for a deadline (here none: demo off, the audio device asleep) or every 10 s."""
    kiosk = KioskProcess(tmp_path)
    try:
        assert kiosk.state()["screen"] == "menu"
        time.sleep(SLEEP_AFTER_S + 1.0)  # the audio device's last deadline has passed
        before = wakeups(kiosk.proc.pid)
        time.sleep(4.0)
        woke = wakeups(kiosk.proc.pid) - before
        assert woke <= 2, f"the display loop woke {woke} times in 4 s of idle"
        assert kiosk.touch("lang")["screen"] == "menu", "a control-socket input still wakes it at once"
    finally:
        kiosk.close()


def test_an_input_from_another_thread_wakes_the_sleeping_loop(tmp_path) -> None:
    app = make_app(tmp_path)
    settle(app)
    assert app.loop.waker.blocking and app.loop.waker.devices == set(), "the dummy driver has no input devices to watch"
    threading.Timer(0.2, app.inbox.post, [CardScan("XX:NOT-A-CARD", "keyboard", time.monotonic_ns())]).start()
    frames = app.loop.frames
    app.loop.step(max_wait_ms=60_000)  # returns because of the scan, not the minute
    assert app.loop.frames == frames + 1 and app.inbox.items.empty()


def test_a_hardware_thread_posting_to_the_inbox_wakes_the_sleeping_loop(tmp_path) -> None:
    """Hardware threads post to the composition's inbox (`kiosk.app.compose`), not through the App: an item posted
    there, even before the App exists, is taken, and a later one ends the loop's sleep at once."""
    inbox = Inbox()
    inbox.post(CardScan("XX:BEFORE-THE-APP", "keyboard", time.monotonic_ns()))  # the hardware opens first
    settings = Settings(data_dir=tmp_path, language="en", demo_after_s=0)
    app = App(settings, EventLog(settings.log_path), headless=True, inbox=inbox)
    MADE.append(app)
    settle(app)
    assert app.inbox.items.empty(), "the early scan was taken on the loop's first turns"
    threading.Timer(0.2, inbox.post, [CardScan("XX:NOT-A-CARD", "keyboard", time.monotonic_ns())]).start()
    frames = app.loop.frames
    app.loop.step(max_wait_ms=60_000)  # returns because of the scan, not the minute
    assert app.loop.frames == frames + 1 and app.inbox.items.empty()


def test_a_readable_touch_device_ends_the_sleep_and_the_devices_are_found_in_proc(tmp_path) -> None:
    read, write = os.pipe()
    waker = Waker("kmsdrm", {read})
    threading.Timer(0.2, os.write, [write, b"x"]).start()
    woken = waker.sleep(60.0)  # returns because the "touchscreen" became readable
    assert woken.device and woken.pump and not woken.posted, "a touch is SDL's to read, not an inbox item"
    waker.close()
    os.close(read)
    os.close(write)
    fds = tmp_path / "fd"
    fds.mkdir()
    (fds / "7").symlink_to("/dev/input/event2")
    (fds / "8").symlink_to("/dev/dri/card0")
    assert input_devices(fds) == {7}
    assert not Waker("x11").blocking, "a desktop window keeps pumping SDL (its input is the window system's)"
    assert Waker("x11").sleep(60.0).pump, "… every few milliseconds"



def test_only_what_opening_the_display_opened_counts_as_sdl_s(tmp_path) -> None:
    """SDL names none of its input descriptors: the loop sleeps on the evdev devices and the udev monitor that
    appeared while the display opened (`kiosk.loop.waiting.opened_by`), never on the hardware's own opened before
    (a grabbed scanner). Checked with a real netlink socket in this process and a made-up descriptor table."""
    before = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_KOBJECT_UEVENT)  # the hardware's, say
    before.bind((0, 0))
    made: list[socket.socket] = []

    def open_display() -> str:
        monitor = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_KOBJECT_UEVENT)
        monitor.bind((0, 0))
        made.append(monitor)
        return "the display"

    try:
        opened, devices, monitors = opened_by(open_display)
        assert opened == "the display" and monitors == {made[0].fileno()}, "the new monitor, not the one before"
        assert devices == set()
    finally:
        before.close()
        for sock in made:
            sock.close()
    fds = tmp_path / "fd"
    fds.mkdir()
    (fds / "3").symlink_to("/dev/input/event0")  # a grabbed scanner, open before the display

    def open_touchscreen() -> None:
        (fds / "9").symlink_to("/dev/input/event4")  # SDL's touchscreen
        (fds / "10").symlink_to("/dev/dri/card0")  # SDL's display: no input

    assert opened_by(open_touchscreen, fds, tmp_path / "no-netlink")[1:] == ({9}, set())

def test_a_scan_wakes_the_loop_without_pumping_sdl_and_a_posted_sdl_event_pumps_it() -> None:
    """A scan or a seat button goes straight to its verdict: SDL is pumped only when it may have an event."""
    waker = Waker("dummy")
    try:
        waker.wake()
        woken = waker.sleep(60.0)
        assert woken.posted and not woken.pump, "an inbox post alone: no pump"
        assert waker.events(woken, lambda: ["pumped"]) == []
        waker.wake(sdl=True)  # `App.post_sdl`: a program's touch is in SDL's queue
        woken = waker.sleep(60.0)
        assert woken.sdl_posted and woken.pump and waker.events(woken, lambda: ["pumped"]) == ["pumped"]
        woken = waker.sleep(0.05)
        assert woken.timed_out and woken.pump, "the wait ran out: SDL is pumped (anything it queued itself)"
        assert not waker.sleep(0.0).posted, "each wake-up is taken once"
    finally:
        waker.close()


def test_sdl_s_device_monitor_wakes_the_loop_and_the_devices_are_watched_afresh() -> None:
    """A touchscreen plugged in: SDL hears it on its udev netlink socket (found in /proc), opens the device on the
    next pump, and the loop sleeps on the new device from then on, not on the one that went."""
    monitor = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_KOBJECT_UEVENT)
    other = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)  # a netlink socket that is no device monitor
    monitor.bind((0, 0))  # listed in /proc once bound (SDL's is bound to udev's group)
    other.bind((0, 0))
    try:
        assert monitor.fileno() in device_monitors() and other.fileno() not in device_monitors()
    finally:
        monitor.close()
        other.close()
    plug_read, plug_write = os.pipe()  # the "monitor"
    old_read, old_write = os.pipe()  # the device that went
    new_read, new_write = os.pipe()  # the device that came
    waker = Waker("kmsdrm", {old_read}, {plug_read})
    try:
        os.write(plug_write, b"add")
        woken = waker.sleep(60.0)
        assert woken.hotplug and woken.pump
        os.read(plug_read, 16)
        waker.watch({new_read})
        os.write(old_write, b"x")
        assert waker.sleep(0.05).timed_out, "the device that went no longer wakes the loop"
        os.write(new_write, b"x")
        assert waker.sleep(60.0).device, "the device that came does"
        os.write(plug_write, b"add")  # a monitor nobody reads: still readable after the pump
        woken = waker.sleep(60.0)
        assert woken.hotplug and waker.events(woken, lambda: []) == []
        assert plug_read not in waker.monitors, "no longer watched: it would end every sleep at once"
        assert waker.sleep(0.05).timed_out
    finally:
        waker.close()
        for fd in (plug_read, plug_write, old_read, old_write, new_read, new_write):
            os.close(fd)


def test_the_audio_device_closes_when_quiet_and_opens_after_the_frame_for_the_next_cue(monkeypatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.quit()
    sounds = Sounds(70)
    try:
        assert sounds.available and pygame.mixer.get_init()
        sounds.tick(time.monotonic() + SLEEP_AFTER_S + 1)
        assert sounds.asleep and not pygame.mixer.get_init(), "no open device, no audio thread"
        sounds.play("accepted")
        assert sounds.asleep and not pygame.mixer.get_init(), "opened after the frame, not before the verdict"
        sounds.settle()
        assert not sounds.asleep and pygame.mixer.get_init() and pygame.mixer.get_busy(), "the cue that waited"
        sounds.settle()
        assert pygame.mixer.get_busy(), "played once"
    finally:
        sounds.close()


def test_a_scan_after_a_quiet_spell_is_drawn_before_the_audio_device_opens(tmp_path) -> None:
    """The device closed after `SLEEP_AFTER_S` without a cue; the next scan's verdict is flipped before the
    device opens again (opening takes milliseconds, more on a Pi), and its cue plays right after the frame."""
    pygame.mixer.quit()
    app = make_app(tmp_path)
    start_game(app, "alles-klar", 2)
    app.audio.tick(time.monotonic() + SLEEP_AFTER_S + 1)
    assert app.audio.available and app.audio.asleep and not pygame.mixer.get_init()
    open_at_frame: list[bool] = []
    present = app.display.present

    def watched(view) -> None:
        present(view)
        open_at_frame.append(bool(pygame.mixer.get_init()))

    app.display.present = watched
    app.inbox.post(CardScan("XX:NOT-A-CARD", "keyboard", time.monotonic_ns()))
    app.loop.step(max_wait_ms=0)
    assert open_at_frame == [False], "the verdict's frame came before the device opened"
    assert pygame.mixer.get_init() and pygame.mixer.get_busy(), "and the rejection's cue plays right after it"
    assert app.router.screen.model()["feedback"]["ok"] is False


def test_the_loop_never_wakes_before_the_deadline_it_slept_for(tmp_path) -> None:
    """A deadline between two milliseconds: a wait rounded down woke the loop just before it, found nothing due,
    and the next turns spun with no wait at all (a café announcement then outlived its `until` by those turns)."""
    app = make_app(tmp_path)
    settle(app)
    for fraction in (0.2, 0.5, 0.7, 0.9, 0.95):
        deadline = time.monotonic() + (30 + fraction) / 1000
        app.router.screen.next_wakeup = lambda deadline=deadline: deadline  # type: ignore[method-assign]
        app.loop.step()
        assert time.monotonic() >= deadline, f"woke {1000 * (deadline - time.monotonic()):.2f} ms early"


def test_a_command_waiting_on_a_loop_that_ended_fails_at_once() -> None:
    """The loop stopped (SIGTERM) while a control-socket client waited on it: the client's thread gets its answer
    now, so the kiosk's exit does not wait seconds for that thread (found by the stop drill: 5 s per stop)."""
    inbox = Inbox()
    failed: list[BaseException] = []

    def client() -> None:
        try:
            inbox.call("state", timeout=60)
        except RuntimeError as error:
            failed.append(error)

    thread = threading.Thread(target=client)
    thread.start()
    while inbox.items.empty():
        time.sleep(0.01)
    inbox.close()
    thread.join(30)
    assert not thread.is_alive() and failed, "the waiting command was refused"
    with pytest.raises(RuntimeError):
        inbox.call("state", timeout=60)  # and so is one posted after the end, at once
    inbox.post(CardScan("AK:1", "keyboard", 0))  # an input after the end is dropped, not an error
