"""A table left alone: after `[kiosk] idle_pause_s` without a touch or a seat input, a game in progress is
paused (it stays in the log) and the menu shows for the next group, saying which game was paused and offering
to resume it (`kiosk/screens/menu.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.screens import Screen
from kiosk.screens.table import TableScreen

DEPTH = 8  # screens stacked over a table (help over history over a question …) never go deeper


@dataclass(frozen=True)
class Left:
    """A table found left alone: the log row of its game (paused now, unless it had ended)."""

    game_row: int


def game_on_screen(screen: Screen | None) -> TableScreen | None:
    """The table screen of a logged game under `screen` (itself, or behind help, history, a question …)."""
    for _ in range(DEPTH):
        if isinstance(screen, TableScreen):
            return screen if screen.controller.game_row is not None else None
        screen = getattr(screen, "back", None)
    return None


def deadline(screen: Screen, idle_s: float, last_activity: float) -> float | None:
    """When the table counts as left alone (monotonic), or None when no logged game is on screen."""
    if not idle_s or game_on_screen(screen) is None:
        return None
    return last_activity + idle_s


def pause_if_left(screen: Screen, idle_s: float, last_activity: float, now: float) -> Left | None:
    """Pause the game under `screen` once it is left alone; then the menu should show (None: not yet)."""
    due = deadline(screen, idle_s, last_activity)
    table = game_on_screen(screen)
    if due is None or now < due or table is None:
        return None
    row = table.controller.game_row
    if row is None:  # (`game_on_screen` finds logged games only)
        return None
    table.controller.pause()  # a finished game stays finished
    return Left(row)
