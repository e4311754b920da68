"""Profi-Sort against its rules file line by line: headers, copy numbers, the §17 order with two faults at once,
the hand-count rules, task 15, round ends, and the §18 state in every phase (spec review probes)."""

from __future__ import annotations

import json

import pytest

from referee.answers import HeaderError
from referee.table import Referee
from tests.test_profi_sort import STATE_KEYS, J, c

REPEAT = "repeat-any-and-go-out"
KEYS = STATE_KEYS


def header(players=("A", "B"), **extra) -> dict:
    return {"format": "tabletop-referee/1", "game": "profi-sort", "players": list(players), **extra}


def ev(type_: str, **fields) -> dict:
    return {"type": type_, **fields}


def table(events, players=("A", "B"), **options) -> Referee:
    ref = Referee(header(players, options=options))
    for event in events:
        answer = ref.apply(event)
        assert answer.ok, (event, answer.error, answer.message())
    return ref


def probe(ref: Referee, event) -> str | None:
    """Apply a probe; a rejection must leave the state exactly as it was."""
    before = json.dumps(ref.state(), sort_keys=True)
    answer = ref.apply(event)
    if not answer.ok:
        assert json.dumps(ref.state(), sort_keys=True) == before
    return answer.error


# --- §20 options and the header


@pytest.mark.parametrize(("extra", "ok"), [
    ({"dealer": None}, False), ({"dealer": 1}, False), ({"dealer": "Z"}, False), ({"dealer": "A"}, True),
    ({"players": ["A"]}, False), ({"players": ["A", "B", "C", "D"]}, False), ({"players": ["A", 1]}, False),
    ({"players": ["A", "A"]}, False), ({"players": ["A", "B", "C"]}, True),
    ({"options": None}, False), ({"options": []}, False), ({"options": {}}, True),
    ({"options": {"first_to": None}}, True), ({"options": {"first_to": 15}}, True),
    ({"options": {"first_to": 1}}, True),
    ({"options": {"first_to": 1.0}}, False), ({"options": {"first_to": "5"}}, False),
    ({"options": {"jokers": 0}}, True), ({"options": {"jokers": 8}}, True), ({"options": {"jokers": None}}, False),
    ({"options": {"jokers": "8"}}, False), ({"options": {"jokers": False}}, False),
    ({"options": {"bonus": None}}, False), ({"options": {"bonus": 0}}, False), ({"options": {"bonus": False}}, True),
    ({"options": {"discard_draw": None}}, False), ({"options": {"discard_draw": 1}}, False),
    ({"options": {"discard_draw": True}}, True), ({"options": {"Jokers": 8}}, False),
])
def test_header_variants(extra: dict, ok: bool) -> None:
    if ok:
        assert set(Referee(header(**extra)).state()) == KEYS
    else:
        with pytest.raises(HeaderError):
            Referee(header(**extra))


def test_dealer_and_first_turn() -> None:
    s = Referee(header(("A", "B", "C"), dealer="A")).state()
    assert s["dealer"] == "A" and s["turn"] == "B"
    s = Referee(header(("A", "B", "C"))).state()
    assert s["dealer"] == "C" and s["turn"] == "A"


# --- §1 card codes and copy numbers


@pytest.mark.parametrize(("code", "jokers", "error"), [
    ("PS:H5", 8, None), ("PS:H5#1", 8, None), ("PS:H5#2", 8, None), ("PS:H5#3", 8, "unknown-card"),
    ("PS:H5#0", 8, "unknown-card"), ("PS:H5#01", 8, "unknown-card"), ("PS:H5#", 8, "unknown-card"),
    ("PS:H5##1", 8, "unknown-card"), ("PS:H5#a", 8, "unknown-card"), ("PS:H5#1#1", 8, "unknown-card"),
    ("PS:H5#+1", 8, "unknown-card"), ("PS:H5#\u00b2", 8, "unknown-card"), ("PS:h5", 8, "unknown-card"),
    ("PS:H1", 8, "unknown-card"), ("PS:H11", 8, "unknown-card"), ("PS:HB", 8, "unknown-card"),
    ("PS:H05", 8, "unknown-card"), (" PS:H5", 8, "unknown-card"), ("PS:H5 ", 8, "unknown-card"),
    ("PS:10H", 8, "unknown-card"), ("AK:H5", 8, "unknown-card"), ("PS:JOKER#8", 8, None),
    ("PS:JOKER#9", 8, "unknown-card"), ("PS:JOKER#6", 6, None), ("PS:JOKER#7", 6, "unknown-card"),
    ("PS:JOKER", 0, "unknown-card"), ("PS:JOKER#1", 0, "unknown-card"), ("PS:Joker", 8, "unknown-card"),
    ("PS:DA#2", 8, None), ("PS:SK", 8, None), ("PS:C10#2", 8, None),
])
def test_copy_numbers(code: str, jokers: int, error: str | None) -> None:
    ref = table([ev("draw", player="A")], jokers=jokers)
    assert probe(ref, ev("discard", player="A", card=code)) == error


