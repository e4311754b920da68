"""Which parts of the screen a new view changes against the one drawn last: the damage regions.

A rejection changes the verdict's part of the screen only, yet a whole frame fills the whole surface, draws
every box and text again and flips the whole window: after the loop slept, that memory is cold, and on a Pi the
fill and the flip are the bulk of a frame (decision D26-1). So the renderer compares what it drew last with what
it is asked to draw: each element drawn is a key (a number the renderer gives each element, with the size its
group's texts were drawn at) and the area it inks. Elements that went away or came (counted as multisets: an
element drawn twice is two) make the regions; everything else on the surface stays as it is — provided the
elements that stayed are drawn in the same order relative to each other, so that where two of them overlap
the same one is on top.

This module only compares; `kiosk.drawing.render.Renderer` works out the inks and draws the regions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

import pygame

WHOLE_ABOVE = 0.5  # regions covering more than this share of the screen: the whole view is drawn instead

Drawn = tuple[Hashable, pygame.Rect]  # one element as drawn: its key and the area it inks


def regions(last: Sequence[Drawn], new: Sequence[Drawn], size: tuple[int, int]) -> list[pygame.Rect] | None:
    """The areas to draw again so that the surface showing `last` shows `new`; [] when nothing changed, None when
    the whole view must be drawn (the elements that stayed changed their order, or the regions cover more than
    `WHOLE_ABOVE` of the screen)."""
    kept = Counter(key for key, _ in last) & Counter(key for key, _ in new)
    last_kept, removed = _split(last, kept)
    new_kept, added = _split(new, kept)
    if last_kept != new_kept:
        return None
    found = _merged(removed + added, pygame.Rect((0, 0), size))
    if area(found) > WHOLE_ABOVE * size[0] * size[1]:
        return None
    return found


def _split(drawn: Sequence[Drawn], kept: Counter) -> tuple[list[Hashable], list[pygame.Rect]]:
    """The keys that stay (in drawing order, the first ones of equal keys) and the inks of the others."""
    left = Counter(kept)
    stay: list[Hashable] = []
    changed: list[pygame.Rect] = []
    for key, ink in drawn:
        if left[key] > 0:
            left[key] -= 1
            stay.append(key)
        else:
            changed.append(ink)
    return stay, changed


def _merged(inks: list[pygame.Rect], screen: pygame.Rect) -> list[pygame.Rect]:
    """The inks on the screen, without the empty ones and those inside another (a text changed in its box:
    the old and the new ink are often one rect)."""
    on_screen = [r for r in (ink.clip(screen) for ink in inks) if r.width > 0 and r.height > 0]
    on_screen.sort(key=lambda r: r.width * r.height, reverse=True)
    out: list[pygame.Rect] = []
    for rect in on_screen:
        if not any(big.contains(rect) for big in out):
            out.append(rect)
    return out


def area(rects: Sequence[pygame.Rect]) -> int:
    """The regions' total area in pixels (overlaps counted twice: each region is drawn on its own)."""
    return sum(r.width * r.height for r in rects)
