"""What the admin menu's entries do, once confirmed: undo and abandon (saying what they affected), export,
language, demo mode, restart and shut down. The admin screen asks the questions; this runs the answers."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from kiosk import i18n
from kiosk.app.commands import EXIT_RESTART, EXIT_SHUTDOWN, AdminCommand
from kiosk.eventlog import export as exporting
from kiosk.games.event_words import describe
from kiosk.screens import Host, Screen
from kiosk.screens.history import GamesScreen, HistoryScreen
from kiosk.screens.menu import MenuScreen
from kiosk.screens.table import TableScreen

logger = logging.getLogger(__name__)


class StaffHost(Host, Protocol):
    """What the admin entries ask of the kiosk beyond a screen's host (the App implements it; this module never
    imports the app, which imports it)."""

    table_name: str  # the config's table name (the CSV export)
    mounts: Path  # where Export looks for a USB stick …
    usb_roots: tuple[str, ...]  # … mounted below one of these

    def abandon_game(self, game_row: int) -> None: ...

    def stop(self, code: int) -> None: ...


def run(app: StaffHost, command: AdminCommand, back: Screen) -> str | None:
    """Run one admin entry for the screen the admin menu was opened over; returns a sentence to show."""
    table = back if isinstance(back, TableScreen) else None
    if command is AdminCommand.UNDO and table is not None:
        return undo(app, table)
    if command is AdminCommand.ABANDON and table is not None:
        table.controller.abandon()
        app.go_menu()
        return None
    if command is AdminCommand.ABANDON and isinstance(back, HistoryScreen) and back.game_row is not None:
        app.abandon_game(back.game_row)  # a paused game, from its history
        app.show(GamesScreen(app, MenuScreen(app)))
        return None
    if command is AdminCommand.EXPORT:
        return export_all(app)
    if command is AdminCommand.LANGUAGE:
        app.toggle_language()
        return None
    if command is AdminCommand.DEMO:
        app.settings.demo_after_s = 0 if app.settings.demo_after_s else 120.0
        return i18n.tr("Demo mode off") if not app.settings.demo_after_s else i18n.tr("Demo mode on")
    if command is AdminCommand.RESTART:
        app.stop(EXIT_RESTART)  # systemd's Restart=always starts a fresh process
    elif command is AdminCommand.SHUTDOWN:
        app.stop(EXIT_SHUTDOWN)
    elif command is AdminCommand.QUIT and not app.kiosk_mode:
        app.stop(0)
    return None


def undo(app: StaffHost, table: TableScreen) -> str:
    """Take back the last event; the table's verdict panel then says what was taken back."""
    history = table.controller.referee.history
    what = describe(history[-1], table.controller.ui.face) if history else ""
    fb = table.controller.undo()
    app.show(table)
    if not fb.ok:
        return fb.text(app.lang)
    said = i18n.tr("Taken back: {event}", event=what)
    table.controller.feedback = replace(fb, note=said)
    return said


def export_all(app: StaffHost) -> str:
    """CSV, transcripts and a backup to a USB stick when one is mounted, else into the data directory."""
    if app.log is None:
        return i18n.tr("Nothing to export: no event log.")
    try:
        folder, on_stick = exporting.export_everything(app.log, app.settings.data_dir, app.table_name, app.mounts,
                                                       app.usb_roots)
    except exporting.ExportRefused as refused:
        logger.warning("export refused: %s is there already", refused.folder)
        return i18n.tr("Not exported: a folder or file named {folder} is there already. Nothing was written.",
                       folder=refused.folder)
    games = len(app.log.games())
    logger.info("exported %d games to %s", games, folder)
    if on_stick:
        return i18n.trn("Exported {n} game to the USB stick {stick}, folder {folder}",
                        "Exported {n} games to the USB stick {stick}, folder {folder}", games,
                        stick=folder.parent, folder=folder.name)
    return i18n.trn("No USB stick found. Exported {n} game into the data directory, folder exports/{folder}",
                    "No USB stick found. Exported {n} games into the data directory, folder exports/{folder}",
                    games, folder=folder.name)