# card-exhausted: codes with and without #N counted together, same copy twice, in one event or with the table.
@pytest.mark.parametrize(("on_table", "code", "error"), [
    (["PS:H5"], "PS:H5", None),
    (["PS:H5"], "PS:H5#1", None),
    (["PS:H5#1"], "PS:H5#1", "card-exhausted"),
    (["PS:H5#1"], "PS:H5#2", None),
    (["PS:H5", "PS:H5"], "PS:H5#1", "card-exhausted"),
    (["PS:H5#1", "PS:H5"], "PS:H5", "card-exhausted"),
    (["PS:H5#2", "PS:H5"], "PS:H5#1", "card-exhausted"),
])
def test_card_exhausted_with_and_without_copies(on_table: list[str], code: str, error: str | None) -> None:
    events = []
    player = "A"
    for card in on_table:
        events += [ev("draw", player=player), ev("discard", player=player, card=card)]
        player = "B" if player == "A" else "A"
    ref = table([*events, ev("draw", player=player)])
    assert probe(ref, ev("discard", player=player, card=code)) == error


# --- §17: bad-event variants


@pytest.mark.parametrize("event", [
    ev("draw", player="A", count=None), ev("draw", player="A", count="1"), ev("draw", player="A", count=[1]),
    ev("draw", player="A", **{"from": "Talon"}), ev("draw", player=None), ev("draw", player=["A"]),
    ev("skip_with_ace", player=1), ev("give_ace", player="A", to=None, card="PS:HA"),
    ev("give_ace", player="A", to="B"), ev("give_ace", player="A", to="B", card=None),
    ev("lay_task", player="A", task=None, groups=[]), ev("lay_task", player="A", task="run8", groups=None),
    ev("lay_task", player="A", task="run8", groups=[["PS:H2"], "PS:H3"]),
    ev("lay_task", player="A", task="run8", groups=[["PS:H2", None]]),
    ev("lay_task", player="A", task=REPEAT, groups=[], **{"as": None}),
    ev("lay_task", player="A", task="run8", groups=[], **{"as": "run8"}),
    ev("lay_task", player="A", task="no-such-task", groups=[], **{"as": "run8"}),
    ev("extend", player="A", meld="m1"), ev("extend", player="A", cards=["PS:H2"]),
    ev("extend", player="A", meld=None, cards=["PS:H2"]), ev("extend", player="A", meld="m1", cards="PS:H2"),
    ev("extend", player="A", meld="m1", cards=["PS:H2"], at=None),
    ev("extend", player="A", meld="m1", cards=["PS:H2"], at="LOW"),
    ev("discard", player="A", card=None), ev("discard", player="A", card=5),
    ev("reveal_hand", player="A", cards=None), ev("reveal_hand", player="A", cards=[None]),
    ev("redeal", player="A"), ev("redeal", player="A", cards="PS:HA"),
    ev("redeal", cards=c("HA", "SA", "CA")), ev("play", player="A", card="PS:H2"), ev("press", player="A"),
    ev("Draw", player="A"), ev("expect", ok=True), {"type": None}, {"player": "A"}, [], "draw", None,
])
def test_bad_event_variants(event) -> None:
    # on turn, drawn: every other check would pass or give another code
    ref = table([ev("draw", player="A")])
    assert probe(ref, event) == "bad-event"


@pytest.mark.parametrize("event", [
    ev("draw", player="A", count=1, cards=5, at="x", to=3), ev("draw", player="A", **{"from": "talon"}),
    ev("discard", player="A", card="PS:H2", at="nowhere", count=7, groups=5),
])
def test_extra_fields_are_ignored(event) -> None:
    ref = table([] if event["type"] == "draw" else [ev("draw", player="A")])
    assert probe(ref, event) is None


# --- §17: the order of checks, two faults at once (setup, probe, the code that wins)

