"""The seat tiles: one per player, the name and the number large (6 mm capitals) with what it counts, the seat
on turn marked by a light fill, a thick frame and an arrow (not by colour alone)."""

from __future__ import annotations

from kiosk.drawing.render import measure
from kiosk.drawing.view import DARK_INK, INK, MUTED, PANEL, TURN_FILL, Grid, Rect, View
from kiosk.games import GameUI, Panel, State
from kiosk.screens.table.layout import cols, rows


def seat_width(v: View, g: Grid, ui: GameUI, state: State, gap: int) -> int:
    """Landscape: the seats' column, wide enough for the longest name and number (at least two digits, so the
    column keeps its width from 9 to 10; two columns of tiles with more than four players), at least 22 % of the
    screen."""
    lim = v.limits
    pad = max(4, round(lim.gap))
    arrow = round(measure.line(lim.cap) * 0.9) + pad // 2
    names = max(measure.width(p, lim.cap) for p in ui.players) + arrow
    number = max(measure.width(s, lim.key_cap) for s in ["88", *(ui.seat_score(state, p) for p in ui.players)])
    if len(ui.players) > 4:  # what the number counts goes under it where it does not fit beside (`_seats`)
        tile = max(names, number) + 2 * pad + 12
        return min(max(2 * tile + gap, round(g.w * 0.34)), round(g.w * 0.55))
    return min(max(names + number + 3 * pad + 4, round(g.w * 0.22)), round(g.w * 0.45))


