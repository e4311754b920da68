"""Every rule of a rules file that governs play has exactly one home in its game's code (issue #12).

A home is a function marked `@rule("AK-R7")` (a check or effect, or a helper they call; one used by several
event types is one home): the one way to mark a home (docs/decisions.md C14). The ids come from the rules files
themselves (`../shared/rules/<game>.md`); an id that is not code is listed below with the reason.
"""

from __future__ import annotations

import importlib
import inspect
import pathlib
import pkgutil
import re
import sys
from collections import Counter
from types import ModuleType
from typing import Any

import pytest

from referee import games, registry
from referee.registry import DEFINITIONS
from referee.rules import rule_ids

RULES = pathlib.Path(__file__).resolve().parent.parent.parent / "shared" / "rules"


def game_modules(game_id: str) -> list[str]:
    """The modules holding a game's code: its class's module, and its siblings named after it
    (such as `profi_sort_tasks`) or beside it in the game's own package."""
    base = games.get(game_id).__module__
    if base.count(".") > 2:  # referee.games.<game>.<part>: the whole package
        base = base.rsplit(".", 1)[0]
    return sorted(name for name in sys.modules if name == base or name.startswith((base + ".", base + "_")))


# game id → (rules file, its prefix, the modules holding its code), from each game's definition
GAMES: dict[str, tuple[str, str, list[str]]] = {
    game_id: (DEFINITIONS[game_id].rules, DEFINITIONS[game_id].prefix, game_modules(game_id))
    for game_id in registry.ids()
}

# Rule ids that are not code, and why.
NOT_CODE: dict[str, str] = {
    "AO-R15": "a pointer to section 4.1, whose rules AO-R15a … AO-R15e are each homed",
    "AC-R7": "the obligation to play is not enforced (AC-D8): the referee cannot see a hand",
    "AC-R19": "game over: the reducer's check (shape_first = False)",
    "PS-R1": "2 or 3 players: the header's player count (`player_counts`)",
    "PS-R21": "a joker stays on the table: there is no event that could take it",
    "PS-R34": "game over: the reducer's check",
    "PS-R35": "restates PS-R11",
    "PS-R36": "nothing forbids going out in the first turn: no check",
    "PS-R37": "restates PS-R5",
}


def spec_ids(game_id: str, kind: str = "R") -> set[str]:
    name, prefix, _ = GAMES[game_id]
    text = (RULES / name).read_text(encoding="utf-8")
    return set(re.findall(rf"\b{prefix}-{kind}\d+[a-z]?\b", text))


def _functions(module: ModuleType) -> list[Any]:
    """Every function of the module, at the top and in its classes (methods, class- and static methods)."""
    found = []
    for obj in vars(module).values():
        if inspect.isfunction(obj) and obj.__module__ == module.__name__:
            found.append(obj)
        elif inspect.isclass(obj) and obj.__module__ == module.__name__:
            for member in vars(obj).values():
                member = getattr(member, "__func__", member)
                if inspect.isfunction(member):
                    found.append(member)
    return found


def modules(names: list[str]) -> list[ModuleType]:
    """The named modules, and for a package every module in it."""
    found = []
    for name in names:
        module = importlib.import_module(name)
        found.append(module)
        if hasattr(module, "__path__"):
            found += [importlib.import_module(info.name)
                      for info in pkgutil.walk_packages(module.__path__, f"{name}.")]
    return found


def homes(game_id: str) -> Counter[str]:
    """How many distinct homes each rule id has in the game's modules."""
    steps: dict[int, Any] = {}
    for module in modules(GAMES[game_id][2]):
        for fn in _functions(module):
            steps[id(fn)] = fn
    return Counter(i for step in steps.values() for i in rule_ids(step))


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_step_of_a_rules_table_is_a_function(game_id: str) -> None:
    """No other way to mark a home (such as a `(rule_id, function)` pair) hides in a table."""
    for kind, on in games.get(game_id).rules.items():
        assert all(callable(step) and not isinstance(step, tuple) for step in (*on.checks, *on.effects)), kind


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_rule_that_governs_play_has_exactly_one_home(game_id: str) -> None:
    counted = homes(game_id)
    rules = spec_ids(game_id)
    assert {i: counted[i] for i in sorted(rules - NOT_CODE.keys()) if counted[i] != 1} == {}
    prefix = GAMES[game_id][1]
    assert not {i for i in NOT_CODE if i.startswith(prefix + "-")} - rules, "a listed id is not in the rules file"
    assert {i for i in counted if i in NOT_CODE} == set(), "an id listed as not code has a home"


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_id_in_the_code_is_one_of_its_rules_file(game_id: str) -> None:
    known = spec_ids(game_id) | spec_ids(game_id, "D") | spec_ids(game_id, "I")
    assert set(homes(game_id)) - known == set()


def test_a_missing_or_doubled_home_is_counted() -> None:
    from referee.games.alles_klar import AllesKlar

    counted = homes("alles-klar")
    assert counted["AK-R8"] == 1 and AllesKlar.won_trick.rule_ids == ("AK-R8",)
    assert counted["AK-R99"] == 0
