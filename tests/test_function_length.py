"""No function is longer than 50 lines outside tests (issue #12 for `referee/`, #23 for everything else: the five
packages, the scripts' Python and the benchmarks): a rule, a config table, a start-up step, a route, a drill
reads as one short function. No file in `referee/` is longer than 600 lines (issue #23): a long game is a
package of files by job."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("referee", "hw", "kiosk", "cafe", "hub", "scripts", "benchmarks")  # every folder of Python but tests/
LIMIT = 50
FILE_LIMIT = 600


def test_every_folder_of_python_outside_tests_is_measured() -> None:
    """A new top-level folder of Python joins the measure (or this test names it)."""
    folders = {d.name for d in ROOT.iterdir() if d.is_dir() and not d.name.startswith(".") and any(d.rglob("*.py"))}
    assert folders - {"tests"} == set(PACKAGES)


def long_functions(path: pathlib.Path) -> list[str]:
    """`file:line name (N lines)` for every function or method longer than LIMIT lines, decorators included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = node.end_lineno - first + 1
            if length > LIMIT:
                found.append(f"{path.name}:{node.lineno} {node.name} ({length} lines)")
    return found


@pytest.mark.parametrize("path", sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_function_is_longer_than_50_lines(path: pathlib.Path) -> None:
    assert long_functions(path) == []


def test_the_measure_finds_a_long_function_and_counts_its_decorators(tmp_path: pathlib.Path) -> None:
    """A function of LIMIT + 1 lines (its decorator included) is found; a short one is not."""
    module = tmp_path / "probe.py"
    body = "    x = 1\n" * (LIMIT - 2)  # with the decorator, the def and the return: LIMIT + 1 lines
    module.write_text(f"@staticmethod\ndef long():\n{body}    return x\n\ndef short():\n    return 1\n")
    assert [f.split()[1] for f in long_functions(module)] == ["long"]


def long_file(path: pathlib.Path) -> str | None:
    """`file (N lines)` when the file has more than FILE_LIMIT lines, else None."""
    lines = len(path.read_text(encoding="utf-8").splitlines())
    return f"{path.name} ({lines} lines)" if lines > FILE_LIMIT else None


@pytest.mark.parametrize("path", sorted((ROOT / "referee").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_file_in_referee_is_longer_than_600_lines(path: pathlib.Path) -> None:
    assert long_file(path) is None


def test_the_measure_finds_a_long_file(tmp_path: pathlib.Path) -> None:
    """A file of FILE_LIMIT + 1 lines is found; one of FILE_LIMIT lines is not."""
    long, short = tmp_path / "long.py", tmp_path / "short.py"
    long.write_text("x = 1\n" * (FILE_LIMIT + 1))
    short.write_text("x = 1\n" * FILE_LIMIT)
    assert long_file(long) == f"long.py ({FILE_LIMIT + 1} lines)" and long_file(short) is None
