"""The kiosk's parts own their state behind narrow, typed interfaces (issue #36): the router owns the screen and
what needs drawing, the loop owns timing, the controller the game, the records the log; no part receives the
whole app, and each part touches of the others only what this file allows."""

from __future__ import annotations

import ast
from pathlib import Path

from kiosk.app.control_commands import ControlCommands
from kiosk.app.host import KioskHost
from kiosk.app.records import Records
from kiosk.app.routing import Router
from kiosk.loop.display import Display
from kiosk.loop.frame_loop import FrameLoop
from kiosk.loop.input_events import InputEvents
from kiosk.screens.table import TableScreen
from tests.kiosk_helpers import make_app, press

KIOSK = Path(__file__).resolve().parent.parent / "kiosk"

# Each part: its module, its class, and for each collaborator it holds (`self.<name>`) the members it may use.
# A member not listed is a reach into another part's state: give the owner a method instead.
PARTS: dict[str, tuple[str, dict[str, set[str]]]] = {
    "app/routing.py": ("Router", {
        "host": {"camera"},  # else only handed on to the screens it makes
        "records": {"log", "path", "reopen"},
        "cafe": {"link"},
        "status": set(),
    }),
    "loop/frame_loop.py": ("FrameLoop", {
        "router": {"screen", "dirty", "changed", "drawn", "go_menu", "rebuild", "plain_menu", "status"},
        "display": {"surface", "present", "save"},
        "inbox": {"items", "close", "wake_with"},
        "waker": {"sleep", "events", "wake", "wake_on_signals"},
        "audio": {"sleep_due", "tick", "settle"},
        "cafe": {"link"},
        "lights": {"next_wakeup", "follow"},
        "inputs": {"on_pygame", "on_item", "last_activity", "forget_press"},
        "guard": {"caught", "notice_shows", "notice_until"},
        "idle_pause_s": set(), "heartbeat": set(),
    }),
    "loop/input_events.py": ("InputEvents", {
        "router": {"screen", "show", "changed", "offer_assignment"},
        "frame": {"view", "draw", "stop"},
        "display": {"to_logical", "window", "invalidate"},
        "host": {"audio", "cue", "scanners_down", "seat_of_reader", "settings", "kiosk_mode", "log"},
        "cafe": {"link", "joining", "join"},
        "camera": {"pile_seats"},
        "commands": {"answer"},
        "key_handler": set(),
    }),
    "app/control_commands.py": ("ControlCommands", {
        "router": {"screen", "show", "changed"},
        "frame": {"guarded", "draw", "view", "guard"},
        "display": {"shown", "cut_texts"},
        "host": set(),  # only handed on to the screens it makes
        "lights": {"follow", "draw_strip", "reported"},
        "camera": {"report"},
        "touched": set(),
        "table": {"get"},
    }),
    "app/host.py": ("KioskHost", {
        "router": {"show", "go_menu", "start_game", "rematch", "leave_game", "resume_game", "retry_storage",
                   "after_storage_fault", "changed"},
        "records": {"log", "abandon"},
        "audio": {"muted", "volume", "play", "set_volume"},
        "cafe_side": {"link", "joining", "leave"},
        "prefs": {"volume", "language", "save"},
        "settings": {"data_dir", "volume", "mute", "language"},
        "reader_seats": {"get"},
        "stop": set(),
    }),
}


def used_members(path: Path, cls: str) -> dict[str, set[str]]:
    """For one class: `self.<collaborator>.<member>` (and `<local> = self.<collaborator>`'s members) it uses."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    found: dict[str, set[str]] = {}
    aliases: dict[str, str] = {}  # `router = self.router` → router's members count as self.router's
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Attribute) and _is_self(sub.value.value):
            for target in sub.targets:
                if isinstance(target, ast.Name):
                    aliases[target.id] = sub.value.attr
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Attribute) and _is_self(sub.value.value):
            found.setdefault(sub.value.attr, set()).add(sub.attr)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id in aliases:
            found.setdefault(aliases[sub.value.id], set()).add(sub.attr)
    return found


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def test_each_part_touches_of_the_others_only_what_it_may() -> None:
    for module, (cls, allowed) in PARTS.items():
        used = used_members(KIOSK / module, cls)
        for collaborator, members in used.items():
            if collaborator not in allowed:
                continue  # the part's own state
            extra = members - allowed[collaborator]
            assert not extra, f"{cls} reaches into {collaborator}: {sorted(extra)} ({module})"


def test_no_part_receives_the_app_and_nothing_stands_in_for_it() -> None:
    """Only the composition root makes the App; no module types a stand-in `App = Any`."""
    for path in sorted(KIOSK.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "App = Any" not in text, path
        if path.name in ("app.py", "compose.py") or "audit" in str(path.relative_to(KIOSK)):
            continue
        tree = ast.parse(text)
        imported = {alias.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "kiosk.app.app"
                    for alias in n.names}
        assert "App" not in imported, f"{path.relative_to(KIOSK)} imports the App"


def test_the_measure_finds_a_reach_into_another_part(tmp_path: Path) -> None:
    source = tmp_path / "part.py"
    source.write_text("class Part:\n    def f(self):\n        router = self.router\n        router._last_fault = 1\n"
                      "        self.frame.view = None\n")
    assert used_members(source, "Part") == {"router": {"_last_fault"}, "frame": {"view"}}


def test_the_app_composes_the_parts_and_a_game_goes_through_them(tmp_path) -> None:
    app = make_app(tmp_path)
    assert isinstance(app.display, Display) and isinstance(app.loop, FrameLoop) and isinstance(app.router, Router)
    assert isinstance(app.inputs, InputEvents) and isinstance(app.commands, ControlCommands)
    assert isinstance(app.host, KioskHost) and isinstance(app.records, Records)
    app.router.start_game("magische-7", ["Anna", "Ben"], None, {}, {})
    assert isinstance(app.router.screen, TableScreen)  # routed
    app.loop.step(max_wait_ms=1)  # the loop drew the table
    assert app.loop.frames >= 1 and app.loop.view is not None and app.loop.view.buttons()
    assert not app.router.dirty, "the frame was drawn"
    press(app, "lang")  # a touch through the inputs
    app.router.go_menu()
    assert app.router.screen.name == "menu"


def test_the_kiosk_folder_is_packages_by_job() -> None:
    """A newcomer finds a module by its job (decision R23-6): nothing new piles up at the kiosk's top level."""
    assert sorted(p.name for p in KIOSK.glob("*.py")) == ["__init__.py", "__main__.py", "i18n.py"]
    packages = sorted(p.name for p in KIOSK.iterdir() if (p / "__init__.py").is_file())
    assert packages == ["app", "audit_fixtures", "drawing", "eventlog", "games", "hardware", "loop", "screens",
                        "service", "settings"]
    game_content = {"ranking.py", "help_texts.py", "event_words.py", "history.py"}  # under the game's folder
    assert game_content <= {p.name for p in (KIOSK / "games").glob("*.py")}
