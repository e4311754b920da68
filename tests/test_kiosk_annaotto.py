"""The ANNAOTTO table screen: start and plays by scan, the From toggle, the ALLE race on screen and its timer."""

from __future__ import annotations

import pytest

from kiosk import i18n
from kiosk.app.controller import TableController
from kiosk.games import Note
from kiosk.games.annaotto import AnnaottoUI
from kiosk.i18n import set_language
from tests.kiosk_process import KioskProcess
from tests.test_kiosk_e2e import start_game

P1, P2, P3 = "Player 1", "Player 2", "Player 3"


@pytest.fixture(autouse=True)
def english():
    before = i18n.language()
    i18n.set_language("en")
    yield
    i18n.set_language(before)


def new(options=None) -> TableController:
    return TableController.new_game(None, "annaotto", [P1, P2, P3], P3, options)


def open_race(c: TableController) -> None:
    assert c.scan("AO:RED.DOTS").ok  # the operator's start card
    assert c.scan("AO:RED.DOTS.ALLE").ok  # Player 1 (after the dealer) lays ALLE
    assert c.state["race"] == {"by": P1, "called": False, "pressed": {}}


def test_before_the_start_a_scan_is_the_start_card_and_buttons_mean_nothing() -> None:
    c = new()
    assert c.ui.scan(c.state, "AO:RED.DOTS", "Player 2") == {"type": "start", "card": "AO:RED.DOTS"}
    assert c.ui.button(c.state, P1, "confirm", 5) is None
    assert c.ui.actions(c.state) == []
    assert c.ui.panel(c.state).headline == "Scan the start card"
    assert c.scan("AO:RED.DOTS").ok and c.state["turn"] == P1


def test_from_toggle_makes_the_next_scan_a_card_of_that_hand() -> None:
    c = new()
    c.scan("AO:RED.DOTS")
    c.action("from")
    assert [label for label, _ in c.pending.options] == [P2, P3, "Own hand"]
    fb = c.choose(0)
    assert fb.ok and fb.event is None and "Player 2" in fb.note
    assert "Next scan: a card from Player 2's hand." in c.ui.panel(c.state).hints
    assert c.scan("AO:BLUE.DOTS").ok
    assert c.referee.history[-1] == {"type": "play", "player": P1, "card": "AO:BLUE.DOTS", "from": P2}
    assert c.state["hands"] == {P1: 8, P2: 7, P3: 8} and c.state["turn"] == P2
    assert c.ui.source is None, "the toggle is used up by the accepted play"
    assert c.scan("AO:BLUE.STRIPES").ok  # Player 2, own hand again
    assert "from" not in c.referee.history[-1]


def test_race_loser_is_the_latest_edge_not_the_last_arrival() -> None:
    c = new()
    open_race(c)
    race = c.ui.race(c.state)
    assert race.open and race.slaps == [] and race.waiting == [P1, P2, P3]
    assert c.action(f"call:{P1}:ALLE").ok
    # Slaps arrive Player 2 first, but Player 2's edge is the latest.
    assert c.button(P2, "slap", 5_030_000_000).ok
    assert c.button(P1, "slap", 5_000_000_000).ok
    assert c.ui.race(c.state).slaps == [(P1, 0), (P2, 30_000)], "µs after the first slap"
    assert c.button(P3, "slap", 5_012_500_000).ok
    assert c.state["race"] is None and c.state["hands"] == {P1: 7, P2: 10, P3: 8}
    race = c.ui.race(c.state)
    # Each slap's time counts from the first slap, in µs: Player 2 is 30 ms behind, not 17.5 behind Player 3.
    assert not race.open and race.losers == [P2] and race.penalty == 2
    assert race.slaps == [(P1, 0), (P3, 12_500), (P2, 30_000)]
    assert c.ui.panel(c.state).big == "ALLE race: Player 2 +2 cards"
    assert c.scan("AO:RED.STRIPES").ok  # the next move: the result leaves the screen
    assert c.ui.panel(c.state).big == "" and c.ui.race(c.state) is None


def test_undo_of_the_closing_slap_reopens_the_race_with_a_fresh_timer() -> None:
    c = new({"race_timeout_ms": 200})
    open_race(c)
    c.action(f"call:{P1}:ALLE")
    for t, p in ((1, P1), (2, P2), (3, P3)):
        c.button(p, "slap", t * 1000)
    assert not c.ui.race(c.state).open
    assert c.undo().ok
    assert c.state["race"]["pressed"] == {P1: 1, P2: 2} and c.ui.race(c.state).open
    assert c.next_deadline() is not None
    assert c.ui.race(c.state).open


