"""Audit scenes of the screens around the table: menu, set-up, keyboard, history, admin."""

from __future__ import annotations

from kiosk import games
from kiosk.app.host import KioskHost
from kiosk.audit_fixtures.table import played, show
from kiosk.drawing.audit import scene
from kiosk.screens.admin import AdminScreen
from kiosk.screens.history import HistoryScreen
from kiosk.screens.keyboard import KeyboardScreen
from kiosk.screens.menu import MenuScreen
from kiosk.screens.setup import SetupScreen
from referee.registry import DEFINITIONS


@scene("menu")
def menu(app: KioskHost) -> None:
    app.scanners_down.clear()  # an earlier scene may have left a scanner unplugged
    app.show(MenuScreen(app))


LONG_NAMES = ["Annabelle-Jo", "Benediktus", "Cleopatra-Li", "Dominikus", "Emilia-Sofia", "Friederike"]  # 12 chars


for _game in games.ids():
    def _setup(app: KioskHost, game_id: str = _game) -> None:
        app.show(SetupScreen(app, game_id))

    def _crowded(app: KioskHost, game_id: str = _game) -> None:
        """The most players the game allows, with 12-character names, some seats claimed."""
        screen = SetupScreen(app, game_id)
        screen.count = max(screen.cls.player_counts)
        screen.names[: screen.count] = LONG_NAMES[: screen.count]
        screen.claimed = {"north": 0, "south": screen.count - 1}
        app.show(screen)

    scene(f"setup:{_game}")(_setup)
    scene(f"setup:{_game}:most-players")(_crowded)
    for _setting in DEFINITIONS[_game].options:  # every option at every value (on and off)
        for _index in range(len(_setting.values)):
            def _option(app: KioskHost, game_id: str = _game, option: str = _setting.option,
                        index: int = _index) -> None:
                screen = SetupScreen(app, game_id)
                screen.picked[option] = index
                app.show(screen)

            scene(f"setup:{_game}:{_setting.option}={_index + 1}")(_option)


@scene("setup:error")
def setup_error(app: KioskHost) -> None:
    screen = SetupScreen(app, "annaotto")
    screen.count = 6
    screen.names[:6] = LONG_NAMES
    screen.rename(1, LONG_NAMES[0])  # a name twice: the error line
    app.show(screen)


@scene("keyboard")
def keyboard(app: KioskHost) -> None:
    setup = SetupScreen(app, "alles-klar")
    app.show(KeyboardScreen(app, setup, "Name", "Annabelle", lambda text: None))


@scene("history")
def history(app: KioskHost) -> None:
    table = show(app, played("alcasan", 12))
    app.show(HistoryScreen(app, table, None, table.controller))


@scene("admin:pin")
def admin_pin(app: KioskHost) -> None:
    app.show(AdminScreen(app, MenuScreen(app)))


@scene("admin:menu")
def admin_menu(app: KioskHost) -> None:
    screen = AdminScreen(app, MenuScreen(app))
    screen.mode = "menu"
    app.show(screen)


def _paused_game(app: KioskHost, count: int = 6) -> int:
    """A logged ANNAOTTO game of `count` players with long names, paused as the idle pause leaves it."""
    from kiosk.app.controller import TableController
    from kiosk.eventlog.store import EventLog

    log = EventLog(":memory:")
    app.records.log = log
    names = ["Annabelle-Jo", "Benediktus", "Cleopatra-Li", "Dominikus", "Emilia-Sofia", "Friederike"][:count]
    controller = TableController.new_game(log, "annaotto", names, names[-1])
    controller.pause()
    if controller.game_row is None:
        raise RuntimeError("the paused game has no log row")
    return controller.game_row


@scene("menu:paused")
def menu_paused(app: KioskHost) -> None:
    app.scanners_down.clear()
    app.show(MenuScreen(app, paused=_paused_game(app)))


@scene("menu:unplugged")
def menu_unplugged(app: KioskHost) -> None:
    from hw.camera.zones import READER as CAMERA

    app.scanners_down.clear()
    app.scanners_down.update({"/dev/ttyACM1": "north", "/dev/ttyACM2": "south", CAMERA: None})
    app.show(MenuScreen(app))


@scene("menu:paused-unplugged")
def menu_paused_unplugged(app: KioskHost) -> None:
    app.scanners_down.clear()
    app.scanners_down["/dev/ttyACM1"] = "north"
    app.show(MenuScreen(app, paused=_paused_game(app)))
