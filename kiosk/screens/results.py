"""The end of a game: the players ranked with their scores, a podium for the first three, "Nochmal" and "Menü".

The table screen shows this view once the referee says the game is finished; its buttons' actions
(`rematch`, `history`, `menu`) are the table screen's.
"""

from __future__ import annotations

from kiosk.controller import TableController
from kiosk.i18n import tr
from kiosk.ranking import FEWER_WINS, PLACES, TASKS, Place, rank
from kiosk.view import ACCENT, BUTTON, DARK_INK, GOOD, INK, PANEL, Grid, View

PODIUM = ((250, 200, 60), (200, 205, 210), (215, 150, 90))  # gold, silver, bronze: dark text on all three


def score_text(place: Place) -> str:
    if place.kind == PLACES:
        return tr("out as no. {n}", n=place.score) if place.score else tr("still holding cards")
    if place.kind == TASKS:
        return tr("{n} tasks", n=place.score)
    if place.kind == FEWER_WINS:
        return tr("{n} penalty points", n=place.score)
    return tr("{n} points", n=place.score)


def ranking(controller: TableController) -> list[Place]:
    header = controller.referee.header
    return rank(header["game"], header.get("options", {}), list(controller.referee.players), controller.state)


def results_view(controller: TableController, width: int, height: int) -> View:
    g = Grid(width, height)
    v = View(width, height)
    places = ranking(controller)
    v.text(g.r(0.04, 0.02, 0.5, 0.1), tr("Game over"), size=1.2, color=ACCENT, tag="title")
    v.text(g.r(0.56, 0.02, 0.4, 0.1), controller.ui.title, size=1.0, color=INK, align="right", tag="game")
    podium = [p for p in places if p.place <= 3]
    rest = [p for p in places if p.place > 3]
    portrait = height > width
    cols = max(1, len(podium)) if not portrait else 1
    for i, place in enumerate(podium):
        if portrait:
            rect = g.r(0.04, 0.13 + i * 0.1, 0.92, 0.09)
        else:
            w = 0.92 / cols
            lift = (place.place - 1) * 0.06
            rect = g.r(0.04 + i * w, 0.14 + lift, w - 0.02, 0.36 - lift)
        v.box(rect, PODIUM[place.place - 1], tag=f"podium:{place.place}")
        x, y, w_px, h_px = rect
        top = (x, y, w_px, h_px // 2)
        bottom = (x, y + h_px // 2, w_px, h_px - h_px // 2)
        v.text(top, f"{place.place}. {place.player}", size=1.0, color=DARK_INK, align="center",
               tag=f"rank:{place.player}")
        v.text(bottom, score_text(place), size=0.8, color=DARK_INK, align="center", tag=f"points:{place.player}")
    y0 = 0.13 + len(podium) * 0.1 if portrait else 0.52
    for i, place in enumerate(rest):
        v.text(g.r(0.04, y0 + i * 0.075, 0.92, 0.07), f"{place.place}. {place.player} – {score_text(place)}",
               size=0.8, color=INK, fill=PANEL, tag=f"rank:{place.player}")
    if places and places[0].kind in (FEWER_WINS, TASKS):  # how the points came about (Profi-Sort's bonus, tasks)
        y = y0 + len(rest) * 0.075
        room = max(0, int((0.83 - y) / 0.075))
        for i, line in enumerate(controller.ui.result_lines(controller.state)[:room]):
            v.text(g.r(0.04, y + i * 0.075, 0.92, 0.07), line, size=0.6, color=INK, tag="score")
    v.button(g.r(0.04, 0.84, 0.29, 0.14), tr("Play again"), "rematch", fill=GOOD, tag="rematch")
    v.button(g.r(0.355, 0.84, 0.29, 0.14), tr("History"), "history", fill=BUTTON, tag="history")
    v.button(g.r(0.67, 0.84, 0.29, 0.14), tr("Menu"), "menu", fill=BUTTON, tag="menu")
    return v
