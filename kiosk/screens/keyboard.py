"""An on-screen keyboard for a player's name: big keys, German letters, at most 16 characters."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.i18n import tr
from kiosk.screens import Host, Screen
from kiosk.view import ACCENT, BUTTON, GOOD, PANEL, Grid, View

ROWS = ["QWERTZUIOPÜ", "ASDFGHJKLÖÄ", "YXCVBNMß-"]
MAX_LEN = 16


class KeyboardScreen(Screen):
    name = "keyboard"

    def __init__(self, app: Host, back: Screen, title: str, text: str, done: Callable[[str], None]):
        super().__init__(app)
        self.back = back
        self.title = title
        self.text = text
        self.done = done
        self.shift = True  # a name starts with a capital

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        v.text(g.r(0.03, 0.02, 0.6, 0.1), self.title, size=1.0, color=ACCENT, tag="title")
        v.text(g.r(0.03, 0.13, 0.94, 0.11), self.text + "_", size=1.2, fill=PANEL, tag="entry")
        for r, row in enumerate(ROWS):
            for c, char in enumerate(row):
                label = char if self.shift else char.lower()
                v.button(g.r(0.02 + c * 0.088, 0.27 + r * 0.15, 0.082, 0.13), label, f"key:{label}")
        v.button(g.r(0.02, 0.72, 0.16, 0.13), "Shift", "shift", fill=GOOD if self.shift else BUTTON)
        v.button(g.r(0.2, 0.72, 0.4, 0.13), tr("Space"), "key: ")
        v.button(g.r(0.62, 0.72, 0.17, 0.13), tr("Delete"), "delete")
        v.button(g.r(0.02, 0.87, 0.3, 0.12), tr("Cancel"), "cancel")
        v.button(g.r(0.67, 0.87, 0.31, 0.12), tr("OK"), "ok", fill=GOOD, tag="ok")
        return v

    def on_action(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        if kind == "key" and len(self.text) < MAX_LEN:
            self.text += arg
            self.shift = False
        elif kind == "shift":
            self.shift = not self.shift
        elif kind == "delete":
            self.text = self.text[:-1]
            self.shift = not self.text
        elif kind == "cancel":
            self.app.show(self.back)
        elif kind == "ok":
            if self.text.strip():
                self.done(self.text.strip())
            self.app.show(self.back)
