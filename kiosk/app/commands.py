"""What staff can ask of the kiosk from the admin menu, as typed values (not strings passed around)."""

from __future__ import annotations

from enum import Enum

# The kiosk's exit statuses that systemd acts on (`referee-kiosk.service`: SuccessExitStatus=3 4,
# RestartPreventExitStatus=4): restart comes back, shut down stays down.
EXIT_RESTART = 3
EXIT_SHUTDOWN = 4


class AdminCommand(Enum):
    """One entry of the admin menu. `destructive` ones ask once more, naming what they affect."""

    UNDO = "undo"
    ABANDON = "abandon"
    EXPORT = "export"
    LANGUAGE = "lang"
    DEMO = "demo"
    CHANGE_PIN = "pin"
    SCANNER_TEST = "scanners"
    BUTTON_TEST = "buttons"
    CAMERA = "camera"
    CAFE = "cafe"
    RESTART = "restart"
    SHUTDOWN = "shutdown"
    QUIT = "quit"

    @property
    def destructive(self) -> bool:
        return self in (AdminCommand.UNDO, AdminCommand.ABANDON, AdminCommand.RESTART, AdminCommand.SHUTDOWN,
                        AdminCommand.QUIT)