D = ev("draw", player="A")
GIVE = ev("give_ace", player="A", to="B", card="PS:HA#1")
LAY8 = ev("lay_task", player="A", task="run8", groups=[c("H2", "C3", "S4", "D5", "H6", "C7", "S8", "D9")])
ORDER = [
    # bad-event before game-over is covered by the finished match tests; unknown-player before unknown-card
    ([], ev("give_ace", player="A", to="Z", card="PS:X9"), "unknown-player"),
    ([], ev("give_ace", player="Z", to="A", card="PS:HA"), "unknown-player"),
    # unknown-card before wrong-phase / not-your-turn / must-draw-first
    ([], ev("reveal_hand", player="A", cards=c("H2", "Q9")), "unknown-card"),
    ([], ev("discard", player="B", card="PS:H2#3"), "unknown-card"),
    ([], ev("redeal", player="B", cards=c("HA", "SA", "XA")), "unknown-card"),
    ([], ev("lay_task", player="B", task="nope", groups=[["PS:JOKER#9"]]), "unknown-card"),
    ([], ev("extend", player="B", meld="m7", cards=c("H5", "H1")), "unknown-card"),
    # wrong-phase before not-your-turn (turn is null outside play)
    ([], ev("new_round", player="Z"), "wrong-phase"),
    # not-your-turn before must-draw-first / already-drawn
    ([], ev("discard", player="B", card="PS:H2"), "not-your-turn"),
    ([D], ev("draw", player="B"), "not-your-turn"),
    ([D], ev("skip_with_ace", player="B"), "not-your-turn"),
    # already-drawn before discard-draw-not-allowed and no-received-ace
    ([D], ev("draw", player="A", **{"from": "discard"}), "already-drawn"),
    ([D], ev("skip_with_ace", player="A"), "already-drawn"),
    # must-draw-first before bad-target / unknown-task / unknown-meld / must-keep-card
    ([], ev("give_ace", player="A", to="A", card="PS:H2"), "must-draw-first"),
    ([], ev("lay_task", player="A", task="nope", groups=[]), "must-draw-first"),
    ([], ev("extend", player="A", meld="m9", cards=["PS:HA"]), "must-draw-first"),
    # give_ace: bad-target, not-an-ace, ace-already-given, must-keep-card, card-exhausted
    ([D], ev("give_ace", player="A", to="A", card="PS:H2"), "bad-target"),
    ([D, GIVE], ev("give_ace", player="A", to="B", card="PS:H2"), "not-an-ace"),
    ([D, GIVE], ev("give_ace", player="A", to="B", card="PS:HA#1"), "ace-already-given"),
    ([D, LAY8, ev("extend", player="A", meld="m1", cards=c("D10", "DJ"))],
     ev("give_ace", player="A", to="B", card="PS:HA"), "must-keep-card"),
    # lay_task: unknown-task, task-done, wrong-shape, ace-not-allowed, joker-not-allowed, joker-alone,
    # task-not-met, must-keep-card, must-go-out, card-exhausted
    ([D], ev("lay_task", player="A", task=REPEAT, groups=[], **{"as": REPEAT}), "unknown-task"),
    ([D], ev("lay_task", player="A", task=REPEAT, groups=[], **{"as": "Run8"}), "unknown-task"),
    ([D, LAY8], ev("lay_task", player="A", task="run8", groups=[]), "task-done"),
    ([D], ev("lay_task", player="A", task="run8", groups=[[], c("HA")]), "wrong-shape"),
    ([D], ev("lay_task", player="A", task="run8", groups=[c("HA", J, "S4", "D5", "H6", "C7", "S8", "D9")]),
     "ace-not-allowed"),
    ([D], ev("lay_task", player="A", task="two-runs5", groups=[c(J, J, J, J, J), c("HA", "C3", "S4", "D5", "H6")]),
     "ace-not-allowed"),
    ([D], ev("lay_task", player="A", task="run8", groups=[c(J, J, "S4", "D5", "H6", "C7", "S8", "D4")]),
     "joker-not-allowed"),
    ([D], ev("lay_task", player="A", task="two-runs5", groups=[c("H2", "H2", "S4", "D5", "H6"), c(J, J, J, J, J)]),
     "joker-alone"),
    ([D], ev("lay_task", player="A", task="two-runs5",
             groups=[c("H2#1", "H3", "S4", "D5", "H2#1"), c("H2", "C3", "S4", "D5", "H6")]), "task-not-met"),
    ([D, LAY8], ev("lay_task", player="A", task="three-triples",
                   groups=[c("S8", "S8", "S8"), c("SQ", "HQ", "CQ"), c("S4", "D4", "H4")]), "must-keep-card"),
    ([D], ev("lay_task", player="A", task="three-triples",
             groups=[c("S8", "S8", "S8"), c("SQ", "HQ", "CQ"), c("S4", "D4", "H4")]), "card-exhausted"),
    # extend: unknown-meld, not-laid-down, ace-not-allowed, joker-not-allowed, does-not-fit, must-keep-card
    ([D, LAY8], ev("extend", player="A", meld="m2", cards=c("HA")), "unknown-meld"),
    ([D, LAY8], ev("extend", player="A", meld="M1", cards=c("D10")), "unknown-meld"),
    ([D, LAY8], ev("extend", player="A", meld="m01", cards=c("D10")), "unknown-meld"),
    ([D, LAY8], ev("extend", player="A", meld="m1", cards=c(J, "HA")), "ace-not-allowed"),
    ([D, LAY8], ev("extend", player="A", meld="m1", cards=c(J, "H3")), "joker-not-allowed"),
    ([D, LAY8], ev("extend", player="A", meld="m1", cards=c("H2", "H2")), "does-not-fit"),
    ([D, LAY8], ev("extend", player="A", meld="m1", cards=c("D10", "DJ", "DQ")), "must-keep-card"),
    ([D, LAY8], ev("extend", player="A", meld="m1", cards=c("D9")), "does-not-fit"),
    ([D, LAY8], ev("extend", player="A", meld="m1", cards=c("D10#1", "DJ#1")), None),
    # discard: must-keep-card (holding a received ace), card-exhausted last
    ([D, GIVE], ev("discard", player="A", card="PS:HA#1"), "card-exhausted"),
    # skip
    ([], ev("skip_with_ace", player="A"), "no-received-ace"),
    # redeal: wrong-phase, redeal-not-allowed (late before too few), card-exhausted
    ([D], ev("redeal", player="B", cards=c("HA", "HA", "HA")), "redeal-not-allowed"),
    ([], ev("redeal", player="B", cards=c("HA", "SA", J)), "redeal-not-allowed"),
    ([], ev("redeal", player="B", cards=[]), "redeal-not-allowed"),
    ([], ev("redeal", player="B", cards=c("HA#1", "SA", "HA#1")), "card-exhausted"),
    ([], ev("redeal", player="B", cards=c("HA", "SA", "CA", "DA", "HA", "SA")), None),
]


