"""The alcasan table screen: scans become plays or reveals, several cards of one face are gathered, the
hints say what may be laid and why, the pile's cards come from the accepted events."""

from __future__ import annotations

import random

import pytest

from kiosk.app.controller import TableController
from kiosk.games import Choice
from kiosk.games.alcasan import AlcasanUI
from kiosk.i18n import set_language
from referee import sim
from referee.table import FORMAT, Referee

P1, P2, P3 = "A", "B", "C"


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language("de")


def table(players=(P1, P2, P3), **options) -> TableController:
    header: dict = {"format": FORMAT, "game": "alcasan", "players": list(players)}
    if options:
        header["options"] = options
    return TableController(Referee(header), None, None)


def lay(c: TableController, *codes: str) -> None:
    """The player on turn lays these cards: one scan, or 'Lay several' and a scan each."""
    if len(codes) == 1:
        fb = c.scan(codes[0])
    else:
        c.action("several")
        for code in codes:
            c.scan(code)
        fb = c.choose(0)
    assert fb is not None and fb.ok, fb.text("en") if fb else None


def hints(c: TableController) -> list[str]:
    """The table screen's hint lines: the referee's own sentence (`Referee.hints()`), then the screen's notes."""
    return [c.ui.hints.sentence("en"), *c.ui.panel(c.state).hints]


def test_a_scan_is_a_play_by_the_seat_player_or_the_player_on_turn() -> None:
    c = table()
    ui = c.ui
    assert ui.scan(c.state, "AC:7#1", None) == {"type": "play", "player": P1, "card": "AC:7#1"}
    assert ui.scan(c.state, "AC:7#1", P2) == {"type": "play", "player": P2, "card": "AC:7#1"}
    fb = c.scan("AC:7#1", P2)  # B's scanner, A's turn: the referee says so
    assert not fb.ok and fb.rejection.code == "not-your-turn"


def test_face_down_phase_scans_reveal_and_hides_take_pile() -> None:
    players = ["P1", "P2", "P3"]
    t = sim.get("alcasan")(random.Random(21), players)
    referee = Referee(t.header)
    c = TableController(Referee(t.header), None, None)
    for event in sim.play(t, referee):
        if event["type"] == "reveal":
            break
        assert c.submit(event).ok
    else:
        raise AssertionError("the simulated game has no reveal")
    player = c.state["turn"]
    assert c.ui.scan(c.state, event["card"], None) == {"type": "reveal", "player": player, "card": event["card"]}
    assert c.ui.actions(c.state) == [], "no take_pile, no gather in the face-down phase (AC-R16)"
    assert hints(c)[0].startswith(f"{player} ") and "face-down" in hints(c)[0]
    assert c.scan(event["card"]).ok
    assert c.referee.history[-1] == {"type": "reveal", "player": player, "card": event["card"]}


def test_several_cards_of_one_face_are_one_play() -> None:
    c = table()
    assert [a.key for a in c.ui.actions(c.state)] == ["several"], "empty pile: nothing to take"
    c.action("several")
    assert c.pending is not None and c.pending.options == []
    c.scan("AC:7#1")
    c.scan("AC:7#1")  # the same physical card read twice counts once
    c.scan("AC:7#2")
    assert [label for label, _ in c.pending.options] == ["Lay 2 cards"]
    assert "7, 7" in c.pending.prompt
    assert c.choose(0).ok
    assert c.referee.history == [{"type": "play", "player": P1, "cards": ["AC:7#1", "AC:7#2"]}]
    assert c.state["hands"][P1] == 3 and c.state["draw_pile"] == 52 - 27 - 2 and c.state["turn"] == P2


