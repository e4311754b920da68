"""The signs drawn on card pictures, as shapes: suits, elements, the 7's special cards, ANNAOTTO's signs and patterns.

Our own stylised art (no publisher's artwork), drawn with pygame's primitives into a square or a card, so it reads
without any glyph of the font and at any size. A game's definition names a sign (`CardFace.symbol`) and a
pattern (`CardFace.pattern`); `SYMBOLS` and `PATTERNS` are every name this module draws, and a contract test
checks that every face of every game names only these.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

Color = tuple[int, int, int]
Box = tuple[float, float, float, float]  # x, y, w, h of the square a sign is drawn in


def _points(box: Box, pairs: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Points given as fractions of the box."""
    x, y, w, h = box
    return [(x + px * w, y + py * h) for px, py in pairs]


def _heart(s: pygame.Surface, box: Box, c: Color) -> None:
    x, y, w, h = box
    r = w * 0.26
    pygame.draw.circle(s, c, (x + w * 0.28, y + h * 0.34), r)
    pygame.draw.circle(s, c, (x + w * 0.72, y + h * 0.34), r)
    pygame.draw.polygon(s, c, _points(box, [(0.03, 0.42), (0.5, 0.95), (0.97, 0.42), (0.5, 0.3)]))


def _diamond(s: pygame.Surface, box: Box, c: Color) -> None:
    pygame.draw.polygon(s, c, _points(box, [(0.5, 0.02), (0.88, 0.5), (0.5, 0.98), (0.12, 0.5)]))


def _spade(s: pygame.Surface, box: Box, c: Color) -> None:
    x, y, w, h = box
    r = w * 0.24
    pygame.draw.circle(s, c, (x + w * 0.29, y + h * 0.6), r)
    pygame.draw.circle(s, c, (x + w * 0.71, y + h * 0.6), r)
    pygame.draw.polygon(s, c, _points(box, [(0.05, 0.56), (0.5, 0.02), (0.95, 0.56), (0.5, 0.7)]))
    pygame.draw.polygon(s, c, _points(box, [(0.5, 0.6), (0.7, 0.98), (0.3, 0.98)]))


def _club(s: pygame.Surface, box: Box, c: Color) -> None:
    x, y, w, h = box
    r = w * 0.2
    for cx, cy in ((0.5, 0.25), (0.25, 0.58), (0.75, 0.58)):
        pygame.draw.circle(s, c, (x + w * cx, y + h * cy), r)
    pygame.draw.polygon(s, c, _points(box, [(0.5, 0.45), (0.7, 0.98), (0.3, 0.98)]))


def _star(s: pygame.Surface, box: Box, c: Color) -> None:
    x, y, w, h = box
    cx, cy, outer, inner = x + w / 2, y + h * 0.53, w * 0.49, w * 0.2
    points = [(cx + (outer if i % 2 == 0 else inner) * math.sin(i * math.pi / 5),
               cy - (outer if i % 2 == 0 else inner) * math.cos(i * math.pi / 5)) for i in range(10)]
    pygame.draw.polygon(s, c, points)


def _mirror(s: pygame.Surface, box: Box, c: Color) -> None:
    """Two triangles facing a line: what is laid against the Mirror comes back."""
    x, y, w, h = box
    pygame.draw.polygon(s, c, _points(box, [(0.02, 0.2), (0.4, 0.5), (0.02, 0.8)]))
    pygame.draw.polygon(s, c, _points(box, [(0.98, 0.2), (0.6, 0.5), (0.98, 0.8)]))
    pygame.draw.rect(s, c, (x + w * 0.46, y + h * 0.02, max(2, w * 0.08), h * 0.96))


def _cross(s: pygame.Surface, box: Box, c: Color) -> None:
    x, y, w, h = box
    bar = w * 0.26
    pygame.draw.rect(s, c, (x + (w - bar) / 2, y + h * 0.02, bar, h * 0.96))
    pygame.draw.rect(s, c, (x + w * 0.02, y + h * 0.3, w * 0.96, bar))


def _drop(s: pygame.Surface, box: Box, c: Color) -> None:
    x, y, w, h = box
    pygame.draw.circle(s, c, (x + w / 2, y + h * 0.66), w * 0.32)
    pygame.draw.polygon(s, c, _points(box, [(0.5, 0.02), (0.8, 0.55), (0.2, 0.55)]))


def _flame(s: pygame.Surface, box: Box, c: Color) -> None:
    outer = [(0.5, 0.0), (0.66, 0.22), (0.82, 0.42), (0.88, 0.66), (0.78, 0.88), (0.5, 0.99), (0.22, 0.88),
             (0.12, 0.66), (0.22, 0.48), (0.34, 0.58), (0.36, 0.34)]
    pygame.draw.polygon(s, c, _points(box, outer))
    light = tuple(min(255, v + 110) for v in c)
    pygame.draw.polygon(s, light, _points(box, [(0.5, 0.45), (0.66, 0.72), (0.6, 0.9), (0.4, 0.9), (0.34, 0.72)]))


def _mountain(s: pygame.Surface, box: Box, c: Color) -> None:
    pygame.draw.polygon(s, c, _points(box, [(0.0, 0.95), (0.36, 0.15), (0.56, 0.55), (0.7, 0.35), (1.0, 0.95)]))


