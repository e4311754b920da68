"""The registry of games, by id. A game (a module, or a package for a long one) registers its class with
`@register`."""

from __future__ import annotations

from referee.protocol import Game
from referee.registry import Registry

GAMES: Registry[type[Game]] = Registry(__name__, __path__, "game_id")
register = GAMES.register


def get(game_id: str) -> type[Game]:
    """The game's rules class; KeyError for a game that has none (`GAMES.get` for None instead)."""
    return GAMES[game_id]


def ids() -> list[str]:
    """Every game with rules, in menu order."""
    return GAMES.ids()
