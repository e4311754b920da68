"""Profi-Sort's task matcher: every task accepted and near misses rejected (table-driven), extensions, properties."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.decks.profi_sort import (
    FORMS,
    FORMS_RANKS,
    FOUR_SUITS,
    IDENTICAL_PAIRS,
    KIND_RANKS,
    ONE_SUIT,
    REPEAT,
    RUN,
    SET,
    SUIT_RUN,
    SUITS,
    TASK_BY_ID,
    TASKS,
    faces,
)
from referee.table import Referee

J = "PS:JOKER"


def c(*names: str) -> list[str]:
    return [n if n.startswith("PS:") else f"PS:{n}" for n in names]


def drawn() -> Referee:
    """A fresh two-player table where Anna (first to play) has drawn: 11 cards."""
    ref = Referee({"format": "tabletop-referee/1", "game": "profi-sort", "players": ["Anna", "Ben"]})
    assert ref.apply({"type": "draw", "player": "Anna"}).ok
    return ref


def lay(task: str, groups: list[list[str]], as_task: str | None = None):
    ref = drawn()
    event = {"type": "lay_task", "player": "Anna", "task": task, "groups": groups}
    if as_task is not None:
        event["as"] = as_task
    return ref, ref.apply(event)


# (task, groups, expected error or None, expected reason of the message key or None)
LAY_CASES = [
    # 1 five-pairs (No J)
    ("five-pairs", [c("H2", "C2"), c("S5", "D5"), c("H9", "C9"), c("CQ", "DQ"), c("SK", "HK")], None, None),
    ("five-pairs", [c("H2", J), c("S5", "D5"), c("H9", "C9"), c("CQ", "DQ"), c("SK", "HK")],
     "joker-not-allowed", None),
    ("five-pairs", [c("H2", "C2"), c("S2", "D2"), c("H9", "C9"), c("CQ", "DQ"), c("SK", "HK")],
     "task-not-met", "same-rank"),
    ("five-pairs", [c("H2", "C3"), c("S5", "D5"), c("H9", "C9"), c("CQ", "DQ"), c("SK", "HK")],
     "task-not-met", "set-ranks"),
    ("five-pairs", [c("H2", "C2"), c("S5", "D5"), c("H9", "C9"), c("CQ", "DQ")], "wrong-shape", None),
    ("five-pairs", [c("H2", "C2", "D2"), c("S5"), c("H9", "C9"), c("CQ", "DQ"), c("SK", "HK")], "wrong-shape", None),
    ("five-pairs", [c("HA", "CA"), c("S5", "D5"), c("H9", "C9"), c("CQ", "DQ"), c("SK", "HK")],
     "ace-not-allowed", None),
    # 2 three-triples (J ok)
    ("three-triples", [c("S8", "H8", "D8"), c("SQ", "HQ", "CQ"), c("S4", "D4", "H4")], None, None),
    ("three-triples", [c("S8", "H8", "D8"), c("SQ", "HQ", J), c("S4", J, J)], None, None),
    ("three-triples", [c("S8", "H8", "D8"), c(J, J, J), c("S4", "D4", "H4")], "joker-alone", None),
    ("three-triples", [c("S8", "H8", "D8"), c("SQ", "HQ", "CQ"), c("S8", "C8", J)], "task-not-met", "same-rank"),
    ("three-triples", [c("S8", "H8", "D9"), c("SQ", "HQ", "CQ"), c("S4", "D4", "H4")], "task-not-met", "set-ranks"),
    ("three-triples", [c("S8", "H8", "D8"), c("SQ", "HQ", "CQ"), c("S4", "D4", "HA")], "ace-not-allowed", None),
    # 3 four-of-a-kind-four-suits (No J)
    ("four-of-a-kind-four-suits", [c("D7", "C7", "H7", "S7")], None, None),
    ("four-of-a-kind-four-suits", [c("C7", "S7", "H7", "H7")], "task-not-met", "four-suits-suit"),
    ("four-of-a-kind-four-suits", [c("C7", "S7", "H7", "D8")], "task-not-met", "four-suits-rank"),
    ("four-of-a-kind-four-suits", [c("C7", "S7", "H7", J)], "joker-not-allowed", None),
    ("four-of-a-kind-four-suits", [c("C7", "S7", "H7", "D7", "C7")], "wrong-shape", None),
    # 4 run6-one-suit (J ok)
    ("run6-one-suit", [c("H5", "H6", "H7", "H8", "H9", "H10")], None, None),
    ("run6-one-suit", [c(J, "H6", "H7", J, "H9", "H10")], None, None),
    ("run6-one-suit", [c("S8", "S9", "S10", "SJ", "SQ", "SK")], None, None),
    ("run6-one-suit", [c("H5", "H6", "H8", "H9", "H10", "HJ")], "task-not-met", "gap"),
    ("run6-one-suit", [c("H5", "H6", "S7", "H8", "H9", "H10")], "task-not-met", "suits"),
    ("run6-one-suit", [c("H10", "H9", "H8", "H7", "H6", "H5")], "task-not-met", "not-ascending"),
    ("run6-one-suit", [c(J, "H2", "H3", "H4", "H5", "H6")], "task-not-met", "below-2"),
    ("run6-one-suit", [c("H9", "H10", "HJ", "HQ", "HK", J)], "task-not-met", "above-king"),
    ("run6-one-suit", [c("HJ", "HQ", "HK", "HA", "H2", "H3")], "ace-not-allowed", None),
    # 5 two-pairs-run6 (J ok, group order free)
    ("two-pairs-run6", [c("H2", "C2"), c("S5", "D5"), c("C6", "D7", "H8", "S9", "C10", "DJ")], None, None),
    ("two-pairs-run6", [c("C6", J, "H8", "S9", "C10", "DJ"), c(J, "C2"), c("S5", "D5")], None, None),
    ("two-pairs-run6", [c("H2", "C2"), c("S2", "D2"), c("C6", "D7", "H8", "S9", "C10", "DJ")],
     "task-not-met", "same-rank"),
    ("two-pairs-run6", [c("H2", "C2"), c("S5", "D5"), c("C6", "D7", "H8", "S9", "C10", "DQ")], "task-not-met", "gap"),
    ("two-pairs-run6", [c("H2", "C2"), c("S5", "D5"), c("C6", "D7", "H8", "S9", "C10")], "wrong-shape", None),
    # 6 two-runs5 (J ok)
    ("two-runs5", [c("S2", "S3", "H4", "H5", "H6"), c("D7", "D8", "C9", "C10", "CJ")], None, None),
    ("two-runs5", [c("S2", J, "H4", "H5", "H6"), c("D9", "D10", J, "CQ", "CK")], None, None),
    ("two-runs5", [c("H5", "C6", "D7", "S9", "H10"), c("D7", "D8", "C9", "C10", "CJ")], "task-not-met", "gap"),
    ("two-runs5", [c("S2", "S3", "H4", "H5", "H6"), c("D7", "D7", "C9", "C10", "CJ")],
     "task-not-met", "not-ascending"),
    # 7 six-twos-threes (J ok)
    ("six-twos-threes", [c("H2", "C2", "S2", "D2", "H2", "C2")], None, None),
    ("six-twos-threes", [c("H2", "C3", "S3", J, "D2", J)], None, None),
    ("six-twos-threes", [c("H2", "C3", "S3", "H4", "D2", "D3")], "task-not-met", "not-two-three"),
    ("six-twos-threes", [c("H2", "C3", "S3", "HA", "D2", "D3")], "ace-not-allowed", None),
    # 8 seven-pictures (J ok)
    ("seven-pictures", [c("HJ", "CQ", "SK", "DK", "HK", "CJ", "SQ")], None, None),
    ("seven-pictures", [c("HJ", J, "SK", "DK", J, "CJ", "SQ")], None, None),
    ("seven-pictures", [c("HJ", "CQ", "SK", "DK", "H10", "CJ", "SQ")], "task-not-met", "not-picture"),
    ("seven-pictures", [c(J, J, J, J, J, J, J)], "joker-alone", None),
    # 9 three-identical-pairs (No J)
    ("three-identical-pairs", [c("S3", "S3", "HJ", "HJ", "D7", "D7")], None, None),
    ("three-identical-pairs", [c("S3", "HJ", "D7", "D7", "HJ", "S3")], None, None),
    ("three-identical-pairs", [c("S3", "H3", "HJ", "HJ", "D7", "D7")], "task-not-met", "pair-alone"),
    ("three-identical-pairs", [c("S3", "S3", "S3", "S3", "D7", "D7")], "task-not-met", "pair-twice"),
    ("three-identical-pairs", [c("S3", "S3", "HJ", J, "D7", "D7")], "joker-not-allowed", None),
    # 10 3-5-9-j-or-4-6-10-q (No J)
    ("3-5-9-j-or-4-6-10-q", [c("H3", "D5", "C9", "SJ")], None, None),
    ("3-5-9-j-or-4-6-10-q", [c("SQ", "C4", "D6", "H10")], None, None),
    ("3-5-9-j-or-4-6-10-q", [c("H3", "D5", "C9", "SQ")], "task-not-met", "form"),
    ("3-5-9-j-or-4-6-10-q", [c("H3", "H5", "C9", "SJ")], "task-not-met", "form-suits"),
    ("3-5-9-j-or-4-6-10-q", [c("H3", "D5", "C9", J)], "joker-not-allowed", None),
    # 11 two-four-of-a-kind (J ok)
    ("two-four-of-a-kind", [c("H6", "C6", "S6", "D6"), c("HK", "CK", "HK", "DK")], None, None),
    ("two-four-of-a-kind", [c("H6", J, J, "D6"), c("HK", "CK", J, "DK")], None, None),
    ("two-four-of-a-kind", [c("H6", "C6", "S6", "D6"), c("H6", "C6", J, J)], "task-not-met", "same-rank"),
    ("two-four-of-a-kind", [c("H6", "C6", "S6", "D6"), c("HK", "CK", "HQ", "DK")], "task-not-met", "set-ranks"),
    # 12 five-of-a-kind-run4 (J ok)
    ("five-of-a-kind-run4", [c("H7", "C7", "S7", "D7", "H7"), c("C2", "D3", "H4", "S5")], None, None),
    ("five-of-a-kind-run4", [c("C2", J, "H4", "S5"), c("H7", J, J, "D7", "H7")], None, None),
    ("five-of-a-kind-run4", [c("H7", "C7", "S7", "D7", "H7"), c("C2", "D3", "H4", "S6")], "task-not-met", "gap"),
    ("five-of-a-kind-run4", [c("H7", "C7", "S7", "D7", "H8"), c("C2", "D3", "H4", "S5")],
     "task-not-met", "set-ranks"),
    # 13 run8 (No J)
    ("run8", [c("H2", "C3", "S4", "D5", "H6", "C7", "S8", "D9")], None, None),
    ("run8", [c("H6", "C7", "S8", "D9", "H10", "CJ", "SQ", "DK")], None, None),
    ("run8", [c("H2", "C3", J, "D5", "H6", "C7", "S8", "D9")], "joker-not-allowed", None),
    ("run8", [c("H2", "C3", "S4", "D5", "H6", "C7", "S8", "D10")], "task-not-met", "gap"),
    ("run8", [c("H7", "C8", "S9", "D10", "HJ", "CQ", "SK", "DA")], "ace-not-allowed", None),
    # 14 triple-five-one-suit (J ok)
    ("triple-five-one-suit", [c("S8", "H8", "D8"), c("C2", "C2", "C5", "CK", "CJ")], None, None),
    ("triple-five-one-suit", [c("C2", J, "C5", "CK", J), c("S8", J, "D8")], None, None),
    ("triple-five-one-suit", [c("S8", "H8", "D8"), c("C2", "C2", "H5", "CK", "CJ")], "task-not-met", "suits"),
    ("triple-five-one-suit", [c("S8", "H8", "D9"), c("C2", "C2", "C5", "CK", "CJ")], "task-not-met", "set-ranks"),
    ("triple-five-one-suit", [c("S8", "H8", "D8"), c(J, J, J, J, J)], "joker-alone", None),
]


def _ids(case) -> str:
    task, _, error, reason = case
    return f"{task}-{error or 'ok'}-{reason or ''}"


@pytest.mark.parametrize(("task", "groups", "error", "reason"), LAY_CASES, ids=[_ids(x) for x in LAY_CASES])
def test_lay_task_table(task: str, groups: list[list[str]], error: str | None, reason: str | None) -> None:
    ref, answer = lay(task, groups)
    assert answer.error == error, answer.message()
    if reason is not None:
        assert answer.rejection.key == f"ps.task-not-met.{reason}"
        assert answer.message("en") != answer.message("de")
    if error is not None:
        assert "{" not in answer.message("en") and "{" not in answer.message("de")
    if error is None:
        state = ref.state()
        assert state["tasks_done"]["Anna"] == [task]
        assert len(state["melds"]) == len(groups)
        assert [m["cards"] for m in state["melds"].values()] == groups


@pytest.mark.parametrize(("task", "groups", "error", "reason"), LAY_CASES, ids=[_ids(x) for x in LAY_CASES])
def test_repeat_task_follows_the_as_task(task: str, groups, error, reason) -> None:
    """Task 15 with `as`: the same verdict as the task itself (incl. No J), melds carry the `as` id."""
    ref, answer = lay(REPEAT, groups, as_task=task)
    assert answer.error == error
    if error is None:
        state = ref.state()
        assert state["tasks_done"]["Anna"] == [REPEAT]
        assert {m["task"] for m in state["melds"].values()} == {task}


def test_every_task_has_accepted_and_rejected_cases() -> None:
    for task in TASKS:
        verdicts = {error is None for t, _, error, _ in LAY_CASES if t == task.id}
        assert verdicts == {True, False}, task.id
        if task.jokers:
            assert any(t == task.id and error is None and any(J in g for g in groups)
                       for t, groups, error, _ in LAY_CASES), f"{task.id}: no accepted case with a joker"


def test_gap_message_names_the_missing_rank() -> None:
    _, answer = lay("two-runs5", [c("H5", "C6", "D7", "S9", "H10"), c("D7", "D8", "C9", "C10", "CJ")])
    assert "the run 5-6-7-9-10 has a gap at 8" in answer.message("en")
    assert "Lücke bei 8" in answer.message("de")


def test_unknown_task_and_as() -> None:
    _, answer = lay("six-pairs", [c("H2", "C2")])
    assert answer.error == "unknown-task"
    _, answer = lay(REPEAT, [c("C5", "D5", "H5", "S5")], as_task="run9")
    assert answer.error == "unknown-task"


# --- extension (§6): (task to lay, its groups, meld, cards, at, expected error, reason, expected meld cards)

BASE = {
    "three-triples": [c("S8", "H8", "D8"), c("SQ", "HQ", J), c("S4", "D4", "H4")],
    "five-pairs": [c("H2", "C2"), c("S5", "D5"), c("H9", "C9"), c("CQ", "DQ"), c("SK", "HK")],
    "two-runs5": [c("H5", "C6", "D7", "S8", "H9"), c("S8", "S9", "S10", "SJ", "SQ")],
    "run6-one-suit": [c("H5", "H6", J, "H8", "H9", "H10")],
    "run8": [c("H2", "C3", "S4", "D5", "H6", "C7", "S8", "D9")],
    "six-twos-threes": [c("H2", "C3", "S3", J, "D2", "D3")],
    "seven-pictures": [c("HJ", "CQ", "SK", "DK", "HK", "CJ", "SQ")],
    "triple-five-one-suit": [c("S8", "H8", "D8"), c("C2", "C2", "C5", "CK", "CJ")],
    "four-of-a-kind-four-suits": [c("C7", "S7", "H7", "D7")],
    "three-identical-pairs": [c("S3", "S3", "HJ", "HJ", "D7", "D7")],
    "3-5-9-j-or-4-6-10-q": [c("C4", "D6", "H10", "SQ")],
    "five-of-a-kind-run4": [c("H7", "C7", "S7", "D7", "H7"), c("C2", "D3", "H4", "S5")],
}

EXTEND_CASES = [
    ("three-triples", "m1", c("C8"), None, None, None, c("S8", "H8", "D8", "C8")),
    ("three-triples", "m1", c(J, "C8"), None, None, None, c("S8", "H8", "D8", J, "C8")),
    ("three-triples", "m1", c("C9"), None, "does-not-fit", "wrong-rank", None),
    ("three-triples", "m1", c("CA"), None, "ace-not-allowed", None, None),
    ("three-triples", "m2", c("CQ"), "low", None, None, c("SQ", "HQ", J, "CQ")),  # `at` ignored for sets
    ("five-pairs", "m1", c("S2"), None, None, None, c("H2", "C2", "S2")),
    ("five-pairs", "m1", c(J), None, "joker-not-allowed", None, None),
    ("two-runs5", "m1", c("C10"), None, None, None, c("H5", "C6", "D7", "S8", "H9", "C10")),
    ("two-runs5", "m1", c("H4"), None, None, None, c("H4", "H5", "C6", "D7", "S8", "H9")),
    ("two-runs5", "m1", c("H3", "H4"), "low", None, None, c("H3", "H4", "H5", "C6", "D7", "S8", "H9")),
    ("two-runs5", "m1", c("H2", "H4"), "low", "does-not-fit", "run-position", None),
    ("two-runs5", "m1", c("H4"), "high", "does-not-fit", "run-position", None),
    ("two-runs5", "m1", c(J, "CJ"), None, None, None, c("H5", "C6", "D7", "S8", "H9", J, "CJ")),
    ("two-runs5", "m1", c(J), None, None, None, c("H5", "C6", "D7", "S8", "H9", J)),
    ("two-runs5", "m1", c(J), "low", None, None, c(J, "H5", "C6", "D7", "S8", "H9")),
    ("two-runs5", "m1", c("HJ"), None, "does-not-fit", "both-ends", None),
    ("two-runs5", "m2", c("HK"), None, None, None, c("S8", "S9", "S10", "SJ", "SQ", "HK")),
    ("two-runs5", "m2", c("HK", J), "high", "does-not-fit", "above-king", None),
    ("two-runs5", "m2", c(J, J), None, None, None, c(J, J, "S8", "S9", "S10", "SJ", "SQ")),  # K-max: goes low
    ("two-runs5", "m1", c(J, J, J, J), "low", "does-not-fit", "below-2", None),
    ("run6-one-suit", "m1", c("H4"), None, None, None, c("H4", "H5", "H6", J, "H8", "H9", "H10")),
    ("run6-one-suit", "m1", c("S4"), "low", "does-not-fit", "wrong-suit", None),
    ("run6-one-suit", "m1", c("HJ", J), None, None, None, c("H5", "H6", J, "H8", "H9", "H10", "HJ", J)),
    ("run8", "m1", c("C10"), None, None, None, c("H2", "C3", "S4", "D5", "H6", "C7", "S8", "D9", "C10")),
    ("run8", "m1", c(J), None, "joker-not-allowed", None, None),
    ("six-twos-threes", "m1", c("C2", J), None, None, None, c("H2", "C3", "S3", J, "D2", "D3", "C2", J)),
    ("six-twos-threes", "m1", c("C4"), None, "does-not-fit", "not-two-three", None),
    ("seven-pictures", "m1", c("DQ", J), None, None, None, c("HJ", "CQ", "SK", "DK", "HK", "CJ", "SQ", "DQ", J)),
    ("seven-pictures", "m1", c("D10"), None, "does-not-fit", "not-picture", None),
    ("triple-five-one-suit", "m2", c("C9", J), None, None, None, c("C2", "C2", "C5", "CK", "CJ", "C9", J)),
    ("triple-five-one-suit", "m2", c("H9"), None, "does-not-fit", "wrong-suit", None),
    ("triple-five-one-suit", "m1", c("C8", J), None, None, None, c("S8", "H8", "D8", "C8", J)),
    ("four-of-a-kind-four-suits", "m1", c("C7", "S7", "H7", "D7"), None, None, None, c("C7", "S7", "H7", "D7") * 2),
    ("four-of-a-kind-four-suits", "m1", c("C7", "S7", "H7"), None, "does-not-fit", "four-suits-count", None),
    ("four-of-a-kind-four-suits", "m1", c("C7"), None, "does-not-fit", "four-suits-count", None),
    ("four-of-a-kind-four-suits", "m1", c("C8", "S8", "H8", "D8"), None, "does-not-fit", "wrong-rank", None),
    ("four-of-a-kind-four-suits", "m1", c("C7", "S7", "H7", "H7"), None, "does-not-fit", "four-suits-suit", None),
    ("four-of-a-kind-four-suits", "m1", c("C7", "S7", "H7", J), None, "joker-not-allowed", None, None),
    ("three-identical-pairs", "m1", c("H5", "H5"), None, None, None, c("S3", "S3", "HJ", "HJ", "D7", "D7", "H5", "H5")),
    ("three-identical-pairs", "m1", c("H5", "D5"), None, "does-not-fit", "pair-count", None),
    ("three-identical-pairs", "m1", c("H5"), None, "does-not-fit", "pair-count", None),
    ("three-identical-pairs", "m1", c("H5", "H5", "C5", "C5"), None, "does-not-fit", "pair-count", None),
    ("three-identical-pairs", "m1", c("S3", "S3"), None, "card-exhausted", None, None),
    ("3-5-9-j-or-4-6-10-q", "m1", c("H4", "S4", "C6"), None, None, None, c("C4", "D6", "H10", "SQ", "H4", "S4", "C6")),
    ("3-5-9-j-or-4-6-10-q", "m1", c("H3"), None, "does-not-fit", "form-rank", None),
    ("3-5-9-j-or-4-6-10-q", "m1", c("C4"), None, "does-not-fit", "form-repeat", None),
    ("3-5-9-j-or-4-6-10-q", "m1", c("H4", "H4"), None, "does-not-fit", "form-repeat", None),
    ("3-5-9-j-or-4-6-10-q", "m1", c(J), None, "joker-not-allowed", None, None),
    ("five-of-a-kind-run4", "m1", c("S7", J), None, None, None, c("H7", "C7", "S7", "D7", "H7", "S7", J)),
    ("five-of-a-kind-run4", "m2", c("D6"), None, None, None, c("C2", "D3", "H4", "S5", "D6")),
    ("five-of-a-kind-run4", "m2", c("D6"), "low", "does-not-fit", "below-2", None),
]


@pytest.mark.parametrize(("task", "meld", "cards", "at", "error", "reason", "after"), EXTEND_CASES)
def test_extend_table(task, meld, cards, at, error, reason, after) -> None:
    ref = Referee({"format": "tabletop-referee/1", "game": "profi-sort", "players": ["Anna", "Ben"]})
    assert ref.apply({"type": "draw", "player": "Anna"}).ok
    base = BASE[task]
    # Lay with few cards in the task so that extension has room: the hand count never limits these cases.
    game = ref.game
    game.hands["Anna"] = 30  # a test-only hand: the count rule is tested elsewhere
    assert ref.apply({"type": "lay_task", "player": "Anna", "task": task, "groups": base}).ok
    before = ref.state()
    event = {"type": "extend", "player": "Anna", "meld": meld, "cards": cards}
    if at is not None:
        event["at"] = at
    answer = ref.apply(event)
    assert answer.error == error, answer.message()
    if reason is not None:
        assert answer.rejection.key == f"ps.does-not-fit.{reason}"
    if error is not None:
        assert "{" not in answer.message("en") and "{" not in answer.message("de"), answer.message("de")
    if error is None:
        assert ref.state()["melds"][meld]["cards"] == after
        assert ref.state()["hands"]["Anna"] == before["hands"]["Anna"] - len(cards)
    else:
        assert ref.state() == before


# --- properties: a valid task generated from a shuffled deck is accepted; one card off is judged by the rules


def _deck_codes(jokers: int = 8) -> list[str]:
    copies, _ = faces(jokers)
    return [f"{face}#{n}" for face, k in copies.items() for n in range(1, k + 1)]


INFO = faces(8)[1]


def info(code: str):
    return INFO[code.partition("#")[0]]


def _take(pool: list[str], want) -> str | None:
    for i, code in enumerate(pool):
        if want(info(code)):
            return pool.pop(i)
    return None


def generate(task_id: str, rng: random.Random) -> list[list[str]] | None:
    """A valid laying of the task out of a shuffled deck (None when the draw failed; rare)."""
    task = TASK_BY_ID[task_id]
    pool = _deck_codes()
    rng.shuffle(pool)
    groups = []
    used_ranks: set[int] = set()
    jokers_ok = task.jokers
    for size, kind in task.groups:
        n_jokers = rng.randint(0, size - 1) if jokers_ok and rng.random() < 0.6 else 0
        joker_at = set(rng.sample(range(size), n_jokers))
        group: list[str | None] = []
        if kind == SET:
            rank = rng.choice([r for r in range(2, 14) if r not in used_ranks])
            used_ranks.add(rank)
            want = [lambda f, r=rank: f.rank == r] * size
        elif kind in (RUN, SUIT_RUN):
            start = rng.randint(2, 14 - size)
            suit = rng.choice(SUITS)
            want = [(lambda f, r=start + i, s=suit, k=kind: f.rank == r and (k == RUN or f.suit == s))
                    for i in range(size)]
            if len(joker_at) == size:
                joker_at.pop()
        elif kind in KIND_RANKS:
            want = [lambda f, k=kind: f.rank in KIND_RANKS[k]] * size
        elif kind == ONE_SUIT:
            suit = rng.choice(SUITS)
            want = [lambda f, s=suit: f.suit == s and not f.ace] * size
        elif kind == FOUR_SUITS:
            rank = rng.randint(2, 13)
            want = [lambda f, r=rank, s=s: f.rank == r and f.suit == s for s in SUITS]
        elif kind == IDENTICAL_PAIRS:
            names = rng.sample([f"{s}{r}" for s in SUITS for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10",
                                                                   "J", "Q", "K")], 3)
            want = [lambda f, n=n: f.name == n for n in names for _ in range(2)]
        elif kind == FORMS:
            ranks = FORMS_RANKS[rng.choice("AB")]
            suits = rng.sample(SUITS, 4)
            want = [lambda f, r=r, s=s: f.rank == r and f.suit == s for r, s in zip(ranks, suits, strict=True)]
        else:
            raise AssertionError(kind)
        for i, w in enumerate(want):
            if i in joker_at:
                group.append(_take(pool, lambda f: f.joker))
            else:
                group.append(_take(pool, lambda f, w=w: w(f) and not f.joker))
        if any(code is None for code in group):
            return None
        if kind not in (RUN, SUIT_RUN):
            rng.shuffle(group)
        groups.append(group)
    rng.shuffle(groups)
    return groups


def reference_valid(task_id: str, groups: list[list[str]]) -> bool:
    """The rules of §4/§5 written out directly, independently of the matcher (for the properties)."""
    task = TASK_BY_ID[task_id]
    if sorted(len(g) for g in groups) != sorted(s for s, _ in task.groups):
        return False
    set_ranks = []
    for g in groups:
        fs = [info(code) for code in g]
        nat = [f for f in fs if not f.joker]
        if any(f.ace for f in fs) or not nat or (not task.jokers and len(nat) < len(fs)):
            return False
        kind = task.kind_of(len(g))
        ranks = {f.rank for f in nat}
        suits = {f.suit for f in nat}
        if kind == SET:
            if len(ranks) != 1:
                return False
            set_ranks.append(next(iter(ranks)))
        elif kind in (RUN, SUIT_RUN):
            n = len(fs)
            if not any(all(f.joker or f.rank == s + i for i, f in enumerate(fs)) for s in range(2, 14 - n + 1)):
                return False
            if kind == SUIT_RUN and len(suits) != 1:
                return False
        elif kind in KIND_RANKS:
            if not ranks <= KIND_RANKS[kind]:
                return False
        elif kind == ONE_SUIT:
            if len(suits) != 1:
                return False
        elif kind == FOUR_SUITS:
            if len(ranks) != 1 or suits != set(SUITS):
                return False
        elif kind == IDENTICAL_PAIRS:
            counts = Counter(f.name for f in fs)
            if len(counts) != 3 or set(counts.values()) != {2}:
                return False
        elif kind == FORMS and (tuple(sorted(f.rank for f in fs)) not in FORMS_RANKS.values() or len(suits) != 4):
            return False
    return len(set_ranks) == len(set(set_ranks))


PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TASK_IDS_1_14 = [t.id for t in TASKS]


@PROPS
@given(task_id=st.sampled_from(TASK_IDS_1_14), seed=st.integers(0, 2**32 - 1))
def test_generated_task_is_accepted(task_id: str, seed: int) -> None:
    groups = generate(task_id, random.Random(seed))
    if groups is None:
        return
    assert reference_valid(task_id, groups)
    _, answer = lay(task_id, groups)
    assert answer.ok, (groups, answer.message())


@PROPS
@given(task_id=st.sampled_from(TASK_IDS_1_14), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_one_card_removed_or_swapped_is_judged_by_the_rules(task_id: str, seed: int, data: st.DataObject) -> None:
    rng = random.Random(seed)
    groups = generate(task_id, rng)
    if groups is None:
        return
    used = {code for g in groups for code in g}
    rest = [code for code in _deck_codes() if code not in used]
    gi = data.draw(st.integers(0, len(groups) - 1))
    ci = data.draw(st.integers(0, len(groups[gi]) - 1))
    changed = [list(g) for g in groups]
    if data.draw(st.booleans()):
        del changed[gi][ci]
        assert not reference_valid(task_id, changed)
    else:
        changed[gi][ci] = data.draw(st.sampled_from(rest))
    _, answer = lay(task_id, changed)
    assert answer.ok == reference_valid(task_id, changed), (changed, answer.error, answer.message())
    if not answer.ok:
        assert answer.error in {"wrong-shape", "ace-not-allowed", "joker-not-allowed", "joker-alone", "task-not-met"}


@PROPS
@given(task_id=st.sampled_from(TASK_IDS_1_14), seed=st.integers(0, 2**32 - 1))
def test_two_cards_swapped_between_groups_is_judged_by_the_rules(task_id: str, seed: int) -> None:
    rng = random.Random(seed)
    groups = generate(task_id, rng)
    if groups is None or len(groups) < 2:
        return
    a, b = rng.sample(range(len(groups)), 2)
    i, j = rng.randrange(len(groups[a])), rng.randrange(len(groups[b]))
    groups[a][i], groups[b][j] = groups[b][j], groups[a][i]
    _, answer = lay(task_id, groups)
    assert answer.ok == reference_valid(task_id, groups)


def test_reference_and_kinds_cover_the_sheet() -> None:
    kinds = {kind for t in TASKS for _, kind in t.groups}
    assert kinds == {SET, RUN, SUIT_RUN, *KIND_RANKS, ONE_SUIT, FOUR_SUITS, IDENTICAL_PAIRS, FORMS}
    assert len(TASKS) == 14 and [t.number for t in TASKS] == list(range(1, 15))