@pytest.mark.parametrize(("setup", "event", "error"), ORDER)
def test_order_of_checks(setup, event, error) -> None:
    ref = table(setup)
    assert probe(ref, event) == error


def three_with_ace_to_b() -> list[dict]:
    """A gives B an ace; B holds 10 own cards and one received ace."""
    return [D, ev("give_ace", player="A", to="B", card="PS:HA#1"), ev("discard", player="A", card="PS:C2")]


def test_received_ace_own_card_counting() -> None:
    ref = table(three_with_ace_to_b())
    s = ref.state()
    assert s["hands"] == {"A": 9, "B": 11} and s["received"]["B"] == ["PS:HA#1"] and s["discard_top"] == "PS:C2"
    assert probe(ref, ev("draw", player="B")) is None  # 11 own + 1 received
    # a 10-card task leaves 1 own card: not enough while holding a received ace (PS-R27)
    two_runs = [c("S2", "S3", "H4", "H5", "H6"), c("D7", "D8", "C9", "C10", "CJ")]
    assert probe(ref, ev("lay_task", player="B", task="two-runs5", groups=two_runs)) == "must-keep-card"
    # task 15 with a received ace: must-keep-card first, then must-go-out
    assert probe(ref, ev("lay_task", player="B", task=REPEAT, groups=two_runs, **{"as": "two-runs5"})) == \
        "must-keep-card"
    nine = [c("S8", "H8", "D8"), c("SQ", "HQ", "CQ"), c("S4", "D4", "H4")]
    assert probe(ref, ev("lay_task", player="B", task=REPEAT, groups=nine, **{"as": "three-triples"})) == \
        "must-go-out"
    assert probe(ref, ev("lay_task", player="B", task="three-triples", groups=nine)) is None  # 2 own left
    assert probe(ref, ev("extend", player="B", meld="m1", cards=c("C8"))) == "must-keep-card"
    assert probe(ref, ev("give_ace", player="B", to="A", card="PS:SA")) == "must-keep-card"
    # the received ace cannot be passed on or discarded (same copy: card-exhausted)
    assert probe(ref, ev("discard", player="B", card="PS:HA#1")) == "card-exhausted"
    assert probe(ref, ev("discard", player="B", card="PS:C3")) is None
    s = ref.state()
    assert s["hands"]["B"] == 2 and s["turn"] == "A" and s["went_out"] is None
    # B can never go out: every later turn starts with 2 own cards and must end with 1
    ref = table([*three_with_ace_to_b(), ev("draw", player="B"),
                 ev("lay_task", player="B", task="three-triples", groups=nine), ev("discard", player="B", card="PS:C3"),
                 ev("draw", player="A"), ev("discard", player="A", card="PS:C4"), ev("draw", player="B")])
    assert probe(ref, ev("extend", player="B", meld="m1", cards=c("C8"))) == "must-keep-card"  # 2 own
    assert probe(ref, ev("discard", player="B", card="PS:C5")) is None  # 2 own -> 1 own
    assert ref.state()["hands"]["B"] == 2


