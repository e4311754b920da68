"""The control socket's commands as the display thread runs them: one method each, one table.

The simulated table's control socket (`kiosk/hardware/hardware.py`) hands a request to `Inbox.call(name, arg)`
(`kiosk/loop/inbox.py`), which queues it for the display thread; there `run` looks the name up in the table.
A command only touches what a finger or the admin corner could; a screen's own exception on the way is the display
loop's guard's (`FrameLoop.guarded`), a bad request (no such button, an unwritable path) the caller's.
`fault` is in the table but reachable only when `kiosk/hardware/hardware.py` registers it on the socket, under
the test flag (`kiosk/app/fault_injection.py`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from kiosk.app.host import KioskHost
from kiosk.app.routing import Router
from kiosk.drawing.view import View
from kiosk.loop.display import Display
from kiosk.loop.frame_loop import FrameLoop
from kiosk.loop.inbox import Command
from kiosk.screens.admin import AdminScreen

if TYPE_CHECKING:
    from kiosk.hardware.camera_seat import TableCamera
    from kiosk.hardware.seat_lights import LightFollower

logger = logging.getLogger(__name__)


class ControlCommands:
    """What a script at the table may ask the kiosk; `touched` tells the inputs that a button was touched."""

    def __init__(self, router: Router, frame: FrameLoop, display: Display, host: KioskHost,
                 lights: LightFollower | None, camera: TableCamera | None, touched: Callable[[], None]):
        self.router = router
        self.frame = frame
        self.display = display
        self.host = host
        self.lights = lights
        self.camera = camera
        self.touched = touched
        self.table: dict[str, Callable[[Any], dict[str, Any]]] = {
            "screenshot": self.screenshot, "screenshot_window": self.screenshot_window, "state": self.state,
            "action": self.action, "admin": self.admin, "view": self.view, "fault": self.fault,
        }

    def _drawn(self) -> View:
        """The frame as it is now (drawn first: the screen may have changed since the loop's last frame)."""
        self.frame.guarded(self.frame.draw)
        if self.frame.view is None:
            raise ValueError("nothing drawn yet")
        return self.frame.view

    def screenshot(self, path: Any) -> dict[str, Any]:
        """What the display shows, as a PNG at `path` (rotated as mounted, without the --sim light strip)."""
        self._drawn()
        pygame.image.save(self.display.shown(), str(path))
        return {"path": str(path)}

    def screenshot_window(self, path: Any) -> dict[str, Any]:
        """The whole --sim window, its light strip included."""
        self._drawn()
        if self.lights is not None:
            self.lights.follow(self.router.screen)
            self.lights.draw_strip()
        window = pygame.display.get_surface()
        if window is None:
            raise ValueError("no window to save")
        pygame.image.save(window, str(Path(path)))
        return {"path": str(path)}

    def state(self, _arg: Any = None) -> dict[str, Any]:
        """The screen's model, the seat lights as they are now, the camera's pile seats, the errors the guard
        caught and the texts the renderer cut."""
        screen, guarded = self.router.screen, self.frame.guarded
        model = guarded(screen.model) or {"screen": screen.name}
        if self.lights is not None:  # as they are after the inputs handled so far in this step
            guarded(self.lights.follow, screen)
            model["lights"] = self.lights.reported()
        if self.camera is not None:  # the camera's pile scans, the seats they went to, the faces it reads
            model["camera"] = guarded(self.camera.report)
        model["guarded_errors"] = self.frame.guard.count
        model["cut_texts"] = self.display.cut_texts()  # texts drawn cut or too small, ever (issue #37)
        return model

    def action(self, arg: Any) -> dict[str, Any]:
        """A touch of a button on the screen now (`(action, held seconds)` or the action), nothing else."""
        name, held = arg if isinstance(arg, tuple) else (arg, None)
        buttons = self._drawn().buttons()
        if not isinstance(name, str) or name not in buttons:
            raise ValueError(f"no button {name!r} on this screen (buttons: {', '.join(sorted(buttons))})")
        # The screen's own handling is guarded: its bug is ours, not the caller's bad request.
        screen, guarded = self.router.screen, self.frame.guarded
        if held is None:
            guarded(screen.on_action, name)
        else:
            guarded(screen.on_touch, name, held)
        self.touched()
        self.router.changed()
        screen = self.router.screen
        return guarded(screen.model) or {"screen": screen.name}

    def admin(self, _arg: Any = None) -> dict[str, Any]:
        """The long press on the top-left corner: the admin screen's PIN pad."""
        if not isinstance(self.router.screen, AdminScreen):
            self.router.show(AdminScreen(self.host, self.router.screen))
        return self.router.screen.model()

    def view(self, _arg: Any = None) -> dict[str, Any]:
        """The texts and buttons on screen now."""
        view = self._drawn()
        return {"texts": view.texts(), "buttons": view.buttons()}

    def fault(self, where: Any) -> dict[str, Any]:
        """Tests only (registered on the socket under REFEREE_KIOSK_FAULTS=1): a screen that raises at `where`."""
        from kiosk.app.fault_injection import RaisingScreen

        self.router.show(RaisingScreen(self.host, self.router.screen, str(where)))
        return {"screen": "raising", "where": where}

    def run(self, name: str, arg: Any = None) -> Any:
        """Run one command on the display thread; ValueError for a name that is not one."""
        handler = self.table.get(name)
        if handler is None:
            raise ValueError(f"unknown command {name!r}")
        return handler(arg)

    def answer(self, command: Command) -> None:
        """Run a queued command and hand its result (or the caller's error) back to the waiting thread; a bad
        request is logged and its caller's, never the display loop's."""
        try:
            command.result = self.run(command.name, command.arg)
        except Exception as exc:  # a bad request (unknown action, unwritable path) is its caller's error
            logger.warning("command %s %r failed: %s", command.name, command.arg, exc)
            command.error = exc
            self.router.changed()
        finally:
            command.done.set()
