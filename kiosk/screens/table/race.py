"""The ALLE race on the table screen, as a moment: open (the card that opened it, a countdown every seat sees, who
has not slapped yet, the slaps so far), then decided (every loser named in full, the penalty, why, and every slap's
time from the first one with the precision that decided it: "+0,4 ms"; equal times said as a tie), full-screen for
a moment."""

from __future__ import annotations

import math
from collections.abc import Callable

from kiosk.drawing import cards as pictures
from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BAD_FILL, BG, INK, MUTED, PANEL, Rect, View, ui_scale
from kiosk.games import RaceShown
from kiosk.i18n import language, tr, trn
from kiosk.screens.table.layout import Stack, cols

Actions = Callable[[View, int, int, int, int], int]
"""The table's touch actions drawn in a row: (view, x, width, bottom, gap) -> the row's top."""


def decimals(slaps: list[tuple[str, int]]) -> int:
    """The fewest decimals of a millisecond (0 to 3) that keep every two different times apart when each is cut
    (not rounded) to them: the precision that decided the race, so a gap of 0.4 ms never reads "+0 ms"."""
    times = sorted({t for _, t in slaps})
    for places in range(3):
        step = 10 ** (3 - places)
        if len({t // step for t in times}) == len(times):
            return places
    return 3


def ms(us: int, places: int) -> str:
    """Microseconds after the first slap as milliseconds with `places` decimals, in the table's language."""
    value = f"{(us // 10 ** (3 - places)) / 10 ** places:.{places}f}"
    return tr("{ms} ms", ms=value.replace(".", ",") if language() == "de" else value)


def slap_times(slaps: list[tuple[str, int]]) -> list[str]:
    """Each slap's time: "first" for the first one (and any slap at the very same µs), the others "+X ms" after
    it; a time equal to the slap before it is said as a tie."""
    places = decimals(slaps)
    out = []
    for i, (_, t) in enumerate(slaps):
        said = tr("first") if t == 0 else "+" + ms(t, places)
        if i and t == slaps[i - 1][1]:
            said = tr("{time}, a tie with {player}", time=said, player=slaps[i - 1][0])
        out.append(said)
    return out


def countdown(race: RaceShown, now: float) -> tuple[str, float | None]:
    """The countdown's words and when they change next (None: no countdown, the race has no end of its own)."""
    if race.ends_at is None:
        return "", None
    left = max(0.0, race.ends_at - now)
    seconds = math.ceil(left)
    return tr("{n} s left", n=seconds), (now + left - (seconds - 1) if seconds else None)


def race_open(v: View, rect: Rect, race: RaceShown, gap: int, now: float) -> tuple[int, float | None]:
    """ALLE: everyone slaps. The card that opened it beside the call, the countdown large, who has not slapped yet,
    the slaps so far with their times. Returns where the free room starts and when the countdown changes."""
    lim = v.limits
    x, _, w, _ = rect
    stack = Stack(rect, gap // 2)
    m = pictures.metrics(v.width, v.height)
    card_w, card_h = pictures.card_size(race.card.face, m, False) if race.card and race.card.face else (0, 0)
    call = tr("ALLE! Everyone slap!")
    if card_w and not measure.fits(call, w - card_w - gap, lim.lead_cap):
        card_w = card_h = 0  # a narrow column: the call's words before the card
    place = stack.take(max(card_h, measure.height(call, w - card_w - gap, lim.lead_cap)))
    if place is not None:
        v.text((x, place[1], w - card_w - gap, place[3]), call, size=1.2, color=ACCENT, role="lead", tag="big")
        if card_w and race.card is not None:
            v.card((x + w - card_w, place[1], card_w, card_h), race.card.label, tag="race-card", face=race.card.face)
    said, changes = countdown(race, now)
    waiting = tr("Waiting for: {players}", players=", ".join(race.waiting) or "–")
    slaps = [f"{p} {t}" for (p, _), t in zip(race.slaps, slap_times(race.slaps), strict=True)]
    parts = [(said, "key", 1.6, ACCENT, "race-countdown"), (waiting, "", 0.8, INK, "hint"),
             ("   ".join(slaps) if slaps else tr("No slap yet."), "", 0.8, INK, "race-slaps")]
    for text, role, size, color, tag in parts:
        if not text:
            continue
        place = stack.take(measure.height(text, w, lim.cap_for(role)))
        if place is not None:
            v.text(place, text, size=size, color=color, role=role, tag=tag)
    return stack.y, changes


def race_result(width: int, height: int, race: RaceShown, actions: Actions) -> View:
    """A decided race, full-screen: every loser's name large and whole, the penalty, why, every slap's time from the
    first; the table's touch buttons stay live at the bottom (play goes on), any other touch ends it early."""
    v = View(width, height)
    lim = v.limits
    portrait = height > width
    margin = round(width * (0.03 if portrait else 0.02))
    gap = round(lim.gap)
    w = width - 2 * margin
    v.box((0, 0, width, height), BG)
    bottom = actions(v, margin, w, height - max(2, gap // 2), round(lim.gap * 1.5)) - gap
    y = _result_title(v, race, margin, w, gap)
    pad = max(4, round(6 * ui_scale(width, height)))
    names = ", ".join(race.losers) or "–"
    names_h = measure.height(names, w, lim.key_cap, pad) + 2 * pad
    rows = _slap_rows(race)
    penalty = trn("+{n} card", "+{n} cards", race.penalty) if race.losers else ""
    rest = [(penalty, "key", 2.2, ACCENT, "race-penalty"), (race.reason, "lead", 1.0, INK, "race-reason")]
    rest_h = sum(measure.height(t, w, lim.cap_for(r)) + gap // 2 for t, r, *_ in rest if t)
    slaps_h = _slaps_height(v, rows, w, portrait)
    spare = bottom - y - names_h - rest_h - slaps_h - gap
    names_h += max(0, min(spare, measure.line(lim.key_cap) * 2 - names_h))  # a short name drawn larger
    v.text((margin, y, w, names_h), names, size=4.0, color=INK, fill=BAD_FILL, align="center", role="key",
           tag="race-loser")
    y += names_h + gap // 2
    for text, role, size, color, tag in rest:
        if text:
            h = measure.height(text, w, lim.cap_for(role))
            v.text((margin, y, w, h), text, size=size, color=color, align="center", role=role, tag=tag)
            y += h + gap // 2
    _draw_slaps(v, race, rows, (margin, y + gap // 2, w, bottom - y), portrait)
    v.anywhere = "race-done"
    return v


def _result_title(v: View, race: RaceShown, margin: int, w: int, gap: int) -> int:
    """"ALLE race" with the card that opened it at the right; returns where the next part starts."""
    m = pictures.metrics(v.width, v.height)
    card_w, card_h = pictures.card_size(race.card.face, m, False) if race.card and race.card.face else (0, 0)
    line = measure.line(v.limits.cap) + 2
    h = max(line, card_h)
    v.text((margin, gap // 2, w - card_w - gap, h), tr("ALLE race"), size=0.8, color=MUTED, tag="title")
    if card_w and race.card is not None:
        v.card((margin + w - card_w, gap // 2, card_w, card_h), race.card.label, tag="race-card",
               face=race.card.face)
    return gap // 2 + h + gap // 2


def _slap_rows(race: RaceShown) -> list[tuple[str, str]]:
    """(player, "Name   +0,4 ms") per slap, fastest first."""
    return [(player, f"{player}   {said}") for (player, _), said in zip(race.slaps, slap_times(race.slaps),
                                                                          strict=True)]


def _columns(rows: list[tuple[str, str]], portrait: bool) -> int:
    return 2 if len(rows) > 3 and not portrait else 1


def _slaps_height(v: View, rows: list[tuple[str, str]], w: int, portrait: bool) -> int:
    """The slaps' rows: each as high as its words need at the smallest text size, in one or two columns."""
    if not rows:
        return 0
    n = _columns(rows, portrait)
    gap = round(v.limits.gap)
    each = (w - gap * 2 * (n - 1)) // n
    row_h = max(measure.height(text, each, v.limits.cap, 6) for _, text in rows) + 6
    per_col = -(-len(rows) // n)
    return per_col * row_h + (per_col - 1) * gap


def _draw_slaps(v: View, race: RaceShown, rows: list[tuple[str, str]], rect: Rect, portrait: bool) -> None:
    x, y, w, _ = rect
    if not rows:
        return
    n = _columns(rows, portrait)
    gap = round(v.limits.gap)
    each = (w - gap * 2 * (n - 1)) // n
    row_h = max(measure.height(text, each, v.limits.cap, 6) for _, text in rows) + 6
    per_col = -(-len(rows) // n)
    for i, (player, text) in enumerate(rows):
        column = cols((x, y, w, 0), n, gap * 2)[i // per_col]
        top = y + (i % per_col) * (row_h + gap)
        lost = player in race.losers
        v.text((column[0], top, column[2], row_h), text, size=0.9, color=INK, fill=BAD_FILL if lost else PANEL,
               align="center", tag="race-slap:" + player)
