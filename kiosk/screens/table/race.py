"""The ALLE race on the table screen: open (who has not slapped yet, the slaps so far), then decided (the
loser's name huge with the penalty, every slap's time from the first one, full-screen for a moment)."""

from __future__ import annotations

from collections.abc import Callable

from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BAD_FILL, BG, INK, MUTED, PANEL, Grid, Rect, View
from kiosk.games import RaceShown
from kiosk.i18n import tr, trn
from kiosk.screens.table.layout import Stack, cols, rows

Actions = Callable[[View, int, int, int, int], int]
"""The table's touch actions drawn in a row: (view, x, width, bottom, gap) -> the row's top."""


def race_open(v: View, rect: Rect, race: RaceShown, gap: int) -> int:
    """ALLE: everyone slaps; who has not yet, and the slaps so far with their times from the first one."""
    lim = v.limits
    w = rect[2]
    stack = Stack(rect, gap // 2)
    waiting = tr("Waiting for: {players}", players=", ".join(race.waiting) or "–")
    slaps = [f"{p} {ms(t, i)}" for i, (p, t) in enumerate(race.slaps)]
    parts = [(tr("ALLE! Everyone slap!"), "lead", 1.2, ACCENT, "big"), (waiting, "", 0.8, INK, "hint"),
             ("   ".join(slaps) if slaps else tr("No slap yet."), "", 0.8, INK, "race-slaps")]
    for text, role, size, color, tag in parts:
        place = stack.take(measure.height(text, w, lim.cap_for(role)))
        if place is not None:
            v.text(place, text, size=size, color=color, role=role, tag=tag)
    return stack.y


def ms(t: int, i: int) -> str:
    """A slap's time: the first one's word, the others' milliseconds after it."""
    return tr("first") if i == 0 else "+" + tr("{ms} ms", ms=t)


def race_result(width: int, height: int, race: RaceShown, actions: Actions) -> View:
    """A decided race, full-screen: the loser's name huge with the penalty, every slap's time from the first;
    the table's touch buttons stay live at the bottom (play goes on), any other touch ends it early."""
    g = Grid(width, height)
    v = View(width, height)
    p = g.portrait
    # (y, height) of each part as fractions: title, loser, penalty, reason, slaps
    title, name, pen, why, area = ((0.01, 0.06), (0.07, 0.18), (0.26, 0.09), (0.355, 0.055), (0.42, 0.43)) if p \
        else ((0.01, 0.08), (0.09, 0.24), (0.34, 0.12), (0.465, 0.065), (0.54, 0.31))
    v.box((0, 0, width, height), BG)
    v.text(g.r(0.04, *title[:1], 0.92, title[1]), tr("ALLE race"), size=0.8, color=MUTED, align="center",
           lines=1, tag="title")
    v.text(g.r(0.04, name[0], 0.92, name[1]), ", ".join(race.losers) or "–", size=4.0, color=INK,
           fill=BAD_FILL, align="center", role="key", lines=1, tag="race-loser")
    penalty = trn("+{n} card", "+{n} cards", race.penalty) if race.losers else ""
    v.text(g.r(0.04, pen[0], 0.92, pen[1]), penalty, size=2.2, color=ACCENT, align="center", role="key",
           lines=1, tag="race-penalty")
    v.text(g.r(0.04, why[0], 0.92, why[1]), race.reason, size=0.8, color=INK, align="center", lines=1,
           tag="race-reason")
    slaps = race.slaps
    columns = 2 if len(slaps) > 3 and not p else 1
    per_col = max(-(-len(slaps) // columns), 2)
    gap = round(v.limits.gap)
    places = [r for column in cols(g.r(0.04, area[0], 0.92, area[1]), columns, gap * 2)
              for r in rows(column, per_col, gap)]
    for i, (rect, (player, t)) in enumerate(zip(places, slaps, strict=False)):
        lost = player in race.losers
        v.text(rect, f"{player}   {ms(t, i)}", size=0.9, color=INK, fill=BAD_FILL if lost else PANEL,
               align="center", lines=1, tag="race-slap:" + player)
    margin = round(width * (0.03 if p else 0.02))
    actions(v, margin, width - 2 * margin, height - max(2, gap // 2), round(v.limits.gap * 1.5))
    v.anywhere = "race-done"
    return v
