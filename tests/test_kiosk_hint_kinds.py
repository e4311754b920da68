"""Every kind of `hints()` detail reaches every screen: scans, touches and seat presses in each (issue #22).

The referee answers `hints()` with the game's own detail while play goes on and `FinishedHints` once the
game is over; around that the kiosk has its own moments (a paused game, a resumed one, a race open, a
question pending). A guest may scan, touch and press in any of them: the kiosk answers, it never falls over.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from kiosk import games
from kiosk.app.app import App
from kiosk.eventlog.store import EventLog
from kiosk.games import Choice
from kiosk.settings.settings import Settings
from referee import sim
from referee.hints import FinishedHints
from referee.table import Referee
from tests import kiosk_helpers
from tests.kiosk_helpers import hold, make_app, press, scan, seat_press, settle
from tests.test_kiosk_screens import drive


def test_a_card_scanned_on_the_results_screen_of_magische_7_is_answered_not_a_crash(tmp_path) -> None:
    """The issue's crash: Die magische 7, two players, played to the end, one more card scanned."""
    app = make_app(tmp_path)
    controller = drive(app, "magische-7", steps=None)
    assert controller.finished and len(controller.referee.players) == 2
    last_card = controller.referee.history[-1]["card"]
    scan(app, last_card)
    settle(app)
    assert app.router.screen.name == "table" and app.router.screen.controller is controller
    assert "rematch" in app.loop.view.buttons(), "the results screen still shows"
    assert len(controller.referee.history) == len(app.records.log.events(controller.game_row))


# --- every game through every kind of moment


def moments(game_id: str, seed: int = 3) -> tuple[dict, list[dict], dict[str, int]]:
    """A simulated game (header, events) and, per kind of moment the referee's hints() show in it, the number of
    events after which it first comes: each kind of detail, an open race, each owed kind, each set of events
    that may come; and the end (`FinishedHints`)."""
    table = sim.get(game_id)(random.Random(seed), sim.names(sim.get(game_id).default_players))
    events = list(sim.play(table, Referee(table.header)))
    referee, found = Referee(table.header), {}
    for n, event in enumerate(events):
        hints = referee.hints()
        race = "" if hints.race is None else "race open" if hints.race.open else "race decided"
        owed = ",".join(sorted({f"{o.kind}:{o.what}" for o in hints.owed}))
        found.setdefault(f"{type(hints.detail).__name__} {race} owed[{owed}] may[{','.join(sorted(hints.events))}]",
                         n)
        referee.apply(event)
    assert isinstance(referee.hints().detail, FinishedHints)
    found["finished"] = len(events)
    return table.header, events, found


def fast_app(tmp_path: Path):
    """An app whose log skips the fsync (thousands of events are replayed here; durability is tested elsewhere)."""
    settings = Settings(data_dir=tmp_path, language="en", demo_after_s=0, width=800, height=480)
    app = App(settings, EventLog(settings.log_path, durable=False), headless=True)
    kiosk_helpers.MADE.append(app)
    return app


def table_at(app, header: dict, events: list[dict], n: int):
    """The table screen after the game's first `n` events (a new game in the log each time)."""
    app.router.go_menu()
    app.router.start_game(header["game"], list(header["players"]), header.get("dealer", header["players"][-1]),
                   header.get("options", {}), {})
    controller = app.router.screen.controller
    for event in events[:n]:
        assert controller.submit(event).ok, event
    settle(app)
    return controller


def pending_at(app, header, events, n: int, how: str) -> bool:
    """Raise a question at moment `n` by `how` (`act:…`, a touch that asks; or `scan`, the next card's scan, e.g. a
    card with two numerals); True if one is pending."""
    controller = table_at(app, header, events, n)
    if how == "scan":
        controller.scan(events[n]["card"], events[n].get("player"))
    else:
        press(app, how)
    return getattr(app.router.screen, "controller", None) is controller and controller.pending is not None


def a_question(app, game_id: str, candidates: list[int]) -> tuple[dict, list[dict], int, str]:
    """Some moment of the game where the table screen asks a question: a touch at one of `candidates`, else a
    scan anywhere (with the most players the game allows when fewer never ask, e.g. Die magische 7's opponent)."""
    header, events, _ = moments(game_id)
    for n in candidates:
        table_at(app, header, events, n)
        for how in [a for a in app.loop.view.buttons() if a.startswith("act:")]:
            if pending_at(app, header, events, n, how):
                return header, events, n, how
    for players in (sim.get(game_id).default_players, 4):
        table = sim.get(game_id)(random.Random(3), sim.names(players))
        events = list(sim.play(table, Referee(table.header)))
        controller = table_at(app, table.header, events, 0)
        for n, event in enumerate(events):
            if "card" in event and isinstance(controller.ui.scan(controller.state, event["card"], event["player"]),
                                              Choice):
                return table.header, events, n, "scan"
            controller.submit(event)
    raise AssertionError(f"{game_id}: no moment asks a question")


