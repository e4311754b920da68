"""Spec review of ../shared/rules/magische-7.md: header variants, the checking order, targets, end states, undo."""

from __future__ import annotations

from typing import Any

import pytest

from referee.answers import HeaderError
from referee.table import FORMAT, Referee
from tests.helpers import ok, play, table

FOUR = ["Anna", "Ben", "Cem", "Dora"]  # teams Anna + Cem, Ben + Dora


def header(**over: Any) -> dict[str, Any]:
    return {"format": FORMAT, "game": "magische-7", "players": ["A", "B"], **over}


@pytest.mark.parametrize(
    "over",
    [
        {"players": ["A"]}, {"players": ["A", "B", "C"]}, {"players": ["A", "B", "C", "D", "E"]},
        {"players": ["A", "A"]}, {"players": ["A", ""]}, {"players": ["A", True]}, {"dealer": None},
        {"dealer": "Z"}, {"options": None}, {"options": []}, {"options": {"target": True}},
        {"options": {"mirror": "Copy"}}, {"options": {"mirror": "double"}}, {"options": {"mirror": None}},
        {"options": {"mirror": 0}}, {"options": {"mirror": ["copy"]}}, {"options": {"mirror": True}},
        {"options": {"no_repeat_target": 1}}, {"options": {"no_repeat_target": 0}},
        {"options": {"no_repeat_target": "true"}}, {"options": {"no_repeat_target": None}},
        {"options": {"no_repeat_target": 1.0}}, {"options": {"no_repeat_target": []}},
    ],
)
def test_bad_headers(over: dict[str, Any]) -> None:
    with pytest.raises(HeaderError):
        Referee(header(**over))


@pytest.mark.parametrize(
    ("over", "turn"),
    [
        ({}, "A"), ({"dealer": "A"}, "B"), ({"options": {"mirror": "zero", "no_repeat_target": False}}, "A"),
        ({"options": {"no_repeat_target": True}}, "A"), ({"unknown_header_key": 1}, "A"),
        ({"players": FOUR}, "Anna"), ({"players": FOUR, "dealer": "Anna"}, "Ben"),
    ],
)
def test_good_headers_and_the_state_before_the_first_play(over: dict[str, Any], turn: str) -> None:
    r = Referee(header(**over))
    players = r.players
    assert r.state() == {
        "turn": turn, "finished": False, "scores": dict.fromkeys(players, 0), "winners": [], "lead": None,
        "last_trick": None, "tricks_played": 0, "stock": 10 if len(players) == 2 else 20,
        "hands": dict.fromkeys(players, 7),
    }


# A 2-player game of 12 tricks; the leader wins every trick (no pair, no Joker, no Cross).
TWO_GAME = [("M7:13", "M7:-5"), ("M7:12", "M7:-4"), ("M7:11", "M7:-3"), ("M7:10", "M7:-2"), ("M7:9", "M7:-1"),
            ("M7:8", "M7:0"), ("M7:7", "M7:1"), ("M7:6", "M7:2"), ("M7:5", "M7:3"), ("M7:4", "M7:-6"),
            ("M7:MIRROR", "M7:JOKER"), ("M7:JOKER", "M7:CROSS")]


def finished_two() -> Referee:
    r = table("magische-7", ["A", "B"])
    for lead, follow in TWO_GAME:
        leader = r.state()["turn"]
        ok(play(r, leader, lead))
        ok(play(r, "B" if leader == "A" else "A", follow))
    return r


def test_two_player_game_to_the_end_and_undo_back_to_the_header() -> None:
    r = finished_two()
    s = r.state()
    # A wins tricks 1-10 (8, 8, 8, 8, 8, 8, 8, 8, 8, -2 points); B's Joker wins trick 11 (Mirror + Joker = 0);
    # B then leads the Joker and wins with it against A's Cross (D5): 0.
    assert s == {
        "turn": None, "finished": True, "scores": {"A": 70, "B": 0}, "winners": ["A"], "lead": None,
        "last_trick": {"leader": "B", "follower": "A", "cards": {"B": "M7:JOKER", "A": "M7:CROSS"}, "winner": "B",
                       "points": 0},
        "tricks_played": 12, "stock": 0, "hands": {"A": 0, "B": 0},
    }
    assert play(r, "Zoe", "M7:99").error == "game-over"
    assert play(r, "A", "M7:1", target=None).error == "bad-event"  # shape before game-over
    ok(r.apply({"type": "undo"}))
    s = r.state()
    assert s["lead"] == {"player": "B", "card": "M7:JOKER", "target": "A"} and s["turn"] == "A"
    assert not s["finished"] and s["winners"] == [] and s["hands"] == {"A": 1, "B": 0}
    for _ in range(23):
        ok(r.apply({"type": "undo"}))
    assert r.state() == table("magische-7", ["A", "B"]).state()
    assert r.apply({"type": "undo"}).error == "nothing-to-undo"


