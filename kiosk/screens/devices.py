"""Staff's test screens: each scanner's last code live (per seat), and each seat's buttons lighting up.

While a test screen is open the inputs go to it, not to a game: a scan or a press here changes nothing
in the log. The button test also holds the seat's own light on for a moment (`app.lights.hold(seat, on)`)
when the table has seat lights.
"""

from __future__ import annotations

import time

from hw.inputs import ButtonPress, CardScan, Input, ReaderNews
from kiosk.drawing.view import ACCENT, BAD, INK, MUTED, PANEL, Grid, View
from kiosk.games.event_words import reader_problem, scanned
from kiosk.i18n import tr
from kiosk.screens import Host, Screen

LIT_FILL = (250, 200, 60)  # a lit button: light fill, dark text

LIT_S = 1.0  # how long a pressed button stays lit


class ScannerTestScreen(Screen):
    name = "scanner-test"
    takes_scans = True

    def __init__(self, app: Host, back: Screen):
        super().__init__(app)
        self.back = back
        self.last: dict[str, tuple[str, float, bool]] = {}  # reader → (code or error, wall time, ok)

    def readers(self) -> list[str]:
        known = list(self.app.reader_seats)
        return known + sorted(r for r in self.last if r not in known)

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        side = 0.28 if g.portrait else 0.2
        v.text(g.r(0.04, 0.005, 0.9 - side, 0.13), tr("Scanner test: scan any card"), size=1.0, color=ACCENT,
               tag="title")
        v.button(g.r(0.98 - side, 0.02, side, 0.07 if g.portrait else 0.1), tr("Back"), "back")
        readers = self.readers()
        if not readers:
            v.text(g.r(0.04, 0.16, 0.92, 0.1), tr("No scanner is configured. Scan a card to see it here."),
                   size=0.8, color=MUTED, tag="none")
        row = min(0.16, 0.7 / max(1, len(readers)))
        for i, reader in enumerate(readers):
            seat = self.app.seat_of_reader(reader)
            y = 0.14 + i * row
            name = tr("Seat {seat}", seat=seat) if seat else tr("Shared scanner ({reader})", reader=reader)
            code, at, ok = self.last.get(reader, (tr("nothing yet"), 0.0, True))
            when = time.strftime("%H:%M:%S", time.localtime(at)) if at else ""
            name_at, code_at = _split_row(g, y, row)
            v.text(name_at, name, size=0.8, color=INK, fill=PANEL, tag=f"reader:{reader}")
            v.text(code_at, f"{when}  {code}".strip(), size=0.8, color=INK if ok else BAD, fill=PANEL,
                   tag=f"code:{reader}")
        return v

    def on_input(self, item: Input) -> None:
        if isinstance(item, CardScan):
            self.last[item.reader] = (scanned(item.code), time.time(), True)
        elif isinstance(item, ReaderNews):
            self.last[item.reader] = (reader_problem(item.reason), time.time(), False)

    def on_action(self, action: str) -> None:
        if action == "back":
            self.app.show(self.back)

    def model(self) -> dict:
        return {"screen": self.name, "last": {reader: code for reader, (code, _, _) in self.last.items()}}


class ButtonTestScreen(Screen):
    name = "button-test"

    def __init__(self, app: Host, back: Screen):
        super().__init__(app)
        self.back = back
        self.lit: dict[tuple[str, str], float] = {}  # (seat, button) → monotonic time it goes dark
        self.seen: list[str] = []

    def seats(self) -> list[str]:
        known = list(self.app.seats)
        return known + [s for s in self.seen if s not in known]

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        side = 0.28 if g.portrait else 0.2
        v.text(g.r(0.04, 0.005, 0.9 - side, 0.13), tr("Button test: press each seat's buttons"), size=1.0,
               color=ACCENT, tag="title")
        v.button(g.r(0.98 - side, 0.02, side, 0.07 if g.portrait else 0.1), tr("Back"), "back")
        seats = self.seats()
        if not seats:
            v.text(g.r(0.04, 0.16, 0.92, 0.1), tr("No seat is configured. Press a seat button to see it here."),
                   size=0.8, color=MUTED, tag="none")
        now = time.monotonic()
        row = min(0.16, 0.7 / max(1, len(seats)))
        for i, seat in enumerate(seats):
            y = 0.14 + i * row
            name_at, lamps = _split_row(g, y, row)
            v.text(name_at, tr("Seat {seat}", seat=seat), size=0.8, color=INK, fill=PANEL, tag=f"seat:{seat}")
            halves = [(lamps[0], lamps[1], lamps[2] // 2 - 6, lamps[3]),
                      (lamps[0] + lamps[2] // 2 + 6, lamps[1], lamps[2] - lamps[2] // 2 - 6, lamps[3])]
            for j, (button, label) in enumerate((("confirm", tr("Confirm")), ("slap", tr("Slap")))):
                on = self.lit.get((seat, button), 0) > now
                rect = halves[j]
                if on:
                    v.box(rect, LIT_FILL, tag=f"lit:{seat}:{button}")
                    v.text(rect, label + " ✓", size=0.8, color=(20, 20, 20), align="center")
                else:
                    v.text(rect, label, size=0.8, color=MUTED, fill=PANEL, align="center", tag=f"dark:{seat}:{button}")
        return v

    def on_input(self, item: Input) -> None:
        if isinstance(item, ButtonPress):
            self.lit[(item.seat, str(item.button))] = time.monotonic() + LIT_S
            if item.seat not in self.seen:
                self.seen.append(item.seat)
            self._light(item.seat, True)

    def _light(self, seat: str, on: bool) -> None:
        lights = self.app.lights
        if lights is not None:
            lights.hold(seat, on)

    def on_tick(self, now: float) -> bool:
        dark = [key for key, until in self.lit.items() if until <= now]
        for key in dark:
            del self.lit[key]
            if not any(seat == key[0] for seat, _ in self.lit):
                self._light(key[0], False)
        return bool(dark)

    def next_wakeup(self) -> float | None:
        return min(self.lit.values(), default=None)

    def on_action(self, action: str) -> None:
        if action == "back":
            for seat, _ in list(self.lit):
                self._light(seat, False)
            self.lit.clear()
            self.app.show(self.back)

    def lit_now(self) -> list[tuple[str, str]]:
        now = time.monotonic()
        return sorted(key for key, until in self.lit.items() if until > now)

    def model(self) -> dict:
        return {"screen": self.name, "lit": [f"{seat}:{button}" for seat, button in self.lit_now()]}


def _split_row(g: Grid, y: float, row: float) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """A reader's or seat's row: its name beside what it shows (landscape), or above it (portrait, where the
    names and codes need the whole width)."""
    if g.portrait:
        return g.r(0.04, y, 0.92, row * 0.38), g.r(0.04, y + row * 0.4, 0.92, row * 0.6 - 0.02)
    return g.r(0.04, y, 0.3, row - 0.02), g.r(0.36, y, 0.6, row - 0.02)
