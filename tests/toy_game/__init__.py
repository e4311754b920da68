"""Higher, the test suite's toy game: a whole game (rules, deck and definition, simulator, table screen,
catalogue entries) that `docs/adding-a-game.md` walks through. `registered()` adds it to every registry
for the length of a test, the way a game of the project registers itself on import.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from kiosk.games import UIS
from referee import words
from referee.games import GAMES
from referee.registry import DEFINITIONS
from referee.sim import SIMS
from tests.toy_game.deck import DEFINITION, GAME_ID
from tests.toy_game.rules import Higher
from tests.toy_game.sim import HigherTable
from tests.toy_game.ui import HigherUI

HERE = Path(__file__).resolve().parent

__all__ = ["GAME_ID", "registered"]


def compile_catalogue(into: Path) -> Path:
    """Higher's .po files compiled to `into/<lang>/LC_MESSAGES/<domain>.mo` (the project's i18n.sh does this)."""
    for po in HERE.glob("locale/*/LC_MESSAGES/*.po"):
        lang = po.parent.parent.name
        target = into / lang / "LC_MESSAGES" / f"{po.stem}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as source, target.open("wb") as out:
            write_mo(out, read_po(source, locale=lang))
    return into


@contextmanager
def registered(catalogue_dir: Path) -> Iterator[str]:
    """Higher in every registry (definition, rules, simulator, table screen) and its words in the catalogue."""
    folder = compile_catalogue(catalogue_dir)
    DEFINITIONS.register(DEFINITION)
    GAMES.register(Higher)
    SIMS.register(HigherTable)
    UIS.register(HigherUI)
    words.add_catalogue(folder)
    try:
        yield GAME_ID
    finally:
        words.remove_catalogue(folder)
        for registry in (UIS, SIMS, GAMES, DEFINITIONS):
            registry.unregister(GAME_ID)
