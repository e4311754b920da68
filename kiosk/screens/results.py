"""The end of a game: the winner's moment, the players ranked with their scores, a podium, "Nochmal" and "Menü".

The table screen shows this view once the referee says the game is finished; its buttons' actions (`rematch`,
`history`, `menu`) are the table screen's. For `CELEBRATION_S` after the end confetti falls over the screen while
the fanfare plays (the `game_end` cue), and a banner names the winners. Every part is measured for what it says:
the scores at the key size (6 mm capitals), what they count beside them in the words the table screen used, and
a finishing place said once ("4." — not "4. Anna … 4.").
"""

from __future__ import annotations

import random

from kiosk.app.controller import TableController
from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BG, BUTTON, DARK_INK, GOOD, INK, MUTED, PANEL, Element, Rect, View
from kiosk.games.ranking import FEWER_WINS, PLACES, TASKS, Place, rank
from kiosk.i18n import language, tr, trn
from kiosk.screens.cells import cols, gap_of, rows, top_bar
from referee.hints import names

PODIUM = ((250, 200, 60), (200, 205, 210), (215, 150, 90))  # gold, silver, bronze: dark text on all three
CELEBRATION_S = 3.0  # the confetti falls this long after the game ends
CONFETTI_FPS = 15
CONFETTI = ((250, 200, 60), (90, 200, 110), (255, 130, 120), (120, 170, 240), (240, 240, 235))


def big_number(place: Place) -> str:
    """The number drawn large: the score, or for a game scored by finishing order the place."""
    return f"{place.place}." if place.kind == PLACES else str(place.score)


def ranking(controller: TableController) -> list[Place]:
    header = controller.referee.header
    return rank(header["game"], header.get("options", {}), list(controller.referee.players), controller.state)


def unit(controller: TableController, place: Place) -> str:
    """What the big number counts, in the table screen's words (its seat tiles' unit): "gewonnene Karten" on both."""
    if place.kind == PLACES:
        return tr("place")
    return controller.ui.unit(place.score)


def winners_line(places: list[Place]) -> str:
    """"Anna gewinnt!" — every player on the first place (a tie shares the win)."""
    first = [p.player for p in places if p.place == 1]
    return trn("{players} wins!", "{players} win!", len(first), players=names(first, language()))


