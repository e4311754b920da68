"""The table screen: whose turn, what may come next and why, the cards on the table, seats, the last verdict."""

from __future__ import annotations

import time

from hw.inputs import ButtonPress, CardScan, ReaderError
from kiosk.controller import TableController
from kiosk.i18n import language, tr
from kiosk.screens import Host, Screen
from kiosk.screens.confirm import leave_question
from kiosk.screens.help import HelpScreen
from kiosk.screens.history import HistoryScreen
from kiosk.screens.results import results_view
from kiosk.view import ACCENT, BAD, BUTTON, GOOD, INK, MUTED, PANEL, Grid, View


class TableScreen(Screen):
    name = "table"

    def __init__(self, app: Host, controller: TableController):
        super().__init__(app)
        self.controller = controller

    # --- drawing

    def view(self, width: int, height: int) -> View:
        c = self.controller
        if c.finished:
            return results_view(c, width, height)
        g = Grid(width, height)
        v = View(width, height)
        state = c.state
        panel = c.ui.panel(state)
        v.text(g.r(0.02, 0.01, 0.3, 0.1), c.ui.title, size=1.0, color=MUTED, tag="title")
        v.button(g.r(0.33, 0.01, 0.08, 0.1), "?", "help", tag="help")
        v.button(g.r(0.42, 0.01, 0.17, 0.1), tr("History"), "history", tag="history")
        v.button(g.r(0.60, 0.01, 0.17, 0.1), tr("Menu"), "leave", tag="leave")
        v.button(g.r(0.78, 0.01, 0.2, 0.1), "English" if language() == "de" else "Deutsch", "lang", tag="lang")
        v.text(g.r(0.02, 0.12, 0.66, 0.11), panel.headline, size=1.3, color=ACCENT, tag="turn")
        first = 0
        if panel.big:  # a banner over the first two hint lines
            v.text(g.r(0.02, 0.23, 0.66, 0.12), panel.big, size=1.6, color=BAD, fill=PANEL, tag="big")
            first = 2
        for i, hint in enumerate(panel.hints[:3 - first]):
            v.text(g.r(0.02, 0.23 + (i + first) * 0.06, 0.66, 0.06), hint, size=0.65, tag="hint")
        self._cards(v, g, panel)
        for i, line in enumerate(panel.extra[:2]):
            v.text(g.r(0.02, 0.64 + i * 0.05, 0.66, 0.05), line, size=0.55, color=MUTED, tag="extra")
        self._seats(v, g, panel, state)
        self._feedback(v, g)
        self._actions(v, g)
        return v

    def _cards(self, v: View, g: Grid, panel) -> None:
        if panel.lines:
            rows = panel.lines[:6]
            h = min(0.055, 0.22 / len(rows))
            for i, line in enumerate(rows):
                v.text(g.r(0.02, 0.41 + i * h, 0.66, h), line, size=0.5, tag="table-line")
            return
        v.text(g.r(0.02, 0.41, 0.66, 0.05), panel.cards_title, size=0.5, color=MUTED)
        shown = panel.cards[-8:]
        if not shown:
            v.text(g.r(0.02, 0.47, 0.66, 0.14), "—", size=0.8, color=MUTED, tag="cards-empty")
            return
        width = min(0.16, 0.66 / len(shown))
        for i, card in enumerate(shown):
            x = 0.02 + i * width
            v.card(g.r(x, 0.47, width - 0.01, 0.11), card.label, card.highlight, tag="card")
            if card.owner:
                v.text(g.r(x, 0.58, width - 0.01, 0.05), card.owner, size=0.45, color=MUTED, align="center")

    def _seats(self, v: View, g: Grid, panel, state) -> None:
        players = self.controller.ui.players
        row = min(0.13, 0.6 / max(len(players), 1))
        turn = state.get("turn")
        for i, player in enumerate(players):
            y = 0.13 + i * row
            hot = player == turn
            v.box(g.r(0.7, y, 0.28, row - 0.01), GOOD if hot else PANEL, tag=f"seat:{player}")
            v.text(g.r(0.71, y, 0.26, (row - 0.01) * 0.55), player, size=0.7, color=INK, tag=f"seat-name:{player}")
            v.text(g.r(0.71, y + (row - 0.01) * 0.5, 0.26, (row - 0.01) * 0.5), panel.seat_lines.get(player, ""),
                   size=0.45, color=INK)

    def _feedback(self, v: View, g: Grid) -> None:
        fb = self.controller.feedback
        if fb is None:
            # The first scan of a new game gets a coach line.
            first = not self.controller.referee.history
            hint = tr("Lay a card on the table and scan it.") if first else tr("Scan a card.")
            v.text(g.r(0.02, 0.74, 0.96, 0.1), hint, size=0.8, color=MUTED, tag="feedback")
            return
        text = fb.text(self.app.lang)
        # The verdict is a coloured bar beside the sentence: green accepted, red rejected.
        v.box(g.r(0.02, 0.74, 0.015, 0.1), GOOD if fb.ok else BAD, tag="verdict:ok" if fb.ok else "verdict:no")
        v.text(g.r(0.04, 0.74, 0.94, 0.1), text, size=0.8, color=GOOD if fb.ok else BAD, fill=PANEL,
               tag="feedback")

    def _actions(self, v: View, g: Grid) -> None:
        c = self.controller
        if c.pending is not None:
            options = c.pending.options
            width = min(0.24, 0.8 / (len(options) + 1))
            for i, (label, _) in enumerate(options):
                v.button(g.r(0.02 + i * (width + 0.01), 0.86, width, 0.12), label, f"choose:{i}", fill=GOOD,
                         tag="choice")
            v.button(g.r(0.8, 0.86, 0.18, 0.12), tr("Cancel"), "cancel", tag="choice-cancel")
            return
        actions = c.ui.actions(c.state)
        if not actions:
            return
        width = min(0.24, 0.96 / len(actions) - 0.01)
        for i, action in enumerate(actions):
            v.button(g.r(0.02 + i * (width + 0.01), 0.86, width, 0.12), action.label, f"act:{action.key}",
                     fill=BUTTON, tag="action")

    # --- reacting

    def on_action(self, action: str) -> None:
        c = self.controller
        kind, _, arg = action.partition(":")
        if kind == "choose":
            c.choose(int(arg))
        elif kind == "cancel":
            c.cancel_choice()
        elif kind == "act":
            c.action(arg)
        elif kind == "lang":
            self.app.toggle_language()
        elif kind == "history":
            self.app.show(HistoryScreen(self.app, self, self.controller.game_row, self.controller))
        elif kind == "help":
            self.app.show(HelpScreen(self.app, self, c.referee.header["game"]))
        elif kind == "leave":
            self.app.show(leave_question(self.app, self, c))
        elif kind == "rematch":
            self.app.rematch(c)
        elif kind == "menu":
            self.app.go_menu()

    def on_input(self, item) -> None:
        c = self.controller
        if isinstance(item, CardScan):
            c.scan(item.code, self.app.seat_of_reader(item.reader))
        elif isinstance(item, ButtonPress):
            c.button(item.seat, item.button, item.t_ns)
        elif isinstance(item, ReaderError) and item.reason not in ("disconnected", "reconnected"):
            c.reader_error()

    def on_tick(self, now: float) -> bool:
        return bool(self.controller.due_timers(now))

    def next_wakeup(self) -> float | None:
        return self.controller.next_deadline()

    def model(self) -> dict:
        c = self.controller
        fb = c.feedback
        return {
            "screen": self.name,
            "game": c.referee.header["game"],
            "state": c.state,
            "pending": None if c.pending is None else [label for label, _ in c.pending.options],
            "feedback": None if fb is None else {"ok": fb.ok, "error": fb.rejection.code if fb.rejection else None,
                                                 "text": fb.text(self.app.lang)},
            "events": len(c.referee.history),
            "at": time.time(),
        }
