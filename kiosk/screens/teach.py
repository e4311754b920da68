"""Teaching a deck to the camera: the screen names a face, staff lay that card on the pile, the camera takes it.

The screen follows the teaching session (`kiosk.hardware.camera_faces.TeachSession`) a few times a second:
the face to lay now in the words its game gives it (a two-sided card's side: each side is a face of its own),
how many faces are taught, what the camera sees, the card taken last with the picture the camera took of it.
A card taken is a rising tone, a card that looks like a face already taught a low one, and the screen names
that face: staff lay the card asked for, take this one anyway (two faces a deck prints alike), or teach the
other face again (it was taught with the wrong card). The card taken last can be retaken, and another print of
it taught beside it (Profi-Sort's red and black jokers). Leaving keeps everything taught: the deck continues
where it stopped, also after a restart.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BAD, BAD_FILL, BUTTON, CARD, DARK_INK, GOOD, INK, MUTED, PANEL, Grid, Rect, View
from kiosk.hardware.camera_faces import CameraFaces, TeachSession, deck_number
from kiosk.i18n import language, tr
from kiosk.screens import Host, Screen, cells
from referee import games
from referee.labels.faces import label_text

if TYPE_CHECKING:
    from PIL.Image import Image

    from kiosk.drawing.view import Color

REFRESH_S = 0.2  # how often the screen looks at the teaching (the camera takes a few frames a second)


def title_of(game: str) -> str:
    """A game's title as the menu shows it."""
    return games.get(game).title


def face_words(face: str) -> str:
    """A face in the words its label prints, in the screen's language."""
    return label_text(face, language())


Back = TypeVar("Back", bound=Screen, covariant=True)  # the screen a camera screen goes back to


class CameraStaffScreen(Screen, Generic[Back]):
    """A screen of the camera menu: staff's, with its way back; a card laid meanwhile never reaches a game."""

    takes_scans = True

    def __init__(self, app: Host, back: Back):
        super().__init__(app)
        self.back = back

    def refresh(self) -> None:
        """What the screen shows read again: staff are back from a screen it opened."""

    def taught_decks(self) -> CameraFaces | None:
        """The table's taught decks (None: no camera, or no data directory to keep decks in)."""
        return self.app.camera.faces if self.app.camera is not None else None

    def decks_of_camera(self) -> CameraFaces:
        """The taught decks, on a screen reached only from a camera's menu (the menu checks there is one)."""
        faces = self.taught_decks()
        if faces is None:
            raise LookupError("this table has no camera to teach")
        return faces