def test_race_close_timer_counts_from_the_opening_and_nonslappers_lose() -> None:
    c = new({"race_timeout_ms": 40})
    open_race(c)
    deadline = c.next_deadline()
    assert deadline is not None
    c.action(f"call:{P1}:ALLE")
    c.button(P3, "slap", 7_000_000)
    assert abs(c.next_deadline() - deadline) < 0.01, "a slap does not restart the race's timeout"
    assert c.due_timers(deadline - 0.02) == []
    fired = c.due_timers(deadline + 0.001)
    assert [f.event for f in fired] == [{"type": "race_close"}] and all(f.ok for f in fired)
    assert c.state["hands"] == {P1: 9, P2: 10, P3: 8}
    race = c.ui.race(c.state)
    assert race.losers == [P1, P2] and race.reason == "Time up: no slap from them"
    assert c.next_deadline() is None


def test_forgotten_alle_call_costs_the_layer() -> None:
    c = new({"race_timeout_ms": 40})
    open_race(c)
    for t, p in ((1, P1), (2, P2), (3, P3)):
        c.button(p, "slap", t * 1_000_000)
    assert c.state["hands"] == {P1: 9, P2: 8, P3: 8}
    race = c.ui.race(c.state)
    assert race.losers == [P1] and race.reason == "Player 1 did not call ALLE"


def test_choices_calls_catches_and_confirm_are_touches() -> None:
    c = new()
    c.scan("AO:RED.DOTS")
    keys = [a.key for a in c.ui.actions(c.state)]
    assert keys == ["draw", "from"]
    assert c.action("draw").ok and c.state["drawn"]
    assert [a.key for a in c.ui.actions(c.state)] == ["confirm"]
    assert c.action("confirm").ok and c.state["turn"] == P2
    assert c.scan("AO:ANNAOTTO").ok
    assert [a.key for a in c.ui.actions(c.state)] == ["colour", "flip"]
    set_language("de")
    c.action("colour")
    assert [label for label, _ in c.pending.options] == ["Rot", "Orange", "Gelb", "Grün", "Blau", "Lila", "Rosa",
                                                         "Braun"]
    set_language("en")  # English names the colours in English
    c.action("colour")
    assert [label for label, _ in c.pending.options][:3] == ["Red", "Orange", "Yellow"]
    assert c.choose(4).ok and c.state["colour"] == "BLUE"
    c.action("flip")
    assert [label for label, _ in c.pending.options] == ["Player 2 (self)", "Player 3 (next)"]
    assert c.choose(1).ok and c.state["flip"] == {"by": P2, "target": P3, "cards": "all"}
    assert c.ui.panel(c.state).hints[0] == "Player 3 turns all hand cards over now."
    assert c.scan("AO:BLUE.DOTS.ANNA").ok  # Player 3: a chain of one ANNA for Player 1
    assert c.ui.actions(c.state)[0].label == "Confirm: flip 2"
    assert c.button(P1, "confirm", 0).ok and c.state["flip"] == {"by": P3, "target": P1, "cards": 2}


def test_missed_call_can_be_caught_by_touch() -> None:
    c = new({"hand_size": 6})
    c.scan("AO:RED.DOTS")
    for code in ("AO:RED.STRIPES", "AO:RED.CHECKS", "AO:RED.WAVES"):  # one card each, round the table
        assert c.scan(code).ok
    hands = iter(["AO:ORANGE.WAVES", "AO:ORANGE.DOTS", "AO:ORANGE.STRIPES", "AO:ORANGE.CHECKS", "AO:YELLOW.CHECKS",
                  "AO:YELLOW.DOTS", "AO:YELLOW.STRIPES", "AO:YELLOW.WAVES", "AO:GREEN.WAVES", "AO:GREEN.DOTS",
                  "AO:GREEN.STRIPES", "AO:GREEN.CHECKS"])
    while c.state["due"] is None:
        assert c.scan(next(hands)).ok
    due = c.state["due"]
    assert due["word"] == "ANNA"
    keys = [a.key for a in c.ui.actions(c.state)]
    assert f"call:{due['player']}:ANNA" in keys and "catch" in keys
    c.action("catch")
    catcher = c.pending.options[0][1]
    assert catcher != due["player"]
    assert c.choose(0).ok and c.state["hands"][due["player"]] == 2
    assert c.referee.history[-1] == {"type": "catch", "player": catcher, "target": due["player"]}


