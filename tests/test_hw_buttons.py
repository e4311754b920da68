"""Seat buttons: the real `ButtonBank` on gpiozero mock pins, edge times, debounce, ordering."""

from __future__ import annotations

import gc
import queue
import random
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from hw.buttons import ButtonBank, ButtonPin, Debouncer
from hw.clock import TickClock
from hw.inputs import ButtonPress
from hw.mockpins import timed_mock_factory
from hw.race import by_edge_time

MS = 1_000_000
WAIT = 10.0  # generous: a loaded 2-core CI machine


def drain(q: queue.Queue) -> list:
    items = []
    while True:
        try:
            items.append(q.get_nowait())
        except queue.Empty:
            return items


@pytest.fixture
def bank():
    q: queue.Queue = queue.Queue()
    pins = [ButtonPin(seat, button, pin) for seat, base in (("Anna", 5), ("Ben", 13), ("Cleo", 20))
            for button, pin in (("confirm", base), ("slap", base + 1))]
    b = ButtonBank(pins, q, pin_factory=timed_mock_factory(), debounce_ms=10).open()
    yield b, q
    b.close()


# ------------------------------------------------------------ the debouncer alone, injected times

def test_debouncer_bounce_burst_is_one_press_stamped_with_its_first_edge():
    d = Debouncer(10 * MS)
    t0 = 5_000 * MS
    edges = [(t0, True), (t0 + 200_000, False), (t0 + 350_000, True), (t0 + 900_000, False), (t0 + 1 * MS, True)]
    assert [d.edge(t, a) for t, a in edges] == [True, False, False, False, False]
    # release with bounce, 80 ms later
    t1 = t0 + 80 * MS
    assert [d.edge(t, a) for t, a in [(t1, False), (t1 + 300_000, True), (t1 + 500_000, False)]] == [False] * 3


def test_debouncer_keeps_a_real_second_press():
    d = Debouncer(10 * MS)
    assert d.edge(0, True)
    assert not d.edge(40 * MS, False)   # release
    assert d.edge(55 * MS, True)        # 15 ms released: a new press
    assert not d.edge(70 * MS, False)
    assert not d.edge(75 * MS, True)    # 5 ms released: bounce, not a press


def test_debouncer_ignores_an_edge_older_than_the_last():
    d = Debouncer(10 * MS)
    assert d.edge(100 * MS, True)
    assert not d.edge(50 * MS, True)


@given(st.lists(st.integers(min_value=1, max_value=30 * MS), min_size=1, max_size=40), st.booleans())
def test_debouncer_counts_presses_exactly_as_quiet_gaps(gaps, first_active):
    """Property: a press is an active edge preceded by >= quiet of no edges (or the first edge)."""
    quiet = 10 * MS
    d = Debouncer(quiet)
    t, active, presses, expected = 0, first_active, 0, 0
    prev = None
    for gap in gaps:
        t += gap
        if d.edge(t, active):
            presses += 1
        if active and (prev is None or t - prev >= quiet):
            expected += 1
        prev = t
        active = not active
    assert presses == expected


# ------------------------------------------------------------ real adapter on mock pins

def test_press_is_a_button_press_with_the_edge_time(bank):
    b, q = bank
    b.pin("Anna", "slap").drive_low(t_ns=1_000 * MS)
    assert b.is_pressed("Anna", "slap")
    assert drain(q) == [ButtonPress("Anna", "slap", 1_000 * MS)]
    b.pin("Anna", "slap").drive_high(t_ns=1_100 * MS)
    assert not b.is_pressed("Anna", "slap")
    assert drain(q) == []  # releases are not inputs


def test_plain_mock_pins_are_stamped_by_the_pin_not_by_the_callback():
    """gpiozero's own MockPin: ticks are taken when the test drives the pin; we report exactly those."""
    q: queue.Queue = queue.Queue()
    factory = MockFactory()
    b = ButtonBank([ButtonPin("Anna", "slap", 17)], q, pin_factory=factory).open()
    try:
        pin = b.pin("Anna", "slap")
        pin.drive_low()
        edge_ticks = pin._last_change
        (press,) = drain(q)
        assert press.t_ns == round(edge_ticks * 1e9)
    finally:
        b.close()


def test_bounce_sequence_gives_one_press(bank):
    b, q = bank
    pin = b.pin("Ben", "confirm")
    t = 2_000 * MS
    for i, dt in enumerate([0, 150_000, 400_000, 700_000, 1_100_000, 1_500_000, 2_000_000]):
        (pin.drive_low if i % 2 == 0 else pin.drive_high)(t_ns=t + dt)
    t_up = t + 120 * MS
    for i, dt in enumerate([0, 100_000, 300_000, 600_000, 800_000]):
        (pin.drive_high if i % 2 == 0 else pin.drive_low)(t_ns=t_up + dt)
    assert drain(q) == [ButtonPress("Ben", "confirm", t)]


def test_a_quick_real_second_press_is_not_lost(bank):
    b, q = bank
    pin = b.pin("Cleo", "slap")
    t = 3_000 * MS
    pin.drive_low(t_ns=t)
    pin.drive_high(t_ns=t + 45 * MS)
    pin.drive_low(t_ns=t + 70 * MS)  # a double tap, 25 ms released
    assert drain(q) == [ButtonPress("Cleo", "slap", t), ButtonPress("Cleo", "slap", t + 70 * MS)]


