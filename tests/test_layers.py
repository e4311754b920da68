"""The layers of DESIGN.md's package table, in one place: who must not import whom, and no import cycles.

Read from the source with `ast` (nothing is imported), so every import counts: at the top, inside a
function, and type-only ones under `if TYPE_CHECKING:` alike — a type-only import upwards is still a
layer that knows the one above it, and a type-only import back is still a cycle a reader has to untangle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("referee", "hw", "kiosk", "cafe", "hub")

# DESIGN.md, "Packages": package → the top-level names it must not import (pyserial is the `serial` module).
MUST_NOT_IMPORT: dict[str, tuple[str, ...]] = {
    "referee": ("hw", "kiosk", "pygame", "gpiozero", "serial"),
    "hw": ("kiosk", "cafe", "hub", "pygame"),
    "kiosk": ("hub",),
    "cafe": ("kiosk", "hub", "hw", "pygame"),
    "hub": ("kiosk", "hw", "pygame"),
}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Module name → file for every module of the packages."""
    return {module_name(p, root): p for package in packages for p in sorted((root / package).rglob("*.py"))}


def imported(path: Path, module: str, modules: set[str]) -> Iterator[tuple[str, int]]:
    """(imported module, line) for every import statement in the file, relative ones resolved. `from a import b`
    names the module `a.b` when that is one of ours (a submodule), else `a`."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                yield (f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base), node.lineno


def import_graph(files: dict[str, Path]) -> dict[str, dict[str, int]]:
    """Our module → {our module it imports: first line}; imports of other distributions are left out."""
    modules = set(files)
    graph: dict[str, dict[str, int]] = {}
    for module, path in files.items():
        edges = graph.setdefault(module, {})
        for target, line in imported(path, module, modules):
            while target and target not in modules:
                target = target.rpartition(".")[0]  # `kiosk.games.Choice` is the module `kiosk.games`
            if target and target != module:
                edges.setdefault(target, line)
    return graph


def breaks(files: dict[str, Path], root: Path = ROOT, table: dict[str, tuple[str, ...]] = MUST_NOT_IMPORT
           ) -> list[str]:
    """`file:line: module imports X` for every import the table forbids."""
    modules = set(files)
    found: list[str] = []
    for module, path in files.items():
        forbidden = table.get(module.split(".")[0], ())
        for target, line in imported(path, module, modules):
            top = target.split(".")[0]
            if top in forbidden:
                line_text = f"{path.relative_to(root).as_posix()}:{line}: {module} imports {target}"
                if line_text not in found:  # `from x import a, b` is one import
                    found.append(line_text)
    return found


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted: every import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, {}):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def package_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Cycles between the five packages themselves (referee → cafe → referee would be one)."""
    packages: dict[str, dict[str, int]] = {}
    for module, edges in graph.items():
        top = module.split(".")[0]
        for target in edges:
            if target.split(".")[0] != top:
                packages.setdefault(top, {})[target.split(".")[0]] = 0
    return cycles(packages)


def test_the_table_covers_every_package() -> None:
    assert set(MUST_NOT_IMPORT) == set(PACKAGES)
    assert all((ROOT / package / "__init__.py").is_file() for package in PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_package_imports_what_the_table_forbids(package: str) -> None:
    files = {m: p for m, p in source_files().items() if m.split(".")[0] == package}
    assert len(files) > 1, "the scan found the package's modules"
    assert breaks(files) == []


def test_no_import_cycles_between_modules_or_packages() -> None:
    graph = import_graph(source_files())
    assert sum(len(edges) for edges in graph.values()) > 100, "the scan found the imports"
    assert cycles(graph) == []
    assert package_cycles(graph) == []


def test_the_kiosk_uses_only_the_referees_public_api() -> None:
    """No private names, no game modules' internals: what may come next comes from `Referee.hints()`."""
    found = []
    for module, path in source_files(packages=("kiosk",)).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found += [(module, node.module, alias.name) for alias in node.names]
            elif isinstance(node, ast.Import):
                found += [(module, alias.name, "") for alias in node.names]
    referee = [(f, m, n) for f, m, n in found if m == "referee" or m.startswith("referee.")]
    assert referee, "the scan found the kiosk's imports"
    private = [(f, m, n) for f, m, n in referee if n.startswith("_") or any(p.startswith("_") for p in m.split("."))]
    games = [(f, m, n) for f, m, n in referee
             if m.startswith("referee.games.") or (m == "referee.games" and n not in ("get", "ids"))]
    assert not private, private
    assert not games, games


# --- the test's own measure: each kind of break it must find, in a throwaway tree


def write(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return source_files(root, ("referee", "hw", "cafe", "kiosk"))


def test_the_measure_finds_an_upward_import_in_a_function_and_under_type_checking(tmp_path: Path) -> None:
    files = write(tmp_path, {
        "referee/__init__.py": "",
        "referee/a.py": "def f():\n    import pygame\n",
        "hw/__init__.py": "",
        "hw/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kiosk.app import App\n",
        "cafe/__init__.py": "",
        "cafe/c.py": "from ..kiosk import store\n",
        "kiosk/__init__.py": "",
        "kiosk/store.py": "",
    })
    assert breaks(files, tmp_path) == ["referee/a.py:2: referee.a imports pygame", "hw/b.py:3: hw.b imports kiosk.app",
                             "cafe/c.py:1: cafe.c imports kiosk.store"]


def test_the_measure_finds_a_type_only_cycle_and_a_package_cycle(tmp_path: Path) -> None:
    files = write(tmp_path, {
        "kiosk/__init__.py": "",
        "kiosk/app.py": "from kiosk import staff\n",
        "kiosk/staff.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kiosk.app import App\n",
        "kiosk/view.py": "from . import app\n",
        "referee/__init__.py": "from cafe import c\n",
        "cafe/__init__.py": "",
        "cafe/c.py": "def f():\n    from referee import x\n",
        "referee/x.py": "",
        "hw/__init__.py": "",
    })
    graph = import_graph(files)
    assert cycles(graph) == [["kiosk.app", "kiosk.staff"]]
    assert package_cycles(graph) == [["cafe", "referee"]]