def test_touch_toggle_answers_with_a_note() -> None:
    ui = AnnaottoUI((P1, P2), {})
    state = new().state | {"top": "RED.DOTS", "turn": P1, "hands": {P1: 8, P2: 8}}
    choice = ui._source_choice(state, P1)
    assert isinstance(choice.complete(P2), Note) and ui.source == (P1, P2)
    assert isinstance(choice.complete(None), Note) and ui.source is None


def test_race_times_keep_the_precision_that_decided_and_say_ties() -> None:
    """Issue #37: gaps under a millisecond read "+0 ms" for everyone, though two lost and one did not."""
    from kiosk.i18n import set_language
    from kiosk.screens.table.race import decimals, slap_times

    assert decimals([("A", 0), ("B", 12_500), ("C", 30_000)]) == 0, "whole milliseconds where they decide"
    assert decimals([("A", 0), ("B", 400), ("C", 700)]) == 1
    assert slap_times([("A", 0), ("B", 400), ("C", 700)]) == ["first", "+0.4 ms", "+0.7 ms"]
    assert slap_times([("A", 0), ("B", 430), ("C", 470)]) == ["first", "+0.43 ms", "+0.47 ms"]
    tie = slap_times([("A", 0), ("B", 700), ("C", 700)])
    assert tie == ["first", "+0.7 ms", "+0.7 ms, a tie with B"], "a tie said as a tie"
    set_language("de")
    try:
        assert slap_times([("A", 0), ("B", 400)]) == ["zuerst", "+0,4 ms"]
    finally:
        set_language("en")


def test_slap_race_through_the_real_kiosk(tmp_path) -> None:
    """Seat buttons with edge times: the latest edge loses although it arrived first; the screen says so."""
    kiosk = KioskProcess(tmp_path)
    try:
        names = start_game(kiosk, "annaotto", 3)
        assert names == [P1, P2, P3]
        kiosk.cmd("scan", code="AO:RED.DOTS")
        kiosk.wait_events(1)
        kiosk.cmd("scan", code="AO:RED.DOTS.ALLE", reader="Anna")
        kiosk.wait_events(2)
        assert "ALLE! Everyone slap!" in kiosk.cmd("view")["texts"]
        kiosk.touch(f"act:call:{P1}:ALLE")
        kiosk.wait_events(3)
        for seat, t_us in (("Ben", 9_030_000), ("Anna", 9_000_000), ("Cleo", 9_012_500)):
            kiosk.cmd("tap", seat=seat, button="slap", t_ns=t_us * 1000)
        state = kiosk.wait_events(6)["state"]
        assert state["race"] is None and state["hands"] == {P1: 7, P2: 10, P3: 8}
        texts = kiosk.cmd("view")["texts"]  # the race result fills the screen: loser, penalty, times from the first
        assert P2 in texts and "+2 cards" in texts
        assert [t for t in texts if t.startswith("Player ") and "   " in t] == [
            f"{P1}   first", f"{P3}   +12 ms", f"{P2}   +30 ms"]
    finally:
        kiosk.close()


def test_a_card_from_another_seats_scanner_says_whose_scanner_read_it(tmp_path) -> None:
    """Issue #37: ANNAOTTO credits a scan at seat 3's scanner to the player on turn (its decision) — the verdict now
    says so instead of re-assigning it silently (K1)."""
    from tests.kiosk_helpers import make_app, press

    app = make_app(tmp_path)
    press(app, "game:annaotto")
    press(app, "count:3")
    press(app, "start")
    c = app.router.screen.controller
    c.seat_players = {"s1": P1, "s2": P2, "s3": P3}
    c.scan("AO:RED.DOTS", None)  # the start card
    assert c.state["turn"] == P1
    c.scan("AO:RED.STRIPES", "s3")  # laid by the player on turn, read by Player 3's scanner
    app.loop.draw()
    assert c.feedback.ok and c.referee.history[-1]["player"] == P1
    assert [e.text for e in app.loop.view.tagged("feedback")] == [f"{P1} (read by {P3}'s scanner)"]
    c.scan("AO:RED.WAVES", "s2")  # Player 2's own scanner on Player 2's turn: nothing to say
    app.loop.draw()
    assert [e.text for e in app.loop.view.tagged("feedback")] == [P2]
