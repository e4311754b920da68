"""Audit scenes of the staff's own screens not reached from a game: the storage fault screen in each kind and
with its notice, and the camera set-up without a camera and with a long answer under it."""

from __future__ import annotations

from kiosk.app.host import KioskHost
from kiosk.drawing.audit import scene
from kiosk.eventlog.storage import CORRUPT, FULL, IO, READONLY, StorageFault
from kiosk.screens.camera import CameraScreen
from kiosk.screens.fault import FaultScreen
from kiosk.screens.menu import MenuScreen

DETAIL = "[Errno 28] No space left on device: '/var/lib/tabletop-referee/events.sqlite3-journal' while writing"

for _kind in (FULL, READONLY, CORRUPT, IO):
    def _fault(app: KioskHost, kind: str = _kind) -> None:
        app.show(FaultScreen(app, StorageFault(kind, DETAIL)))

    scene(f"fault:{_kind}")(_fault)


@scene("fault:notice")
def fault_notice(app: KioskHost) -> None:
    from kiosk.i18n import tr

    notice = tr("The game log was damaged. It was set aside as {name} and a new log started.",
                name="events.sqlite3.damaged-20261126-010203")
    app.show(FaultScreen(app, notice=notice))


@scene("camera:no-picture")
def camera_no_picture(app: KioskHost) -> None:
    app.show(CameraScreen(app, MenuScreen(app)))


@scene("camera:message")
def camera_message(app: KioskHost) -> None:
    from kiosk.i18n import tr

    screen = CameraScreen(app, MenuScreen(app))
    screen.message = tr("No config file to save to: the zones hold until the kiosk restarts.")
    app.show(screen)
