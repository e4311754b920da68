"""Each game's short rules for guests, as the game declares them (`GameDefinition.help` in its deck module).

The pages are English msgids of the shared catalogue; the help screen translates them when it draws.
"""

from __future__ import annotations

from referee.registry import DEFINITIONS, HelpPage


def pages(game_id: str) -> tuple[HelpPage, ...]:
    return DEFINITIONS[game_id].help
