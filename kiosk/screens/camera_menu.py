"""Staff's camera menu (admin → Camera): what the camera reads now, its zones' set-up, and teaching a deck.

The status says whether camera labels are read and which taught decks of the game in play are read by their
printed faces (`kiosk.hardware.camera_faces`). "Teach cards" asks for the game, then the deck: a new one, or one
taught before (continued where it stopped, taught again from its first card, or forgotten). Teaching needs the
table free: while a game is on the table screen behind the admin menu, the camera must count its cards.
"""

from __future__ import annotations

import time
from typing import Any

import kiosk.games
from hw.camera.taught import MAX_DECKS, TaughtDeck
from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BAD_FILL, BUTTON, GOOD, INK, MUTED, PANEL, Grid, Rect, View
from kiosk.hardware.camera_faces import Loaded, deck_number, faces_of
from kiosk.i18n import tr, trn
from kiosk.screens import Host, Screen, cells
from kiosk.screens.camera import CameraScreen
from kiosk.screens.confirm import Answer, ConfirmScreen
from kiosk.screens.teach import CameraStaffScreen, TeachScreen, title_of

REFRESH_S = 0.5  # while the decks are being loaded: the status follows


def header(v: View, g: Grid, title: str, back: str) -> int:
    """The screen's title and its way back, as every staff screen has them; returns where the body starts."""
    side = 0.28 if g.portrait else 0.22
    v.text(g.r(0.04, 0.005, 0.92 - side, 0.13 if not g.portrait else 0.08), title, size=1.0, color=ACCENT,
           tag="title")
    v.button(g.r(0.96 - side, 0.02, side, 0.07 if g.portrait else 0.1), back, "back", tag="back")
    return round(g.h * (0.1 if g.portrait else 0.15))


def message_rect(v: View, g: Grid, lines: int = 2) -> Rect:
    """The foot of the screen where a sentence for staff goes."""
    h = v.lines_height(lines + (1 if g.portrait else 0))
    return round(0.04 * g.w), g.h - h - round(0.01 * g.h), round(0.92 * g.w), h


