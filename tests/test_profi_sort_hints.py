"""Profi-Sort's query API: `hints()` (who acts, which events, the tasks a hand still needs …) and `check()`.

The hints are read against the referee's own answers: in simulated matches every event type the hints offer
is one `check` does not refuse for its phase, turn or draw, and `check` answers as `apply` does without
changing the state.
"""

from __future__ import annotations

import json

import pytest

from referee import sim
from referee.decks.profi_sort import REPEAT, TASK_IDS
from referee.games.profi_sort import ProfiSortHints
from referee.hints import FinishedHints
from referee.table import Referee

J = "PS:JOKER"
ORDER_ERRORS = {"wrong-phase", "not-your-turn", "already-drawn", "must-draw-first"}


def c(*names: str) -> list[str]:
    return [f"PS:{n}" for n in names]


def table(players: tuple[str, ...] = ("Anna", "Ben"), **options: object) -> Referee:
    header = {"format": "tabletop-referee/1", "game": "profi-sort", "players": list(players)}
    if options:
        header["options"] = options
    return Referee(header)


def ok(r: Referee, kind: str, **fields: object) -> None:
    answer = r.apply({"type": kind, **fields})
    assert answer.ok, (kind, fields, answer.error)


def test_the_first_hints() -> None:
    hints = table().hints()
    assert hints.game == "profi-sort" and hints.actors == ("Anna",) and hints.events == ("draw", "redeal")
    detail = hints.detail
    assert isinstance(detail, ProfiSortHints)
    assert detail.tasks_open == TASK_IDS and detail.own == 10 and detail.keep == 1 and detail.may_redeal
    assert not (detail.drawn or detail.may_extend or detail.may_skip or detail.must_go_out)
    assert hints.sentence("en") == "Anna draws first."
    assert hints.sentence("de") == "Anna zieht zuerst."


def test_after_a_task_the_hand_may_extend_and_needs_the_other_tasks() -> None:
    r = table()
    ok(r, "draw", player="Anna")
    hints = r.hints()
    assert hints.events == ("lay_task", "give_ace", "discard") and hints.detail.own == 11
    assert hints.sentence("en").startswith("Anna lays a task or gives an ace, then discards; 11 own cards.")
    ok(r, "lay_task", player="Anna", task="four-of-a-kind-four-suits", groups=[c("C7", "S7", "H7", "D7")])
    detail = r.hints().detail
    assert detail.may_extend and detail.own == 7 and not detail.may_redeal
    assert detail.tasks_open == tuple(t for t in TASK_IDS if t != "four-of-a-kind-four-suits")
    assert r.hints().events == ("lay_task", "extend", "give_ace", "discard")
    assert "Tasks still open" not in r.hints().sentence("en"), "short: the task sheet shows the open tasks"


def test_task_15_and_a_received_ace_show_in_the_hints() -> None:
    r = table()
    ok(r, "draw", player="Anna")
    ok(r, "give_ace", player="Anna", to="Ben", card="PS:HA#1")
    assert "give_ace" not in r.hints().events and not r.hints().detail.may_give_ace
    ok(r, "discard", player="Anna", card="PS:C2")
    detail = r.hints().detail
    assert detail.player == "Ben" and detail.may_skip and detail.keep == 2 and detail.own == 10
    assert r.hints().events == ("draw", "skip_with_ace")
    assert r.hints().sentence("de") == "Ben zieht zuerst oder setzt mit einem erhaltenen Ass aus."
    ok(r, "draw", player="Ben")
    ok(r, "discard", player="Ben", card="PS:C3")
    ok(r, "draw", player="Anna")
    ok(r, "lay_task", player="Anna", task=REPEAT, groups=[c("C7", "S7", "H7", "D7")],
       **{"as": "four-of-a-kind-four-suits"})
    detail = r.hints().detail
    assert detail.must_go_out and REPEAT not in detail.tasks_open
    assert r.hints().sentence("en") == "Anna laid task 15: the discard must be the last card."


def test_scoring_and_round_over_hints() -> None:
    r = table()
    ok(r, "draw", player="Anna")
    ok(r, "lay_task", player="Anna", task="two-runs5",
       groups=[c("S2", "S3", "H4", "H5", "H6"), c("D7", "D8", "C9", "C10", "CJ")])
    ok(r, "discard", player="Anna", card="PS:HK")
    hints = r.hints()
    assert hints.actors == ("Ben",) and hints.events == ("reveal_hand",) and hints.detail.to_reveal == ("Ben",)
    assert hints.sentence("en") == "Round over. Still to show their cards: Ben."
    ok(r, "reveal_hand", player="Ben", cards=c("S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "SJ"))
    hints = r.hints()
    assert hints.actors == () and hints.events == ("new_round",)
    assert hints.sentence("de") == "Runde 1 ist vorbei: nächste Runde starten."


def test_the_beginner_game_ends_with_finished_hints() -> None:
    r = table(first_to=1)
    ok(r, "draw", player="Anna")
    ok(r, "lay_task", player="Anna", task="four-of-a-kind-four-suits", groups=[c("C7", "S7", "H7", "D7")])
    hints = r.hints()
    assert hints.actors == () and hints.events == () and isinstance(hints.detail, FinishedHints)
    assert hints.detail.winners == ("Anna",)


@pytest.mark.parametrize(("seed", "players"), [(0, 2), (1, 3), (2, 2), (3, 3)])
def test_hints_and_check_agree_with_apply_in_simulated_matches(seed: int, players: int) -> None:
    tab = sim.new_table("profi-sort", seed, players)
    referee = Referee(tab.header)
    proposals = tab.candidates
    for _ in range(400):
        if referee.finished:
            break
        hints = referee.hints()
        for event in proposals(referee):
            before = json.dumps(referee.state(), sort_keys=True)
            answer = referee.check(event)
            assert json.dumps(referee.state(), sort_keys=True) == before, "check changed the state"
            # a redeal may come from any player (PS-R5: `detail.may_redeal`), not only from the actor on turn
            anyone = not hints.actors or (event["type"] == "redeal" and hints.detail.may_redeal)
            offered = event["type"] in hints.events and (event.get("player") in hints.actors or anyone)
            if answer.error in ORDER_ERRORS:
                assert not offered, (event, answer.error, hints)
            if answer.ok:
                assert offered, (event, hints)
        for lang in ("en", "de"):
            assert "{" not in hints.sentence(lang)
        event = next(e for e in proposals(referee) if referee.check(e).ok)
        assert referee.apply(event).ok
        tab.accepted(event, referee)
