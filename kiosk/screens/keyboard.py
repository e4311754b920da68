"""An on-screen keyboard for a player's name: quick to type (issue #37).

The field starts empty with the seat's default name shown as a greyed placeholder (OK on an empty field keeps
it); a name the guests typed before is there to be corrected. Digits, umlauts and ß; the layout and the keys'
words in the table's language (QWERTZ in German, QWERTY in English, both with Ä Ö Ü ß); at most `MAX_LEN`
characters, the count shown beside the field; Delete held down keeps deleting (after `REPEAT_AFTER_S`, one
character every `REPEAT_EVERY_S`). Portrait splits each row of keys into two so every key keeps the least touch size.
Other rows (the admin's Café screen: an address, a table's id, in small letters only) are given by the caller.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BAD, BUTTON, GOOD, MUTED, PANEL, Grid, View
from kiosk.i18n import language, tr
from kiosk.screens import Host, Screen
from kiosk.screens.cells import cols, gap_of, rows

LAYOUTS = {
    "de": ["1234567890", "QWERTZUIOPÜ", "ASDFGHJKLÖÄ", "YXCVBNMß-"],
    "en": ["1234567890", "QWERTYUIOP-", "ASDFGHJKLÄÖ", "ZXCVBNMÜß"],
}
MAX_LEN = 20
REPEAT_AFTER_S = 0.5  # Delete held this long starts repeating …
REPEAT_EVERY_S = 0.1  # … one character this often


def deletions(held: float) -> int:
    """How many characters Delete held for `held` seconds takes away: one at the press, then the repeats."""
    if held < REPEAT_AFTER_S:
        return 1
    return 2 + math.floor((held - REPEAT_AFTER_S) / REPEAT_EVERY_S + 1e-9)


class KeyboardScreen(Screen):
    name = "keyboard"

    def __init__(self, app: Host, back: Screen, title: str, text: str, done: Callable[[str], None], *,
                 placeholder: str = "", rows: list[str] | None = None, max_len: int = MAX_LEN, capitals: bool = True):
        """`text`: what the field starts with (a typed name to correct; "" for a seat's default name, which is
        then the `placeholder` and what an empty OK keeps); `rows`: the keys (None: a name's, in the table's
        language); `capitals`: whether there is a Shift (and a Space)."""
        super().__init__(app)
        self.back = back
        self.title = title
        self.max_len, self.capitals, self.rows = max_len, capitals, rows
        self.text = text[:max_len]
        self.placeholder = placeholder
        self.done = done
        self.shift = capitals and not self.text  # a name starts with a capital
        self._deleting: tuple[float, int] | None = None  # Delete held: (when pressed, characters deleted so far)

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        gap = gap_of(v)
        # (top, height) of the field, the keys, the Shift/Space/Delete row and the Cancel/OK row, as fractions
        field, keys, special, bottom_row = ((0.1, 0.08), (0.19, 0.54), (0.745, 0.1), (0.865, 0.12)) \
            if g.portrait else ((0.105, 0.105), (0.22, 0.5), (0.74, 0.11), (0.87, 0.12))
        v.text(g.r(0.03, 0.01, 0.94, field[0] - 0.015), self.title, size=1.0, color=ACCENT, tag="title")
        self._field(v, g.r(0.03, *field[:1], 0.94, field[1]))
        letters = self.rows or LAYOUTS.get(language(), LAYOUTS["en"])
        if g.portrait:
            letters = [row[i:i + 6] for row in letters for i in (0, 6) if row[i:i + 6]]
        per_row = max(len(row) for row in letters)
        key_rows = rows(g.r(0.02, keys[0], 0.96, keys[1]), len(letters), gap)
        for r, row in enumerate(letters):
            for c, (char, rect) in enumerate(zip(row, cols(key_rows[r], per_row, gap), strict=False)):
                label = char if self.shift else char.lower()
                v.button(rect, label, f"key:{label}", tag=f"key{r}:{c}", group="keys")
        units = cols(g.r(0.02, special[0], 0.96, special[1]), 10, gap)  # Shift, Space, Delete: 3, 4, 3 tenths

        def span(first: int, last: int) -> tuple[int, int, int, int]:
            return (units[first][0], units[first][1], units[last][0] + units[last][2] - units[first][0], units[0][3])

        if self.capitals:
            v.button(span(0, 2), tr("Shift"), "shift", fill=GOOD if self.shift else BUTTON, group="special")
            v.button(span(3, 6), tr("Space"), "key: ", group="special")
        v.button(span(7, 9), tr("Delete"), "delete", group="special")
        bottom = cols(g.r(0.02, bottom_row[0], 0.96, bottom_row[1]), 2, gap)
        v.button(bottom[0], tr("Cancel"), "cancel", group="bottom")
        v.button(bottom[1], tr("OK"), "ok", fill=GOOD, tag="ok", group="bottom")
        return v

    def _field(self, v: View, rect: tuple[int, int, int, int]) -> None:
        """The name so far (or the placeholder, greyed) and the count of characters beside it."""
        count = f"{len(self.text)} / {self.max_len}"
        count_w = measure.width(f"{self.max_len} / {self.max_len}", v.limits.cap) + 12
        x, y, w, h = rect
        shown, color = (self.text + "_", None) if self.text else (self.placeholder, MUTED)
        v.text((x, y, w - count_w - 8, h), shown, size=1.2, fill=PANEL, tag="entry",
               **({"color": color} if color else {}))
        full = len(self.text) >= self.max_len
        v.text((x + w - count_w, y, count_w, h), count, size=0.8, color=BAD if full else MUTED, align="right",
               tag="count")

    # --- reacting

    def on_press(self, action: str) -> None:
        if action == "delete":  # one character at once; held, it goes on (`on_tick`)
            self._delete(1)
            self._deleting = (time.monotonic(), 1)

    def on_touch(self, action: str, held: float) -> None:
        if action == "delete":
            done = self._deleting[1] if self._deleting is not None else 0
            self._deleting = None
            self._delete(max(0, deletions(held) - done))  # (a touch from the control socket has no press)
            return
        self._deleting = None
        self.on_action(action)

    def on_tick(self, now: float) -> bool:
        if self._deleting is None:
            return False
        pressed, done = self._deleting
        due = deletions(now - pressed)
        if due <= done:
            return False
        self._delete(due - done)
        self._deleting = (pressed, due) if self.text else None
        return True

    def next_wakeup(self) -> float | None:
        if self._deleting is None:
            return None
        pressed, done = self._deleting
        return pressed + REPEAT_AFTER_S + (done - 1) * REPEAT_EVERY_S

    def _delete(self, n: int) -> None:
        if n:
            self.text = self.text[:-n] if n < len(self.text) else ""
            self.shift = self.capitals and not self.text

    def on_action(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        if kind == "key" and len(self.text) < self.max_len:
            self.text += arg
            self.shift = False
        elif kind == "shift":
            self.shift = not self.shift
        elif kind == "delete":
            self._delete(1)
        elif kind == "cancel":
            self.app.show(self.back)
        elif kind == "ok":
            if self.text.strip():
                self.done(self.text.strip())
            self.app.show(self.back)

    def model(self) -> dict:
        return {"screen": self.name, "text": self.text, "placeholder": self.placeholder}
