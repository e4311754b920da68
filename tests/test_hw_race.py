"""The slap race's timing: edge order, first press per seat, the settle time for late callbacks."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hw.inputs import ButtonPress
from hw.race import SlapRace, by_edge_time

MS = 1_000_000


def test_race_ranks_by_edge_whatever_the_arrival_order():
    race = SlapRace(opened_ns=1_000 * MS, window_ns=500 * MS, settle_ms=50)
    arrivals = [ButtonPress("Ben", "slap", 1_200 * MS), ButtonPress("Anna", "slap", 1_199 * MS),
                ButtonPress("Anna", "slap", 1_300 * MS),     # her second slap does not count
                ButtonPress("Cleo", "confirm", 1_100 * MS),  # not a slap
                ButtonPress("Dev", "slap", 999 * MS),        # before the race opened
                ButtonPress("Eve", "slap", 1_500 * MS)]      # after the window
    assert [race.offer(p) for p in arrivals] == [True, True, False, False, False, False]
    assert [p.seat for p in race.order()] == ["Anna", "Ben"]
    assert race.decides_at == 1_550 * MS
    assert not race.decided(1_549 * MS) and race.decided(1_550 * MS)


def test_an_earlier_press_of_a_seat_arriving_late_replaces_its_later_one():
    race = SlapRace(0, 100 * MS)
    assert race.offer(ButtonPress("Anna", "slap", 50 * MS))
    assert race.offer(ButtonPress("Anna", "slap", 10 * MS))
    assert race.order() == [ButtonPress("Anna", "slap", 10 * MS)]


@given(st.lists(st.tuples(st.sampled_from("ABCD"), st.integers(0, 10**9)), max_size=20), st.randoms())
def test_the_result_does_not_depend_on_arrival_order(presses, rnd):
    items = [ButtonPress(s, "slap", t) for s, t in presses]
    a = SlapRace(0, 10**9 + 1)
    for p in items:
        a.offer(p)
    shuffled = items[:]
    rnd.shuffle(shuffled)
    b = SlapRace(0, 10**9 + 1)
    for p in shuffled:
        b.offer(p)
    assert a.order() == b.order() == by_edge_time(a.order())
