"""Card pictures: a card face drawn from its game's definition (`referee.registry.CardFace`), not written as words.

A face says what it shows — a value (a number, a rank, a short sign), a sign drawn as a shape (a suit, an element,
the Joker), a line of small words (Alles klar?'s numerals, the 7's pair, an element's name), the card's colour and
its pattern — and this module lays it out and draws it: the value as large as whose turn it is (the `key` role's
6 mm capitals), so it reads from the chairs; the small words at the smallest text size (3 mm). A card is as wide as
its value needs and never cut; `card_size` tells a screen how much room a card takes before it places it.

Pictures are kept per face and size (`picture`): a scan's frame blits a card drawn before, and draws a face only the
first time it is seen at that size.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from kiosk.drawing.fonts import cap_height, font, px_for_cap
from kiosk.drawing.symbols import draw_pattern, draw_symbol
from kiosk.drawing.view import CARD, DARK_INK, Limits, Rect, ui_scale
from referee.registry import CardFace

Color = tuple[int, int, int]

# A face's inks and fills by the names the games' definitions use (a contract test checks every face names only
# these). Inks are dark enough to read on the white card (contrast ≥ 4.5:1 on CARD).
INKS: dict[str, Color] = {
    "black": (25, 25, 25), "red": (178, 20, 30), "blue": (20, 75, 165), "green": (25, 105, 45),
    "brown": (110, 62, 25), "sky": (25, 100, 150),
}
FILLS: dict[str, Color] = {
    "red": (205, 45, 45), "orange": (240, 135, 30), "yellow": (240, 205, 40), "green": (55, 150, 70),
    "blue": (40, 100, 200), "purple": (130, 60, 170), "pink": (235, 125, 180), "brown": (125, 80, 40),
}
BAND: Color = (250, 250, 246)  # the white badge and band a coloured card's words stand on
EDGE: Color = (90, 90, 90)


@dataclass(frozen=True)
class CardText:
    """One text on a card as drawn: for the audit and the count of cut texts."""

    text: str
    rect: Rect  # on the screen
    cap_px: int
    fg: Color
    bg: Color
    role: str  # "key" for the value, "" for the small words
    cut: bool  # the text did not fit the card it was drawn on


@dataclass(frozen=True)
class Metrics:
    """The sizes of a card's parts on one screen size."""

    pad: int
    value_px: int
    value_h: int  # the value's row: its capitals (the key role's height) with a little air
    small_px: int
    small_h: int
    least_w: int  # no card is narrower than this

    @staticmethod
    def of(limits: Limits, scale: float) -> Metrics:
        value_px, small_px = px_for_cap(limits.key_cap), px_for_cap(limits.cap)
        pad = max(3, round(4 * scale))
        value_h = round(cap_height(value_px) * 1.4)
        small_h = round(cap_height(small_px) * 1.75)
        return Metrics(pad, value_px, value_h, small_px, small_h, round((value_h + small_h + 2 * pad) * 0.62))


def metrics(width: int, height: int) -> Metrics:
    return Metrics.of(Limits.for_size(width, height), ui_scale(width, height))


def _value_w(face: CardFace, m: Metrics) -> int:
    """The value row's width: the value's text, a sign beside it (a rank's suit) or a sign alone."""
    text_w = font(m.value_px).size(face.value)[0] if face.value else 0
    if face.symbol and face.value:
        return text_w + m.pad + round(m.value_h * 0.75)
    return text_w or (m.value_h if face.symbol else 0)


def card_size(face: CardFace | None, m: Metrics, words: bool = True) -> tuple[int, int]:
    """(width, height) of a card: the value's row, and the small words' row when `words` and the face has some
    (a card its game does not draw, None, is as small as a card is)."""
    if face is None:
        return m.least_w, height(m, False)
    small = words and bool(face.small)
    badge = 2 * m.pad if face.fill else 0  # a coloured card's value stands on a white badge
    inner = max(_value_w(face, m) + badge, font(m.small_px).size(face.small)[0] if small else 0)
    return max(m.least_w, inner + (8 if face.fill else 4) * m.pad), height(m, small)


def height(m: Metrics, words: bool) -> int:
    """A row's card height: with the small words' row or without."""
    return 2 * m.pad + m.value_h + (m.small_h if words else 0)


def _ink(face: CardFace) -> Color:
    return INKS.get(face.ink, DARK_INK)


def _background(face: CardFace) -> Color:
    return FILLS.get(face.fill, CARD)


