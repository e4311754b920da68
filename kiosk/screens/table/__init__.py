"""The table screen (`screen`) and its parts: the seat tiles, the verdict panel, the ALLE race, the layout."""

from kiosk.screens.table.screen import RACE_RESULT_S, VERDICT_S, TableScreen

__all__ = ["RACE_RESULT_S", "VERDICT_S", "TableScreen"]
