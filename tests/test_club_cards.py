"""A table's card on the club nights' desk says what the table really shows (#35): from the table's retained
status beside what the desk knows of the round's game — never "waiting" while the table shows something else."""

from __future__ import annotations

import pytest

from hub.evenings.cards import SAYS, card
from hub.evenings.model import TableOutcome

EVENING, ROUND = "freitag", 2


def outcome(**fields) -> TableOutcome:
    return TableOutcome("t1", ("Anna", "Ben", "Cleo"), "Ben", **fields)


def row(online: bool = True, **status) -> dict:
    return {"table": "t1", "online": online, "status": {"screen": "menu", "game_uid": None, "finished": False}
            | status}


CASES = [
    ("the round's assignment on screen", outcome(), row(screen="setup", assignment={"evening": EVENING, "round": 2}),
     "assignment"),
    ("last round's assignment is not this one", outcome(), row(screen="setup", assignment={"evening": EVENING,
                                                                                            "round": 1}), "setup"),
    ("this round's game", outcome(game_uid="g7", state="playing"), row(screen="table", game_uid="g7"), "playing"),
    ("its results", outcome(game_uid="g7", state="playing", ended=True),
     row(screen="table", game_uid="g7", finished=True), "results"),
    ("another game in the way", outcome(), row(screen="table", game_uid="x1"), "other_game"),
    ("an earlier game's results", outcome(), row(screen="table", game_uid="x1", finished=True), "other_results"),
    ("the players left their game", outcome(game_uid="g7", state="playing"), row(screen="menu"), "left"),
    ("ended, being checked", outcome(game_uid="g7", state="playing", ended=True), row(screen="menu"), "checking"),
    ("offline", outcome(), row(online=False), "offline"),
    ("never reported", outcome(), None, "unknown"),
    ("the staff menu", outcome(), row(screen="admin"), "staff"),
    ("the menu, no assignment", outcome(), row(screen="menu"), "menu"),
    ("counted", outcome(game_uid="g7", state="verified", ended=True), row(screen="menu"), "counted"),
    ("disputed", outcome(game_uid="g7", state="disputed", ended=True), row(online=False), "disputed"),
    ("abandoned", outcome(game_uid="g7", state="abandoned", ended=True), row(), "abandoned"),
]


@pytest.mark.parametrize(("what", "table", "status", "key"), CASES, ids=[c[0] for c in CASES])
def test_each_situation_has_its_card_and_sentence(what, table, status, key) -> None:
    shown = card(table, status, EVENING, ROUND)
    assert shown.key == key and shown.says == SAYS[key]
    assert shown.live == (key == "playing")  # scores and whose turn only while the round's game is on


def test_every_situation_is_a_sentence_with_what_to_do() -> None:
    assert set(SAYS) == {c[3] for c in CASES}  # every situation is tested above
    assert all(s.endswith((".", "?")) for s in SAYS.values())