def test_skip_with_ace_is_the_whole_turn() -> None:
    ref = table([D, ev("give_ace", player="A", to="B", card="PS:HA#1"), ev("discard", player="A", card="PS:C2"),
                 ev("draw", player="B"), ev("give_ace", player="B", to="A", card="PS:SA"),
                 ev("discard", player="B", card="PS:C3")])
    assert probe(ref, ev("skip_with_ace", player="A")) is None
    s = ref.state()
    assert s["turn"] == "B" and s["drawn"] is False and s["hands"]["A"] == 9 and s["received"]["A"] == []
    assert s["discard_top"] == "PS:SA" and s["talon"] == 90
    # the same turn cannot go on
    assert probe(ref, ev("discard", player="A", card="PS:C4")) == "not-your-turn"
    assert probe(ref, ev("redeal", player="A", cards=c("HA", "SA", "CA"))) == "redeal-not-allowed"


# --- task 15 (PS-R12)


def test_task_15_extend_lay_and_give_then_go_out() -> None:
    nine = [c("S8", "H8", "D8"), c("SQ", "HQ", "CQ"), c("S4", "D4", "H4")]
    ref = table([D, ev("lay_task", player="A", task=REPEAT, groups=nine, **{"as": "three-triples"})])
    s = ref.state()
    assert s["melds"]["m1"] == {"player": "A", "task": "three-triples", "cards": c("S8", "H8", "D8")}
    assert s["tasks_done"]["A"] == [REPEAT] and s["hands"]["A"] == 2 and s["bonus_open"]["A"] == 230
    assert probe(ref, ev("discard", player="A", card="PS:C2")) == "must-go-out"
    assert probe(ref, ev("lay_task", player="A", task=REPEAT, groups=nine, **{"as": "three-triples"})) == "task-done"
    assert probe(ref, ev("give_ace", player="A", to="B", card="PS:CA")) is None  # 1 own card left
    assert probe(ref, ev("discard", player="A", card="PS:C2")) is None
    s = ref.state()
    assert s["went_out"] == "A" and s["phase"] == "scoring" and s["round_points"] == {"A": 0, "B": None}
    assert s["received"]["B"] == ["PS:CA"] and s["hands"]["B"] == 11
    # B reveals 10 own cards; the received ace adds 15 unscanned
    assert probe(ref, ev("reveal_hand", player="B", cards=c("C3") * 2 + c("C4") * 2 + c("C5") * 2 + c("C6") * 2
                         + c("CK") * 2)) is None
    s = ref.state()
    assert s["round_points"] == {"A": 0, "B": 8 * 5 + 2 * 10 + 15} and s["scores"] == {"A": 0, "B": 75}
    assert s["phase"] == "round-over" and s["melds"]["m1"]["cards"] == c("S8", "H8", "D8")


def test_task_15_as_a_no_joker_task_keeps_no_joker_rules() -> None:
    pairs = [c("H2", "C2"), c("S5", "D5"), c("H9", "C9"), c("CQ", "DQ"), c("SK", J)]
    ref = table([D])
    assert probe(ref, ev("lay_task", player="A", task=REPEAT, groups=pairs, **{"as": "five-pairs"})) == \
        "joker-not-allowed"


# --- round end, talon exhausted, scoring, the state in every phase


# The cards the talon test keeps back for A's task and discard and B's revealed hand (21 physical cards).
KEPT = {f"PS:C{r}#1" for r in range(2, 10)} | {f"PS:C{r}#{n}" for r in ("10", "J", "Q", "K", "A") for n in (1, 2)} \
    | {f"PS:JOKER#{n}" for n in (1, 2, 3)}