def results_view(controller: TableController, width: int, height: int, elapsed: float = CELEBRATION_S) -> View:
    """The results; `elapsed`: seconds since the game ended (the confetti falls while it is under CELEBRATION_S)."""
    v = View(width, height)
    gap = gap_of(v)
    margin = round(0.03 * width)
    places = ranking(controller)
    v.box((0, 0, width, height), BG)
    y = top_bar(v, tr("Game over") + " · " + controller.ui.title, [], margin, gap)
    banner = winners_line(places) if places else ""
    banner_h = measure.height(banner, width - 2 * margin, v.limits.key_cap)
    v.text((margin, y, width - 2 * margin, banner_h), banner, size=1.8, color=ACCENT, role="key", align="center",
           tag="winners")
    y += banner_h + gap
    third = (width - 2 * margin - 4 * gap) // 3  # the three buttons: as high as their longest word needs
    labels = (tr("Play again"), tr("History"), tr("Menu"))
    bar = max(round(v.limits.touch), max(measure.height(label, third, v.limits.cap, 12) for label in labels) + 8)
    bottom = height - margin // 2 - bar - gap
    _buttons(v, (margin, height - margin // 2 - bar, width - 2 * margin, bar), gap)
    detail = bool(places) and places[0].kind in (FEWER_WINS, TASKS)  # how Profi-Sort's points came about
    lines = controller.ui.result_lines(controller.state) if detail else []
    lines_h = sum(measure.height(line, width - 2 * margin, v.limits.cap) for line in lines)
    area = (margin, y, width - 2 * margin, max(0, bottom - y - (lines_h + gap if lines else 0)))
    used = _ranked(v, controller, places, area, gap)
    ty = y + used + gap
    for line in lines:
        h = measure.height(line, width - 2 * margin, v.limits.cap)
        if ty + h > bottom:
            break
        v.text((margin, ty, width - 2 * margin, h), line, size=0.6, color=INK, tag="score")
        ty += h
    if elapsed < CELEBRATION_S:
        confetti(v, elapsed)
    return v


def confetti(v: View, elapsed: float) -> None:
    """The winner's moment: pieces of paper falling in the podium's and the table's colours, in the free room
    between the screen's parts only (behind nothing, over no word) and drawn just over the background."""
    rng = random.Random(37)
    size = max(6, round(v.limits.gap * 1.2))
    taken = [e.rect for e in v.elements[1:]]
    pieces = []
    for _ in range(48):
        x = rng.uniform(0, v.width)
        speed = rng.uniform(0.35, 0.7) * v.height
        start = rng.uniform(-0.9, 0.1) * v.height
        y = start + speed * elapsed
        sway = round(size * 1.5 * ((elapsed * 3 + x) % 2 - 1))
        w, h = (size, size // 2) if rng.random() < 0.5 else (size // 2, size)
        colour = rng.choice(CONFETTI)
        piece = (round(x) + sway, round(y), w, h)
        if -size < y < v.height and not any(_meet(piece, rect) for rect in taken):
            pieces.append(Element("box", piece, fill=colour, tag="confetti"))
    v.elements[1:1] = pieces


def _meet(a: Rect, b: Rect, air: int = 3) -> bool:
    """Whether two rects overlap or come closer than `air` px."""
    return a[0] < b[0] + b[2] + air and b[0] < a[0] + a[2] + air and a[1] < b[1] + b[3] + air and \
        b[1] < a[1] + a[3] + air


def _buttons(v: View, rect: Rect, gap: int) -> None:
    places = cols(rect, 3, gap * 2)
    v.button(places[0], tr("Play again"), "rematch", fill=GOOD, tag="rematch", group="results")
    v.button(places[1], tr("History"), "history", fill=BUTTON, tag="history", group="results")
    v.button(places[2], tr("Menu"), "menu", fill=BUTTON, tag="menu", group="results")


def _ranked(v: View, controller: TableController, places: list[Place], area: Rect, gap: int) -> int:
    """The podium (every player on places 1 to 3) and the others' rows; returns the height used."""
    podium = [p for p in places if p.place <= 3]
    rest = [p for p in places if p.place > 3]
    x, y, w, h = area
    portrait = v.height > v.width
    row_h = measure.line(v.limits.key_cap) + 8
    columns = 1 if portrait else min(3, max(1, len(rest)))
    rest_h = -(-len(rest) // columns) * (row_h + gap) if rest else 0
    tile_h = _tile_height(v, controller, podium, w, portrait)
    if portrait:
        tiles = rows((x, y, w, min(h - rest_h, len(podium) * (tile_h + gap))), max(1, len(podium)), gap)
    else:
        tiles = cols((x, y, w, min(h - rest_h, round(tile_h * 1.35))), max(1, len(podium)), gap * 2)
    top = y
    for place, rect in zip(podium, tiles, strict=False):
        tx, ty, tw, th = rect
        lift = 0 if portrait else round((th - tile_h) * (place.place - 1) / 2)
        box = (tx, ty + lift, tw, th - lift)
        v.box(box, PODIUM[place.place - 1], tag=f"podium:{place.place}")
        _tile_texts(v, controller, box, place, portrait)
        top = max(top, ty + th)
    cells = [c for column in cols((x, top + gap, w, rest_h), columns, gap * 2)
             for c in rows(column, -(-len(rest) // columns), gap)] if rest else []
    for place, rect in zip(rest, cells, strict=False):
        _row(v, controller, rect, place)
    return top - y + gap + rest_h


def _tile_height(v: View, controller: TableController, podium: list[Place], w: int, portrait: bool) -> int:
    """The least height of a podium tile: the name (up to two lines), the number at the key size, its unit."""
    lim = v.limits
    inner = w - 8 if portrait else (w - 2 * gap_of(v) * 2) // max(1, len(podium)) - 8
    name_w = inner * 6 // 10 if portrait else inner
    name_h = max((measure.height(f"{p.place}. {p.player}", name_w, lim.cap) for p in podium), default=0)
    unit_h = max((measure.height(unit(controller, p), name_w, lim.cap) for p in podium), default=0)
    if portrait:
        return max(name_h, measure.line(lim.key_cap) + unit_h) + 12
    return name_h + measure.line(lim.key_cap) + unit_h + 12


def _tile_texts(v: View, controller: TableController, box: Rect, place: Place, portrait: bool) -> None:
    """A podium tile: the name, the number large with its unit (portrait: the name left, number and unit right)."""
    lim = v.limits
    x, y, w, h = box
    said = unit(controller, place)
    name = place.player if place.kind == PLACES else f"{place.place}. {place.player}"  # a place said once
    if portrait:
        left, right = (x + 4, y, w * 6 // 10 - 4, h), (x + w * 6 // 10, y, w - w * 6 // 10 - 4, h)
        key_h, unit_h = measure.line(lim.key_cap), measure.height(said, right[2], lim.cap)
        top = y + (h - key_h - unit_h) // 2
        v.text(left, name, size=1.0, color=DARK_INK, align="center", tag=f"rank:{place.player}")
        v.text((right[0], top, right[2], key_h), big_number(place), size=1.6, color=DARK_INK, role="key",
               align="center", tag=f"points:{place.player}")
        v.text((right[0], top + key_h, right[2], unit_h), said, size=0.7, color=DARK_INK, align="center",
               tag=f"unit:{place.player}")
        return
    name_h = measure.height(name, w - 8, lim.cap)
    unit_h = measure.height(said, w - 8, lim.cap)
    key_h = max(measure.line(lim.key_cap), h - name_h - unit_h - 12)
    v.text((x + 4, y + 4, w - 8, name_h), name, size=1.0, color=DARK_INK, align="center",
           tag=f"rank:{place.player}")
    v.text((x + 4, y + 4 + name_h, w - 8, key_h), big_number(place), size=1.6, color=DARK_INK, role="key",
           align="center", tag=f"points:{place.player}")
    v.text((x + 4, y + 4 + name_h + key_h, w - 8, unit_h), said, size=0.7, color=DARK_INK, align="center",
           tag=f"unit:{place.player}")


def _row(v: View, controller: TableController, rect: Rect, place: Place) -> None:
    """Place 4 to 6: the place and name, the number large with its unit; a finishing place said once."""
    x, y, w, h = rect
    v.box(rect, PANEL)
    name = place.player if place.kind == PLACES else f"{place.place}. {place.player}"
    said = "" if place.kind == PLACES else unit(controller, place)
    number_w = measure.width(big_number(place), v.limits.key_cap) + 8
    unit_w = min(w // 3, measure.width(said, v.limits.cap) + 8) if said else 0
    v.text((x + 6, y, w - number_w - unit_w - 12, h), name, size=1.0, color=INK, tag=f"rank:{place.player}")
    v.text((x + w - number_w - unit_w - 6, y, number_w, h), big_number(place), size=1.6, color=INK, role="key",
           align="right", lines=1, tag=f"points:{place.player}")
    if said:
        v.text((x + w - unit_w - 2, y, unit_w, h), said, size=0.6, color=MUTED, tag=f"unit:{place.player}")
