"""Spec review of ../shared/rules/alles-klar.md: header variants, the checking order, edge states, undo."""

from __future__ import annotations

from typing import Any

import pytest

from referee.answers import HeaderError
from referee.table import FORMAT, Referee
from tests.helpers import ok, play, table

EIGHT = ["AK:1", "AK:2", "AK:3", "AK:4", "AK:5", "AK:6", "AK:7", "AK:8"]  # 2 players: stock 0


def header(**over: Any) -> dict[str, Any]:
    h: dict[str, Any] = {"format": FORMAT, "game": "alles-klar", "players": ["A", "B"]}
    h.update(over)
    return {k: v for k, v in h.items() if v is not _DROP}


_DROP = object()


@pytest.mark.parametrize(
    "over",
    [
        {"format": "tabletop-referee/2"}, {"format": _DROP}, {"format": None},
        {"game": "Alles-Klar"}, {"game": _DROP}, {"game": None},
        {"players": ["A"]}, {"players": ["A", "B", "C", "D", "E", "F"]}, {"players": ["A", "A"]},
        {"players": ["A", ""]}, {"players": ["A", 2]}, {"players": ["A", None]}, {"players": "AB"},
        {"players": None}, {"players": _DROP}, {"players": {"A": 1, "B": 2}},
        {"dealer": None}, {"dealer": "C"}, {"dealer": 0}, {"dealer": ["A"]},
        {"options": None}, {"options": []}, {"options": "deck"}, {"options": {"decks": EIGHT}},
        {"options": {"deck": None}}, {"options": {"deck": "AK:1"}}, {"options": {"deck": EIGHT[:7]}},
        {"options": {"deck": [*EIGHT[:7], 8]}}, {"options": {"deck": [*EIGHT[:7], "AK:8#1"]}},
        {"options": {"deck": [*EIGHT[:7], "AK:8.II.II"]}}, {"options": {"deck": [*EIGHT[:7], "AK:8.III.II"]}},
        {"options": {"deck": [*EIGHT[:7], "AK:12"]}}, {"options": {"deck": [*EIGHT[:7], "AK:08"]}},
        {"options": {"deck": [*EIGHT[:7], "AK:0"]}}, {"options": {"deck": [*EIGHT[:7], "M7:8"]}},
        {"options": {"deck": [*EIGHT[:7], "ak:8"]}}, {"options": {"deck": [*EIGHT[:7], " AK:8"]}},
        {"options": {"deck": [*EIGHT[:7], "AK:8.I.II.III"]}}, {"options": {"deck": [*EIGHT[:7], "AK:8.VI"]}},
        {"players": ["A", "B", "C"], "options": {"deck": EIGHT + ["AK:9"] * 3}},  # 11 < 12
    ],
)
def test_bad_headers(over: dict[str, Any]) -> None:
    with pytest.raises(HeaderError):
        Referee(header(**over))


@pytest.mark.parametrize(
    ("over", "stock", "turn"),
    [
        ({}, 69, "A"), ({"dealer": "A"}, 69, "B"), ({"options": {}}, 69, "A"), ({"extra": None}, 69, "A"),
        ({"options": {"deck": EIGHT}}, 0, "A"),
        ({"options": {"deck": [*EIGHT, "AK:5.II.IV", "AK:5.II.IV"]}}, 2, "A"),  # not in the default deck: allowed
        ({"players": ["A", "B", "C", "D", "E"], "dealer": "C"}, 57, "D"),
    ],
)
def test_good_headers_and_the_state_before_the_first_play(over: dict[str, Any], stock: int, turn: str) -> None:
    r = Referee(header(**over))
    players = r.players
    assert r.state() == {
        "turn": turn, "finished": False, "scores": dict.fromkeys(players, 0), "winners": [],
        "ranking": ["I", "II", "III", "IV", "V"], "table": {p: [] for p in players}, "trick_size": 0,
        "last_trick": None, "stock": stock, "hands": dict.fromkeys(players, 4), "removed": 0, "tricks_played": 0,
    }


def finished_game() -> Referee:
    """Stock 0 from the start; no numerals, so the only trick is unfinished (AK-R11, AK-R12)."""
    r = table("alles-klar", ["A", "B"], options={"deck": EIGHT})
    for i, code in enumerate(EIGHT):
        ok(play(r, "AB"[i % 2], code))
    return r


