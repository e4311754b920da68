"""Draw a View onto a pygame surface. Fonts are cached per size; text shrinks to fit its box."""

from __future__ import annotations

import pygame

from kiosk.view import BG, View


class Renderer:
    def __init__(self, surface: pygame.Surface):
        self.surface = surface
        self._fonts: dict[int, pygame.font.Font] = {}
        self._base = max(14, surface.get_height() // 20)

    def font(self, px: int) -> pygame.font.Font:
        px = max(10, px)
        font = self._fonts.get(px)
        if font is None:
            font = self._fonts[px] = pygame.font.Font(None, px)
        return font

    def draw(self, view: View) -> None:
        surface = self.surface
        surface.fill(BG)
        for e in view.elements:
            rect = pygame.Rect(e.rect)
            if e.kind == "box":
                pygame.draw.rect(surface, e.fill, rect, border_radius=8)
                continue
            if e.kind in ("button", "card"):
                pygame.draw.rect(surface, e.fill, rect, border_radius=10)
                if e.kind == "card":
                    pygame.draw.rect(surface, (90, 90, 90), rect, width=2, border_radius=10)
            elif e.fill is not None:
                pygame.draw.rect(surface, e.fill, rect, border_radius=6)
            if e.text:
                self._text(e.text, rect, e.color, e.size, e.align)

    def _text(self, text: str, rect: pygame.Rect, color: tuple[int, int, int], size: float, align: str) -> None:
        px = int(self._base * 1.6 * size)
        font = self.font(px)
        image = font.render(text, True, color)
        while image.get_width() > rect.width - 8 and px > 12:  # shrink to fit
            px = int(px * 0.88)
            font = self.font(px)
            image = font.render(text, True, color)
        y = rect.y + (rect.height - image.get_height()) // 2
        if align == "center":
            x = rect.x + (rect.width - image.get_width()) // 2
        elif align == "right":
            x = rect.right - image.get_width() - 4
        else:
            x = rect.x + 4
        self.surface.blit(image, (x, y))
