"""Whose card the camera saw on the pile: the one player who may act now, or the seat whose button says so.

A camera zone that is a seat's own area names its seat (`hw.camera.zones`). A pile or trick zone
does not: the card belongs to the player the referee lets act now (`hints().actors`). When exactly one
may act, the scan is handed on as that seat's (`seat_reader(seat)`, which the kiosk maps to the seat).
When several may, the kiosk asks who laid it, and the next confirm press of one of them answers (the
press does nothing else). When nobody may (the start card of ANNAOTTO, a finished game), the scan goes
on without a seat and the game's own rules decide, as for a shared scanner.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hw.camera.zones import READER as CAMERA
from hw.camera.zones import seat_reader
from hw.inputs import ButtonPress, CardScan, Input
from kiosk.app.controller import Feedback, ShownScreen, TableController, controller_on
from kiosk.i18n import tr

if TYPE_CHECKING:  # the camera's own parts, loaded where the table has a camera
    from hw.camera.reader import CameraReader
    from kiosk.hardware.camera_faces import CameraFaces


class PileSeats:
    """Routes the pile zones' scans to a seat (see the module's docstring)."""

    def __init__(self, pile_readers: set[str]):
        self.pile_readers = set(pile_readers)
        self.pending: CardScan | None = None
        self.scans = 0  # camera scans seen (the control socket's state: a script knows the camera has read)

    def report(self) -> dict[str, Any]:
        return {"scans": self.scans, "asking": self.pending is not None}

    def route(self, item: Input, screen: ShownScreen) -> Input | None:
        """The input as the screen should get it, or None when it was taken here (a question is open)."""
        if isinstance(item, CardScan) and item.reader.startswith(CAMERA + ":"):
            self.scans += 1
        controller = controller_on(screen)
        if controller is None:
            self.pending = None
            return item
        if isinstance(item, CardScan) and item.reader in self.pile_readers:
            return self._scan(item, controller)
        if isinstance(item, ButtonPress) and self.pending is not None and item.button == "confirm":
            return self._answer(item, controller)
        return item

    def _scan(self, scan: CardScan, controller: TableController) -> CardScan | None:
        self.pending = None
        if controller.pending is not None:  # a question gathering scans (several cards, a task): it decides
            return scan
        actors = controller.referee.hints().actors
        if len(actors) == 1:
            seat = _seat_of(controller, actors[0])
            return scan if seat is None else CardScan(scan.code, seat_reader(seat), scan.t_ns)
        if len(actors) > 1:
            self.pending = scan
            controller.feedback = Feedback(True, note=tr("Who laid {card}? Press your confirm button.",
                                                         card=controller.ui.face(scan.code)))
            return None
        return scan

    def _answer(self, press: ButtonPress, controller: TableController) -> CardScan | None:
        actors = controller.referee.hints().actors
        player = controller.player_for_seat(press.seat)
        if player not in actors:
            return None  # not one of those who may have laid it: the question stays
        scan, self.pending = self.pending, None
        if scan is None:  # (asked only while a scan waits for its seat)
            return None
        return CardScan(scan.code, seat_reader(press.seat), scan.t_ns)


def _seat_of(controller: TableController, player: str) -> str | None:
    for seat, name in controller.seat_players.items():
        if name == player:
            return seat
    return player if player in controller.referee.players else None


@dataclass
class TableCamera:
    """The overhead camera as the kiosk holds it: its reader (calibration), the config file its zones are saved
    to (None: the camera is not the file's own), the pile zones' seat routing and the taught decks."""

    reader: CameraReader
    config_path: Path | None
    pile_seats: PileSeats
    faces: CameraFaces | None = None

    def shown(self, game: str | None, teaching: bool) -> None:
        """The kiosk shows another screen: a game's table screen (`game`) has the camera read that game's taught
        faces; teaching goes on only while its own screen shows (`teaching`), whatever took it away."""
        if self.faces is None:
            return
        if not teaching and self.faces.session is not None:
            self.faces.stop_teaching()
        if game is not None:
            self.faces.follow(game)

    def report(self) -> dict[str, Any]:
        """The control socket's camera state: pile scans, and what is read by face."""
        report = self.pile_seats.report()
        if self.faces is not None:
            report["faces"] = self.faces.report()
        return report
