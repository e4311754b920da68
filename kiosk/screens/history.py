"""The last events in plain words, so a dispute is settled by looking."""

from __future__ import annotations

from kiosk.i18n import tr
from kiosk.screens import Screen
from kiosk.view import ACCENT, Grid, View

ROWS = 9


def describe(event: dict, face) -> str:
    kind = event.get("type")
    player = event.get("player", "")
    if kind == "play":
        cards = event.get("cards") or [event.get("card", "")]
        text = tr("{player} plays {card}", player=player, card=", ".join(face(c) for c in cards))
        if "from" in event:
            text += " " + tr("(from {owner}'s hand)", owner=event["from"])
        if "rank_choice" in event:
            text += f" ({event['rank_choice']})"
        if "target" in event:
            text += " " + tr("against {target}", target=event["target"])
        return text
    if kind == "undo":
        return tr("The operator took back the last event")
    if kind == "press":
        return tr("{player} presses {button}", player=player, button=event.get("button", ""))
    if kind == "draw":
        return tr("{player} draws", player=player)
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("type", "player"))
    return f"{player} {kind} {fields}".strip()


class HistoryScreen(Screen):
    name = "history"

    def __init__(self, app, back):
        super().__init__(app)
        self.back = back

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        v.text(g.r(0.04, 0.02, 0.7, 0.1), tr("History"), size=1.3, color=ACCENT, tag="title")
        v.button(g.r(0.78, 0.02, 0.2, 0.1), tr("Back"), "back")
        controller = self.back.controller
        lines = controller.history[-ROWS:]
        first = len(controller.history) - len(lines) + 1
        for i, logged in enumerate(lines):
            line = f"{first + i}. " + describe(logged.event, controller.ui.face)
            v.text(g.r(0.04, 0.15 + i * 0.09, 0.92, 0.085), line, size=0.7, tag="line")
        if not lines:
            v.text(g.r(0.04, 0.15, 0.92, 0.1), tr("No events yet."), size=0.8, tag="line")
        return v

    def on_action(self, action: str) -> None:
        if action == "back":
            self.app.show(self.back)

    def on_input(self, item) -> None:
        self.app.show(self.back)  # the table goes on: a scan returns to it
        self.back.on_input(item)
