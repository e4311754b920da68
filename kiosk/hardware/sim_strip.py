"""The `--sim` window's strip under the kiosk's screen: each seat's keys and its light, as it shines now.

In simulation nobody sees the LEDs on the table, so the window grows by a strip that
shows per seat the keys that press its buttons and a round "LED" drawn with the
brightness gpiozero last wrote to the (mock) pin, with the light's mode in words.
The kiosk's own screen keeps its size and place (a subsurface at the top), so
screens, touches and screenshots of the screen are exactly as on the Pi.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pygame

from hw.lights import Mode, SeatLights
from kiosk.drawing.view import INK, MUTED
from kiosk.loop.display import Display

ROW = 44  # px per row of seats
SLOT = 190  # px a seat needs: LED, "Name [1] [q]", mode and player
BACKGROUND = (10, 14, 12)
LIT = (255, 190, 40)
DARK = (55, 50, 40)


class SimStrip:
    """Draws the strip; `attach()` makes the window taller and gives the app the top part as its screen."""

    def __init__(self, lights: SeatLights, keys: Mapping[str, Mapping[str, str]]):
        self.lights = lights
        self.keys = {seat: dict(k) for seat, k in keys.items()}
        self.window: pygame.Surface | None = None
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.columns = 1
        self._font: pygame.font.Font | None = None

    def attach(self, display: Display) -> None:
        """Make the window taller; the display (`kiosk.loop.display.Display`: the part its screens reach) stays the
        top part."""
        mounted = display.window  # the screen as mounted (rotated or not)
        width, height = mounted.get_size()
        seats = max(len(self.lights.seats), 1)
        self.columns = max(1, min(seats, width // SLOT))  # portrait: two rows of two
        rows = -(-seats // self.columns)
        self.window = pygame.display.set_mode((width, height + rows * ROW))
        screen_part = self.window.subsurface((0, 0, width, height))
        if display.surface is mounted:  # not rotated: screens draw straight onto the window's top part
            display.surface = screen_part
        display.window = screen_part  # screenshots and the rotated picture: the screen without the strip
        display.renderer.resize(display.surface)  # (its count of cut texts goes on)
        self.rect = pygame.Rect(0, height, width, rows * ROW)
        self._font = pygame.font.Font(None, 22)

    def draw(self, seats: Sequence[str], plan: Mapping[str, Mode], players: Mapping[str, str] | None = None) -> None:
        """One slot per seat: LED, seat name and keys; below them the mode and the player sitting there."""
        if self.window is None or self._font is None:
            return
        window, rect = self.window, self.rect
        window.fill(BACKGROUND, rect)
        slot = rect.width // self.columns
        for i, seat in enumerate(seats):
            x = rect.x + (i % self.columns) * slot
            y = rect.y + (i // self.columns) * ROW
            level = self.lights.value(seat) if seat in self.lights.devices else 0.0
            colour = tuple(round(d + (lit - d) * level) for d, lit in zip(DARK, LIT, strict=True))
            centre = (x + 18, y + ROW // 2)
            pygame.draw.circle(window, colour, centre, 12)
            pygame.draw.circle(window, MUTED, centre, 12, width=1)
            keys = self.keys.get(seat, {})
            label = f"{seat}  [{keys.get('confirm', '-')}] [{keys.get('slap', '-')}]"
            mode = plan.get(seat, Mode.OFF).reported
            window.blit(self._font.render(label, True, INK), (x + 36, y + 6))
            window.blit(self._font.render(mode, True, LIT if mode != "off" else MUTED), (x + 36, y + 24))
            player = (players or {}).get(seat)
            if player:
                window.blit(self._font.render(player, True, MUTED), (x + 86, y + 24))
        pygame.display.update(rect)