def _wind(s: pygame.Surface, box: Box, c: Color) -> None:
    """Three gusts of air: wavy lines of different lengths."""
    x, y, w, h = box
    width = max(2, round(w * 0.09))
    for row, (start, end) in zip((0.25, 0.5, 0.75), ((0.05, 0.85), (0.15, 0.98), (0.05, 0.7)), strict=True):
        points = [(x + w * (start + (end - start) * i / 12), y + h * row + h * 0.07 * math.sin(i * math.pi / 4))
                  for i in range(13)]
        pygame.draw.lines(s, c, False, points, width)


def _wheel(s: pygame.Surface, box: Box, c: Color) -> None:
    """ANNAOTTO's wild side: a wheel of four of the deck's colours (any colour may follow)."""
    x, y, w, h = box
    centre, r = (x + w / 2, y + h / 2), w * 0.48
    for i, colour in enumerate(((210, 45, 45), (245, 200, 40), (60, 160, 70), (40, 100, 200))):
        a0, a1 = i * math.pi / 2, (i + 1) * math.pi / 2
        arc = [(centre[0] + r * math.cos(a0 + (a1 - a0) * k / 8), centre[1] - r * math.sin(a0 + (a1 - a0) * k / 8))
               for k in range(9)]
        pygame.draw.polygon(s, colour, [centre, *arc])
    pygame.draw.circle(s, c, centre, r, max(2, round(w * 0.06)))


def _turn(s: pygame.Surface, box: Box, c: Color) -> None:
    """RETURN: an arrow going round (the direction of play turns)."""
    x, y, w, h = box
    width = max(3, round(w * 0.12))
    rect = pygame.Rect(round(x + w * 0.12), round(y + h * 0.12), round(w * 0.76), round(h * 0.76))
    pygame.draw.arc(s, c, rect, math.radians(100), math.radians(400), width)
    tip = (x + w * 0.5 - w * 0.05, y + h * 0.12 + width / 2)
    pygame.draw.polygon(s, c, [(tip[0] - w * 0.24, tip[1]), (tip[0] + w * 0.06, tip[1] - h * 0.2),
                               (tip[0] + w * 0.06, tip[1] + h * 0.2)])


def _hurdle(s: pygame.Surface, box: Box, c: Color) -> None:
    """HURDLES: a hurdle (the next player is skipped)."""
    x, y, w, h = box
    post = max(3, w * 0.12)
    pygame.draw.rect(s, c, (x + w * 0.1, y + h * 0.2, post, h * 0.78))
    pygame.draw.rect(s, c, (x + w * 0.9 - post, y + h * 0.2, post, h * 0.78))
    pygame.draw.rect(s, c, (x, y + h * 0.2, w, h * 0.16))
    pygame.draw.rect(s, c, (x + w * 0.1, y + h * 0.55, w * 0.8, h * 0.1))


SYMBOLS: dict[str, Callable[[pygame.Surface, Box, Color], None]] = {
    "hearts": _heart, "diamonds": _diamond, "spades": _spade, "clubs": _club,
    "joker": _star, "mirror": _mirror, "cross": _cross,
    "water": _drop, "fire": _flame, "earth": _mountain, "air": _wind,
    "wild": _wheel, "return": _turn, "hurdles": _hurdle,
}


def draw_symbol(surface: pygame.Surface, name: str, box: Box, color: Color) -> None:
    """The sign `name` in the square `box` (an unknown name draws nothing: the card's words still say it)."""
    found = SYMBOLS.get(name)
    if found is not None:
        found(surface, box, color)


# --- patterns over a card's colour (ANNAOTTO)


def _dots(s: pygame.Surface, ink: Color, step: int) -> None:
    w, h = s.get_size()
    for row, y in enumerate(range(step // 2, h + step, step)):
        for x in range(step // 2 + (step // 2 if row % 2 else 0), w + step, step):
            pygame.draw.circle(s, ink, (x, y), max(2, step // 4))


def _stripes(s: pygame.Surface, ink: Color, step: int) -> None:
    w, h = s.get_size()
    for x in range(-h, w + h, step):
        pygame.draw.line(s, ink, (x, h), (x + h, 0), max(2, step // 3))


def _checks(s: pygame.Surface, ink: Color, step: int) -> None:
    w, h = s.get_size()
    for row, y in enumerate(range(0, h, step)):
        for col, x in enumerate(range(0, w, step)):
            if (row + col) % 2:
                pygame.draw.rect(s, ink, (x, y, step, step))


def _waves(s: pygame.Surface, ink: Color, step: int) -> None:
    w, h = s.get_size()
    for y in range(step // 2, h + step, step):
        points = [(x, y + step * 0.25 * math.sin(x * 2 * math.pi / (step * 1.6))) for x in range(0, w + 4, 3)]
        pygame.draw.lines(s, ink, False, points, max(2, step // 5))


PATTERNS: dict[str, Callable[[pygame.Surface, Color, int], None]] = {
    "dots": _dots, "stripes": _stripes, "checks": _checks, "waves": _waves,
}


def draw_pattern(surface: pygame.Surface, name: str, ink: Color, step: int) -> None:
    """`name`'s pattern over the whole surface in `ink`, one repeat `step` px (an unknown name draws nothing)."""
    found = PATTERNS.get(name)
    if found is not None:
        found(surface, ink, max(6, step))
