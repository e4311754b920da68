"""The contract every registered game keeps (OpenSpiel's api_test habit), checked on random games.

For each registered game (the registry of definitions: a game without a simulated table fails here, it is
not skipped; tests/test_game_definitions.py names every missing part): random games end without a crash; the
cards are conserved at every step (referee counts add up to the deck and agree
with the hidden table); replaying the accepted events gives the identical state;
undo then the same event gives the identical state; malformed and out-of-turn
events are rejected and change nothing.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import registry, sim
from referee.table import Referee

GAMES = registry.ids()


def seat_counts(game_id: str) -> list[int]:
    from referee import games

    return list(games.get(game_id).player_counts)


CASES = [(g, n) for g in GAMES for n in seat_counts(g)]
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def frozen(referee: Referee) -> str:
    return json.dumps(referee.state(), sort_keys=True)


@pytest.mark.parametrize(("game_id", "players"), CASES)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_game_conserves_cards_and_ends(game_id: str, players: int, seed: int) -> None:
    table = sim.new_table(game_id, seed, players)
    referee = Referee(table.header)
    deck_size = referee.game.deck.size
    for _ in sim.play(table, referee):
        assert sum(referee.game.card_places().values()) == deck_size
        table.check(referee)
    state = referee.state()
    assert state["finished"] is True
    assert state["turn"] is None
    assert state["winners"], "a finished game names its winners"
    assert set(state["scores"]) == set(table.players)


@pytest.mark.parametrize(("game_id", "players"), CASES)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_replay_gives_identical_state(game_id: str, players: int, seed: int) -> None:
    header, events = sim.random_game(game_id, seed, players)
    first = Referee(header)
    for event in events:
        assert first.apply(event).ok
    again = Referee(json.loads(json.dumps(header)))
    for event in json.loads(json.dumps(events)):
        assert again.apply(event).ok
    assert frozen(first) == frozen(again)


@pytest.mark.parametrize(("game_id", "players"), CASES)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_undo_then_same_event_is_identical(game_id: str, players: int, seed: int, data: st.DataObject) -> None:
    header, events = sim.random_game(game_id, seed, players)
    cut = data.draw(st.integers(0, len(events) - 1))
    referee = Referee(header)
    for event in events[:cut]:
        referee.apply(event)
    before = frozen(referee)
    assert referee.apply(events[cut]).ok
    after = frozen(referee)
    assert referee.apply({"type": "undo"}).ok
    assert frozen(referee) == before
    assert referee.apply(events[cut]).ok
    assert frozen(referee) == after


def _junk_events(players: list[str], rng) -> list:
    names = [*players, "Nobody", ""]
    junk: list = [
        None, 3, "play", [], {}, {"type": 7}, {"type": "fly"}, {"type": "play"},
        {"type": "play", "player": rng.choice(names)},
        {"type": "play", "player": rng.choice(names), "card": 5},
        {"type": "play", "player": rng.choice(names), "card": "XX:1"},
        {"type": "play", "player": rng.choice(names), "card": "AK:1.I#0"},
        {"type": "play", "player": rng.choice(names), "card": None},
        {"type": "press", "player": rng.choice(names), "button": "slap"},
        {"type": "draw", "player": rng.choice(names), "count": "many"},
    ]
    return junk


@pytest.mark.parametrize(("game_id", "players"), CASES)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_rejections_change_nothing(game_id: str, players: int, seed: int, data: st.DataObject) -> None:
    header, events = sim.random_game(game_id, seed, players)
    cut = data.draw(st.integers(0, len(events)))
    referee = Referee(header)
    for event in events[:cut]:
        referee.apply(event)
    table_players = header["players"]
    import random

    rng = random.Random(seed)
    probes = _junk_events(table_players, rng)
    # Every later accepted event, sent by a player who is not on turn, or re-sent after it was accepted.
    for later in events[cut : cut + 5]:
        if isinstance(later.get("player"), str) and referee.turn is not None:
            other = [p for p in table_players if p != referee.turn]
            probes.append({**later, "player": rng.choice(other)})
    before = frozen(referee)
    history = len(referee.history)
    for probe in probes:
        answer = referee.apply(probe)
        if answer.ok:  # an out-of-turn probe may be legal (e.g. a slap or a call); take it back
            assert referee.apply({"type": "undo"}).ok
        else:
            assert answer.error and answer.message("en") and answer.message("de")
        assert frozen(referee) == before, f"{probe} changed the state"
        assert len(referee.history) == history