def burn(ref: Referee, until: int = 0, keep: frozenset[str] | set[str] = frozenset()) -> None:
    """Draw and discard (distinct physical cards, none of `keep`) until the talon holds `until` cards."""
    deck = [code for code in ref.game.deck.codes() if code not in keep]
    while ref.state()["phase"] == "play" and ref.state()["talon"] > until:
        player = ref.state()["turn"]
        assert ref.apply(ev("draw", player=player)).ok
        assert ref.apply(ev("discard", player=player, card=deck.pop())).ok


def test_talon_exhausted_and_scoring_state() -> None:
    ref = table([])
    burn(ref, 1, KEPT)
    s = ref.state()
    assert s["talon"] == 1 and s["turn"] == "B"
    assert probe(ref, ev("draw", player="B")) is None
    assert ref.state()["talon"] == 0 and ref.state()["phase"] == "play"
    assert probe(ref, ev("lay_task", player="B", task="two-runs5",
                         groups=[c("C2", "C3", "C4", "C5", "C6"), c("C7", "C8", "C9", "C10", "CJ")])) is None
    assert probe(ref, ev("discard", player="B", card="PS:JOKER")) is None  # goes out on the last talon card
    s = ref.state()
    assert s["went_out"] == "B" and s["phase"] == "scoring" and s["turn"] is None and s["drawn"] is False
    assert set(s) == KEYS
    for bad in (ev("draw", player="A"), ev("redeal", player="A", cards=c("CA", "CA", "SA")), ev("new_round")):
        assert probe(ref, bad) == "wrong-phase"
    assert probe(ref, ev("reveal_hand", player="B", cards=[])) == "already-revealed"
    assert probe(ref, ev("reveal_hand", player="A", cards=c("CQ") * 9)) == "wrong-card-count"
    assert probe(ref, ev("reveal_hand", player="A", cards=c("CQ") * 10)) == "card-exhausted"
    hand = c(J, J, "CQ", "CQ", "CK", "CK", "CJ", "CA", "CA", "C10")
    assert probe(ref, ev("reveal_hand", player="A", cards=hand)) is None
    s = ref.state()
    assert s["round_points"] == {"A": 40 + 50 + 30 + 5, "B": 0} and s["scores"] == {"A": 125, "B": 0}
    assert s["phase"] == "round-over" and s["turn"] is None and s["hands"]["A"] == 10
    assert probe(ref, ev("reveal_hand", player="A", cards=hand)) == "wrong-phase"
    assert probe(ref, ev("new_round", player=None)) is None
    s = ref.state()
    assert s["round"] == 2 and s["dealer"] == "A" and s["turn"] == "B" and s["talon"] == 92 and s["melds"] == {}
    assert s["round_points"] == {"A": None, "B": None} and s["went_out"] is None and s["discard_top"] is None
    assert s["tasks_done"]["B"] == ["two-runs5"] and s["scores"] == {"A": 125, "B": 0}
    assert s["bonus_open"] == {"A": 230, "B": 220}
    # extend needs a task laid in this round (PS-R14)
    assert probe(ref, ev("draw", player="B")) is None
    assert probe(ref, ev("extend", player="B", meld="m1", cards=c("H7"))) == "unknown-meld"


def test_talon_exhausted_without_going_out() -> None:
    ref = table([], players=("A", "B", "C"))
    burn(ref)
    s = ref.state()
    assert s["talon"] == 0 and s["phase"] == "scoring" and s["went_out"] is None
    assert s["round_points"] == {"A": None, "B": None, "C": None}


def test_beginner_win_state_and_undo() -> None:
    two_runs = [c("S2", "S3", "H4", "H5", "H6"), c("D7", "D8", "C9", "C10", "CJ")]
    ref = table([D], first_to=1)
    assert probe(ref, ev("lay_task", player="A", task="two-runs5", groups=two_runs)) is None
    s = ref.state()
    assert set(s) == KEYS
    assert s["finished"] and s["phase"] == "over" and s["turn"] is None and s["drawn"] is False
    assert s["winners"] == ["A"] and s["scores"] == {"A": 0, "B": 0} and s["round_points"] == {"A": None, "B": None}
    assert s["hands"]["A"] == 1 and len(s["melds"]) == 2 and s["bonus_open"]["A"] == 220
    for event in (ev("discard", player="A", card="PS:H2"), ev("new_round"), ev("reveal_hand", player="B", cards=[])):
        assert probe(ref, event) == "game-over"
    assert probe(ref, ev("discard", player="A")) == "bad-event"  # shape first
    assert probe(ref, ev("undo", player=42)) is None
    s = ref.state()
    assert not s["finished"] and s["phase"] == "play" and s["drawn"] is True and s["winners"] == []
    assert probe(ref, ev("undo")) is None
    assert probe(ref, ev("undo")) == "nothing-to-undo"
    assert ref.state() == Referee(header(options={"first_to": 1})).state()


