"""A registry of classes by id, filled by the modules of one package on first use.

The games, their simulated tables and their kiosk screens each register here by
game id, so adding a game is adding modules; nothing else names the games. A
module that fails to import raises: it never silently drops a game.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Generic, TypeVar

# The transcript format's list of games, in its order (menus and listings follow it).
GAME_IDS = ("alles-klar", "alcasan", "profi-sort", "magische-7", "annaotto")

T = TypeVar("T")


class Registry(Generic[T]):
    def __init__(self, package: str, path: list[str], key: str):
        self.package = package
        self.path = path
        self.key = key
        self._items: dict[str, T] = {}
        self._loaded = False

    def register(self, cls: T) -> T:
        ident = getattr(cls, self.key)
        if self._items.get(ident, cls) is not cls:
            raise ValueError(f"{ident!r} registered twice in {self.package}")
        self._items[ident] = cls
        return cls

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            for module in pkgutil.iter_modules(self.path):
                importlib.import_module(f"{self.package}.{module.name}")

    def get(self, ident: str) -> T | None:
        self._load()
        return self._items.get(ident)

    def __getitem__(self, ident: str) -> T:
        self._load()
        return self._items[ident]

    def ids(self) -> list[str]:
        """Every registered id, in the transcript format's order of games."""
        self._load()
        rank = {g: i for i, g in enumerate(GAME_IDS)}
        return sorted(self._items, key=lambda g: (rank.get(g, len(rank)), g))
