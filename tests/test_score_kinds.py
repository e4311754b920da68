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


def test_a_tables_end_record_says_what_the_game_ranks_by(tmp_path) -> None:
    """The kiosk's log writes `score_kind` and `ranked` into the end record (a field the contract adds): a
    Profi-Sort beginner game by the tasks each player laid, from the game's own replayed state."""
    from kiosk.eventlog.store import EventLog
    from referee.sim import random_game
    from referee.table import Referee

    header, events = random_game("profi-sort", 3, 3)
    assert header["options"]["first_to"] == 2
    log = EventLog(tmp_path / "t1.sqlite")
    game = log.new_game(header)
    referee = Referee(header)
    for event in events:
        assert referee.apply(event).ok
        log.append(game, event)
    log.set_status(game, "finished")
    end = log.records()[-1].payload("t1")
    assert end["kind"] == "end" and end["score_kind"] == TASKS
    done = referee.state()["tasks_done"]
    assert end["ranked"] == {p: len(done.get(p, ())) for p in header["players"]}
    assert max(end["ranked"].values()) == 2 and set(end["scores"].values()) == {0}  # no penalty points counted


def test_a_beginner_game_on_the_hub_is_ranked_and_shown_by_tasks(tmp_path) -> None:
    """Through the hub's real ingest: the replay knows what the game ranks by and each player's tasks; the
    leaderboard ranks by them, the games list, the game's page and the API show them, and a club night's table
    counts them (not the penalty points, all 0)."""
    import time

    from starlette.testclient import TestClient

    from hub.ingest import Incoming, Ingest
    from hub.live import Broadcaster
    from hub.queries import Reader
    from hub.store import Store
    from hub.web import Hub, create_app
    from referee.sim import random_game
    from tests.hub_tables import LoggedTable, paired, status

    store = Store(tmp_path / "hub.sqlite")
    ingest = Ingest(store, lambda c, t, n: None)
    table = LoggedTable("t1")
    ingest.process([Incoming("status", "nord", "t1", status("t1", 0, key=table.key), time.time())])
    paired(ingest, "nord", table)
    header, events = random_game("profi-sort", 3, 3)
    records = list(table.game(header, events))
    ingest.process([Incoming("log", "nord", "t1", r, time.time()) for r in records])
    client = TestClient(create_app(Hub(Reader(tmp_path / "hub.sqlite"), ingest, Broadcaster(),
                                       lambda c, p: None, "nord", None)))
    (game,) = client.get("/api/games").json()
    assert game["check"] == "verified" and game["kind"] == TASKS and set(game["scores"].values()) == {0}
    tasks = game["ranked"]
    assert max(tasks.values()) == 2 and sorted(tasks) == sorted(header["players"])
    best = max(tasks, key=tasks.get)
    assert game["winners"] == [best]
    board = [row["player"] for row in client.get("/api/leaderboard/profi-sort").json()["players"]]
    assert board[0] == best and tasks[board[-1]] == min(tasks.values())  # ranked by tasks, best to worst
    page = client.get(game["url"] + "?lang=de").text
    shown = ", ".join(f"{p} {v}" for p, v in tasks.items())
    assert f"Gelegte Aufgaben: {shown}" in page
    assert "(Gelegte Aufgaben)" in client.get("/games?lang=de").text
    store.close()