def test_joker_against_joker_the_follower_wins_and_leads() -> None:
    r = table("magische-7", ["A", "B"])
    ok(play(r, "A", "M7:JOKER"))
    ok(play(r, "B", "M7:JOKER"))  # follower wins (D6), 0 points
    assert r.state()["last_trick"]["winner"] == "B" and r.state()["turn"] == "B"


CHECKS_TWO: list[tuple[str, dict[str, Any], str]] = [
    ("player missing", {"card": "M7:1"}, "bad-event"),
    ("card not a string", {"player": "A", "card": 7}, "bad-event"),
    ("cards field", {"player": "A", "card": "M7:1", "cards": ["M7:1"]}, "bad-event"),
    ("null target is a shape error before not-your-turn", {"player": "B", "card": "M7:1", "target": None},
     "bad-event"),
    ("target list", {"player": "A", "card": "M7:1", "target": ["B"]}, "bad-event"),
    ("unknown-player first", {"player": "Zoe", "card": "M7:99", "target": "B"}, "unknown-player"),
    ("not-your-turn before unknown-card", {"player": "B", "card": "M7:99"}, "not-your-turn"),
    ("unknown-card before bad-target", {"player": "A", "card": "M7:99", "target": "B"}, "unknown-card"),
    ("M7:+5", {"player": "A", "card": "M7:+5"}, "unknown-card"),
    ("M7:05", {"player": "A", "card": "M7:05"}, "unknown-card"),
    ("M7:-0", {"player": "A", "card": "M7:-0"}, "unknown-card"),
    ("M7:Joker", {"player": "A", "card": "M7:Joker"}, "unknown-card"),
    ("unicode minus", {"player": "A", "card": "M7:\u22126"}, "unknown-card"),
    ("AK card", {"player": "A", "card": "AK:7"}, "unknown-card"),
    ("MIRROR#2 in one pack", {"player": "A", "card": "M7:MIRROR#2"}, "unknown-card"),
    ("JOKER#3 in one pack", {"player": "A", "card": "M7:JOKER#3"}, "unknown-card"),
    ("copy #0", {"player": "A", "card": "M7:JOKER#0"}, "unknown-card"),
    ("copy #02", {"player": "A", "card": "M7:JOKER#02"}, "unknown-card"),
    ("copy #-1", {"player": "A", "card": "M7:JOKER#-1"}, "unknown-card"),
    ("target with two players, even the opponent", {"player": "A", "card": "M7:1", "target": "B"}, "bad-target"),
]


@pytest.mark.parametrize(("event", "error"), [c[1:] for c in CHECKS_TWO], ids=[c[0] for c in CHECKS_TWO])
def test_checking_order_two_players(event: dict[str, Any], error: str) -> None:
    r = table("magische-7", ["A", "B"])
    state = r.state()
    assert r.apply({"type": "play", **event}).error == error
    assert r.state() == state


def test_card_exhausted_before_bad_target_and_copies() -> None:
    r = table("magische-7", ["A", "B"])
    ok(play(r, "A", "M7:JOKER"))
    assert play(r, "B", "M7:JOKER#1", target="A").error == "bad-target"  # the first play marked no copy
    ok(play(r, "B", "M7:JOKER#1"))  # the trick: B leads next
    assert play(r, "B", "M7:JOKER", target="A").error == "card-exhausted"  # both Jokers played
    assert play(r, "B", "M7:JOKER#2").error == "card-exhausted"
    ok(r.apply({"type": "undo"}))
    assert play(r, "B", "M7:JOKER#1", target="A").error == "bad-target"
    assert play(r, "B", "M7:JOKER#2").error is None


@pytest.mark.parametrize("event", [{"type": "draw", "player": "A"}, {"type": "press", "player": "A",
                                   "button": "slap"}, {"type": "pass", "player": "A"}, {"type": 1}])
