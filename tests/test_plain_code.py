"""The rules core is plain Python (issue #23): no code made at run time, no named tuples built behind their back.

`exec`, `eval` and the built-in `compile` make code a reader cannot find in the tree (the reducer once wrote
one function per event type and compiled it); `tuple.__new__` skips a named tuple's own constructor (ANNAOTTO's
hints once did, for speed). Both are refused anywhere in `referee/`, read from the source's syntax tree.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

REFEREE = pathlib.Path(__file__).resolve().parent.parent / "referee"
BANNED_CALLS = frozenset({"exec", "eval", "compile"})


def unplain(source: str, name: str = "<probe>") -> list[str]:
    """`name:line what` for every use of exec, eval, the built-in compile, and `tuple.__new__`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and node.id in BANNED_CALLS and isinstance(node.ctx, ast.Load):
            found.append(f"{name}:{node.lineno} {node.id}")  # a call, or a name for it (`run = exec`)
        elif (isinstance(node, ast.Attribute) and node.attr == "__new__" and isinstance(node.value, ast.Name)
              and node.value.id == "tuple"):
            found.append(f"{name}:{node.lineno} tuple.__new__")
    return sorted(set(found))


@pytest.mark.parametrize("path", sorted(REFEREE.rglob("*.py")), ids=lambda p: str(p.relative_to(REFEREE)))
def test_no_code_made_at_run_time_and_no_tuple_new_in_referee(path: pathlib.Path) -> None:
    assert unplain(path.read_text(encoding="utf-8"), path.name) == []


def test_the_measure_finds_each_banned_form_and_spares_re_compile() -> None:
    probe = (
        "import re\n"
        "exec('x = 1')\n"
        "y = eval('1')\n"
        "code = compile('1', 'f', 'eval')\n"
        "run = exec\n"
        "new = tuple.__new__\n"
        "pattern = re.compile('a')\n"
        "class T(tuple):\n"
        "    def __new__(cls):\n"
        "        return super().__new__(cls)\n"
    )
    assert unplain(probe) == ["<probe>:2 exec", "<probe>:3 eval", "<probe>:4 compile", "<probe>:5 exec",
                              "<probe>:6 tuple.__new__"]
