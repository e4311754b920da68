"""The screen the kiosk draws on: SDL's display opened (or, for a simulation only, the dummy driver), the
upright canvas the screens draw on, the turn onto a display mounted rotated, and one frame shown.

What goes into a frame (the screen's view, the notice band, the café strip) is the display loop's
(`kiosk/loop/frame_loop.py`); this module only puts a finished view on the glass.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pygame

from kiosk.drawing.render import Renderer
from kiosk.drawing.view import View
from kiosk.settings.settings import Settings

logger = logging.getLogger(__name__)

WAKE = pygame.USEREVENT + 1  # an SDL event that only wakes the loop


class DisplayError(RuntimeError):
    """SDL could not open the screen: the kiosk must not pretend to run (black screen, unit "active")."""


class Display:
    """The opened display (`window`), the upright `surface` screens draw on (the window itself unless the
    display is mounted rotated) and its `renderer`. The --sim light strip (`kiosk/hardware/sim_strip.py`) replaces
    `window`, `surface` and `renderer` with the part of a taller window above the strip."""

    def __init__(self, settings: Settings, kiosk_mode: bool, headless: bool, fallback_headless: bool):
        self.settings = settings
        self.kiosk_mode = kiosk_mode
        self.headless = headless
        # Only a simulation may fall back to the dummy driver; a real kiosk without a screen fails loudly.
        self.fallback_headless = fallback_headless
        self.window = self._open()
        self.rotate = settings.rotate % 360
        self.surface = self._canvas()
        self.renderer = Renderer(self.surface)

    def _open(self) -> pygame.Surface:
        size = (self.settings.width, self.settings.height)
        flags = pygame.FULLSCREEN if self.kiosk_mode and not self.headless else 0
        try:
            pygame.display.init()
            surface = pygame.display.set_mode(size if not flags else (0, 0), flags)
        except pygame.error as error:
            driver = os.environ.get("SDL_VIDEODRIVER") or "SDL's default"
            if not self.fallback_headless:
                pygame.display.quit()
                raise DisplayError(f"no working display ({driver}): {error}") from error
            logger.warning("no working display (%s): %s — simulation renders headless (SDL dummy driver)",
                           driver, error)
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            pygame.display.quit()
            pygame.display.init()
            self.headless = True
            surface = pygame.display.set_mode(size)
        pygame.font.init()
        pygame.display.set_caption("Tabletop Referee")
        if self.kiosk_mode:
            pygame.mouse.set_visible(False)
        pygame.event.set_allowed(None)
        pygame.event.set_blocked(None)
        pygame.event.set_allowed([pygame.QUIT, pygame.KEYDOWN, pygame.TEXTINPUT, pygame.MOUSEBUTTONDOWN,
                                  pygame.MOUSEBUTTONUP, pygame.FINGERDOWN, pygame.FINGERUP, WAKE,
                                  pygame.WINDOWEXPOSED, pygame.VIDEORESIZE])
        return surface

    def _canvas(self) -> pygame.Surface:
        """Where screens draw: the display itself, or (rotated) an upright surface turned onto it per frame."""
        if not self.rotate:
            return self.window
        w, h = self.window.get_size()
        return pygame.Surface((h, w) if self.rotate in (90, 270) else (w, h)).convert()

    def to_logical(self, x: int, y: int) -> tuple[int, int]:
        """A display point (touch) → the point of the upright picture under it."""
        w, h = self.surface.get_size()  # the upright picture's size
        if self.rotate == 90:
            return y, h - 1 - x
        if self.rotate == 180:
            return w - 1 - x, h - 1 - y
        if self.rotate == 270:
            return w - 1 - y, x
        return x, y

    def present(self, view: View) -> None:
        """Draw `view` on the canvas and put it on the glass: only the regions the renderer drew again
        (`pygame.display.update`, nothing when nothing changed), else the whole window (a whole draw; a display
        mounted rotated, whose window gets the whole turned canvas)."""
        regions = self.renderer.draw(view)
        if self.rotate:
            self.window.blit(pygame.transform.rotate(self.surface, -self.rotate), (0, 0))
            pygame.display.flip()
        elif regions is None:
            pygame.display.flip()
        elif regions:
            # The --sim light strip's window: the canvas is its top part (offset 0, 0); said, not assumed.
            dx, dy = self.surface.get_abs_offset()
            pygame.display.update([region.move(dx, dy) for region in regions])

    def invalidate(self) -> None:
        """The next frame is drawn and flipped whole (the window was exposed or resized)."""
        self.renderer.invalidate()

    def shown(self) -> pygame.Surface:
        """The kiosk's picture as the display shows it: turned when rotated (without the --sim light strip)."""
        return self.window if self.rotate else self.surface

    def cut_texts(self) -> dict[str, object]:
        """How many texts the renderer ever drew cut or below their role's floor, with the last examples:
        the control socket's `state` reports it in every run, so a drill or a test fails on any (issue #37)."""
        return self.renderer.cuts.report()

    def save(self, path: Path) -> None:
        pygame.image.save(self.shown(), str(path))

    def close(self) -> None:
        pygame.display.quit()
