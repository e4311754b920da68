"""The kiosk's one font at every size, and which size gives capitals of a given height.

Shared by the renderer, its measuring helper and the card pictures (`kiosk.drawing.cards`), so a size is
opened once per process.
"""

from __future__ import annotations

import os

import pygame

FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",  # fonts-dejavu-core: Debian and Raspberry Pi OS
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
)

_FONTS: dict[int, pygame.font.Font] = {}
_PX_FOR_CAP: dict[float, int] = {}
_CAPS: dict[int, int] = {}


def font_file() -> str | None:
    """DejaVu Sans Bold (clear capitals, ✓ and ✗), or pygame's own font where it is missing."""
    override = os.environ.get("REFEREE_FONT")
    for path in (override, *FONT_FILES):
        if path and os.path.exists(path):
            return path
    return None


def font(px: int) -> pygame.font.Font:
    """The font at `px` (at least 8; pygame's font module is started on first use)."""
    px = max(8, px)
    found = _FONTS.get(px)
    if found is None:
        if not pygame.font.get_init():
            pygame.font.init()
        found = _FONTS[px] = pygame.font.Font(font_file(), px)
    return found


def cap_height(px: int) -> int:
    """The height of a capital H of the font at `px`, in pixels, as the font draws it."""
    cap = _CAPS.get(px)
    if cap is None:
        metrics = font(px).metrics("H")[0]
        if metrics is None:
            raise pygame.error("the font has no capital H")
        cap = _CAPS[px] = metrics[3] - max(0, metrics[2])
    return cap


def px_for_cap(cap: float) -> int:
    """The smallest font size whose capitals are at least `cap` px high."""
    px = _PX_FOR_CAP.get(cap)
    if px is None:
        px = max(8, int(cap / 0.73))
        while cap_height(px) < cap:
            px += 1
        while px > 8 and cap_height(px - 1) >= cap:
            px -= 1
        _PX_FOR_CAP[cap] = px
    return px
