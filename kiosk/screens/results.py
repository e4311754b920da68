"""The end of a game: the players ranked with their scores, a podium for the first three, "Nochmal" and "Menü".

The table screen shows this view once the referee says the game is finished; its buttons' actions
(`rematch`, `history`, `menu`) are the table screen's. Scores are drawn at the key size (the table-screen
issue's 32 px capitals), like whose turn it is.
"""

from __future__ import annotations

from kiosk.app.controller import TableController
from kiosk.drawing.view import ACCENT, BUTTON, DARK_INK, GOOD, INK, PANEL, Grid, View
from kiosk.games.ranking import FEWER_WINS, PLACES, TASKS, Place, rank
from kiosk.i18n import tr
from kiosk.screens.cells import cols, gap_of, rows

PODIUM = ((250, 200, 60), (200, 205, 210), (215, 150, 90))  # gold, silver, bronze: dark text on all three


def big_number(place: Place) -> str:
    """The number drawn large: the score, or for a game scored by finishing order the place."""
    return f"{place.place}." if place.kind == PLACES else str(place.score)


def ranking(controller: TableController) -> list[Place]:
    header = controller.referee.header
    return rank(header["game"], header.get("options", {}), list(controller.referee.players), controller.state)


def results_view(controller: TableController, width: int, height: int) -> View:
    g = Grid(width, height)
    v = View(width, height)
    gap = gap_of(v)
    places = ranking(controller)
    v.text(g.r(0.04, 0.02, 0.5, 0.1), tr("Game over"), size=1.2, color=ACCENT, tag="title")
    v.text(g.r(0.56, 0.02, 0.4, 0.1), controller.ui.title, size=1.0, color=INK, align="right", tag="game")
    podium = [p for p in places if p.place <= 3]
    rest = [p for p in places if p.place > 3]
    detail = places[0].kind in (FEWER_WINS, TASKS) if places else False  # how Profi-Sort's points came about
    if g.portrait:
        _portrait(v, g, podium, rest, gap)
    else:
        _landscape(v, g, podium, rest, gap, 0.3 if rest or detail else 0.52)
    if detail:
        y = 0.14 + (0.55 if g.portrait else 0.3) + (0.12 * len(rest) if rest else 0.02)
        room = max(0, int((0.83 - y) / 0.07))
        for i, line in enumerate(controller.ui.result_lines(controller.state)[:room]):
            v.text(g.r(0.04, y + i * 0.07, 0.92, 0.065), line, size=0.6, color=INK, tag="score")
    buttons = cols(g.r(0.04, 0.86, 0.92, 0.12), 3, gap * 2)
    v.button(buttons[0], tr("Play again"), "rematch", fill=GOOD, tag="rematch")
    v.button(buttons[1], tr("History"), "history", fill=BUTTON, tag="history")
    v.button(buttons[2], tr("Menu"), "menu", fill=BUTTON, tag="menu")
    return v


def _landscape(v: View, g: Grid, podium: list[Place], rest: list[Place], gap: int, tall: float) -> None:
    """Podium boxes side by side, the first place tallest; each: name, the score large, its unit."""
    area = g.r(0.04, 0.14, 0.92, tall)
    for place, rect in zip(podium, cols(area, max(1, len(podium)), gap * 2), strict=False):
        x, y, w, h = rect
        lift = round(h * 0.12 * (place.place - 1))
        box = (x, y + lift, w, h - lift)
        v.box(box, PODIUM[place.place - 1], tag=f"podium:{place.place}")
        _tile_texts(v, box, place)
    _rest(v, g, rest, 0.14 + tall + 0.02)


def _portrait(v: View, g: Grid, podium: list[Place], rest: list[Place], gap: int) -> None:
    for place, rect in zip(podium, rows(g.r(0.04, 0.14, 0.92, 0.55), max(3, len(podium)), gap), strict=False):
        v.box(rect, PODIUM[place.place - 1], tag=f"podium:{place.place}")
        x, y, w, h = rect
        left, right = (x, y, w * 6 // 10, h), (x + w * 6 // 10, y, w - w * 6 // 10, h)
        name = place.player if place.kind == PLACES else f"{place.place}. {place.player}"
        v.text(left, name, size=1.0, color=DARK_INK, align="center", tag=f"rank:{place.player}")
        v.text(right, big_number(place), size=1.6, color=DARK_INK, role="key", align="center",
               tag=f"points:{place.player}")
    _rest(v, g, rest, 0.71)


def _tile_texts(v: View, box: tuple[int, int, int, int], place: Place) -> None:
    x, y, w, h = box
    name_h, number_h = h * 3 // 10, h * 45 // 100
    name = place.player if place.kind == PLACES else f"{place.place}. {place.player}"
    v.text((x, y, w, name_h), name, size=1.0, color=DARK_INK, align="center", lines=1, tag=f"rank:{place.player}")
    v.text((x, y + name_h, w, number_h), big_number(place), size=1.6, color=DARK_INK, role="key", align="center",
           lines=1, tag=f"points:{place.player}")
    v.text((x, y + name_h + number_h, w, h - name_h - number_h), _unit(place), size=0.7, color=DARK_INK,
           align="center", lines=1, tag=f"unit:{place.player}")


def _unit(place: Place) -> str:
    return {PLACES: tr("place"), TASKS: tr("tasks"), FEWER_WINS: tr("penalty points")}.get(place.kind, tr("points"))


def _rest(v: View, g: Grid, rest: list[Place], top: float) -> None:
    """Places 4 to 6, one line each, the score as large as on the podium."""
    for i, place in enumerate(rest):
        rect = g.r(0.04, top + i * 0.12, 0.92, 0.11)
        v.box(rect, PANEL)
        x, y, w, h = rect
        v.text((x, y, w * 7 // 10, h), f"{place.place}. {place.player}", size=1.0, color=INK,
               tag=f"rank:{place.player}")
        v.text((x + w * 7 // 10, y, w - w * 7 // 10, h), f"{big_number(place)}", size=1.6, color=INK, role="key",
               align="right", lines=1, tag=f"points:{place.player}")
