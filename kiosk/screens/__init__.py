"""One screen per job: menu, seat set-up, the table, history, results, admin, demo."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from hw.inputs import Input
from kiosk.drawing.view import View

if TYPE_CHECKING:
    from kiosk.app.audio import Cue
    from kiosk.app.cafe_link import CafeLink
    from kiosk.app.commands import AdminCommand
    from kiosk.app.controller import TableController
    from kiosk.app.joining import Joining
    from kiosk.eventlog.store import EventLog
    from kiosk.hardware.camera_seat import TableCamera
    from kiosk.hardware.seat_lights import LightFollower
    from kiosk.settings.pin import PinGuard
    from kiosk.settings.settings import Settings


class Host(Protocol):
    """What a screen may ask of the kiosk around it (`kiosk.app.host.KioskHost` implements it).

    Screens know this protocol, never the App: the app imports the screens, the screens do not import
    the app back, so there is no import cycle and a screen can be driven by any host.
    """

    settings: Settings
    kiosk_mode: bool
    pins: PinGuard
    reader_seats: dict[str, str]
    scanners_down: dict[str, str | None]  # reader → its seat, while unplugged (the camera by its reader name)
    seats: list[str]
    lights: LightFollower | None  # the seat lights (`hold(seat, on)`), when the table has them
    camera: TableCamera | None  # the overhead camera (reader, config, pile seats), when the table has one
    @property
    def log(self) -> EventLog | None: ...  # the event log, None while the storage fails

    @property
    def cafe(self) -> CafeLink | None: ...  # the café link (online, problem), when the table is in a café

    @property
    def joining(self) -> Joining | None: ...  # joining a café from the admin menu, when it can

    @property
    def lang(self) -> str: ...

    @property
    def volume(self) -> int: ...

    def show(self, screen: Screen) -> None: ...

    def go_menu(self, paused: int | None = None) -> None: ...

    def toggle_language(self) -> None: ...

    def start_game(self, game_id: str, players: list[str], dealer: str | None, options: dict,
                   seat_players: dict[str, str], assignment: dict | None = None) -> None: ...

    def rematch(self, old: TableController) -> None: ...

    def seat_of_reader(self, reader: str) -> str | None: ...

    def leave_game(self, controller: TableController, new_game: bool) -> None: ...

    def resume_game(self, game_row: int) -> None: ...

    def admin(self, command: AdminCommand, back: Screen) -> str | None: ...

    def set_volume(self, percent: int) -> None: ...

    def set_default_language(self, lang: str) -> None: ...

    def cue(self, cue: Cue) -> None: ...

    def retry_storage(self) -> bool: ...

    def after_storage_fault(self) -> None: ...

    def leave_cafe(self) -> None: ...


class Screen:
    """A screen builds its View from its state and reacts to touches, seat inputs and time."""

    name = "screen"
    takes_scans = False  # a scan on a screen that cannot take it is answered with the "rejected" cue

    def __init__(self, app: Host):
        self.app = app

    def view(self, width: int, height: int) -> View:
        raise NotImplementedError

    def on_action(self, action: str) -> None:
        """A touched button's action."""

    def on_press(self, action: str) -> None:
        """A finger went down on a button (it acts when let go; a hold button may act while held)."""

    def on_touch(self, action: str, held: float) -> None:
        """A button touched and let go after `held` seconds; screens that need a hold override this."""
        self.on_action(action)

    def on_input(self, item: Input) -> None:
        """A hardware input (ButtonPress, CardScan, ReaderNews)."""

    def on_tick(self, now: float) -> bool:
        """Time passed; return True when the screen changed."""
        return False

    def next_wakeup(self) -> float | None:
        """Monotonic time at which on_tick must run next, or None."""
        return None

    def model(self) -> dict[str, Any]:
        """What the control socket's `state` command reports for this screen."""
        return {"screen": self.name}
