"""A player's rating over time as an SVG line chart drawn on the server: axes with labelled ticks, the start
(every rating starts at 0) and one point per rated game. Pure: numbers in, markup out.

Why on the server: the pages work without JavaScript, and a few dozen points need no chart library.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

WIDTH, HEIGHT = 480, 220
LEFT, RIGHT, TOP, BOTTOM = 52, 14, 14, 40  # room for the tick labels and the axis titles


def nice_ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round tick values covering [low, high] (steps of 1, 2 or 5 times a power of ten)."""
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 0.999:
        ticks.append(round(value, 6))
        value += step
    return ticks


def rating_chart(ratings: Sequence[float], labels: dict[str, str], number: Callable[[float], str]) -> Markup:
    """The chart of `ratings` (after game 1, 2 …), from the start at 0; `labels` has "games", "rating" and
    "title" in the page's language, `number` writes a tick value as the page's language does."""
    values = [0.0, *ratings]
    ticks = nice_ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    last = max(1, len(values) - 1)

    def x(i: int) -> float:
        return round(LEFT + plot_w * i / last, 1)

    def y(v: float) -> float:
        return round(TOP + plot_h * (high - v) / (high - low), 1)

    parts = [f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(labels["title"])}" '
             f'class="rating-chart" xmlns="http://www.w3.org/2000/svg">']
    for tick in ticks:  # the rating axis: a grid line and its value
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick)}" y2="{y(tick)}" class="grid"/>'
                     f'<text x="{LEFT - 6}" y="{y(tick) + 4}" text-anchor="end">{escape(number(tick))}</text>')
    step = max(1, math.ceil(last / 8))
    for i in range(0, last + 1, step):  # the games axis: 0 (the start), then every game or every few
        parts.append(f'<text x="{x(i)}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{i}</text>')
    parts.append(f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{HEIGHT - BOTTOM}" class="axis"/>'
                 f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{HEIGHT - BOTTOM}" y2="{HEIGHT - BOTTOM}" class="axis"/>')
    parts.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 4}" text-anchor="middle" class="title">'
                 f'{escape(labels["games"])}</text>'
                 f'<text x="12" y="{TOP + plot_h / 2}" text-anchor="middle" class="title" '
                 f'transform="rotate(-90 12 {TOP + plot_h / 2})">{escape(labels["rating"])}</text>')
    points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    parts.append(f'<polyline points="{points}" class="line"/>')
    parts += [f'<circle cx="{x(i)}" cy="{y(v)}" r="3.5" class="dot"/>' for i, v in enumerate(values) if i]
    parts.append("</svg>")
    return Markup("".join(parts))
