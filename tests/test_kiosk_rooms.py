"""The kiosk app has rooms with one job each (issue #23): the display, the display loop, what an input does,
which screen shows and the control socket's commands live in their own modules; `App` composes them."""

from __future__ import annotations

import ast
from pathlib import Path

from kiosk.app.routing import ScreenRouter
from kiosk.loop.display import Display
from kiosk.loop.frame_loop import FrameLoop
from kiosk.loop.input_events import InputEvents
from kiosk.screens.table import TableScreen
from tests.kiosk_helpers import make_app, press

KIOSK = Path(__file__).resolve().parent.parent / "kiosk"

# What each room does, as the calls and names that do it; none of them is in kiosk/app/app.py.
ROOMS = {
    "loop/display.py": {"set_mode", "flip", "rotate"},  # SDL's display, the frame on the glass, a rotated mounting
    "loop/frame_loop.py": {"woken", "next_wakeup", "get_nowait", "view", "decorate"},  # the sleep, the inbox, the frame
    "loop/input_events.py": {"hit", "on_touch", "on_input", "FINGERDOWN"},  # a finger's button, a seat's input
    "app/routing.py": {"TableScreen", "SetupScreen", "FaultScreen", "reopen", "open_log"},  # where guests go
    "app/control_commands.py": {"COMMANDS", "result", "done"},  # a command's answer to the waiting thread
}


def names(path: Path) -> set[str]:
    """Every attribute, name and imported name a module uses."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.ImportFrom):
            found.update(alias.name for alias in node.names)
    return found


def test_each_room_does_its_job_and_the_app_does_none_of_them() -> None:
    in_app = names(KIOSK / "app" / "app.py")
    for module, job in ROOMS.items():
        assert job <= names(KIOSK / module), module
        assert not job & in_app, f"kiosk/app/app.py does {module}'s job: {sorted(job & in_app)}"


def test_the_app_composes_the_rooms_and_a_game_goes_through_them(tmp_path) -> None:
    app = make_app(tmp_path)
    assert isinstance(app.video, Display) and isinstance(app.loop, FrameLoop)
    assert isinstance(app.routes, ScreenRouter) and isinstance(app.input_events, InputEvents)
    assert app.surface is app.video.surface and app.display is app.video.window
    app.start_game("magische-7", ["Anna", "Ben"], None, {}, {})
    assert isinstance(app.screen, TableScreen)  # routed
    app.step(max_wait_ms=1)  # the loop drew the table
    assert app.frames >= 1 and app.current_view is not None and app.current_view.buttons()
    press(app, "lang")  # a touch through the input room
    app.go_menu()
    assert app.screen.name == "menu"


def test_the_kiosk_folder_is_packages_by_job() -> None:
    """A newcomer finds a module by its job (decision R23-6): nothing new piles up at the kiosk's top level."""
    assert sorted(p.name for p in KIOSK.glob("*.py")) == ["__init__.py", "__main__.py", "i18n.py"]
    packages = sorted(p.name for p in KIOSK.iterdir() if (p / "__init__.py").is_file())
    assert packages == ["app", "audit_fixtures", "drawing", "eventlog", "games", "hardware", "loop", "screens",
                        "service", "settings"]
    game_content = {"ranking.py", "help_texts.py", "event_words.py", "history.py"}  # under the game's folder
    assert game_content <= {p.name for p in (KIOSK / "games").glob("*.py")}