class CameraMenuScreen(CameraStaffScreen[Screen]):
    name = "camera-menu"

    def __init__(self, app: Host, back: Screen, busy: bool = False):
        super().__init__(app, back)
        self.busy = busy  # a game is on the table screen behind the admin menu
        self.message = ""
        self.taught: dict[str, int] = {}
        self.refresh()

    def refresh(self) -> None:
        """The decks taught per game, read again (back from teaching)."""
        faces = self.taught_decks()
        self.taught = {game: len(faces.decks(game)) for game in kiosk.games.ids()} if faces else {}

    def status(self) -> list[str]:
        """What the camera reads, in sentences."""
        camera = self.app.camera
        if camera is None:
            return [tr("This table has no camera.")]
        lines = [tr("Camera labels: read.") if camera.reader.labels
                 else tr("Camera labels: not read (switched off in the config).")]
        faces = self.taught_decks()
        lines += (self._faces_status(faces.loaded) if faces is not None and faces.enabled
                  else [tr("Printed faces: not read (switched off in the config).")])
        taught = [trn("{game} ({n} deck)", "{game} ({n} decks)", n, game=title_of(game))
                  for game, n in self.taught.items() if n]
        if taught:
            lines.append(tr("Taught: {games}.", games=", ".join(taught)))
        return lines

    @staticmethod
    def _faces_status(loaded: Loaded) -> list[str]:
        """Which decks of the game in play are read by their faces, and which wait for faces not yet taught."""
        if loaded.game is None:
            return [tr("Printed faces: read once a game starts whose cards are taught.")]
        game = title_of(loaded.game)
        if not loaded.ready:
            return [tr("Printed faces of {game}: loading the taught decks …", game=game)]
        if not loaded.decks:
            said = [tr("Printed faces of {game}: no deck fully taught yet.", game=game) if loaded.partial
                    else tr("Printed faces of {game}: no deck taught yet.", game=game)]
        else:
            decks = ", ".join(trn("deck {name} ({n} face)", "deck {name} ({n} faces)", n, name=deck_number(name))
                              for name, n in loaded.decks)
            said = [tr("Printed faces of {game}: read by {decks}.", game=game, decks=decks)]
        total = len(faces_of(loaded.game))
        said += [tr("Deck {n} is read once all its faces are taught ({taught} of {total}).", n=deck_number(name),
                    taught=n, total=total) for name, n in loaded.partial]
        return said

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        top = header(v, g, tr("Camera"), tr("Back"))
        gap = cells.gap_of(v)
        x, w = round(0.04 * width), round(0.92 * width)
        foot = message_rect(v, g)
        buttons_h = max(round(v.limits.touch), round(height * (0.09 if g.portrait else 0.14)))
        buttons_y = foot[1] - gap - buttons_h
        v.box((x, top, w, buttons_y - gap - top), PANEL, tag="status-panel")
        y = top + gap // 2
        for i, line in enumerate(self.status()):  # a paragraph each, as high as its words need
            h = measure.height(line, w - gap, v.limits.cap)
            v.text((x + gap // 2, y, w - gap, h), line, size=0.85, color=INK, tag=f"status:{i}")
            y += h + gap // 2
        zones, teach = cells.cols((x, buttons_y, w, buttons_h), 2, gap)
        v.button(zones, tr("Set up zones"), "zones", tag="zones", group="actions")
        v.button(teach, tr("Teach cards"), "teach", fill=GOOD, tag="teach", group="actions")
        if self.message:
            v.text(foot, self.message, size=0.8, color=INK, tag="message")
        return v

    def on_action(self, action: str) -> None:
        self.message = ""
        if action == "back":
            self.app.show(self.back)
        elif action == "zones":
            self.app.show(CameraScreen(self.app, self))
        elif action == "teach":
            if self.busy:
                self.message = tr("Teaching needs the table free: end or pause the game first.")
            elif self.taught_decks() is None:
                self.message = tr("This table has no camera.")
            elif not self.decks_of_camera().can_read_faces():
                self.message = tr("Teaching needs OpenCV, which this kiosk lacks: install its camera extra.")
            else:
                self.app.show(TeachGamesScreen(self.app, self))

    def on_tick(self, now: float) -> bool:
        faces = self.taught_decks()
        return faces is not None and not faces.loaded.ready

    def next_wakeup(self) -> float | None:
        faces = self.taught_decks()
        return time.monotonic() + REFRESH_S if faces is not None and not faces.loaded.ready else None

    def model(self) -> dict[str, Any]:
        return {"screen": self.name, "status": self.status(), "message": self.message}


class TeachGamesScreen(CameraStaffScreen[CameraMenuScreen]):
    """Which game's deck to teach: one button per game, saying how many decks of it are taught."""

    name = "teach-games"

    def __init__(self, app: Host, back: CameraMenuScreen):
        super().__init__(app, back)
        faces = self.decks_of_camera()
        self.counts = {game: len(faces.decks(game)) for game in kiosk.games.ids()}

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        top = header(v, g, tr("Teach cards: which game?"), tr("Back"))
        gap = cells.gap_of(v)
        ids = list(self.counts)
        n_cols = 1 if g.portrait else 2
        n_rows = -(-len(ids) // n_cols)
        area = (round(0.04 * width), top, round(0.92 * width), height - top - round(0.04 * height))
        for game, rect in zip(ids, cells.table(area, n_cols, n_rows, gap), strict=False):
            n = self.counts[game]
            said = trn("{n} deck taught", "{n} decks taught", n) if n else tr("nothing taught yet")
            v.button(rect, f"{title_of(game)} · {said}", f"game:{game}", tag=f"game:{game}", group="games")
        return v

    def refresh(self) -> None:
        """Back from a deck's screen: the counts as they are now."""
        self.counts = {game: len(self.decks_of_camera().decks(game)) for game in self.counts}

    def on_action(self, action: str) -> None:
        kind, _, game = action.partition(":")
        if kind == "back":
            self.back.refresh()
            self.app.show(self.back)
        elif kind == "game" and game in self.counts:
            self.app.show(TeachDecksScreen(self.app, self, game))

    def model(self) -> dict[str, Any]:
        return {"screen": self.name, "decks": dict(self.counts)}


class TeachDecksScreen(CameraStaffScreen[TeachGamesScreen]):
    """Which deck of a game: each taught deck with how far it is taught, and a new one. A deck touched is chosen;
    then it is taught further, taught again from its first card, or forgotten (the last two ask once more)."""

    name = "teach-decks"

    def __init__(self, app: Host, back: TeachGamesScreen, game: str):
        super().__init__(app, back)
        self.game = game
        self.faces = self.decks_of_camera()
        self.total = len(faces_of(game))
        self.decks = self.faces.decks(game)
        self.chosen: str | None = next((d.name for d in self.decks if self._taught(d) < self.total), None)
        self.message = ""

    def _taught(self, deck: TaughtDeck) -> int:
        return len(deck.faces() & set(faces_of(self.game)))

    def refresh(self) -> None:
        """Back from teaching, or a deck forgotten: the decks as they are on disk now."""
        self.decks = self.faces.decks(self.game)
        if self.chosen not in {d.name for d in self.decks}:
            self.chosen = None

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        top = header(v, g, tr("{game}: which deck?", game=title_of(self.game)), tr("Back"))
        gap = cells.gap_of(v)
        x, w = round(0.04 * width), round(0.92 * width)
        foot = message_rect(v, g)
        bar = max(round(v.limits.touch), round(height * (0.09 if g.portrait else 0.13)))
        actions_y = foot[1] - gap - bar
        self._deck_grid(v, g, (x, top, w, actions_y - gap - top), gap)
        self._actions(v, (x, actions_y, w, bar), gap)
        if self.message:
            v.text(foot, self.message, size=0.8, color=INK, tag="message")
        return v

    def _deck_grid(self, v: View, g: Grid, area: Rect, gap: int) -> None:
        entries = [(d.name, tr("Deck {n}", n=deck_number(d.name)) + " · " +
                    tr("{taught} of {total} faces", taught=self._taught(d), total=self.total)) for d in self.decks]
        if len(self.decks) < MAX_DECKS:
            entries.append(("new", tr("New deck")))
        n_cols = 2 if g.portrait else 3
        n_rows = max(2, -(-len(entries) // n_cols))
        for (name, label), rect in zip(entries, cells.table(area, n_cols, n_rows, gap), strict=False):
            chosen = name == self.chosen
            v.button(rect, label, f"deck:{name}", fill=ACCENT if chosen else (GOOD if name == "new" else BUTTON),
                     tag=f"deck:{name}", group="decks")

    def _actions(self, v: View, row: Rect, gap: int) -> None:
        deck = next((d for d in self.decks if d.name == self.chosen), None)
        if deck is None:
            v.text(row, tr("Choose a deck, or start a new one."), size=0.8, color=MUTED, fill=PANEL, align="center",
                   tag="choose")
            return
        go, drop = cells.cols(row, 2, gap)
        label = tr("Teach further") if self._taught(deck) < self.total else tr("Teach again from the start")
        v.button(go, label, "teach", fill=GOOD, tag="teach", group="actions")
        v.button(drop, tr("Forget this deck"), "forget", fill=BAD_FILL, tag="forget", group="actions")

    def on_action(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        self.message = ""
        if kind == "back":
            self.back.refresh()
            self.app.show(self.back)
        elif kind == "deck" and arg == "new":
            self._start(None)
        elif kind == "deck":
            self.chosen = arg
        elif kind == "teach" and self.chosen is not None:
            deck = next(d for d in self.decks if d.name == self.chosen)
            if self._taught(deck) < self.total:
                self._start(deck.name)
            else:
                self._ask_again(deck)
        elif kind == "forget" and self.chosen is not None:
            self._ask_forget(next(d for d in self.decks if d.name == self.chosen))

    def _start(self, deck_name: str | None) -> None:
        session = self.faces.teach(self.game, deck_name)
        if session is None:
            self.message = tr("This game has as many decks as the kiosk keeps: forget one first.")
            return
        self.chosen = session.deck.name  # back from teaching, the deck taught is the one to go on with
        self.app.show(TeachScreen(self.app, self, session))

    def _ask_again(self, deck: TaughtDeck) -> None:
        def again() -> None:
            deck.clear()
            self.refresh()
            self._start(deck.name)

        question = tr("Teach deck {n} of {game} again from its first card? The faces it knows are forgotten.",
                      n=deck_number(deck.name), game=title_of(self.game))
        self.app.show(ConfirmScreen(self.app, self, question, [Answer(tr("Teach again"), again)]))

    def _ask_forget(self, deck: TaughtDeck) -> None:
        from hw.camera.taught import remove_deck

        def forget() -> None:
            remove_deck(deck)
            self.refresh()
            self.faces.reload()
            self.app.show(self)

        question = tr("Forget deck {n} of {game}? The camera no longer reads its cards by their faces.",
                      n=deck_number(deck.name), game=title_of(self.game))
        self.app.show(ConfirmScreen(self.app, self, question, [Answer(tr("Forget this deck"), forget)]))

    def model(self) -> dict[str, Any]:
        return {"screen": self.name, "game": self.game, "chosen": self.chosen, "message": self.message,
                "decks": {d.name: self._taught(d) for d in self.decks}, "total": self.total}
