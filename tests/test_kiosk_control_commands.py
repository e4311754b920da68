"""The control socket's commands are one table (`kiosk/app/control_commands.py`): each runs on the display thread."""

from __future__ import annotations

import pytest

from kiosk.app.app import Command
from tests.kiosk_helpers import make_app


def run(app, name, arg=None):
    command = Command(name, arg)
    app.inputs.on_item(command)  # as the display thread runs a queued command
    assert command.done.is_set()
    if command.error is not None:
        raise command.error
    return command.result


def test_every_command_is_in_the_table_and_an_unknown_one_is_the_caller_s_error(tmp_path) -> None:
    app = make_app(tmp_path)
    assert set(app.commands.table) == {"screenshot", "screenshot_window", "state", "action", "admin", "view", "fault"}
    assert run(app, "state")["screen"] == "menu" and run(app, "state")["guarded_errors"] == 0
    assert "lang" in run(app, "view")["buttons"]
    assert run(app, "action", "lang")["screen"] == "menu"
    assert run(app, "screenshot", tmp_path / "menu.png") == {"path": str(tmp_path / "menu.png")}
    assert (tmp_path / "menu.png").stat().st_size > 0
    assert run(app, "admin")["screen"] == "admin"
    with pytest.raises(ValueError, match="no button"):
        run(app, "action", "no-such-button")
    with pytest.raises(ValueError, match="unknown command"):
        run(app, "format-the-disk")
    assert app.loop.guard.count == 0
