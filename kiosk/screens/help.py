"""The "?" screen: a game's short rules as the referee sees them, a page at a time, in the table's language."""

from __future__ import annotations

from typing import Any

from hw.inputs import CardScan
from kiosk.drawing.view import ACCENT, BUTTON, INK, MUTED, Grid, View
from kiosk.games import help_texts
from kiosk.i18n import tr
from kiosk.screens import Host, Screen
from referee import games


class HelpScreen(Screen):
    name = "help"

    @property
    def takes_scans(self) -> bool:  # type: ignore[override]
        return self.back.takes_scans  # over the table a scan goes on to it

    def __init__(self, app: Host, back: Screen, game_id: str):
        super().__init__(app)
        self.back = back
        self.game_id = game_id
        self.pages = help_texts.pages(game_id)
        self.page = 0

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        page = self.pages[self.page]
        portrait = height > width
        bar = 0.07 if portrait else 0.11  # the top and bottom bars
        v.text(g.r(0.03, 0.02, 0.7, bar), f"{games.get(self.game_id).title} – {tr(page.title)}", size=1.0,
               color=ACCENT, tag="title")
        v.button(g.r(0.76, 0.02, 0.21, bar), tr("Back"), "back", tag="back")
        count = len(page.paragraphs)
        top, bottom = 0.04 + bar, 0.96 - bar - 0.02
        each = (bottom - top) / count
        for i, paragraph in enumerate(page.paragraphs):
            v.text(g.r(0.03, top + i * each, 0.94, each - 0.01), tr(paragraph), size=0.9 if portrait else 0.8,
                   color=INK, tag="help")
        pager = tr("Page {n} of {m}", n=self.page + 1, m=len(self.pages))
        v.text(g.r(0.3, 0.98 - bar, 0.4, bar), pager, size=0.8, color=MUTED, align="center", tag="page")
        if self.page > 0:
            v.button(g.r(0.03, 0.98 - bar, 0.25, bar), tr("Previous"), "prev", fill=BUTTON, tag="prev")
        if self.page < len(self.pages) - 1:
            v.button(g.r(0.72, 0.98 - bar, 0.25, bar), tr("Next"), "next", fill=BUTTON, tag="next")
        return v

    def on_action(self, action: str) -> None:
        if action == "back":
            self.app.show(self.back)
        elif action == "next":
            self.page = min(self.page + 1, len(self.pages) - 1)
        elif action == "prev":
            self.page = max(self.page - 1, 0)

    def on_input(self, item: Any) -> None:
        if isinstance(item, CardScan):  # a scan means play goes on: back to the screen that asked for help
            self.app.show(self.back)
            self.back.on_input(item)

    def model(self) -> dict:
        return {"screen": self.name, "game": self.game_id, "page": self.page + 1, "pages": len(self.pages),
                "title": tr(self.pages[self.page].title)}
