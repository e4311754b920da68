"""The end screen ranks the players with their scores (ties share a place), a podium for three, Nochmal and Menü."""

from __future__ import annotations

from kiosk.games.ranking import FEWER_WINS, MORE_WINS, PLACES, TASKS, rank
from kiosk.screens.results import ranking
from kiosk.screens.table import TableScreen
from tests.kiosk_helpers import make_app, press
from tests.test_kiosk_screens import drive

PLAYERS = ["Anna", "Ben", "Cem", "Dana", "Eva"]


def places(game_id, scores, options=None, players=PLAYERS):
    return [(p.player, p.place, p.score) for p in rank(game_id, options or {}, players, {"scores": scores})]


def test_points_more_wins_with_ties_sharing_a_place() -> None:
    ranked = places("alles-klar", {"Anna": 5, "Ben": 12, "Cem": 12, "Dana": 0, "Eva": 5})
    assert ranked == [("Ben", 1, 12), ("Cem", 1, 12), ("Anna", 3, 5), ("Eva", 3, 5), ("Dana", 5, 0)]


def test_penalty_points_fewer_wins() -> None:
    ranked = places("profi-sort", {"Anna": 40, "Ben": 15, "Cem": 15}, players=["Anna", "Ben", "Cem"])
    assert ranked == [("Ben", 1, 15), ("Cem", 1, 15), ("Anna", 3, 40)]
    assert rank("profi-sort", {}, ["A"], {"scores": {"A": 1}})[0].kind == FEWER_WINS


def test_finishing_places_with_the_one_left_last() -> None:
    ranked = places("annaotto", {"Anna": 2, "Ben": 0, "Cem": 1}, players=["Anna", "Ben", "Cem"])
    assert ranked == [("Cem", 1, 1), ("Anna", 2, 2), ("Ben", 3, 0)]
    assert rank("alcasan", {}, ["A"], {"scores": {"A": 1}})[0].kind == PLACES


def test_the_beginner_game_ranks_by_tasks_done() -> None:
    state = {"scores": {"A": 0, "B": 0}, "tasks_done": {"A": ["five-pairs"], "B": ["five-pairs", "run8"]}}
    ranked = rank("profi-sort", {"first_to": 2}, ["A", "B"], state)
    assert [(p.player, p.place, p.score, p.kind) for p in ranked] == [("B", 1, 2, TASKS), ("A", 2, 1, TASKS)]
    assert rank("magische-7", {}, ["A"], {"scores": {"A": 1}})[0].kind == MORE_WINS


def test_the_end_screen_ranks_podiums_and_plays_again_with_the_same_seats(tmp_path) -> None:
    app = make_app(tmp_path)
    controller = drive(app, "alles-klar", steps=None)
    controller.seat_players = {"s1": controller.referee.players[0]}
    scores = controller.state["scores"]
    view = app.loop.view
    podium = [e for e in view.elements if e.tag.startswith("rank:")]
    shown = [e.tag.split(":", 1)[1] for e in podium]
    assert shown == sorted(shown, key=lambda p: -scores[p]), "best first"
    assert view.tagged("podium:1")
    winner = shown[0]
    assert view.tagged(f"points:{winner}")[0].text == str(scores[winner])
    assert view.tagged(f"points:{winner}")[0].role == "key", "scores at the key size"
    assert view.tagged(f"unit:{winner}")[0].text == "cards won", "the table's word for the number (issue #37)"
    assert view.tagged("winners")[0].text == f"{winner} wins!" and view.tagged("confetti"), "the winner's moment"
    assert {"rematch", "menu", "history"} <= set(app.loop.view.buttons())
    press(app, "rematch")
    assert isinstance(app.router.screen, TableScreen) and not app.router.screen.controller.finished
    assert app.router.screen.controller.referee.players == controller.referee.players
    assert app.router.screen.controller.seat_players == {"s1": controller.referee.players[0]}
    assert app.router.screen.controller.game_row != controller.game_row


def test_menu_from_the_end_screen(tmp_path) -> None:
    app = make_app(tmp_path)
    controller = drive(app, "magische-7", steps=None)
    press(app, "menu")
    assert app.router.screen.name == "menu"
    assert next(g.status for g in app.records.log.games() if g.id == controller.game_row) == "finished"


def test_every_tied_player_is_on_the_podium_in_portrait_too(tmp_path) -> None:
    from kiosk.screens.results import results_view

    app = make_app(tmp_path, size=(720, 1280))
    controller = drive(app, "alles-klar", steps=None)
    controller._state = {**controller.state, "scores": dict.fromkeys(controller.referee.players, 7)}
    view = results_view(controller, 720, 1280)
    assert len(view.tagged("podium:1")) == len(controller.referee.players)
    assert {e.tag for e in view.tagged("points")} == {f"points:{p}" for p in controller.referee.players}


def test_a_place_is_said_once_and_the_units_are_the_tables_in_every_orientation() -> None:
    """Issue #37: ANNAOTTO's 4th place read "4. Spieler 4 … 4."; portrait lost the unit; Alles klar?'s results said
    "points" where its table says "cards won", Profi-Sort's table "points" where its results count penalty points."""
    from kiosk.audit_fixtures.table import played
    from kiosk.screens.results import results_view

    annaotto = played("annaotto", None, count=4)
    assert annaotto.finished
    for size in ((800, 480), (720, 1280)):
        view = results_view(annaotto, *size)
        fourth = next(p for p in annaotto.referee.players if annaotto.state["scores"][p] in (0, 4))
        assert view.tagged(f"rank:{fourth}")[0].text == fourth and view.tagged(f"points:{fourth}")[0].text == "4."
        units = [e for e in view.elements if e.tag.startswith("unit:")]
        assert len(units) >= 3 and all(e.text for e in units), "every podium tile says what its number counts"
    for game_id in ("alles-klar", "magische-7", "profi-sort"):
        controller = played(game_id, None)
        for size in ((800, 480), (720, 1280)):
            view = results_view(controller, *size)
            units = {e.text for e in view.elements if e.tag.startswith("unit:")}
            scores = {p.score for p in ranking(controller)}
            agreeing = {controller.ui.unit(n) for n in scores}  # each in its number's form
            assert units and units <= agreeing, (game_id, units)
