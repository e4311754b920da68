"""The registry of games, by id. A game (a module, or a package for a long one) registers its class with
`@register`."""

from __future__ import annotations

from referee.protocol import Game
from referee.registry import Registry

GAMES: Registry[type[Game]] = Registry(__name__, __path__, "id")
register = GAMES.register


def get(game_id: str) -> type[Game] | None:
    return GAMES.get(game_id)


def all_games() -> dict[str, type[Game]]:
    """Every registered game, in the order of the transcript format's list."""
    return {game_id: GAMES[game_id] for game_id in GAMES.ids()}