class TeachScreen(CameraStaffScreen[CameraStaffScreen[Screen]]):
    name = "teach"
    teaching = True  # the camera's teaching goes on while this screen shows (`kiosk.app.routing`)

    def __init__(self, app: Host, back: CameraStaffScreen[Screen], session: TeachSession):
        super().__init__(app, back)
        self.session = session
        self.state = session.state()
        self.pictures = self._pictures()
        self.next_refresh = time.monotonic() + REFRESH_S
        self.thumb: tuple[int, Image] | None = None  # (id of the cut-out, its picture)

    # --- what the screen says

    def title(self) -> str:
        return tr("Teaching {game}, deck {n}", game=title_of(self.session.game),
                  n=deck_number(self.session.deck.name))

    def said(self) -> tuple[str, Color]:
        """The sentence on how the teaching goes, and its colour."""
        s = self.state
        if not self.pictures:
            return tr("The camera sends no pictures – check its cable. It comes back by itself."), BAD
        if s.wrong is not None and s.face is not None:
            return tr("This looks like {seen}, not {asked}. Lay {asked}.", seen=face_words(s.wrong),
                      asked=face_words(s.face)), BAD
        if s.face is None:
            return tr("Take the last card off the pile. The camera reads this game by these faces from its next "
                      "game on."), GOOD
        if s.last is not None and s.seen:
            return tr("Taken: {face}. Now lay the next card.", face=face_words(s.last)), GOOD
        if s.seen:
            return tr("A card lies on the pile: keep it still …"), INK
        return tr("Waiting for the card …"), MUTED

    def _pictures(self) -> bool:
        """The camera sends pictures (it is plugged in and not stalled)."""
        camera = self.app.camera
        return camera is None or bool(camera.reader.connected.is_set())

    def _picture(self) -> Image | None:
        """The camera's cut-out of the card taken last (made a picture once per capture)."""
        cut = self.state.last_picture
        if cut is None:
            return None
        if self.thumb is None or self.thumb[0] != id(cut):
            from PIL import Image

            self.thumb = (id(cut), Image.fromarray(cut, "L"))
        return self.thumb[1]

    # --- drawing

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        side = 0.28 if g.portrait else 0.2
        v.text(g.r(0.04, 0.005, 0.92 - side, 0.08 if g.portrait else 0.12), self.title(), size=0.9, color=ACCENT,
               tag="title")
        v.button(g.r(0.96 - side, 0.02, side, 0.07 if g.portrait else 0.1), tr("Done"), "back", tag="back")
        gap = cells.gap_of(v)
        row = self._button_row()
        cell_w = (round(0.92 * width) - gap) // 2
        words = max((measure.height(label, cell_w - 12, v.limits.cap) for label, _, _ in row), default=0)
        bar = max(round(v.limits.touch), round(height * (0.06 if g.portrait else 0.13)), words + 12)
        buttons = (round(0.04 * width), height - bar - round(0.02 * height), round(0.92 * width), bar)
        top = round(height * (0.1 if g.portrait else 0.15))
        if g.portrait:
            body = (buttons[0], top, buttons[2], buttons[1] - gap - top)
            ask, last = cells.rows(body, 2, gap)
            ask = (ask[0], ask[1], ask[2], round(body[3] * 0.62))
            last = (last[0], ask[1] + ask[3] + gap, last[2], body[1] + body[3] - ask[1] - ask[3] - gap)
        else:
            body = (buttons[0], top, buttons[2], buttons[1] - gap - top)
            left_w = round(body[2] * 0.62)
            ask = (body[0], body[1], left_w, body[3])
            last = (body[0] + left_w + gap, body[1], body[2] - left_w - gap, body[3])
        self._ask(v, ask, gap)
        self._last(v, last, gap)
        for (label, action, fill), rect in zip(row, cells.cols(buttons, 2, gap), strict=False):
            v.button(rect, label, action, fill=fill, tag=action, group="teach")
        return v

    def _ask(self, v: View, area: Rect, gap: int) -> None:
        """The face to lay, the progress and how it goes."""
        x, y, w, h = area
        s = self.state
        cap = v.limits.cap
        ask = tr("Lay this card face up on the pile:") if s.face else tr("Every face of this deck is taught.")
        line = measure.height(ask, w, cap)
        v.text((x, y, w, line), ask, size=0.8, color=MUTED, tag="ask")
        said, colour = self.said()
        said_h = measure.height(said, w, cap)
        progress = tr("{taught} of {total} faces taught", taught=s.index, total=s.total)
        inset = gap // 2  # the words inside the bar, off its rounded ends
        progress_h = measure.height(progress, w - 2 * inset, cap)
        card_h = h - line - progress_h - said_h - 3 * gap
        words = face_words(s.face) if s.face is not None else "✓"
        v.text((x, y + line + gap, w, card_h), words, size=1.6, color=DARK_INK, fill=CARD, align="center",
               tag="face")
        py = y + line + card_h + 2 * gap
        v.box((x, py, w, progress_h), PANEL, tag="progress-bar")
        if s.total:
            v.box((x, py, round(w * s.index / s.total), progress_h), (40, 110, 60), tag="progress-done")
        v.text((x + inset, py, w - 2 * inset, progress_h), progress, size=0.75, color=INK, align="center",
               tag="progress")
        v.text((x, py + progress_h + gap, w, said_h), said, size=0.75, color=colour, tag="said")

    def _last(self, v: View, area: Rect, gap: int) -> None:
        """The card taken last: the camera's picture of it and its words."""
        x, y, w, h = area
        cap = v.limits.cap
        v.box(area, PANEL, tag="last-panel")
        if self.state.last is None:
            nothing = tr("Nothing taken yet.")
            v.text((x + gap, y + gap, w - 2 * gap, measure.height(nothing, w - 2 * gap, cap)), nothing, size=0.75,
                   color=MUTED, tag="last")
            return
        title, words = tr("Taken last:"), face_words(self.state.last)
        title_h, words_h = measure.height(title, w - 2 * gap, cap), measure.height(words, w - 2 * gap, cap)
        v.text((x + gap, y + gap // 2, w - 2 * gap, title_h), title, size=0.75, color=MUTED, tag="last-title")
        v.text((x + gap, y + h - words_h - gap // 2, w - 2 * gap, words_h), words, size=0.75, color=INK,
               align="center", tag="last")
        picture = self._picture()
        room = (x + gap, y + title_h + gap, w - 2 * gap, h - title_h - words_h - 2 * gap)
        if picture is not None and room[2] > 8 and room[3] > 8:
            scale = min(room[2] / picture.width, room[3] / picture.height)
            pw, ph = round(picture.width * scale), round(picture.height * scale)
            v.picture((room[0] + (room[2] - pw) // 2, room[1] + (room[3] - ph) // 2, pw, ph), picture,
                      tag="last-picture")

    def _button_row(self) -> list[tuple[str, str, Color]]:
        """What staff can do now: take a held card anyway or teach the face it looks like again; else retake the
        card taken last or teach another print of it."""
        s = self.state
        if s.held and s.wrong is not None and s.face is not None:
            return [(tr("Take it anyway as {face}", face=face_words(s.face)), "anyway", GOOD),
                    (tr("Teach {face} again", face=face_words(s.wrong)), "again", BAD_FILL)]
        if s.last is not None:
            return [(tr("Retake {face}", face=face_words(s.last)), "retake", BUTTON),
                    (tr("Another print of {face}", face=face_words(s.last)), "another", BUTTON)]
        return []

    # --- reacting

    def on_action(self, action: str) -> None:
        if action == "back":
            self.back.refresh()
            self.app.show(self.back)  # the teaching ends with this screen (`kiosk.app.routing`)
        elif action == "retake":
            self.session.retake()
        elif action == "another":
            self.session.another_look()
        elif action == "anyway":
            self.session.take_anyway()
        elif action == "again" and self.state.wrong is not None:
            self.session.teach_again(self.state.wrong)
        self._follow(cue=False)

    def _follow(self, cue: bool = True) -> bool:
        """The teaching's state now; True when the screen changed. A card taken or held back is heard."""
        before, self.state = self.state, self.session.state()
        pictures, self.pictures = self.pictures, self._pictures()
        s = self.state
        changed = (s.face, s.index, s.last, s.wrong, s.held, s.seen) != (before.face, before.index, before.last,
                                                                            before.wrong, before.held, before.seen)
        changed = changed or s.last_picture is not before.last_picture or pictures != self.pictures
        if cue and s.last_picture is not before.last_picture and s.last is not None:
            self.app.cue("accepted")
        elif cue and s.wrong is not None and s.wrong != before.wrong:
            self.app.cue("rejected")
        return changed

    def on_tick(self, now: float) -> bool:
        if now < self.next_refresh:
            return False
        self.next_refresh = now + REFRESH_S
        return self._follow()

    def next_wakeup(self) -> float | None:
        return self.next_refresh

    def model(self) -> dict[str, Any]:
        s = self.state
        return {"screen": self.name, "game": self.session.game, "deck": self.session.deck.name, "face": s.face,
                "taught": s.index, "total": s.total, "last": s.last, "wrong": s.wrong, "held": s.held,
                "seen": s.seen, "said": self.said()[0]}
