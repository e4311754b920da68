"""The control socket's commands as the display thread runs them: one function each, one table.

The simulated table's control socket (`kiosk/hardware/hardware.py`) hands a request to `Inbox.call(name, arg)`
(`kiosk/loop/inbox.py`), which queues it for the display thread; there `run` looks the name up in `COMMANDS`.
A command only touches what a finger or the admin corner could; a screen's own exception on the way is the display
loop's guard's (`App.guarded`), a bad request (no such button, an unwritable path) the caller's.
`fault` is in the table but reachable only when `kiosk/hardware/hardware.py` registers it on the socket, under
the test flag (`kiosk/app/fault_injection.py`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import pygame

from kiosk.screens.admin import AdminScreen

App = Any  # kiosk.app.app.App (not imported: the app imports this module)

logger = logging.getLogger(__name__)


def screenshot(app: App, path: Any) -> dict[str, Any]:
    """What the display shows, as a PNG at `path` (rotated as mounted, without the --sim light strip)."""
    app.guarded(app.draw)
    pygame.image.save(app.shown(), str(path))
    return {"path": str(path)}


def screenshot_window(app: App, path: Any) -> dict[str, Any]:
    """The whole --sim window, its light strip included."""
    app.guarded(app.draw)
    if app.lights is not None:
        app.lights.follow(app.screen)
        app.lights.draw_strip()
    window = pygame.display.get_surface()
    if window is None:
        raise ValueError("no window to save")
    pygame.image.save(window, str(path))
    return {"path": str(path)}


def state(app: App, _arg: Any = None) -> dict[str, Any]:
    """The screen's model, the seat lights as they are now, the camera's pile seats, the errors the guard
    caught and the texts the renderer cut."""
    model = app.guarded(app.screen.model) or {"screen": app.screen.name}
    if app.lights is not None:  # as they are after the inputs handled so far in this step
        app.guarded(app.lights.follow, app.screen)
        model["lights"] = app.lights.reported()
    if app.camera is not None:  # the camera's pile scans and the seats they went to
        model["camera"] = app.guarded(app.camera.pile_seats.report)
    model["guarded_errors"] = app.guard.count
    model["cut_texts"] = app.renderer.cuts.report()  # texts drawn cut or too small, ever (issue #37)
    return model


def action(app: App, arg: Any) -> dict[str, Any]:
    """A touch of a button on the screen now (`(action, held seconds)` or the action), nothing else."""
    name, held = arg if isinstance(arg, tuple) else (arg, None)
    app.guarded(app.draw)
    if not isinstance(name, str) or name not in app.current_view.buttons():
        shown = ", ".join(sorted(app.current_view.buttons()))
        raise ValueError(f"no button {name!r} on this screen (buttons: {shown})")
    # The screen's own handling is guarded: its bug is ours, not the caller's bad request.
    if held is None:
        app.guarded(app.screen.on_action, name)
    else:
        app.guarded(app.screen.on_touch, name, held)
    app.last_activity = time.monotonic()
    app.dirty = True
    return app.guarded(app.screen.model) or {"screen": app.screen.name}


def admin(app: App, _arg: Any = None) -> dict[str, Any]:
    """The long press on the top-left corner: the admin screen's PIN pad."""
    if not isinstance(app.screen, AdminScreen):
        app.show(AdminScreen(app, app.screen))
    return app.screen.model()


def view(app: App, _arg: Any = None) -> dict[str, Any]:
    """The texts and buttons on screen now."""
    app.guarded(app.draw)
    return {"texts": app.current_view.texts(), "buttons": app.current_view.buttons()}


def fault(app: App, where: Any) -> dict[str, Any]:
    """Tests only (registered on the socket under REFEREE_KIOSK_FAULTS=1): a screen that raises at `where`."""
    from kiosk.app.fault_injection import RaisingScreen

    app.show(RaisingScreen(app, app.screen, str(where)))
    return {"screen": "raising", "where": where}


COMMANDS: dict[str, Callable[[App, Any], Any]] = {
    "screenshot": screenshot,
    "screenshot_window": screenshot_window,
    "state": state,
    "action": action,
    "admin": admin,
    "view": view,
    "fault": fault,
}


def run(app: App, name: str, arg: Any = None) -> Any:
    """Run one command on the display thread; ValueError for a name that is not one."""
    handler = COMMANDS.get(name)
    if handler is None:
        raise ValueError(f"unknown command {name!r}")
    return handler(app, arg)


def answer(app: App, command: Any) -> None:
    """Run a queued `kiosk.loop.inbox.Command` and hand its result (or the caller's error) back to the waiting
    thread; a bad request is logged and its caller's, never the display loop's."""
    try:
        command.result = run(app, command.name, command.arg)
    except Exception as exc:  # a bad request (unknown action, unwritable path) is its caller's error
        logger.warning("command %s %r failed: %s", command.name, command.arg, exc)
        command.error = exc
        app.dirty = True
    finally:
        command.done.set()
