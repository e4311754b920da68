"""#12: the kiosk's screens do not import the app (no import cycle, no imports hidden in functions to dodge one);
admin commands are typed values."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.commands import AdminCommand

SCREENS = sorted((Path(__file__).resolve().parents[1] / "kiosk" / "screens").glob("*.py"))


def imports(tree: ast.AST) -> list[tuple[str, bool]]:
    """(module, at module level?) for every import in a module."""
    top = {id(node) for node in tree.body}  # type: ignore[attr-defined]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, id(node) in top))
        elif isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
    return found


@pytest.mark.parametrize("path", SCREENS, ids=lambda p: p.stem)
def test_a_screen_never_imports_the_app_and_imports_only_at_the_top(path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = imports(tree)
    assert not [m for m, _ in found if m == "kiosk.app" or m.startswith("kiosk.app.")]
    inner = [m for m, top in found if not top and m.startswith(("kiosk", "hw", "referee"))]
    # The one allowed place below the top is the TYPE_CHECKING block of kiosk/screens/__init__.py (types only).
    if path.name == "__init__.py":
        inner = [m for m in inner if m not in ("kiosk.commands", "kiosk.controller", "kiosk.pin", "kiosk.settings",
                                               "kiosk.store")]
    assert not inner, f"imports inside functions or blocks: {inner}"


@pytest.mark.parametrize("path", SCREENS, ids=lambda p: p.stem)
def test_each_screen_module_imports_on_its_own(path) -> None:
    module = f"kiosk.screens.{path.stem}" if path.stem != "__init__" else "kiosk.screens"
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                          env={"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr


def test_admin_commands_are_typed_values() -> None:
    assert AdminCommand("undo") is AdminCommand.UNDO
    destructive = {c for c in AdminCommand if c.destructive}
    assert destructive == {AdminCommand.UNDO, AdminCommand.ABANDON, AdminCommand.RESTART, AdminCommand.SHUTDOWN,
                           AdminCommand.QUIT}