def _text_at(surface: pygame.Surface, text: str, px: int, color: Color, box: pygame.Rect) -> pygame.Rect:
    """`text` centred in `box` by its capitals (not by the font's line); returns where its ink went."""
    f = font(px)
    image = f.render(text, True, color)
    y = box.centery - (f.get_ascent() - cap_height(px) // 2)
    at = pygame.Rect(box.centerx - image.get_width() // 2, y, image.get_width(), image.get_height())
    surface.blit(image, at)
    return at


def _rows(face: CardFace, m: Metrics, size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect | None]:
    """The value's row and the small words' row (None when the card is too low for it) inside a card."""
    w, h = size
    words = bool(face.small) and h >= height(m, True) - 1
    top = max(m.pad, (h - height(m, words)) // 2 + m.pad)
    value = pygame.Rect(m.pad, top, w - 2 * m.pad, m.value_h)
    return value, (pygame.Rect(m.pad, value.bottom, w - 2 * m.pad, m.small_h) if words else None)


def draw_card(surface: pygame.Surface, face: CardFace, m: Metrics) -> list[CardText]:
    """Draw `face` filling `surface` (a card of its size); the texts as drawn, in the card's own coordinates."""
    w, h = surface.get_size()
    radius = max(4, min(w, h) // 8)
    back = _background(face)
    surface.fill((0, 0, 0, 0))
    pygame.draw.rect(surface, back, (0, 0, w, h), border_radius=radius)
    if face.pattern:
        _pattern(surface, face, back, radius, m)
    value_row, small_row = _rows(face, m, (w, h))
    out = _value(surface, face, m, value_row)
    if small_row is not None:
        bg = back
        if face.fill:  # the words on a white band across the coloured card (its colour stays beside it)
            text_w = font(m.small_px).size(face.small)[0]
            band = pygame.Rect(0, 0, min(small_row.width, text_w + 2 * m.pad), small_row.height)
            band.center = small_row.center
            pygame.draw.rect(surface, BAND, band, border_radius=radius // 2)
            bg = BAND
        text_w = font(m.small_px).size(face.small)[0]
        ink = DARK_INK if face.fill else _ink(face)
        at = _text_at(surface, face.small, m.small_px, ink, small_row)
        out.append(CardText(face.small, (at.x, at.y, at.w, at.h), cap_height(m.small_px), ink, bg, "",
                            text_w > small_row.width))
    pygame.draw.rect(surface, EDGE, (0, 0, w, h), width=max(1, m.pad // 2), border_radius=radius)
    return out


def _pattern(surface: pygame.Surface, face: CardFace, back: Color, radius: int, m: Metrics) -> None:
    """The card's pattern in a lighter shade of its colour, inside its rounded corners."""
    w, h = surface.get_size()
    layer = pygame.Surface((w, h), pygame.SRCALPHA)
    light = tuple(min(255, round(v + (255 - v) * 0.45)) for v in back)
    draw_pattern(layer, face.pattern, light, round(m.value_h * 0.45))  # type: ignore[arg-type]
    mask = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), (0, 0, w, h), border_radius=radius)
    layer.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    surface.blit(layer, (0, 0))


def _value(surface: pygame.Surface, face: CardFace, m: Metrics, row: pygame.Rect) -> list[CardText]:
    """The value's row: the value (on a white badge on a coloured card), a sign beside it or alone."""
    ink = _ink(face)
    need = _value_w(face, m)
    if not need:
        return []
    bg = _background(face)
    if face.fill:
        badge = pygame.Rect(0, 0, min(row.width, need + 2 * m.pad), row.height).move(
            row.centerx - min(row.width, need + 2 * m.pad) // 2, row.y)
        pygame.draw.rect(surface, BAND, badge, border_radius=max(3, badge.height // 4))
        bg, ink = BAND, (DARK_INK if face.value else ink)
    side = round(m.value_h * (0.75 if face.value else 0.9))
    if not face.value:
        draw_symbol(surface, face.symbol, (row.centerx - side / 2, row.centery - side / 2, side, side), ink)
        return []
    text_w = font(m.value_px).size(face.value)[0]
    left = row.centerx - need // 2
    at = _text_at(surface, face.value, m.value_px, ink, pygame.Rect(left, row.y, text_w, row.height))
    if face.symbol:
        draw_symbol(surface, face.symbol, (left + text_w + m.pad, row.centery - side / 2, side, side), ink)
    return [CardText(face.value, (at.x, at.y, at.w, at.h), cap_height(m.value_px), ink, bg, "key", need > row.width)]


class Pictures:
    """Card pictures drawn once per face and size, with the texts each holds (for the audit and the cut count)."""

    def __init__(self) -> None:
        self._drawn: dict[tuple[CardFace, int, int, Metrics], tuple[pygame.Surface, list[CardText]]] = {}

    def get(self, face: CardFace, size: tuple[int, int], m: Metrics) -> tuple[pygame.Surface, list[CardText]]:
        key = (face, size[0], size[1], m)
        found = self._drawn.get(key)
        if found is None:
            if len(self._drawn) > 600:
                self._drawn.clear()
            surface = pygame.Surface(size, pygame.SRCALPHA)
            found = self._drawn[key] = (surface, draw_card(surface, face, m))
        return found


pictures = Pictures()
