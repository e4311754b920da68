"""Alles klar?: each numbered rule and decision of ../shared/rules/alles-klar.md."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import sim
from referee.decks.alles_klar import default_faces
from referee.games.alles_klar import parse_face
from referee.table import Referee
from tests.helpers import ok, play, table


def three() -> Referee:
    return table("alles-klar", ["Anna", "Ben", "Cem"])


def test_default_deck_is_77_unique_faces_with_the_two_numeral_formula() -> None:
    faces = default_faces()
    assert len(faces) == len(set(faces)) == 77
    for v in range(1, 12):
        a, b = (v - 1) % 5 + 1, v % 5 + 1
        names = ["I", "II", "III", "IV", "V"]
        assert f"AK:{v}." + ".".join(sorted([names[a - 1], names[b - 1]], key=names.index)) in faces


@pytest.mark.parametrize("face", ["AK:0", "AK:12", "AK:07", "AK:7.VI", "AK:7.II.II", "AK:7.III.II", "AK:7.I.II.III",
                                  "AK:7.", "AK:7.ii", "AK:7 .I"])
def test_malformed_faces(face: str) -> None:
    assert parse_face(face) is None


def test_setup_seat_after_dealer_starts_and_counts() -> None:
    r = table("alles-klar", ["Anna", "Ben", "Cem"], dealer="Anna")
    s = r.state()
    assert s["turn"] == "Ben" and s["stock"] == 65 and s["hands"] == {"Anna": 4, "Ben": 4, "Cem": 4}
    assert s["ranking"] == ["I", "II", "III", "IV", "V"] and s["last_trick"] is None


def test_r3_duplicate_value_turns_earlier_card_face_down_even_own() -> None:
    r = table("alles-klar", ["Anna", "Ben"])
    ok(play(r, "Anna", "AK:8"))
    ok(play(r, "Ben", "AK:8.II"))  # Anna's 8 face down
    assert r.state()["table"] == {"Anna": [], "Ben": ["AK:8.II"]}
    assert r.state()["trick_size"] == 2
    ok(play(r, "Anna", "AK:9"))
    ok(play(r, "Ben", "AK:9.III"))  # Anna's 9 face down again; two face-down cards stay in the trick
    assert r.state()["table"] == {"Anna": [], "Ben": ["AK:8.II", "AK:9.III"]}
    assert r.state()["trick_size"] == 4


def test_r4_numeral_already_face_down_has_no_effect_and_r5_no_numeral() -> None:
    r = three()
    ok(play(r, "Anna", "AK:1.I"))
    ok(play(r, "Ben", "AK:2.I"))
    ok(play(r, "Cem", "AK:3"))
    assert r.state()["ranking"] == ["II", "III", "IV", "V"]


def test_r6_two_numerals_need_a_valid_choice_and_the_choice_acts() -> None:
    r = three()
    assert play(r, "Anna", "AK:7.II.III").error == "rank-choice-needed"
    assert play(r, "Anna", "AK:7.II.III", rank_choice="IV").error == "bad-rank-choice"
    assert play(r, "Anna", "AK:7.II.III", rank_choice="ii").error == "bad-rank-choice"
    assert play(r, "Anna", "AK:7.II", rank_choice="II").error == "bad-rank-choice"
    assert play(r, "Anna", "AK:7", rank_choice="II").error == "bad-rank-choice"
    ok(play(r, "Anna", "AK:7.II.III", rank_choice="III"))
    assert r.state()["ranking"] == ["I", "II", "IV", "V"]


def test_r7_blind_trick_takes_precedence_and_the_causer_leads() -> None:
    r = table("alles-klar", ["Anna", "Ben"])
    for player, card in [("Anna", "AK:1.I"), ("Ben", "AK:2.II"), ("Anna", "AK:3.III"), ("Ben", "AK:4.IV")]:
        ok(play(r, player, card))
    assert r.state()["trick_size"] == 4  # only V open, 4 face-up cards: waits for the fifth
    ok(play(r, "Anna", "AK:5.V"))  # the fifth face-up card also closes V: blind
    s = r.state()
    assert s["last_trick"] == {"winner": None, "cards": 5, "outcome": "blind"}
    assert s["removed"] == 5 and s["turn"] == "Anna" and s["scores"] == {"Anna": 0, "Ben": 0}


def test_r8_winner_is_owner_of_nth_highest_and_leads() -> None:
    r = three()
    ok(play(r, "Anna", "AK:1.II"))
    ok(play(r, "Ben", "AK:11.III"))
    ok(play(r, "Cem", "AK:6.IV"))
    ok(play(r, "Anna", "AK:9.V"))  # only I open: the highest face-up card wins at once
    s = r.state()
    assert s["last_trick"] == {"winner": "Ben", "cards": 4, "outcome": "won"}
    assert s["turn"] == "Ben" and s["scores"]["Ben"] == 4 and s["ranking"] == ["I", "II", "III", "IV", "V"]


def test_d4_trick_waits_until_the_nth_face_up_card() -> None:
    r = table("alles-klar", ["Anna", "Ben"])
    ok(play(r, "Anna", "AK:1.I"))
    ok(play(r, "Ben", "AK:2.II"))
    ok(play(r, "Anna", "AK:3.III"))
    ok(play(r, "Ben", "AK:4.IV"))
    ok(play(r, "Anna", "AK:4"))  # duplicate value: still 4 face-up cards, V waits
    assert r.state()["trick_size"] == 5 and r.state()["last_trick"] is None
    ok(play(r, "Ben", "AK:9"))  # 5 face-up: 9 4 3 2 1 -> the fifth is Anna's 1
    assert r.state()["last_trick"] == {"winner": "Anna", "cards": 6, "outcome": "won"}


def test_d12_card_exhausted_counts_faces_and_copies_and_undo_releases() -> None:
    deck = ["AK:8.II", "AK:8.II"] + [f"AK:{v}" for v in range(1, 9)]
    r = table("alles-klar", ["Anna", "Ben"], options={"deck": deck})
    ok(play(r, "Anna", "AK:8.II"))
    ok(play(r, "Ben", "AK:8.II#1"))  # a play without copy number marks no copy
    assert play(r, "Anna", "AK:8.II#2").error == "card-exhausted"  # the face is used up
    r.apply({"type": "undo"})
    assert play(r, "Ben", "AK:8.II#3").error == "unknown-card"
    ok(play(r, "Ben", "AK:8.II#2"))
    r2 = table("alles-klar", ["Anna", "Ben"], options={"deck": deck})
    ok(play(r2, "Anna", "AK:8.II#1"))
    assert play(r2, "Ben", "AK:8.II#1").error == "card-exhausted"


def test_checking_order_turn_before_card_before_exhausted() -> None:
    r = three()
    assert play(r, "Zoe", "XX").error == "unknown-player"
    assert play(r, "Ben", "XX").error == "not-your-turn"
    assert play(r, "Anna", "XX").error == "unknown-card"
    ok(play(r, "Anna", "AK:5.V"))
    assert play(r, "Ben", "AK:5.V", rank_choice="I").error == "card-exhausted"


def test_r11_r12_the_last_trick_and_an_unfinished_trick() -> None:
    # 8-card deck for two players: the stock is empty from the start, the first trick is the last.
    deck = ["AK:1", "AK:2", "AK:3", "AK:4", "AK:5", "AK:6", "AK:7", "AK:8"]
    r = table("alles-klar", ["Anna", "Ben"], options={"deck": deck})
    for i, card in enumerate(deck):
        ok(play(r, ["Anna", "Ben"][i % 2], card))
    s = r.state()
    assert s["finished"] and s["turn"] is None
    assert s["last_trick"] == {"winner": None, "cards": 8, "outcome": "unfinished"}
    assert s["removed"] == 8 and s["winners"] == ["Anna", "Ben"] and s["tricks_played"] == 1
    assert play(r, "Anna", "AK:1").error == "game-over"
    ok(r.apply({"type": "undo"}))
    assert r.state()["turn"] == "Ben" and not r.state()["finished"]


def test_r10_players_without_cards_are_skipped() -> None:
    deck = ["AK:1", "AK:2", "AK:3", "AK:4", "AK:5", "AK:6", "AK:7", "AK:8", "AK:9", "AK:10", "AK:11", "AK:9.I"]
    r = table("alles-klar", ["Anna", "Ben", "Cem"], options={"deck": deck})
    # Stock empty from the start: Cem plays out while Anna and Ben hold on ... all numeral-free, no decision.
    order = ["Anna", "Ben", "Cem"] * 4
    for player, card in zip(order, deck[:11], strict=False):
        ok(play(r, player, card))
    assert r.state()["hands"] == {"Anna": 0, "Ben": 0, "Cem": 1}
    assert r.state()["turn"] == "Cem"  # Anna and Ben are skipped; Cem plays again


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_final_scores_add_up(seed: int, players: int) -> None:
    header, events = sim.random_game("alles-klar", seed, players)
    r = Referee(header)
    won = 0
    for event in events:
        before = r.state()["tricks_played"]
        ok(r.apply(event))
        s = r.state()
        if s["tricks_played"] > before and s["last_trick"]["outcome"] == "won":
            won += s["last_trick"]["cards"]
    s = r.state()
    assert sum(s["scores"].values()) == won
    assert won + s["removed"] + sum(s["hands"].values()) == 77 and s["stock"] == 0
    top = max(s["scores"].values())
    assert s["winners"] == [p for p in header["players"] if s["scores"][p] == top]