def test_unfinished_first_and_last_trick_exact_end_state_and_undo() -> None:
    r = finished_game()
    assert r.state() == {
        "turn": None, "finished": True, "scores": {"A": 0, "B": 0}, "winners": ["A", "B"],
        "ranking": ["I", "II", "III", "IV", "V"], "table": {"A": [], "B": []}, "trick_size": 0,
        "last_trick": {"winner": None, "cards": 8, "outcome": "unfinished"}, "stock": 0,
        "hands": {"A": 0, "B": 0}, "removed": 8, "tricks_played": 1,
    }
    ok(r.apply({"type": "undo", "player": "nobody", "card": 5}))  # other fields of an undo are ignored
    s = r.state()
    assert (s["turn"], s["finished"], s["winners"], s["trick_size"], s["last_trick"]) == ("B", False, [], 7, None)
    assert s["table"] == {"A": ["AK:1", "AK:3", "AK:5", "AK:7"], "B": ["AK:2", "AK:4", "AK:6"]}
    assert s["hands"] == {"A": 0, "B": 1}
    for _ in range(7):
        ok(r.apply({"type": "undo"}))
    assert r.state() == Referee(header(options={"deck": EIGHT})).state()
    assert r.apply({"type": "undo"}).error == "nothing-to-undo"


def test_won_trick_with_empty_stock_ends_the_game_with_the_winner() -> None:
    deck = ["AK:1.I", "AK:2.II", "AK:3.III", "AK:4.IV", "AK:9", "AK:9", "AK:9", "AK:9"]
    r = table("alles-klar", ["A", "B"], options={"deck": deck})
    ok(play(r, "A", "AK:1.I"))
    ok(play(r, "B", "AK:2.II"))
    ok(play(r, "A", "AK:3.III"))
    ok(play(r, "B", "AK:4.IV"))  # V open, only 4 face-up cards: goes on (AK-R7 case 3)
    assert r.state()["turn"] == "A" and r.state()["ranking"] == ["V"]
    ok(play(r, "A", "AK:9#1"))  # 9, 4, 3, 2, 1: the fifth is A's 1
    s = r.state()
    assert s["finished"] and s["turn"] is None and s["winners"] == ["A"] and s["scores"] == {"A": 5, "B": 0}
    assert s["last_trick"] == {"winner": "A", "cards": 5, "outcome": "won"} and s["hands"] == {"A": 1, "B": 2}
    assert sum(s["hands"].values()) + s["stock"] + s["trick_size"] + sum(s["scores"].values()) + s["removed"] == 8


# The checking order of section 9, two faults at once: the first in the list wins.
PLAYS: list[tuple[str, list[dict[str, Any]], dict[str, Any], str]] = [
    # (name, events before, event, error)
    ("shape before game-over", ["END"], {"player": "A"}, "bad-event"),
    ("null rank_choice before game-over", ["END"], {"player": "A", "card": "AK:1", "rank_choice": None}, "bad-event"),
    ("cards before not-your-turn", [], {"player": "B", "card": "AK:1", "cards": []}, "bad-event"),
    ("cards even with null", [], {"player": "A", "card": "AK:1", "cards": None}, "bad-event"),
    ("non-string player", [], {"player": 1, "card": "AK:1"}, "bad-event"),
    ("null card", [], {"player": "A", "card": None}, "bad-event"),
    ("numeric rank_choice", [], {"player": "A", "card": "AK:1.I.II", "rank_choice": 1}, "bad-event"),
    ("game-over before unknown-player", ["END"], {"player": "Zoe", "card": "AK:99"}, "game-over"),
    ("unknown-player before not-your-turn", [], {"player": "Zoe", "card": "AK:99"}, "unknown-player"),
    ("not-your-turn before unknown-card", [], {"player": "B", "card": "AK:99"}, "not-your-turn"),
    ("unknown-card before rank-choice", [], {"player": "A", "card": "AK:4.I.II"}, "unknown-card"),
    ("other game's deck", [], {"player": "A", "card": "M7:7"}, "unknown-card"),
    ("lower case", [], {"player": "A", "card": "ak:7"}, "unknown-card"),
    ("numerals out of order", [], {"player": "A", "card": "AK:5.V.I", "rank_choice": "I"}, "unknown-card"),
    ("copy #2 of a one-copy face", [], {"player": "A", "card": "AK:7#2"}, "unknown-card"),
    ("copy #0", [], {"player": "A", "card": "AK:7#0"}, "unknown-card"),
    ("copy #01", [], {"player": "A", "card": "AK:7#01"}, "unknown-card"),
    ("copy #", [], {"player": "A", "card": "AK:7#"}, "unknown-card"),
    ("copy ##1", [], {"player": "A", "card": "AK:7##1"}, "unknown-card"),
    ("copy #1#1", [], {"player": "A", "card": "AK:7#1#1"}, "unknown-card"),
    ("copy #a", [], {"player": "A", "card": "AK:7#a"}, "unknown-card"),
    ("copy #+1", [], {"player": "A", "card": "AK:7#+1"}, "unknown-card"),
    ("space", [], {"player": "A", "card": "AK:7 "}, "unknown-card"),
    ("exhausted before rank-choice-needed", [{"player": "A", "card": "AK:4.IV.V", "rank_choice": "IV"}],
     {"player": "B", "card": "AK:4.IV.V#1"}, "card-exhausted"),
    ("exhausted before bad-rank-choice", [{"player": "A", "card": "AK:1#1"}],
     {"player": "B", "card": "AK:1", "rank_choice": "I"}, "card-exhausted"),
    ("rank-choice-needed", [], {"player": "A", "card": "AK:4.IV.V"}, "rank-choice-needed"),
    ("choice not a numeral of the card", [], {"player": "A", "card": "AK:4.IV.V", "rank_choice": "III"},
     "bad-rank-choice"),
    ("choice in lower case", [], {"player": "A", "card": "AK:4.IV.V", "rank_choice": "iv"}, "bad-rank-choice"),
    ("choice on a one-numeral card, even its own", [], {"player": "A", "card": "AK:4.IV", "rank_choice": "IV"},
     "bad-rank-choice"),
    ("choice on a card without numeral", [], {"player": "A", "card": "AK:4", "rank_choice": "I"}, "bad-rank-choice"),
]