def inputs_at(app, rebuild, what: str, header: dict, events: list[dict], n: int) -> int:
    """At the moment `rebuild()` makes: scans (the next card, a card played before, another game's card, garbage),
    a touch of every button and a press of each seat button at each seat, each from the moment afresh. Every input
    must be answered without an error (the guard counts any: it must stay 0). Returns how many inputs were fed."""
    rebuild()
    app.loop.draw()
    buttons = sorted(app.loop.view.buttons())
    players = list(header["players"])
    cards = [e["card"] for e in events[n:n + 1] + events[max(0, n - 1):n] if "card" in e]
    other = {"alles-klar": "M7:7#1"}.get(header["game"], "AK:5.I.V#2")
    fed = 0
    for code in [*cards, other, "XYZ-123", ""]:
        rebuild()
        for seat in (players[0], None):
            scan(app, code, reader=seat or "keyboard")
            app.loop.draw()
            fed += 1
            assert app.loop.guard.count == 0, (what, "scan", code)
    for action in buttons:
        rebuild()
        press(app, action)  # (a "lang" touch stays: later moments are walked in the other language)
        settle(app)
        app.loop.draw()
        fed += 1
        assert app.loop.guard.count == 0, (what, "touch", action)
    for seat in players[:2]:
        for button in ("confirm", "slap"):
            rebuild()
            seat_press(app, seat, button)
            app.loop.draw()
            fed += 1
            assert app.loop.guard.count == 0, (what, "seat", seat, button)
    return fed


@pytest.mark.slow
@pytest.mark.parametrize("game_id", games.ids())
def test_every_kind_of_moment_takes_every_input(tmp_path, game_id: str) -> None:
    """Each game through every kind its hints() show (per-game detail, owed, race open, finished), plus the
    kiosk's own moments (a question pending, the game paused, the game resumed): a scan, a touch of every
    button and a seat press there, each answered."""
    app = fast_app(tmp_path)
    app.host.reader_seats = {}
    header, events, found = moments(game_id)
    if game_id == "annaotto":  # a simulated game with an ALLE race open (AO-R15) in it
        header, events, found = next(m for m in (moments(game_id, seed) for seed in range(3, 80))
                                     if any("race open" in what for what in m[2]))
    kinds = set()
    for what, n in found.items():
        inputs_at(app, lambda n=n: table_at(app, header, events, n), what, header, events, n)
        kinds.add(what.split()[0] if what != "finished" else "finished")
    assert "finished" in kinds and len(kinds) >= 2

    middle = len(events) // 2
    q_header, q_events, q_n, how = a_question(app, game_id, sorted(set(found.values()) - {len(events)}))
    inputs_at(app, lambda: pending_at(app, q_header, q_events, q_n, how), f"question pending ({how})", q_header,
              q_events, q_n)

    def paused() -> None:
        table_at(app, header, events, middle)
        press(app, "leave")
        hold(app, "yes:0", 2.5)  # "Menu", held: the game is paused in the log
        assert app.router.screen.name == "menu"

    inputs_at(app, paused, "paused", header, events, middle)

    def resumed() -> None:
        paused()
        row = app.records.log.games()[-1].id
        assert app.records.log.games()[-1].status == "paused"
        app.router.resume_game(row)
        assert app.router.screen.controller.referee.history == events[:middle]

    inputs_at(app, resumed, "resumed", header, events, middle)


class RefereeRuling:
    """The panel's `kiosk.games.Ruling` straight from a referee (what the table controller answers in play)."""

    def __init__(self, referee: Referee):
        self.referee = referee

    @property
    def events(self) -> list[dict]:
        return self.referee.history

    @property
    def hints(self) -> Any:
        return self.referee.hints()

    def check(self, event: dict) -> Any:
        return self.referee.check(event)


@pytest.mark.parametrize("game_id", games.ids())
def test_each_panel_itself_takes_inputs_once_the_game_is_over(game_id: str) -> None:
    """The panels (not only the controller in front of them) handle `FinishedHints`: a scan, each seat button,
    the touches and the drawing of a finished game read nothing a finished game's detail lacks."""
    header, events, _ = moments(game_id)
    referee = Referee(header)
    for event in events:
        referee.apply(event)
    ui = games.get(game_id)(tuple(header["players"]), header.get("options", {}), RefereeRuling(referee))
    state = referee.state()
    assert isinstance(ui.hints.detail, FinishedHints) and ui.detail() is None
    player = header["players"][0]
    for seat in (player, None):
        ui.scan(state, events[-1].get("card", "XYZ"), seat)
    for button in ("confirm", "slap"):
        ui.button(state, player, button, 0)
    for action in ui.actions(state):
        action.make()
    ui.panel(state), ui.race(state), ui.timers(state), ui.result_lines(state), ui.turn_text(state)