def test_beginner_task_15_as_the_winning_task() -> None:
    nine = [c("S8", "H8", "D8"), c("SQ", "HQ", "CQ"), c("S4", "D4", "H4")]
    ref = table([D], first_to=1)
    assert probe(ref, ev("lay_task", player="A", task=REPEAT, groups=nine, **{"as": "three-triples"})) is None
    assert ref.state()["finished"] and ref.state()["winners"] == ["A"]


def test_discard_draw_card_leaves_the_table() -> None:
    ref = table([D, ev("discard", player="A", card="PS:H9#1"), ev("draw", player="B"),
                 ev("discard", player="B", card="PS:C9#2")], discard_draw=True)
    assert probe(ref, ev("draw", player="A", **{"from": "discard"}, count=1)) is None
    s = ref.state()
    assert s["discard_top"] == "PS:H9#1" and s["talon"] == 90 and s["hands"]["A"] == 11 and s["drawn"] is True
    # the taken card may be laid again in the same turn (it left the table)
    assert probe(ref, ev("lay_task", player="A", task="run8",
                         groups=[c("C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9#2")])) is None
    assert probe(ref, ev("discard", player="A", card="PS:H9#1")) == "card-exhausted"
    assert probe(ref, ev("discard", player="A", card="PS:H9")) is None


# --- PS-R17 run extension with and without `at` (meld S5..S9 of two-runs5, jokers allowed)

RUN_EXT = [
    (c(J), None, c("S5", "S6", "S7", "S8", "S9", J)),
    (c(J), "low", c(J, "S5", "S6", "S7", "S8", "S9")),
    (c(J), "high", c("S5", "S6", "S7", "S8", "S9", J)),
    (c("S3", "S4"), None, c("S3", "S4", "S5", "S6", "S7", "S8", "S9")),
    (c("S3", "S4"), "high", None),
    (c("S4", "S3"), "low", None),
    (c(J, "H4"), "low", c(J, "H4", "S5", "S6", "S7", "S8", "S9")),
    (c("S10", J, "SQ", "SK"), "high", c("S5", "S6", "S7", "S8", "S9", "S10", J, "SQ", "SK")),
    (c("S10", J, "SQ", "SK", J), None, None),
    (c(J, J, J), "low", c(J, J, J, "S5", "S6", "S7", "S8", "S9")),
    (c(J, J, J, J), "low", None),
    (c(J, J, J, J), None, c("S5", "S6", "S7", "S8", "S9", J, J, J, J)),
    (c(J, J, J, J, J), None, None),
    (c("S2", "S3", "S4"), None, c("S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9")),
    (c("D10"), "low", None),
    (c("D10"), None, c("S5", "S6", "S7", "S8", "S9", "D10")),
    (c("S9"), None, None),
]


@pytest.mark.parametrize(("cards", "at", "after"), RUN_EXT)
def test_run_extension_ends(cards, at, after) -> None:
    ref = table([D, ev("lay_task", player="A", task="two-runs5",
                       groups=[c("S5", "S6", "S7", "S8", "S9"), c("H2", "H3", "H4", "H5", "H6")])])
    ref.game.hands["A"] = 20  # room for the extension; the count rules are probed elsewhere
    event = ev("extend", player="A", meld="m1", cards=cards)
    if at is not None:
        event["at"] = at
    assert probe(ref, event) == (None if after else "does-not-fit")
    if after:
        assert ref.state()["melds"]["m1"]["cards"] == after
        # the meld's ends moved: one more joker fits at the high end unless the run reached the king
        assert ref.state()["hands"]["A"] == 20 - len(cards)


# at is ignored for melds that are no runs (set, four suits, forms)
@pytest.mark.parametrize(("task", "groups", "cards"), [
    ("three-triples", [c("S8", "H8", "D8"), c("SQ", "HQ", "CQ"), c("S4", "D4", "H4")], c("C8", J)),
    ("four-of-a-kind-four-suits", [c("C7", "S7", "H7", "D7")], c("D7", "C7", "H7", "S7")),
    ("3-5-9-j-or-4-6-10-q", [c("H3", "D5", "C9", "SJ")], c("S3", "D9")),
])
@pytest.mark.parametrize("at", ["low", "high"])
def test_at_is_ignored_for_other_melds(task, groups, cards, at) -> None:
    ref = table([D, ev("lay_task", player="A", task=task, groups=groups)])
    ref.game.hands["A"] = 20
    assert probe(ref, ev("extend", player="A", meld="m1", cards=cards, at=at)) is None
    assert ref.state()["melds"]["m1"]["cards"] == groups[0] + cards


