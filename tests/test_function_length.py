"""No function in `referee/` is longer than 50 lines (issue #12): a rule reads as one short function."""

from __future__ import annotations

import ast
import pathlib

import pytest

REFEREE = pathlib.Path(__file__).resolve().parent.parent / "referee"
LIMIT = 50


def long_functions(path: pathlib.Path) -> list[str]:
    """`file:line name (N lines)` for every function or method longer than LIMIT lines, decorators included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = node.end_lineno - first + 1
            if length > LIMIT:
                found.append(f"{path.relative_to(REFEREE.parent)}:{node.lineno} {node.name} ({length} lines)")
    return found


@pytest.mark.parametrize("path", sorted(REFEREE.rglob("*.py")), ids=lambda p: str(p.relative_to(REFEREE)))
def test_no_function_in_referee_is_longer_than_50_lines(path: pathlib.Path) -> None:
    assert long_functions(path) == []


def test_the_measure_counts_a_long_function() -> None:
    source = "def f():\n" + "    x = 1\n" * LIMIT
    tree = ast.parse(source)
    node = tree.body[0]
    assert node.end_lineno - node.lineno + 1 == LIMIT + 1