def test_two_seats_one_ms_apart_are_ordered_by_edge_even_when_delivered_the_other_way(bank):
    b, q = bank
    t = 4_000 * MS
    late_first = b.pin("Anna", "slap").drive_low(t_ns=t, deliver=False)
    b.pin("Ben", "slap").drive_low(t_ns=t + 1 * MS)  # Ben's callback runs first
    b.pin("Anna", "slap").deliver(late_first)         # Anna's arrives later, her edge was earlier
    arrived = drain(q)
    assert [p.seat for p in arrived] == ["Ben", "Anna"]
    assert [p.seat for p in by_edge_time(arrived)] == ["Anna", "Ben"]
    assert by_edge_time(arrived)[1].t_ns - by_edge_time(arrived)[0].t_ns == 1 * MS


def busy(stop: threading.Event) -> None:
    x = 0
    while not stop.is_set():
        x += 1


def test_order_by_edge_time_survives_late_out_of_order_callbacks_on_a_busy_thread(bank):
    """Edges are made in one order; a deliberately slow 'alert thread' delivers them shuffled and late
    while another thread keeps the CPU busy. The edge times still give the true order."""
    b, q = bank
    rng = random.Random(7)
    seats = ["Anna", "Ben", "Cleo"]
    stop = threading.Event()
    hog = threading.Thread(target=busy, args=(stop,), daemon=True)
    hog.start()
    try:
        for race in range(20):
            t = (10_000 + race * 500) * MS
            order = seats[:]
            rng.shuffle(order)
            events = []
            for i, seat in enumerate(order):
                pin = b.pin(seat, "slap")
                events.append((pin, pin.drive_low(t_ns=t + i * 300_000, deliver=False)))  # 0.3 ms apart
            rng.shuffle(events)

            def alert_thread(events=events):
                for pin, event in events:
                    pin.deliver(event)

            th = threading.Thread(target=alert_thread)
            th.start()
            th.join(WAIT)
            got = [q.get(timeout=WAIT) for _ in seats]
            assert [p.seat for p in by_edge_time(got)] == order
            for seat in seats:
                b.pin(seat, "slap").drive_high(t_ns=t + 100 * MS)
    finally:
        stop.set()
        hog.join(WAIT)


def test_presses_from_threads_with_clock_edges_are_ordered_by_their_edges(bank):
    """Real clock edges (gpiozero stamps them) from several threads with a busy thread: each press's
    t_ns is exactly the tick its pin recorded, whatever order the callbacks ran in."""
    b, q = bank
    stop = threading.Event()
    hog = threading.Thread(target=busy, args=(stop,), daemon=True)
    hog.start()
    stamps: dict[str, float] = {}
    try:
        def slap(seat):
            pin = b.pin(seat, "slap")
            pin.drive_low()
            stamps[seat] = pin._last_change

        threads = [threading.Thread(target=slap, args=(s,)) for s in ("Anna", "Ben", "Cleo")]
        for th in threads:
            th.start()
        for th in threads:
            th.join(WAIT)
        got = [q.get(timeout=WAIT) for _ in threads]
    finally:
        stop.set()
        hog.join(WAIT)
    assert {p.seat: p.t_ns for p in got} == {s: round(t * 1e9) for s, t in stamps.items()}
    assert [p.seat for p in by_edge_time(got)] == sorted(stamps, key=stamps.get)


def test_callbacks_survive_garbage_collection(bank):
    """gpiozero holds pin.when_changed weakly: the bank must keep its handlers alive."""
    b, q = bank
    gc.collect()
    b.pin("Anna", "confirm").drive_low(t_ns=7_000 * MS)
    assert drain(q) == [ButtonPress("Anna", "confirm", 7_000 * MS)]


def test_active_high_buttons_with_pull_down():
    q: queue.Queue = queue.Queue()
    b = ButtonBank([ButtonPin("Anna", "slap", 17, pull_up=False)], q, pin_factory=timed_mock_factory()).open()
    try:
        pin = b.pin("Anna", "slap")
        pin.drive_low(t_ns=1 * MS)  # nothing: low is released
        pin.drive_high(t_ns=100 * MS)
        assert drain(q) == [ButtonPress("Anna", "slap", 100 * MS)]
    finally:
        b.close()


def test_bank_rejects_two_buttons_of_the_same_kind_and_unknown_buttons():
    with pytest.raises(ValueError, match="two"):
        ButtonBank([ButtonPin("A", "slap", 1), ButtonPin("A", "slap", 2)], print)
    with pytest.raises(ValueError, match="unknown button"):
        ButtonBank([ButtonPin("A", "kick", 1)], print)


def test_nothing_is_opened_before_open_and_close_releases_pins():
    factory = timed_mock_factory()
    b = ButtonBank([ButtonPin("A", "slap", 17)], print, pin_factory=factory)
    assert b.devices == {}
    b.open()
    b.close()
    again = ButtonBank([ButtonPin("B", "slap", 17)], print, pin_factory=factory).open()  # pin is free again
    again.close()


class WrappingMicrosFactory:
    """A pigpio-like factory: a 32-bit µs tick counter that wraps; only ticks_diff may compare ticks."""

    def __init__(self, now_us: int):
        self.now_us = now_us

    def ticks(self):
        return self.now_us % 0x100000000

    @staticmethod
    def ticks_diff(later, earlier):
        return ((later - earlier) % 0x100000000) / 1_000_000


def test_tick_clock_converts_opaque_wrapping_ticks_through_ticks_diff():
    factory = WrappingMicrosFactory(now_us=0x100000000 + 500)  # just wrapped
    clock = TickClock(factory)
    assert not clock.exact
    before = time.monotonic_ns()
    t_edge = clock.to_ns(0xFFFFFFFF - 1_499)  # 2 ms before "now", across the wrap
    after = time.monotonic_ns()
    assert before - 2_000_000 - 1_000_000 <= t_edge <= after - 2_000_000 + 1_000_000


def test_tick_clock_is_exact_for_mock_factories():
    assert TickClock(MockFactory()).exact
    assert TickClock(MockFactory()).to_ns(12.345678901) == 12_345_678_901