# --- §6 the three exceptions and the other kinds: (task, groups at laying, extension cards, error)

T3 = ("four-of-a-kind-four-suits", [c("C7", "S7", "H7", "D7")])
T9 = ("three-identical-pairs", [c("S3", "S3", "HJ", "HJ", "D7", "D7")])
T10A = ("3-5-9-j-or-4-6-10-q", [c("H3", "D5", "C9", "SJ")])
T10B = ("3-5-9-j-or-4-6-10-q", [c("H4", "D6", "C10", "SQ")])
T7 = ("six-twos-threes", [c("H2", "C3", "S3", "D2", "D2", J)])
T8 = ("seven-pictures", [c("HJ", "CQ", "SK", "DK", "HK", "CJ", J)])
T14 = ("triple-five-one-suit", [c("S8", "H8", J), c("C2", "C2", J, "CK", "CJ")])
T1 = ("five-pairs", [c("H2", "C2"), c("S5", "D5"), c("H9", "C9"), c("CQ", "DQ"), c("SK", "HK")])
EXCEPTIONS = [
    (T3, c("C7", "S7", "H7", "D7"), None),
    (T3, c("C7", "S7", "H7"), "does-not-fit"),
    (T3, c("C7", "S7", "H7", "H7"), "does-not-fit"),
    (T3, c("C8", "S8", "H8", "D8"), "does-not-fit"),
    (T3, c("C7", "S7", "H7", "D7", "C7"), "does-not-fit"),
    (T3, c("C7", "S7", "H7", J), "joker-not-allowed"),
    (T3, c("CA", "S7", "H7", "D7"), "ace-not-allowed"),
    (T9, c("H5", "H5"), None),
    (T9, c("H5", "H6"), "does-not-fit"),
    (T9, c("H5", "H5", "H6", "H6"), "does-not-fit"),
    (T9, c("H5"), "does-not-fit"),
    (T9, c("S3", "S3"), "card-exhausted"),
    (T9, c("H5", J), "joker-not-allowed"),
    (T10A, c("S3", "H5", "D9", "CJ", "C3"), None),
    (T10A, c("H3"), "does-not-fit"),
    (T10A, c("S3", "S3"), "does-not-fit"),
    (T10A, c("S4"), "does-not-fit"),
    (T10B, c("H10", "CQ", "S4"), None),
    (T10B, c("H3"), "does-not-fit"),
    (T10B, c("DQ", "SQ"), "does-not-fit"),
    (T7, c("S2", "H3", J), None),
    (T7, c("S4"), "does-not-fit"),
    (T8, c("SJ", "HQ", J), None),
    (T8, c("S10"), "does-not-fit"),
    (T14, c("H8", J), None),
    (T14, c("S9"), "does-not-fit"),
    (T1, c("D2", "S2"), None),
    (T1, c(J), "joker-not-allowed"),
    (T1, c("D3"), "does-not-fit"),
]


@pytest.mark.parametrize(("laid", "cards", "error"), EXCEPTIONS)
def test_extension_kinds(laid, cards, error) -> None:
    task, groups = laid
    ref = table([D, ev("lay_task", player="A", task=task, groups=groups)])
    ref.game.hands["A"] = 20
    assert probe(ref, ev("extend", player="A", meld="m1", cards=cards)) == error
    if error is None:
        assert ref.state()["melds"]["m1"]["cards"] == groups[0] + cards


def test_extend_another_players_meld_after_laying_in_this_round() -> None:
    ref = table([D, LAY8, ev("discard", player="A", card="PS:D10"), ev("draw", player="B")])
    assert probe(ref, ev("extend", player="B", meld="m1", cards=c("H10"))) == "not-laid-down"
    assert probe(ref, ev("lay_task", player="B", task="four-of-a-kind-four-suits",
                         groups=[c("C7", "S7", "H7", "D7")])) is None
    assert probe(ref, ev("extend", player="B", meld="m1", cards=c("H10"))) is None
    s = ref.state()
    assert s["melds"]["m1"]["player"] == "A" and s["melds"]["m1"]["cards"][-1] == "PS:H10"
    assert s["melds"]["m2"] == {"player": "B", "task": "four-of-a-kind-four-suits", "cards": c("C7", "S7", "H7", "D7")}
    assert s["hands"] == {"A": 2, "B": 6}
