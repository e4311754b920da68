"""Asking once more: a question that names what it affects, answered by touch (staff) or guarded (guests).

Staff's destructive admin entries ask with a plain Yes/No. Guests leaving a game mid-way must not do so
by a stray touch: each answer there is a button to hold for `HOLD_S` seconds, or two different seats press
their seat buttons (which confirms the first answer). A scan on a guarded question means the game goes
on: the question closes and the scan reaches the table. Unanswered, it closes by itself after a while.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from hw.inputs import ButtonPress, CardScan, Input
from kiosk.app.controller import TableController
from kiosk.drawing.view import ACCENT, BAD_FILL, BUTTON, INK, MUTED, PANEL, Grid, View
from kiosk.i18n import tr
from kiosk.screens import Host, Screen, cells

HOLD_S = 2.0
SEATS_NEEDED = 2
GIVE_UP_S = 30.0


@dataclass(frozen=True)
class Answer:
    label: str
    run: Callable[[], None]


class ConfirmScreen(Screen):
    name = "confirm"

    @property
    def takes_scans(self) -> bool:  # type: ignore[override]
        return self.guarded and self.back.takes_scans

    def __init__(self, app: Host, back: Screen, question: str, answers: list[Answer], guarded: bool = False,
                 detail: str = "", cancel: str | None = None, danger: bool = True):
        super().__init__(app)
        self.back = back
        self.question = question
        self.answers = answers
        self.guarded = guarded
        self.detail = detail
        self.cancel_label = cancel or tr("No")
        self.danger = danger  # the answer cannot be taken back: a red button
        self.seats: set[str] = set()
        self.message = ""
        self.opened = time.monotonic()
        self.holding: tuple[int, float] | None = None  # (answer, since): a finger on a hold button

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        v.text(g.r(0.04, 0.04, 0.92, 0.2), self.question, size=1.1, color=ACCENT, tag="question")
        if self.detail:
            v.text(g.r(0.04, 0.25, 0.92, 0.14), self.detail, size=0.8, color=INK, tag="detail")
        if self.guarded:
            how = tr("To confirm: hold a button for 2 seconds, or press two seat buttons.")
            v.text(g.r(0.04, 0.4, 0.92, 0.14), how, size=0.8, color=MUTED, tag="how")
        if self.guarded and self.seats:
            seats = ", ".join(cells.seat_name(self.app.seats, s) for s in sorted(self.seats))
            pressed = tr("Seat buttons pressed: {seats}", seats=seats)
            v.text(g.r(0.04, 0.55, 0.92, 0.09), pressed, size=0.8, color=INK, tag="seats")
        places = cells.cols(g.r(0.04, 0.68, 0.92, 0.17), len(self.answers) + 1, cells.gap_of(v) * 2)
        for i, (answer, rect) in enumerate(zip(self.answers, places, strict=False)):
            label = answer.label + (" " + tr("(hold)") if self.guarded else "")
            fill = BAD_FILL if self.danger and not self.guarded else BUTTON
            v.button(rect, label, f"yes:{i}", fill=fill, tag=f"yes:{i}", group="answers")
        v.button(places[-1], self.cancel_label, "no", fill=PANEL, tag="no", group="answers")
        if self.message:
            v.text(g.r(0.04, 0.87, 0.92, 0.11), self.message, size=0.8, color=INK, tag="message")
        return v

    def on_press(self, action: str) -> None:
        kind, _, arg = action.partition(":")
        if self.guarded and kind == "yes":
            self.holding = (int(arg), time.monotonic())
            self.message = tr("Keep holding …")

    def on_touch(self, action: str, held: float) -> None:
        kind, _, arg = action.partition(":")
        self.holding = None
        if kind == "no":
            self.app.show(self.back)
        elif kind == "yes":
            if self.guarded and held < HOLD_S:
                self.message = tr("Keep holding the button for 2 seconds.")
                return
            self._run(int(arg))

    def on_action(self, action: str) -> None:
        self.on_touch(action, HOLD_S if not self.guarded else 0.0)

    def _run(self, index: int) -> None:
        self.app.show(self.back)  # the answer may show another screen itself
        self.answers[index].run()

    def on_input(self, item: Input) -> None:
        if not self.guarded:
            return
        if isinstance(item, ButtonPress):
            self.seats.add(item.seat)
            if len(self.seats) >= SEATS_NEEDED:
                self._run(0)
        elif isinstance(item, CardScan):
            self.app.show(self.back)
            self.back.on_input(item)

    def on_tick(self, now: float) -> bool:
        if self.holding is not None and now - self.holding[1] >= HOLD_S:  # held long enough: it acts now
            answer, self.holding = self.holding[0], None
            self._run(answer)
            return True
        if self.holding is None and now - self.opened >= GIVE_UP_S:
            self.app.show(self.back)
            return True
        return False

    def next_wakeup(self) -> float | None:
        return self.holding[1] + HOLD_S if self.holding is not None else self.opened + GIVE_UP_S

    def model(self) -> dict:
        return {"screen": self.name, "question": self.question, "answers": [a.label for a in self.answers],
                "guarded": self.guarded, "seats": sorted(self.seats)}


def held_to_leave(held: float) -> bool:
    """The table's "Menu" held as long as the question would ask: that hold is the answer, no second page."""
    return held >= HOLD_S


def leave_question(app: Host, table: Screen, controller: TableController) -> ConfirmScreen:
    """The table screen's "Menü": guarded "Menü" / "Neues Spiel"; the game is paused, never lost."""
    players = ", ".join(controller.referee.players)
    return ConfirmScreen(
        app, table, tr("Leave “{game}” with {players}?", game=controller.ui.title, players=players),
        [Answer(tr("Menu"), lambda: app.leave_game(controller, new_game=False)),
         Answer(tr("New game"), lambda: app.leave_game(controller, new_game=True))],
        guarded=True, detail=tr("The game is paused: it stays in the history and can be resumed there."),
        cancel=tr("Back to the game"))
