"""The registry of games, by id. A game module registers itself with `@register`.

Every module in this package is imported once on first use, so adding a game is
adding a module; nothing else names the games.
"""

from __future__ import annotations

import importlib
import pkgutil

from referee.protocol import Game

_GAMES: dict[str, type[Game]] = {}
_loaded = False


def register(cls: type[Game]) -> type[Game]:
    if cls.id in _GAMES and _GAMES[cls.id] is not cls:
        raise ValueError(f"game {cls.id!r} registered twice")
    _GAMES[cls.id] = cls
    return cls


def _load() -> None:
    global _loaded
    if not _loaded:
        for module in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{module.name}")
        _loaded = True


def get(game_id: str) -> type[Game] | None:
    _load()
    return _GAMES.get(game_id)


def all_games() -> dict[str, type[Game]]:
    """Every registered game, in the order of the transcript format's list."""
    _load()
    order = ["alles-klar", "alcasan", "profi-sort", "magische-7", "annaotto"]
    return dict(sorted(_GAMES.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99))