def seats_least(v: View, players: int, columns: int, gap: int) -> int:
    """The least height the seats need: low tiles (a name beside its number) under a heading."""
    per_col = -(-players // columns)
    lim = v.limits
    return per_col * round(lim.key_cap * 1.3) + gap * per_col + measure.line(lim.cap) * 2


def _tall(v: View, numbers: list[str], units: list[str], tile_w: int) -> tuple[int, int]:
    """(height of a tall tile, height of the line under its number that says what it counts: 0 when beside it),
    for the seats' numbers and what each counts."""
    lim = v.limits
    pad = max(4, round(lim.gap))
    below = any(measure.width(n, lim.key_cap) + measure.width(u, lim.cap) + 8 + 4 * pad > tile_w
                for n, u in zip(numbers, units, strict=True))  # else beside the number
    unit_h = max(measure.height(u, tile_w - 2 * pad, lim.cap) for u in units) if below else 0
    return measure.line(lim.cap) + round(lim.key_cap * 1.3) + 2 * pad + unit_h, unit_h


def low_fits(v: View, w: int, ui: GameUI, state: State, gap: int, columns: int) -> bool:
    """Whether every name fits whole beside its number in a low tile (`columns` tiles across `w`)."""
    lim = v.limits
    columns = min(columns, len(ui.players))
    tile_w = (w - gap * (columns - 1)) // columns
    pad = max(4, round(lim.gap))
    arrow = round(measure.line(lim.cap) * 0.8) + pad // 2
    return all(measure.width(p, lim.cap) + 6 + arrow <= tile_w - 2 * pad - measure.width(ui.seat_score(state, p),
               lim.key_cap) - pad // 2 for p in ui.players)


def draw_seats(v: View, rect: Rect, ui: GameUI, panel: Panel, state: State, gap: int, columns: int,
               from_bottom: bool = False) -> int:
    """One tile per seat, row by row, in `rect` (portrait: at its bottom, as high as the tiles need).
    A tall tile shows the name, the number with what it counts (beside it, or under it where it does not
    fit beside), and the detail where it fits whole; a low
    one the name beside the number, what the number counts said once above the tiles. Returns the height."""
    lim = v.limits
    players = ui.players
    x, y, w, h = rect
    columns = min(columns, len(players))
    per_col = -(-len(players) // columns)
    tile_w = (w - gap * (columns - 1)) // columns
    pad = max(4, round(lim.gap))
    unit = ui.unit()  # said once above low tiles: over several numbers
    numbers = [ui.seat_score(state, p) for p in players]
    units = [ui.unit(count(n)) for n in numbers]  # each agreeing with its number
    tall, unit_h = _tall(v, numbers, units, tile_w)
    details = [panel.seat_lines.get(p, "") for p in players]
    detail_h = max((measure.height(d, tile_w - 2 * pad, lim.cap) for d in details if d), default=0)
    fit = (h - gap * (per_col - 1)) // per_col
    if from_bottom:  # portrait: the tiles as high as they need, the rest goes to what may come next
        want = tall + detail_h if (tall + detail_h) * per_col + gap * per_col <= h * 0.45 else tall
        fit = min(fit, want)
    heading = 0
    low = False
    if fit < tall:  # what the number counts is said once, above the tiles; low tiles: name beside number
        heading = measure.height(unit, w, lim.cap)
        fit = (h - heading - gap // 2 - gap * (per_col - 1)) // per_col
        low = fit < tall - unit_h
        if from_bottom:
            fit = min(fit, tall - unit_h)
    used = heading + (gap // 2 if heading else 0) + per_col * fit + gap * (per_col - 1)
    top = y + h - used if from_bottom else y
    if heading:
        v.text((x, top, w, heading), unit, size=0.6, color=MUTED, align="right", tag="seat-unit")
    area = (x, top + used - per_col * fit - gap * (per_col - 1), w, per_col * fit + gap * (per_col - 1))
    tiles = [r for row in rows(area, per_col, gap) for r in cols(row, columns, gap)]
    for rect_, player, number, said, detail in zip(tiles, players, numbers, units, details, strict=False):
        tile(v, rect_, player, number, "" if heading else said, detail, hot=player == state.get("turn"),
             unit_below=unit_h, low=low)
    return used


def count(number: str) -> int | None:
    """The seat's number as a count its unit agrees with ("1 Punkt"), None when it is not one ("–")."""
    return int(number) if number.lstrip("-").isdigit() else None


def tile(v: View, rect: Rect, player: str, score: str, unit: str, detail: str, hot: bool,
         unit_below: int = 0, low: bool = False) -> None:
    """A seat: the name, the number large (6 mm capitals) with what it counts, the detail where it fits whole;
    the seat on turn by a light fill with dark ink, a thick frame and an arrow (shape as well as colour)."""
    lim = v.limits
    x, y, w, h = rect
    cap_line, key_box = measure.line(lim.cap), round(lim.key_cap * 1.3)
    pad = max(4, round(lim.gap))
    v.box(rect, TURN_FILL if hot else PANEL, tag=f"seat:{player}", outline=INK if hot else None,
          outline_px=max(3, round(lim.gap / 2)) if hot else 0)
    ink, muted = (DARK_INK, DARK_INK) if hot else (INK, MUTED)
    left = x + pad
    arrow = round(cap_line * 0.8)
    number_w = measure.width(score, lim.key_cap) + (pad // 2 if low else pad)  # low: a name needs the room more
    name_room = w - 2 * pad - (number_w if low else 0)
    beside_name = measure.width(player, lim.cap) + arrow + pad // 2 + 6 <= name_room
    if hot and (beside_name or not low):  # the arrow before the name, else at the tile's bottom right corner
        at = (left, y + (h - arrow) // 2 if low else y + pad + (cap_line - arrow) // 2) if beside_name else \
            (x + w - pad - arrow, y + h - pad - arrow)
        v.icon((*at, arrow, arrow), "turn", DARK_INK, tag=f"seat-turn:{player}")
        if beside_name:
            left += arrow + pad // 2
    if low:  # the name beside the number
        v.text((left, y, x + w - pad - number_w - left, h), player, size=0.8, color=ink, lines=2,
               tag=f"seat-name:{player}")
        v.text((x + w - pad - number_w, y, number_w, h), score, size=2.0, color=ink, role="key", lines=1,
               align="right", tag=f"seat-score:{player}")
        return
    v.text((left, y + pad, x + w - pad - left, cap_line), player, size=0.8, color=ink, lines=1,
           tag=f"seat-name:{player}")
    number_w = measure.width(score, lim.key_cap) + 8
    row = y + pad + cap_line
    v.text((x + pad, row, number_w, key_box), score, size=2.0, color=ink, role="key", lines=1,
           tag=f"seat-score:{player}")
    if unit and unit_below:
        v.text((x + pad, row + key_box, w - 2 * pad, unit_below), unit, size=0.6, color=muted,
               tag=f"seat-unit:{player}")
        row += unit_below
    elif unit:
        unit_x = x + pad + number_w + pad
        v.text((unit_x, row, x + w - pad - unit_x, key_box), unit, size=0.6, color=muted,
               tag=f"seat-unit:{player}")
    rest = y + h - pad - (row + key_box)
    if detail and measure.height(detail, w - 2 * pad, lim.cap) <= rest:
        v.text((x + pad, row + key_box, w - 2 * pad, rest), detail, size=0.6, color=muted,
               tag=f"seat-detail:{player}")

# --- the verdict

