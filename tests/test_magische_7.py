"""Die magische 7: each numbered rule and decision of ../shared/rules/magische-7.md."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import sim
from referee.games.magische_7 import Face, card_points, trick_winner_is_follower
from referee.table import Referee
from tests.helpers import ok, play, table

P = Face("points", 0)
KINDS = {"points": Face("points", 5), "pair": Face("points", 2), "JOKER": Face("JOKER"),
         "MIRROR": Face("MIRROR"), "CROSS": Face("CROSS")}

# Section 5's table, leader's card in the rows, follower's card in the columns (L / F).
TABLE = {
    "points": {"pair": "F", "points": "L", "JOKER": "F", "MIRROR": "L", "CROSS": "L"},
    "JOKER": {"points": "L", "JOKER": "F", "MIRROR": "L", "CROSS": "L"},
    "MIRROR": {"points": "L", "JOKER": "F", "MIRROR": "L", "CROSS": "L"},
    "CROSS": {"points": "F", "JOKER": "F", "MIRROR": "F", "CROSS": "F"},
}


@pytest.mark.parametrize(("lead", "follow", "who"), [(a, b, w) for a, row in TABLE.items() for b, w in row.items()])
def test_section5_every_pairing(lead: str, follow: str, who: str) -> None:
    lead_face = KINDS[lead]
    follow_face = KINDS[follow] if follow != "points" or lead != "points" else Face("points", 9)
    assert trick_winner_is_follower(lead_face, follow_face) == (who == "F")


@pytest.mark.parametrize(("a", "b", "mirror", "points"), [
    (Face("points", 5), Face("points", -2), "copy", 3),
    (Face("MIRROR"), Face("points", 13), "copy", 26),
    (Face("MIRROR"), Face("points", 13), "zero", 13),
    (Face("MIRROR"), Face("JOKER"), "copy", 0),
    (Face("MIRROR"), Face("MIRROR"), "copy", 0),
    (Face("CROSS"), Face("points", -6), "copy", -6),
    (Face("JOKER"), Face("CROSS"), "copy", 0),
])
def test_section5_trick_points(a: Face, b: Face, mirror: str, points: int) -> None:
    assert card_points(a, b, mirror) + card_points(b, a, mirror) == points


def test_two_players_pair_goes_to_follower_and_draws() -> None:
    r = table("magische-7", ["Anna", "Ben"])
    ok(play(r, "Anna", "M7:3"))
    assert play(r, "Ben", "M7:4", target="Anna").error == "bad-target"
    ok(play(r, "Ben", "M7:4"))
    s = r.state()
    assert s["last_trick"] == {"leader": "Anna", "follower": "Ben", "cards": {"Anna": "M7:3", "Ben": "M7:4"},
                               "winner": "Ben", "points": 7}
    assert s["turn"] == "Ben" and s["stock"] == 8 and s["hands"] == {"Anna": 7, "Ben": 7}


def test_four_players_targets_and_team_scores() -> None:
    r = table("magische-7", ["Anna", "Ben", "Cem", "Dora"])
    assert r.state()["stock"] == 20
    assert play(r, "Anna", "M7:13").error == "target-needed"
    assert play(r, "Anna", "M7:13", target="Cem").error == "bad-target"  # the partner
    assert play(r, "Anna", "M7:13", target="Anna").error == "bad-target"
    assert play(r, "Anna", "M7:13", target="Zoe").error == "bad-target"
    ok(play(r, "Anna", "M7:13", target="Ben"))
    assert r.state()["turn"] == "Ben"
    ok(play(r, "Ben", "M7:1"))
    s = r.state()
    assert s["scores"] == {"Anna": 14, "Ben": 0, "Cem": 14, "Dora": 0}
    assert s["hands"] == {"Anna": 7, "Ben": 7, "Cem": 7, "Dora": 7} and s["stock"] == 18
    # M7-R9: Anna leads again and may not choose Ben twice in a row.
    assert play(r, "Anna", "M7:12", target="Ben").error == "same-target-twice"
    ok(play(r, "Anna", "M7:12", target="Dora"))


def test_no_repeat_target_can_be_switched_off() -> None:
    r = table("magische-7", ["Anna", "Ben", "Cem", "Dora"], options={"no_repeat_target": False})
    ok(play(r, "Anna", "M7:13", target="Ben"))
    ok(play(r, "Ben", "M7:1"))
    ok(play(r, "Anna", "M7:12", target="Ben"))


def test_copy_numbers_with_two_packs() -> None:
    r = table("magische-7", ["Anna", "Ben", "Cem", "Dora"])
    ok(play(r, "Anna", "M7:13", target="Ben"))
    ok(play(r, "Ben", "M7:13#1"))  # D15: the first play named no copy
    assert play(r, "Anna", "M7:13#2", target="Dora").error == "card-exhausted"
    assert play(r, "Anna", "M7:JOKER#5", target="Dora").error == "unknown-card"
    ok(play(r, "Anna", "M7:JOKER#4", target="Dora"))


@pytest.mark.parametrize("code", ["M7:+5", "M7:05", "M7:-0", "M7:joker", "M7:14", "M7:-7", "M7:7#2", "M7:JOKER#3"])
def test_not_cards_with_two_players(code: str) -> None:
    assert play(table("magische-7", ["Anna", "Ben"]), "Anna", code).error == "unknown-card"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 4]))
def test_final_scores_add_up_to_the_deck_points_with_mirror_zero(seed: int, players: int) -> None:
    """With the Mirror at 0 every points card scores exactly once: the totals are the deck's 70 per pack."""
    header, events = sim.random_game("magische-7", seed, players, options={"mirror": "zero"})
    r = Referee(header)
    for event in events:
        ok(r.apply(event))
    s = r.state()
    assert s["finished"] and s["tricks_played"] == 6 * players
    packs = players // 2
    if players == 2:
        assert sum(s["scores"].values()) == 70
    else:
        assert s["scores"]["Anna"] + s["scores"]["Ben"] == 70 * packs
        assert s["scores"]["Anna"] == s["scores"]["Cem"] and s["scores"]["Ben"] == s["scores"]["Dora"]
    top = max(s["scores"].values())
    assert s["winners"] == [p for p in header["players"] if s["scores"][p] == top]
