"""The "?" screen: a game's short rules as the referee sees them, a page at a time, in the table's language."""

from __future__ import annotations

from hw.inputs import CardScan, Input
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
        self.page = 0  # of the sheets: the pages as they fit this screen
        self.sheets: list[tuple[str, list[str]]] = [(tr(p.title), [tr(t) for t in p.paragraphs]) for p in self.pages]

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        portrait = height > width
        bar = 0.07 if portrait else 0.11  # the top and bottom bars
        head = 0.1 if portrait else bar  # the title's height: three lines in portrait's narrow column
        top, bottom = 0.03 + head, 0.96 - bar - 0.02
        x, w, area = round(0.03 * width), round(0.94 * width), round((bottom - top) * height)
        self.sheets = self._sheets(w, area, v)
        self.page = min(self.page, len(self.sheets) - 1)
        title, paragraphs = self.sheets[self.page]
        side = 0.3 if portrait else 0.21  # the width of Back and of the pager's buttons
        v.text(g.r(0.03, 0.01, 0.95 - side - 0.03, head), f"{games.get(self.game_id).title} – {title}", size=1.0,
               color=ACCENT, tag="title")
        v.button(g.r(0.97 - side, 0.02, side, bar), tr("Back"), "back", tag="back")
        y = round(top * height)
        for paragraph, each in zip(paragraphs, self._heights(paragraphs, w, area, v), strict=True):
            v.text((x, y, w, each), paragraph, size=0.9 if portrait else 0.8, color=INK, tag="help", group="help")
            y += each
        pager = f"{self.page + 1} / {len(self.sheets)}" if portrait else tr("Page {n} of {m}", n=self.page + 1,
                                                                              m=len(self.sheets))
        side = max(side, 0.25)
        v.text(g.r(0.04 + side, 0.98 - bar, 0.92 - 2 * side, bar), pager, size=0.8, color=MUTED, align="center",
               tag="page")
        if self.page > 0:
            v.button(g.r(0.03, 0.98 - bar, side, bar), tr("Previous"), "prev", fill=BUTTON, tag="prev", group="pager")
        if self.page < len(self.sheets) - 1:
            v.button(g.r(0.97 - side, 0.98 - bar, side, bar), tr("Next"), "next", fill=BUTTON, tag="next",
                     group="pager")
        return v

    def _sheets(self, width: int, area: int, v: View) -> list[tuple[str, list[str]]]:
        """The screens' worth of help: each page of the game's help, split where its paragraphs would not fit
        this screen at the smallest readable size (never cut, never smaller)."""
        sheets: list[tuple[str, list[str]]] = []
        for page in self.pages:
            title, current = tr(page.title), list[str]()
            for paragraph in (tr(p) for p in page.paragraphs):
                if current and sum(self._need([*current, paragraph], width, v)) > area:
                    sheets.append((title, current))
                    current = []
                current.append(paragraph)
            sheets.append((title, current))
        return sheets

    @staticmethod
    def _need(paragraphs: list[str], width: int, v: View) -> list[int]:
        """The height each paragraph needs at the smallest size, estimated from its length (a line holds about
        width / (0.64 × font size) characters, less a word carried to the next line)."""
        px = v.limits.cap / 0.73  # the font size of the smallest capitals
        line = round(px * 1.2)
        per_line = max(10, int(width / (px * 0.64)) - 4)
        return [line * -(-len(p) // per_line) for p in paragraphs]

    def _heights(self, paragraphs: list[str], width: int, area: int, v: View) -> list[int]:
        """Each paragraph's height: what it needs, and the room left over shared out evenly."""
        need = self._need(paragraphs, width, v)
        spare = max(0, area - sum(need)) // max(1, len(paragraphs))
        return [n + spare for n in need]

    def on_action(self, action: str) -> None:
        if action == "back":
            self.app.show(self.back)
        elif action == "next":
            self.page = min(self.page + 1, len(self.sheets) - 1)
        elif action == "prev":
            self.page = max(self.page - 1, 0)

    def on_input(self, item: Input) -> None:
        if isinstance(item, CardScan):  # a scan means play goes on: back to the screen that asked for help
            self.app.show(self.back)
            self.back.on_input(item)

    def model(self) -> dict:
        return {"screen": self.name, "game": self.game_id, "page": self.page + 1, "pages": len(self.sheets),
                "title": self.sheets[self.page][0]}
