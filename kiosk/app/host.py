"""What a screen may ask of the kiosk around it (`kiosk.screens.Host`, and the admin entries' `StaffHost`).

The screens' one door to the rest of the kiosk: the table's facts (its seats, readers, lights, camera), the
settings, the staff's preferences and PIN, the sound, the records, the café, and their moves, which the router
makes (`kiosk/app/routing.py`). The host keeps no state of its own beyond the preferences; it is built once by
`kiosk.app.app.App`, and nothing but the screens (and the parts that make screens) receives it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hw.camera.zones import seat_of_reader as camera_seat_of
from kiosk import i18n
from kiosk.app import staff
from kiosk.app.audio import Cue, Sounds
from kiosk.app.cafe_side import CafeSide
from kiosk.app.commands import AdminCommand
from kiosk.app.records import Records
from kiosk.eventlog import export as exporting
from kiosk.eventlog.store import EventLog
from kiosk.screens import Screen
from kiosk.settings.pin import PinGuard
from kiosk.settings.prefs import Prefs
from kiosk.settings.settings import DEFAULT_PIN_HASH, Settings

if TYPE_CHECKING:
    from kiosk.app.cafe_link import CafeLink
    from kiosk.app.controller import TableController
    from kiosk.app.joining import Joining
    from kiosk.app.routing import Router
    from kiosk.hardware.camera_seat import TableCamera
    from kiosk.hardware.hardware import Hardware
    from kiosk.hardware.seat_lights import LightFollower


class KioskHost:
    """The kiosk as its screens see it. `router` is set once the router is made over this host."""

    router: Router

    def __init__(self, settings: Settings, prefs: Prefs, records: Records, audio: Sounds, cafe: CafeSide,
                 hardware: Hardware | None, kiosk_mode: bool, stop: Callable[[int], None]):
        self.settings = settings
        self.records = records
        self.audio = audio
        self.cafe_side = cafe
        self.kiosk_mode = kiosk_mode
        self.stop = stop  # the loop's end, with the exit status systemd acts on
        self.reader_seats = dict(hardware.reader_seats) if hardware else {}
        self.seats = hardware.seat_names if hardware else []  # the config's seat ids (test screens)
        self.table_name = hardware.table_name if hardware else "table"  # the config's table name (CSV export)
        self.lights: LightFollower | None = hardware.lights if hardware else None
        self.camera: TableCamera | None = hardware.camera if hardware else None
        self.scanners_down: dict[str, str | None] = {}  # reader → its seat, while unplugged
        self.mounts = Path("/proc/mounts")  # where Export looks for a USB stick …
        self.usb_roots: tuple[str, ...] = exporting.USB_ROOTS  # … mounted below one of these
        self.pins = PinGuard(settings.data_dir, settings.pin_hash, default_hash=DEFAULT_PIN_HASH)
        self.prefs = prefs
        i18n.set_language(settings.language)

    # --- what screens read

    @property
    def log(self) -> EventLog | None:
        return self.records.log

    @property
    def cafe(self) -> CafeLink | None:
        return self.cafe_side.link

    @property
    def joining(self) -> Joining | None:
        return self.cafe_side.joining

    @property
    def lang(self) -> str:
        return i18n.language()

    @property
    def volume(self) -> int:
        """The volume in percent, 0 when muted."""
        return 0 if self.audio.muted else self.audio.volume

    def seat_of_reader(self, reader: str) -> str | None:
        return self.reader_seats.get(reader) or camera_seat_of(reader)  # a pile scan once its seat is known

    # --- where the guests go (the router decides)

    def show(self, screen: Screen) -> None:
        self.router.show(screen)

    def go_menu(self, paused: int | None = None) -> None:
        self.router.go_menu(paused)

    def start_game(self, game_id: str, players: list[str], dealer: str | None, options: dict[str, Any],
                   seat_players: dict[str, str], assignment: dict[str, Any] | None = None) -> None:
        self.router.start_game(game_id, players, dealer, options, seat_players, assignment)

    def rematch(self, old: TableController) -> None:
        self.router.rematch(old)

    def leave_game(self, controller: TableController, new_game: bool) -> None:
        self.router.leave_game(controller, new_game)

    def resume_game(self, game_row: int) -> None:
        self.router.resume_game(game_row)

    def retry_storage(self) -> bool:
        return self.router.retry_storage()

    def after_storage_fault(self) -> None:
        self.router.after_storage_fault()

    # --- what screens change

    def cue(self, cue: Cue) -> None:
        self.audio.play(cue)

    def toggle_language(self) -> None:
        i18n.set_language("en" if self.lang == "de" else "de")
        self.router.changed()

    def set_volume(self, percent: int) -> None:
        """The admin menu's volume: kept in the prefs and handed to the sound output when there is one."""
        self.prefs.volume = percent
        self.prefs.save(self.settings.data_dir)
        self.settings.volume, self.settings.mute = percent, percent == 0
        self.audio.set_volume(percent / 100)
        self.audio.muted = percent == 0
        self.cue("accepted")  # hear the new volume

    def set_default_language(self, lang: str) -> None:
        self.prefs.language = lang
        self.settings.language = lang
        self.prefs.save(self.settings.data_dir)
        i18n.set_language(lang)
        self.router.changed()

    def admin(self, command: AdminCommand, back: Screen) -> str | None:
        """Run an admin menu entry (already confirmed when destructive); returns a sentence to show."""
        return staff.run(self, command, back)

    def abandon_game(self, game_row: int) -> None:
        self.records.abandon(game_row)

    def leave_cafe(self) -> None:
        """Admin → Café → Leave: the link stops, the password and the café's CA are forgotten."""
        self.cafe_side.leave()
        self.router.changed()


def prefs_over(settings: Settings) -> Prefs:
    """The admin menu's saved choices, which win over the config's language and volume."""
    prefs = Prefs.load(settings.data_dir)
    if prefs.language:
        settings.language = prefs.language
    if prefs.volume is not None:
        settings.volume, settings.mute = prefs.volume, prefs.volume == 0
    return prefs