def test_other_types_are_bad_events(event: dict[str, Any]) -> None:
    assert table("magische-7", ["A", "B"]).apply(event).error == "bad-event"
    assert finished_two().apply(event).error == "bad-event"


def lead_and_follow(r: Referee, leader: str, target: str, lead: str, follow: str) -> None:
    ok(play(r, leader, lead, target=target))
    ok(play(r, target, follow))


def test_four_players_target_order_and_partner_leads() -> None:
    """M7-R7, M7-R8, M7-R9 and the order target-has-no-cards before same-target-twice."""
    r = table("magische-7", FOUR, dealer="Anna")  # Ben leads
    # leads 13 … 7 (both packs) against the Mirrors and 6 … 1: never a pair, so the lead wins
    tricks = [(f"M7:{v}", "M7:MIRROR" if v == 13 else f"M7:{v - 6}") for v in range(13, 6, -1) for _ in range(2)]
    tricks.append(("M7:-3", "M7:-2"))
    # Ben leads against Cem and Anna in turn and wins every trick: 10 tricks with draws, then hands go down.
    for i, (lead, follow) in enumerate(tricks):
        lead_and_follow(r, "Ben", ("Cem", "Anna")[i % 2], lead, follow)
    s = r.state()
    assert s["stock"] == 0 and s["hands"] == {"Anna": 5, "Ben": 2, "Cem": 4, "Dora": 7} and s["turn"] == "Ben"
    # Ben led the last trick against Cem: not Cem again, Anna is free.
    assert play(r, "Ben", "M7:-5", target="Cem").error == "same-target-twice"
    lead_and_follow(r, "Ben", "Anna", "M7:-5", "M7:JOKER")  # Anna's Joker wins; Ben keeps 1 card
    assert r.state()["turn"] == "Anna"
    assert play(r, "Anna", "M7:-4", target="Cem").error == "bad-target"  # her partner
    lead_and_follow(r, "Anna", "Ben", "M7:-4", "M7:-3")  # Anna wins; Ben has no card now
    assert r.state()["hands"] == {"Anna": 3, "Ben": 0, "Cem": 4, "Dora": 7}
    # Anna led against Ben, Ben holds no card, Dora does: target-has-no-cards comes before same-target-twice.
    assert play(r, "Anna", "M7:-2", target="Ben").error == "target-has-no-cards"
    lead_and_follow(r, "Anna", "Dora", "M7:-2", "M7:-1")  # Anna wins
    # Anna leads against Dora again: Ben (the other opponent) holds no card, so it is allowed (M7-R9)
    lead_and_follow(r, "Anna", "Dora", "M7:0", "M7:-1#1")
    lead_and_follow(r, "Anna", "Dora", "M7:-5", "M7:-6")  # Anna wins and has no card left
    s = r.state()
    assert s["hands"] == {"Anna": 0, "Ben": 0, "Cem": 4, "Dora": 4} and s["turn"] == "Cem"  # M7-R7
    assert play(r, "Cem", "M7:0", target="Ben").error == "target-has-no-cards"
    assert play(r, "Cem", "M7:0", target="Anna").error == "bad-target"
    assert play(r, "Cem", "M7:0").error == "target-needed"
    assert play(r, "Cem", "M7:0", target="Dora", extra=1).error is None  # other fields are ignored
    assert play(r, "Dora", "M7:CROSS", target="Cem").error == "bad-target"  # a target on the follow
    ok(play(r, "Dora", "M7:CROSS"))
    s = r.state()
    assert s["scores"]["Anna"] == s["scores"]["Cem"] and s["scores"]["Ben"] == s["scores"]["Dora"]
    assert s["turn"] == "Cem" and s["last_trick"]["winner"] == "Cem"
    assert sum(s["hands"].values()) + s["stock"] + 2 * s["tricks_played"] == 48


def test_four_player_bad_target_before_target_has_no_cards() -> None:
    r = table("magische-7", FOUR)
    assert play(r, "Anna", "M7:1", target="Zoe").error == "bad-target"
    assert play(r, "Anna", "M7:1", target="Anna").error == "bad-target"
    assert play(r, "Anna", "M7:99", target="Cem").error == "unknown-card"
    assert play(r, "Ben", "M7:1").error == "not-your-turn"
