"""An on-screen keyboard for a player's name: big keys, German letters, at most 16 characters.

Landscape shows the three letter rows of a German keyboard; portrait splits each into two rows so
every key keeps the least touch size. Other rows (the admin's Café screen: an address, a table's id, in
small letters only) are given by the caller.
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.drawing.view import ACCENT, BUTTON, GOOD, PANEL, Grid, View
from kiosk.i18n import tr
from kiosk.screens import Host, Screen
from kiosk.screens.cells import cols, gap_of, rows

ROWS = ["QWERTZUIOPÜ", "ASDFGHJKLÖÄ", "YXCVBNMß-"]
MAX_LEN = 16


class KeyboardScreen(Screen):
    name = "keyboard"

    def __init__(self, app: Host, back: Screen, title: str, text: str, done: Callable[[str], None], *,
                 rows: list[str] = ROWS, max_len: int = MAX_LEN, capitals: bool = True):
        super().__init__(app)
        self.back = back
        self.title = title
        self.text = text
        self.done = done
        self.rows, self.max_len, self.capitals = rows, max_len, capitals
        self.shift = capitals  # a name starts with a capital

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        gap = gap_of(v)
        v.text(g.r(0.03, 0.02, 0.94, 0.1), self.title, size=1.0, color=ACCENT, tag="title")
        v.text(g.r(0.03, 0.13, 0.94, 0.11), self.text + "_", size=1.2, fill=PANEL, tag="entry")
        letters = self.rows if width >= height else [row[i:i + 6] for row in self.rows for i in (0, 6) if row[i:]]
        per_row = max(len(row) for row in letters)
        key_rows = rows(g.r(0.02, 0.26, 0.96, 0.45), len(letters), gap)
        for r, row in enumerate(letters):
            for c, (char, rect) in enumerate(zip(row, cols(key_rows[r], per_row, gap), strict=False)):
                label = char if self.shift else char.lower()
                v.button(rect, label, f"key:{label}", tag=f"key{r}:{c}")
        units = cols(g.r(0.02, 0.73, 0.96, 0.12), 10, gap)  # Shift, Space, Delete: 3, 4 and 3 tenths

        def span(first: int, last: int) -> tuple[int, int, int, int]:
            return (units[first][0], units[first][1], units[last][0] + units[last][2] - units[first][0], units[0][3])

        if self.capitals:
            v.button(span(0, 2), "Shift", "shift", fill=GOOD if self.shift else BUTTON, group="special")
            v.button(span(3, 6), tr("Space"), "key: ", group="special")
        v.button(span(7, 9), tr("Delete"), "delete", group="special")
        bottom = cols(g.r(0.02, 0.87, 0.96, 0.12), 2, gap)
        v.button(bottom[0], tr("Cancel"), "cancel", group="bottom")
        v.button(bottom[1], tr("OK"), "ok", fill=GOOD, tag="ok", group="bottom")
        return v

    def on_action(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        if kind == "key" and len(self.text) < self.max_len:
            self.text += arg
            self.shift = False
        elif kind == "shift":
            self.shift = not self.shift
        elif kind == "delete":
            self.text = self.text[:-1]
            self.shift = self.capitals and not self.text
        elif kind == "cancel":
            self.app.show(self.back)
        elif kind == "ok":
            if self.text.strip():
                self.done(self.text.strip())
            self.app.show(self.back)