@pytest.mark.parametrize(("before", "event", "error"), [p[1:] for p in PLAYS], ids=[p[0] for p in PLAYS])
def test_checking_order(before: list[Any], event: dict[str, Any], error: str) -> None:
    r = finished_game() if before == ["END"] else table("alles-klar", ["A", "B"])
    if before != ["END"]:
        for e in before:
            ok(r.apply({"type": "play", **e}))
    state = r.state()
    assert r.apply({"type": "play", **event}).error == error
    assert r.state() == state


@pytest.mark.parametrize("event", [{"type": "draw", "player": "A"}, {"type": "press", "player": "A",
                                   "button": "confirm"}, {"type": "expect"}, {"type": None}, {}, {"type": "Play"}])
def test_other_types_are_bad_events_even_after_the_end(event: dict[str, Any]) -> None:
    assert table("alles-klar", ["A", "B"]).apply(event).error == "bad-event"
    assert finished_game().apply(event).error == "bad-event"


def test_copy_numbers_with_a_deck_holding_two_copies() -> None:
    """D12: plays without a copy number count against the face but mark no copy."""
    r = table("alles-klar", ["A", "B"], options={"deck": ["AK:8.II", "AK:8.II", *EIGHT]})
    ok(play(r, "A", "AK:8.II"))
    ok(play(r, "B", "AK:8.II#1"))
    assert play(r, "A", "AK:8.II#2").error == "card-exhausted"  # two plays of the face already
    assert play(r, "A", "AK:8.II#3").error == "unknown-card"
    ok(r.apply({"type": "undo"}))
    assert play(r, "B", "AK:8.II#1").error is None
    ok(r.apply({"type": "undo"}))
    ok(play(r, "B", "AK:8.II#2"))
    r.apply({"type": "undo"})
    r.apply({"type": "undo"})
    ok(play(r, "A", "AK:8.II#1"))
    assert play(r, "B", "AK:8.II#1").error == "card-exhausted"  # the same copy twice
    ok(play(r, "B", "AK:8.II"))


def test_players_without_cards_are_skipped_and_the_last_trick_is_unfinished() -> None:
    """AK-R10 / D13 / AK-R12 with 3 players and an empty stock: A and B run out, C plays the last card."""
    deck = ["AK:1", "AK:2", "AK:3", "AK:4", "AK:5", "AK:6", "AK:7", "AK:8", "AK:9", "AK:10", "AK:11", "AK:1.I"]
    r = table("alles-klar", ["A", "B", "C"], options={"deck": deck})
    seq = [("A", "AK:1"), ("B", "AK:2"), ("C", "AK:3"), ("A", "AK:4"), ("B", "AK:5"), ("C", "AK:6"),
           ("A", "AK:7"), ("B", "AK:8"), ("C", "AK:9"), ("A", "AK:10"), ("B", "AK:11")]
    for player, code in seq:
        ok(play(r, player, code))
    assert r.state()["hands"] == {"A": 0, "B": 0, "C": 1} and r.state()["turn"] == "C"
    ok(play(r, "C", "AK:1.I"))  # turns I face down and A's 1 face down (AK-R3)
    s = r.state()
    # II … V stay open, so the trick goes on, but nobody holds a card: unfinished (AK-R12)
    assert s["finished"] and s["last_trick"] == {"winner": None, "cards": 12, "outcome": "unfinished"}
