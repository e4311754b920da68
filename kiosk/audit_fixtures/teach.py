"""Audit scenes of the camera menu and of teaching a deck: the status with two decks read, the game and deck
choices, and the teaching screen waiting, after a card was taken, holding a card that looks like a face taught
before, and with the whole deck taught. The app gets a camera of its own: a reader that is never started (no
frames: the scenes set what the screens show) and the taught decks in the audit's data directory."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.app.host import KioskHost
from kiosk.drawing.audit import scene
from kiosk.hardware.camera_faces import CameraFaces

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

# the longest words of any deck: the face asked, the one taken, a look-alike
FACES = ("AO:ORANGE.STRIPES.HUERDEN", "AO:ORANGE.STRIPES.RETOUR", "AO:PURPLE.STRIPES.RETOUR")


def _camera(app: KioskHost) -> CameraFaces:
    """A real camera for the scenes: the simulated camera, its reader never started, the taught decks."""
    from hw.camera.reader import CameraReader
    from hw.camera.sim import SIM_CAMERA, TableScene, sim_source
    from kiosk.hardware.camera_seat import PileSeats, TableCamera

    reader = CameraReader(SIM_CAMERA, sim_source(TableScene(SIM_CAMERA)), lambda item: None)
    reader.connected.set()  # as after its first frame
    faces = CameraFaces(reader, app.settings.data_dir)
    app.camera = TableCamera(reader, None, PileSeats(set()), faces)
    return faces


def _cut_out(face: str) -> NDArray[np.uint8]:
    """A card as the camera cuts it out (grey, the taught size), from our own printed art."""
    import numpy as np

    from hw.camera.outline import PATCH
    from hw.camera.printed import picture

    card, _ = picture("ao-b", face)
    return np.asarray(card.convert("L").resize(PATCH))


def _teaching(app: KioskHost, pictures: bool = True, **state: Any) -> None:
    from hw.camera.teach import TeachState
    from kiosk.screens.camera_menu import CameraMenuScreen, TeachDecksScreen, TeachGamesScreen
    from kiosk.screens.menu import MenuScreen
    from kiosk.screens.teach import TeachScreen

    faces = _camera(app)
    decks = faces.decks("annaotto")
    session = faces.teach("annaotto", decks[0].name if decks else None)
    if session is None:
        raise LookupError("the audit's data directory holds as many ANNAOTTO decks as a game keeps")
    games = TeachGamesScreen(app, CameraMenuScreen(app, MenuScreen(app)))
    screen = TeachScreen(app, TeachDecksScreen(app, games, "annaotto"), session)
    base = {"face": FACES[0], "index": 36, "total": 81, "last": None, "last_picture": None, "wrong": None,
            "seen": False, "held": False}
    screen.state = TeachState(**{**base, **state})
    screen.pictures = pictures
    app.show(screen)
    faces.reader.teacher = None  # never started: nothing to stop


@scene("camera:menu")
def camera_menu(app: KioskHost) -> None:
    from kiosk.hardware.camera_faces import Loaded
    from kiosk.screens.camera_menu import CameraMenuScreen
    from kiosk.screens.menu import MenuScreen

    faces = _camera(app)
    faces.loaded = Loaded("alles-klar", (("deck-1", 77), ("deck-2", 40)), True)
    screen = CameraMenuScreen(app, MenuScreen(app), busy=True)
    screen.taught = {"alles-klar": 2, "profi-sort": 1, "annaotto": 3}
    screen.on_action("teach")  # refused: a game is on the table screen
    app.show(screen)


@scene("camera:teach-games")
def teach_games(app: KioskHost) -> None:
    from kiosk.screens.camera_menu import CameraMenuScreen, TeachGamesScreen
    from kiosk.screens.menu import MenuScreen

    _camera(app)
    screen = TeachGamesScreen(app, CameraMenuScreen(app, MenuScreen(app)))
    screen.counts = {**screen.counts, "alles-klar": 2, "annaotto": 1}
    app.show(screen)


@scene("camera:teach-decks")
def teach_decks(app: KioskHost) -> None:
    from hw.camera import taught
    from kiosk.screens.camera_menu import CameraMenuScreen, TeachDecksScreen, TeachGamesScreen
    from kiosk.screens.menu import MenuScreen

    faces = _camera(app)
    while len(faces.decks("magische-7")) < 3:
        taught.new_deck(app.settings.data_dir, "magische-7")
    games = TeachGamesScreen(app, CameraMenuScreen(app, MenuScreen(app)))
    screen = TeachDecksScreen(app, games, "magische-7")
    screen.chosen = screen.decks[1].name
    app.show(screen)


@scene("camera:teach-waiting")
def teach_waiting(app: KioskHost) -> None:
    _teaching(app, index=0)


@scene("camera:teach-no-pictures")
def teach_no_pictures(app: KioskHost) -> None:
    _teaching(app, pictures=False, last=FACES[1], last_picture=_cut_out(FACES[1]))


@scene("camera:teach-taken")
def teach_taken(app: KioskHost) -> None:
    _teaching(app, last=FACES[1], last_picture=_cut_out(FACES[1]), seen=True)


@scene("camera:teach-looks-like")
def teach_looks_like(app: KioskHost) -> None:
    _teaching(app, last=FACES[1], last_picture=_cut_out(FACES[1]), wrong=FACES[2], held=True, seen=True)


@scene("camera:teach-done")
def teach_done(app: KioskHost) -> None:
    _teaching(app, face=None, index=81, last=FACES[2], last_picture=_cut_out(FACES[2]), seen=True)
