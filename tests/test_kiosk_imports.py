"""#12: each screen module imports on its own; admin commands are typed values. (That the screens never import
the app, and no import cycle at all, type-only imports included, is tests/test_layers.py's.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.app.commands import AdminCommand

SCREENS = sorted((Path(__file__).resolve().parents[1] / "kiosk" / "screens").glob("*.py"))


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
