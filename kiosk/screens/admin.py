"""The admin menu behind a long press on the top-left corner and a PIN: undo, abandon, export, language, restart."""

from __future__ import annotations

from kiosk.i18n import tr
from kiosk.pin import check_pin
from kiosk.screens import Screen
from kiosk.view import ACCENT, BAD, BUTTON, GOOD, MUTED, PANEL, Grid, View


class AdminScreen(Screen):
    name = "admin"

    def __init__(self, app, back: Screen):
        super().__init__(app)
        self.back = back
        self.entered = ""
        self.unlocked = False
        self.message = ""

    def view(self, width: int, height: int) -> View:
        return self._menu(width, height) if self.unlocked else self._pin(width, height)

    def _pin(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        v.text(g.r(0.04, 0.02, 0.6, 0.1), tr("Admin PIN"), size=1.2, color=ACCENT, tag="title")
        v.button(g.r(0.78, 0.02, 0.2, 0.1), tr("Back"), "back")
        v.text(g.r(0.3, 0.14, 0.4, 0.1), "•" * len(self.entered) or "—", size=1.2, align="center", fill=PANEL,
               tag="pin")
        keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "OK"]
        for i, key in enumerate(keys):
            row, col = divmod(i, 3)
            v.button(g.r(0.3 + col * 0.135, 0.27 + row * 0.17, 0.115, 0.15), key, f"key:{key}",
                     fill=GOOD if key == "OK" else BUTTON)
        if self.message:
            v.text(g.r(0.04, 0.9, 0.92, 0.08), self.message, size=0.6, color=BAD, tag="message")
        return v

    def _menu(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        v.text(g.r(0.04, 0.02, 0.6, 0.1), tr("Admin"), size=1.2, color=ACCENT, tag="title")
        v.button(g.r(0.78, 0.02, 0.2, 0.1), tr("Close"), "back")
        items = [("undo", tr("Undo last event")), ("abandon", tr("Abandon game")), ("export", tr("Export games")),
                 ("lang", tr("Language: Deutsch / English")), ("demo", tr("Demo mode on/off")),
                 ("sound", self._sound_label()),
                 ("restart", tr("Restart")), ("shutdown", tr("Shut down"))]
        if not self.app.kiosk_mode:
            items.append(("quit", tr("Quit (development)")))
        for i, (action, label) in enumerate(items):
            row, col = divmod(i, 2)
            v.button(g.r(0.04 + col * 0.47, 0.15 + row * 0.17, 0.45, 0.14), label, action, tag=f"admin:{action}")
        if self.message:
            v.text(g.r(0.04, 0.85, 0.92, 0.1), self.message, size=0.6, color=MUTED, tag="message")
        return v

    def _sound_label(self) -> str:
        audio = self.app.audio
        if audio.muted or not audio.volume:
            return tr("Sound: off")
        return tr("Sound: {percent} %", percent=audio.volume)

    def on_action(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        if kind == "back":
            self.app.show(self.back)
        elif kind == "key":
            self._key(arg)
        elif self.unlocked:
            self.message = self.app.admin_action(action, self.back) or ""

    def _key(self, key: str) -> None:
        if key == "C":
            self.entered = ""
        elif key == "OK":
            if check_pin(self.entered, self.app.settings.pin_hash):
                self.unlocked, self.message = True, ""
            else:
                self.message = tr("Wrong PIN.")
            self.entered = ""
        elif len(self.entered) < 8:
            self.entered += key
