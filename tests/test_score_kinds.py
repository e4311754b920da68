"""A game ranks by what its definition says (#35): points, penalty points, finishing places or — Profi-Sort's
beginner game — the tasks laid; the table's results screen, the hub's ratings and a club night's standings
place the players alike (`referee.ranking`), never guessing the direction from the winners."""

from __future__ import annotations

from fractions import Fraction

from hub.evenings.standings import TableResult, normalised, place_points, places
from hub.ratings import Result, ranks
from referee.ranking import FEWER_WINS, MORE_WINS, PLACES, TASKS, score_kind
from referee.ranking import places as ranking_places


def test_each_kind_places_the_players_its_way() -> None:
    players = ["Anna", "Ben", "Cleo"]
    assert ranking_places(MORE_WINS, players, {"Anna": 5, "Ben": 9, "Cleo": 5}) == {"Anna": 2, "Ben": 1, "Cleo": 2}
    assert ranking_places(FEWER_WINS, players, {"Anna": 5, "Ben": 9, "Cleo": 1}) == {"Anna": 2, "Ben": 3, "Cleo": 1}
    assert ranking_places(PLACES, players, {"Anna": 2, "Ben": 0, "Cleo": 1}) == {"Anna": 2, "Ben": 3, "Cleo": 1}
    assert ranking_places(TASKS, players, {"Anna": 2, "Ben": 1, "Cleo": 1}) == {"Anna": 1, "Ben": 2, "Cleo": 2}
    assert score_kind("profi-sort", {"first_to": 2}) == TASKS and score_kind("profi-sort", {}) == FEWER_WINS


def test_a_beginner_game_of_profi_sort_ranks_by_tasks_where_its_penalty_points_are_all_zero() -> None:
    """The end record's scores are penalty points, which the beginner game does not count: all 0. Guessing
    from the winners put everyone else second; the tasks (2, 1, 1 at the table) say who came where."""
    players = ("Anna", "Ben", "Cleo")
    zeros = {p: 0 for p in players}
    tasks = {"Anna": 2, "Ben": 1, "Cleo": 0}
    guessed = Result("profi-sort", players, zeros, ["Anna"])
    assert ranks(guessed) == [1, 2, 2]  # without the kind: Ben and Cleo cannot be told apart
    known = Result("profi-sort", players, zeros, ["Anna"], kind=TASKS, ranked=tasks)
    assert ranks(known) == [1, 2, 3]
    table = TableResult(1, players, zeros, ("Anna",), kind=TASKS, ranked=tasks)
    assert places(table) == {"Anna": 1, "Ben": 2, "Cleo": 3}
    assert place_points(places(table)) == {"Anna": 3, "Ben": 2, "Cleo": 1}
    assert normalised(table) == {"Anna": Fraction(1), "Ben": Fraction(1, 2), "Cleo": Fraction(0)}
