"""The admin menu behind a long press on the top-left corner and a PIN.

Every destructive entry (undo, abandon, restart, shut down) asks once more and names what it affects.
Wrong PINs lock the keypad for a growing time (`kiosk.settings.pin.PinGuard`, kept across restarts); the PIN is
changed here, typed twice. The default PIN 1234 (no `admin_pin_hash` configured) opens only that change: the
menu follows once the table has a PIN of its own. The test screens for scanners and seat buttons open from here too.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from kiosk.app.commands import AdminCommand
from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BAD, BAD_FILL, BUTTON, GOOD, INK, PANEL, Grid, View, ui_scale
from kiosk.games.event_words import describe
from kiosk.i18n import tr, trn
from kiosk.screens import Host, Screen, cells
from kiosk.screens.cafe import CafeScreen
from kiosk.screens.camera_menu import CameraMenuScreen
from kiosk.screens.confirm import Answer, ConfirmScreen
from kiosk.screens.devices import ButtonTestScreen, ScannerTestScreen
from kiosk.screens.history import HistoryScreen
from kiosk.screens.table import TableScreen
from kiosk.settings.pin import MAX_LENGTH, MIN_LENGTH
from kiosk.settings.prefs import step_volume

ENTER, MENU, NEW_PIN, REPEAT_PIN = "enter", "menu", "new", "repeat"


class AdminScreen(Screen):
    name = "admin"

    def __init__(self, app: Host, back: Screen):
        super().__init__(app)
        self.back = back
        self.entered = ""
        self.mode = ENTER
        self.new_pin = ""
        self.message = ""

    # --- what the entries affect

    def table(self) -> TableScreen | None:
        return self.back if isinstance(self.back, TableScreen) else None

    def paused_game(self) -> HistoryScreen | None:
        back = self.back
        return back if isinstance(back, HistoryScreen) and back.status == "paused" else None

    def abandon_question(self) -> str | None:
        table, paused = self.table(), self.paused_game()
        if table is not None and not table.controller.finished:
            header = table.controller.referee.header
            title = table.controller.ui.title
        elif paused is not None:
            header = paused.header()
            title = paused.title()
        else:
            return None
        return tr("Abandon {game} with {players}?", game=title, players=", ".join(header["players"]))

    def undo_question(self) -> str | None:
        table = self.table()
        if table is None or not table.controller.referee.history:
            return None
        last = table.controller.referee.history[-1]
        return tr("Take back: {event}?", event=describe(last, table.controller.ui.face))

    def volume_text(self) -> str:
        volume = self.app.volume
        return tr("Volume: {n} %", n=volume) if volume else tr("Volume: mute")

    def items(self) -> list[tuple[AdminCommand, str]]:
        """The grid's entries (the volume has a row of its own: − level +)."""
        lang = "Deutsch" if self.app.lang == "de" else "English"
        items = [(AdminCommand.UNDO, tr("Undo last event")), (AdminCommand.ABANDON, tr("Abandon game")),
                 (AdminCommand.EXPORT, tr("Export")), (AdminCommand.LANGUAGE, tr("Language: {lang}", lang=lang)),
                 (AdminCommand.DEMO, tr("Demo mode: on") if self.app.settings.demo_after_s else tr("Demo mode: off")),
                 (AdminCommand.CHANGE_PIN, tr("Change PIN")),
                 (AdminCommand.SCANNER_TEST, tr("Scanner test")), (AdminCommand.BUTTON_TEST, tr("Button test")),
                 (AdminCommand.RESTART, tr("Restart")), (AdminCommand.SHUTDOWN, tr("Shut down"))]
        if getattr(self.app, "camera", None) is not None:  # a table with an overhead camera
            items.insert(9, (AdminCommand.CAMERA, tr("Camera")))
        if getattr(self.app, "joining", None) is not None:  # its key, joining a café, the link to the broker
            items.insert(8, (AdminCommand.CAFE, tr("Café")))
        if not self.app.kiosk_mode:
            items.append((AdminCommand.QUIT, tr("Close the window")))
        return items

    # --- drawing

    def view(self, width: int, height: int) -> View:
        if self.mode == MENU:
            return self._menu(width, height)
        titles = {ENTER: tr("Admin PIN"), NEW_PIN: tr("New PIN (4 to 8 digits)"), REPEAT_PIN: tr("New PIN again")}
        return self._keypad(width, height, titles[self.mode])

    def _keypad(self, width: int, height: int, title: str) -> View:
        g = Grid(width, height)
        v = View(width, height)
        side = 0.28 if g.portrait else 0.2
        v.text(g.r(0.04, 0.02, 0.94 - side - 0.04, 0.1), title, size=1.0, color=ACCENT, tag="title")
        v.button(g.r(0.98 - side, 0.02, side, 0.07 if g.portrait else 0.1), tr("Back"), "back")
        v.text(g.r(0.3, 0.14, 0.4, 0.1), "•" * len(self.entered) or "—", size=1.2, align="center", fill=PANEL,
               tag="pin")
        keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "OK"]
        pad = g.r(0.1, 0.27, 0.8, 0.58) if g.portrait else g.r(0.28, 0.26, 0.44, 0.6)
        for key, rect in zip(keys, cells.table(pad, 3, 4, cells.gap_of(v)), strict=True):
            v.button(rect, key, f"key:{key}", fill=GOOD if key == "OK" else BUTTON)
        wait = self.app.pins.locked_for() if self.mode == ENTER else 0
        if wait > 0:
            self.message = tr("Too many wrong PINs. Try again in {s} s.", s=math.ceil(wait))
        if self.message:
            v.text(g.r(0.04, 0.88, 0.92, 0.1), self.message, size=0.8, color=BAD if self.mode == ENTER else INK,
                   tag="message")
        return v

    def _menu(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        gap = cells.gap_of(v)
        bar = round(v.limits.touch) if g.portrait else max(round(v.limits.touch), round(height * 0.1))
        x, w, y = round(0.04 * width), round(0.92 * width), round(0.02 * height)
        v.text((x, y, round(w * 0.6), bar), tr("Admin"), size=1.0, color=ACCENT, tag="title")
        v.button((x + w - round(w * 0.32), y, round(w * 0.32), bar), tr("Close"), "back")
        y += bar + gap
        items = self.items()
        # the message as high as its words need (an export names its folder: a long path breaks after "/" and "-")
        message_h = measure.height(self.message, w, v.limits.cap) if self.message else 0
        room = height - y - 2 * gap - bar - message_h - round(0.02 * height)
        n_cols, least = self._columns(v, [label for _, label in items], w, gap, room, g.portrait)
        n_rows = math.ceil(len(items) / n_cols)
        grid_h = max(least, room)
        grid = cells.table((x, y, w, grid_h), n_cols, n_rows, gap)
        for (command, label), rect in zip(items, grid, strict=False):
            fill = BAD_FILL if command.destructive else BUTTON
            v.button(rect, label, f"admin:{command.value}", fill=fill, tag=f"admin:{command.value}", group="grid")
        y += grid_h + gap
        minus, *middle, plus = cells.cols((x, y, w, bar), 5, gap)
        level = (middle[0][0], y, middle[-1][0] + middle[-1][2] - middle[0][0], bar)
        v.button(minus, "−", "volume:down", tag="volume:down", group="volume", size=1.6)
        v.text(level, self.volume_text(), color=INK, fill=PANEL, align="center", tag="volume-level")
        v.button(plus, "+", "volume:up", tag="volume:up", group="volume", size=1.6)
        if self.message:
            v.text((x, y + bar + gap, w, message_h), self.message, color=INK, tag="message")
        return v

    @staticmethod
    def _columns(v: View, labels: list[str], w: int, gap: int, room: int, portrait: bool) -> tuple[int, int]:
        """How many columns the grid takes and the least height its rows need, every label whole: the fewest
        columns whose rows fit `room` (a long message leaves less), else the most."""
        pad = max(4, round(6 * ui_scale(v.width, v.height)))
        choices = (2, 3) if portrait else (3, 4)
        found = (choices[0], 0)
        for n_cols in choices:
            cell = (w - gap * (n_cols - 1)) // n_cols
            if not all(measure.fits(label, cell, v.limits.cap, pad) for label in labels):
                break  # a word would not fit a narrower cell whole
            row = max(round(v.limits.touch), max(measure.height(label, cell, v.limits.cap, pad) for label in labels))
            n_rows = math.ceil(len(labels) / n_cols)
            found = (n_cols, n_rows * (row + 2) + (n_rows - 1) * gap)
            if found[1] <= room:
                break
        return found

    # --- reacting

    def on_action(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        if kind == "back":
            if self.mode in (NEW_PIN, REPEAT_PIN) and not self.app.pins.must_change:
                self.mode, self.entered, self.message = MENU, "", ""
            else:  # a PIN entry, or the default PIN's forced change: no menu without a PIN of one's own
                self.app.show(self.back)
        elif kind == "key":
            self._key(arg)
        elif kind == "admin" and self.mode == MENU:
            self.run(AdminCommand(arg))
        elif kind == "volume" and self.mode == MENU:
            self.message = ""
            self.app.set_volume(step_volume(self.app.volume, up=arg == "up"))

    def run(self, command: AdminCommand) -> None:
        self.message = ""
        if command is AdminCommand.CHANGE_PIN:
            self.mode, self.entered = NEW_PIN, ""
        elif command is AdminCommand.SCANNER_TEST:
            self.app.show(ScannerTestScreen(self.app, self))
        elif command is AdminCommand.BUTTON_TEST:
            self.app.show(ButtonTestScreen(self.app, self))
        elif command is AdminCommand.CAMERA:
            table = self.table()
            self.app.show(CameraMenuScreen(self.app, self, busy=table is not None and not table.controller.finished))
        elif command is AdminCommand.CAFE:
            self.app.show(CafeScreen(self.app, self))
        elif command is AdminCommand.LANGUAGE:
            self.app.set_default_language("en" if self.app.lang == "de" else "de")
        elif command.destructive:
            self._ask(command)
        else:
            self.message = self.app.admin(command, self.back) or ""

    def _ask(self, command: AdminCommand) -> None:
        questions: dict[AdminCommand, Callable[[], str | None]] = {
            AdminCommand.UNDO: self.undo_question,
            AdminCommand.ABANDON: self.abandon_question,
            AdminCommand.RESTART: lambda: tr("Restart the kiosk? A game in progress goes on after the restart."),
            AdminCommand.SHUTDOWN: lambda: tr("Shut the table down? A game in progress goes on when it is "
                                              "switched on again."),
            AdminCommand.QUIT: lambda: tr("Quit the kiosk program?"),
        }
        question = questions[command]()
        if question is None:
            self.message = tr("Nothing to take back.") if command is AdminCommand.UNDO else tr("No game to abandon.")
            return
        labels = {AdminCommand.UNDO: tr("Take back"), AdminCommand.ABANDON: tr("Abandon game"),
                  AdminCommand.RESTART: tr("Restart"), AdminCommand.SHUTDOWN: tr("Shut down"),
                  AdminCommand.QUIT: tr("Quit")}

        def answer() -> None:
            self.message = self.app.admin(command, self.back) or ""

        self.app.show(ConfirmScreen(self.app, self, question, [Answer(labels[command], answer)]))

    def _key(self, key: str) -> None:
        if key == "C":
            self.entered = ""
        elif key == "OK":
            entered, self.entered = self.entered, ""
            self._enter(entered)
        elif len(self.entered) < MAX_LENGTH:
            self.entered += key

    def _enter(self, pin: str) -> None:
        if self.mode == ENTER:
            verdict = self.app.pins.attempt(pin)
            if verdict.ok and self.app.pins.must_change:
                self.mode, self.message = NEW_PIN, tr("Choose your own PIN first: 1234 is known to everyone.")
            elif verdict.ok:
                self.mode, self.message = MENU, ""
            elif not verdict.wait_s:
                left = self.app.pins.tries_left()
                self.message = trn("Wrong PIN. {n} more try before a wait.",
                                   "Wrong PIN. {n} more tries before a wait.", left)
        elif self.mode == NEW_PIN:
            if len(pin) < MIN_LENGTH:
                self.message = tr("A PIN has 4 to 8 digits.")
                return
            self.new_pin, self.mode, self.message = pin, REPEAT_PIN, ""
        elif self.mode == REPEAT_PIN:
            if pin != self.new_pin:
                self.mode, self.message = NEW_PIN, tr("The two PINs differ. Type the new PIN again.")
                return
            try:
                self.app.pins.change(pin)
            except ValueError:
                self.mode, self.message = NEW_PIN, tr("Not 1234: everyone knows it.")
                return
            self.mode, self.message = MENU, tr("The new PIN is saved.")

    def on_tick(self, now: float) -> bool:
        return self.mode == ENTER and self.app.pins.locked_for() > 0  # the countdown

    def next_wakeup(self) -> float | None:
        if self.mode == ENTER and self.app.pins.locked_for() > 0:
            return time.monotonic() + 1.0
        return None

    def model(self) -> dict:
        return {"screen": self.name, "mode": self.mode, "message": self.message,
                "locked_for": self.app.pins.locked_for()}
