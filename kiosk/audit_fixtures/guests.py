"""Audit scenes of the guests' and staff's screens: help pages, the guarded leave question, staff questions,
results with ties, the history with rejected attempts and a paused game, earlier games, the PIN lockout and
PIN change, the scanner and button test screens."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from hw.inputs import ButtonPress, CardScan, ReaderNews
from kiosk import games
from kiosk.app.controller import TableController
from kiosk.app.host import KioskHost
from kiosk.audit_fixtures.table import NAMES, played, show
from kiosk.drawing.audit import scene
from kiosk.eventlog.store import EventLog
from kiosk.games import help_texts
from kiosk.screens.admin import AdminScreen
from kiosk.screens.confirm import leave_question
from kiosk.screens.devices import ButtonTestScreen, ScannerTestScreen
from kiosk.screens.help import HelpScreen
from kiosk.screens.history import GamesScreen, HistoryScreen
from kiosk.screens.menu import MenuScreen
from kiosk.screens.setup import SetupScreen
from kiosk.settings.pin import PinGuard
from referee.table import Referee

for _game in games.ids():
    for _page in range(len(help_texts.pages(_game)) + 1):  # one more: a page split to fit shows a sheet more
        def _help(app: KioskHost, game_id: str = _game, page: int = _page) -> None:
            screen = HelpScreen(app, SetupScreen(app, game_id), game_id)
            screen.page = page
            app.show(screen)

        scene(f"help:{_game}:{_page + 1}")(_help)


@scene("leave:question")
def leave(app: KioskHost) -> None:
    table = show(app, played("alles-klar", 6))
    question = leave_question(app, table, table.controller)
    app.show(question)
    question.on_input(ButtonPress("Ben", "confirm", 0))
    question.message = "Halte den Knopf 2 Sekunden lang gedrückt."


@scene("admin:undo-question")
def undo_question(app: KioskHost) -> None:
    table = show(app, played("annaotto", 9))
    admin = AdminScreen(app, table)
    admin.mode = "menu"
    admin._ask(admin.items()[0][0])


@scene("results:tie")
def results_tie(app: KioskHost) -> None:
    controller = played("alles-klar", None, count=5)
    scores = dict.fromkeys(controller.referee.players, 9)
    scores[NAMES[4]] = 3
    controller._state = {**controller.state, "scores": scores}
    show(app, controller)


def _logged_game(app: KioskHost) -> tuple[EventLog, int, TableController]:
    """A game in an in-memory log (the audit's app has none): some events, a rejected double scan."""
    log = EventLog(":memory:")
    app.records.log = log
    header = {"format": "tabletop-referee/1", "game": "alles-klar", "players": NAMES[:3]}
    row = log.new_game(header)
    controller = TableController(Referee(header), log, row)
    for code in ["AK:8.II", "AK:8.II", "AK:3.I", "AK:11.IV", "AK:12", "AK:5.V", "AK:6.I", "AK:9.III", "AK:1.II"]:
        controller.submit({"type": "play", "player": controller.state["turn"], "card": code})
    return log, row, controller


@scene("history:rejected")
def history_rejected(app: KioskHost) -> None:
    _log, row, controller = _logged_game(app)
    table = show(app, controller)
    screen = HistoryScreen(app, table, row, controller)
    screen.first = 0
    app.show(screen)


@scene("history:paused")
def history_paused(app: KioskHost) -> None:
    _log, row, controller = _logged_game(app)
    controller.pause()
    app.show(HistoryScreen(app, MenuScreen(app), row))


@scene("games")
def games_list(app: KioskHost) -> None:
    log, _row, controller = _logged_game(app)
    controller.pause()
    header = {"format": "tabletop-referee/1", "game": "magische-7", "players": NAMES[:2]}
    log.set_status(log.new_game(header), "abandoned")
    app.show(GamesScreen(app, MenuScreen(app)))


@scene("admin:locked")
def admin_locked(app: KioskHost) -> None:
    pins = PinGuard(Path(tempfile.mkdtemp()), app.pins.config_hash, clock=lambda: 1000.0)
    for _ in range(5):
        pins.attempt("0000")
    app.pins = pins
    app.show(AdminScreen(app, MenuScreen(app)))


@scene("admin:new-pin")
def admin_new_pin(app: KioskHost) -> None:
    app.pins = PinGuard(Path(tempfile.mkdtemp()), app.pins.config_hash)
    admin = AdminScreen(app, MenuScreen(app))
    admin.mode, admin.entered, admin.message = "new", "24", "Eine PIN hat 4 bis 8 Ziffern."
    app.show(admin)


@scene("scanner-test")
def scanner_test(app: KioskHost) -> None:
    app.reader_seats = {"scanner-1": NAMES[0], "scanner-2": NAMES[1], "scanner-3": NAMES[2]}
    screen = ScannerTestScreen(app, MenuScreen(app))
    screen.on_input(CardScan("AO:GREEN.WAVES.ANNA#1", "scanner-1", 0))
    screen.on_input(ReaderNews("scanner-3", "disconnected", "", 0))
    app.show(screen)


@scene("button-test")
def button_test(app: KioskHost) -> None:
    app.seats = NAMES[:4]
    screen = ButtonTestScreen(app, MenuScreen(app))
    screen.on_input(ButtonPress(NAMES[1], "slap", 0))
    screen.lit[(NAMES[1], "slap")] = time.monotonic() + 60
    app.show(screen)


@scene("history:profi-sort")
def history_profi_sort(app: KioskHost) -> None:
    """Long lines: a Profi-Sort game's laid tasks and extensions."""
    from kiosk.audit_fixtures.table import played as play

    controller = play("profi-sort", 60)
    log = EventLog(":memory:")
    app.records.log = log
    row = log.new_game(controller.referee.header)
    logged = TableController(Referee(controller.referee.header), log, row)
    for event in controller.referee.history:
        logged.submit(dict(event))
    screen = HistoryScreen(app, MenuScreen(app), row)
    app.show(screen)
    screen.view(app.settings.width, app.settings.height)
    lay = next((i for i, e in enumerate(controller.referee.history) if e.get("type") in ("lay_task", "extend")), 0)
    screen.first = max(0, lay - 1)


@scene("leave:most-players")
def leave_crowded(app: KioskHost) -> None:
    """The leave question naming six players with 12-character names."""
    from kiosk.audit_fixtures.screens import LONG_NAMES

    c = TableController.new_game(None, "annaotto", LONG_NAMES, LONG_NAMES[-1])
    table = show(app, c)
    question = leave_question(app, table, c)
    app.show(question)
    question.on_input(ButtonPress(LONG_NAMES[1], "confirm", 0))
    question.message = "Halte den Knopf 2 Sekunden lang gedrückt."


@scene("admin:wrong-pin")
def admin_wrong_pin(app: KioskHost) -> None:
    app.pins = PinGuard(Path(tempfile.mkdtemp()), app.pins.config_hash)
    admin = AdminScreen(app, MenuScreen(app))
    app.show(admin)
    for key in "0000":
        admin.on_action(f"key:{key}")
    admin.on_action("key:OK")


@scene("admin:message")
def admin_message(app: KioskHost) -> None:
    """The admin menu with a long answer under it (the export's folder)."""
    admin = AdminScreen(app, MenuScreen(app))
    admin.mode = "menu"
    from kiosk.i18n import trn

    admin.message = trn("Exported {n} game to the USB stick {stick}, folder {folder}",
                        "Exported {n} games to the USB stick {stick}, folder {folder}", 12,
                        stick="/media/pi/USB-STICK", folder="tabletop-referee-tisch-12-20261126-010203")
    app.show(admin)
