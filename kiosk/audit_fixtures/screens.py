"""Audit scenes of the screens around the table: menu, set-up, keyboard, history, admin."""

from __future__ import annotations

from kiosk import games
from kiosk.audit_fixtures.table import played, show
from kiosk.drawing.audit import scene
from kiosk.screens.admin import AdminScreen
from kiosk.screens.history import HistoryScreen
from kiosk.screens.keyboard import KeyboardScreen
from kiosk.screens.menu import MenuScreen
from kiosk.screens.setup import SetupScreen


@scene("menu")
def menu(app) -> None:
    app.show(MenuScreen(app))


for _game in games.available():
    def _setup(app, game_id: str = _game) -> None:
        app.show(SetupScreen(app, game_id))

    scene(f"setup:{_game}")(_setup)


@scene("keyboard")
def keyboard(app) -> None:
    setup = SetupScreen(app, "alles-klar")
    app.show(KeyboardScreen(app, setup, "Name", "Annabelle", lambda text: None))


@scene("history")
def history(app) -> None:
    table = show(app, played("alcasan", 12))
    app.show(HistoryScreen(app, table, None, table.controller))


@scene("admin:pin")
def admin_pin(app) -> None:
    app.show(AdminScreen(app, MenuScreen(app)))


@scene("admin:menu")
def admin_menu(app) -> None:
    screen = AdminScreen(app, MenuScreen(app))
    screen.mode = "menu"
    app.show(screen)