def test_a_gather_is_judged_by_the_referee_and_cancel_drops_it() -> None:
    c = table()
    c.action("several")
    c.scan("AC:7#1")
    c.scan("AC:8#1")
    fb = c.choose(0)
    assert not fb.ok and fb.rejection.code == "mixed-faces" and "(AC-R2)" in fb.rejection.message("en") \
        and "(AC-R2)" not in fb.text("en"), "the rule id for the log, not for the guests"
    c.action("several")
    c.scan("AC:5#1")
    c.cancel_choice()
    assert c.scan("AC:9#1").ok  # after Cancel a scan is a single play again
    assert c.referee.history == [{"type": "play", "player": P1, "card": "AC:9#1"}]


def test_four_identical_burn_by_one_gather_and_by_single_plays() -> None:
    c = table()
    lay(c, "AC:7#1", "AC:7#2", "AC:7#3")  # A lays three 7s at once
    assert "One more 7 burns the pile." in hints(c)[0]
    lay(c, "AC:7#4")  # B's fourth 7 burns; B lays again (AC-R14)
    assert c.state["burned"] == 4 and c.state["turn"] == P2
    assert hints(c)[0] == "B lays from the hand. Any card may be laid."
    for code in ("AC:5#1", "AC:5#2", "AC:5#3"):  # B, C, A one 5 each
        lay(c, code)
    assert c.state["turn"] == P2 and c.state["pile"] == 3
    assert "One more 5 burns the pile." in hints(c)[0]
    lay(c, "AC:5#4")
    assert c.state["burned"] == 8 and c.state["turn"] == P2


def test_need_hints_and_the_card_under_luft() -> None:
    c = table()
    assert hints(c) == ["A lays from the hand. Any card may be laid."]
    lay(c, "AC:LUFT#1")
    assert hints(c)[0] == "B lays from the hand. Any card may be laid. Or take the pile."
    lay(c, "AC:3#1")
    lay(c, "AC:7#1")
    lay(c, "AC:LUFT#2")
    assert hints(c)[0] == "B lays from the hand. 7 or higher, or Earth, Air, Fire. Or take the pile."  # Air: AC-R12
    panel = c.ui.panel(c.state)
    assert [s.label for s in panel.cards] == ["Air", "3", "7", "Air"]  # English names the elements in English
    assert [s.owner for s in panel.cards] == [P1, P2, P3, P1]
    assert [s.highlight for s in panel.cards] == [False, False, False, True], "the top card"
    lay(c, "AC:ERDE#1")
    lay(c, "AC:WASSER#1")
    assert hints(c)[0].startswith("A lays from the hand. 4 or lower")


def test_take_the_pile_by_touch_and_the_pile_follows_undo() -> None:
    c = table()
    lay(c, "AC:9#1")
    actions = {a.key: a.label for a in c.ui.actions(c.state)}
    assert actions == {"several": "Lay several", "take": "Take the pile (1)"}
    assert c.action("take").ok
    assert c.referee.history[-1] == {"type": "take_pile", "player": P2}
    assert c.state["hands"][P2] == 4 and c.ui.panel(c.state).cards == []
    assert c.undo().ok
    assert [s.label for s in c.ui.panel(c.state).cards] == ["9"]
    lay(c, "AC:10#1")
    assert [s.label for s in c.ui.panel(c.state).cards] == ["9", "10"]


def test_seat_lines_and_results_with_places() -> None:
    c = table((P1, P2), stop_at_first=True)
    assert c.ui.panel(c.state).seat_lines[P1] == "Hand 3 · Up 3 · Down 3"
    state = {**c.state, "finished": True, "turn": None, "scores": {P1: 2, P2: 1}, "out": [P2], "winners": [P2]}
    assert c.ui.result_lines(state) == ["Place 1: B", "Place 2: A"]
    assert c.ui.panel(state).seat_lines == {P1: "Place 2", P2: "Place 1"}


def test_gather_choice_takes_scans() -> None:
    ui = AlcasanUI((P1, P2), {})
    choice = ui.gather(P1, [])
    assert isinstance(choice, Choice) and choice.on_scan is not None
    more = choice.on_scan("AC:2#1", P2)  # whoever's scanner reads it, the cards are the gathering player's
    assert more.complete("lay") == {"type": "play", "player": P1, "card": "AC:2#1"}
