"""Draw a View onto a pygame surface, keeping the readability limits, and say what was drawn.

Text never shrinks below the limits (`kiosk.drawing.view.Limits`): a text that does not fit its box
first shrinks down to its floor (its role's capital height in `Limits`: 16 px at 800×480, 21 px for
`lead`, 32 px for `key`), then wraps onto more lines, and only then is cut with "…" — which the audit
counts as a failure: a screen must lay its texts out so they fit. Button labels get dark or light ink,
whichever reads better on the button's fill. When `record` is a list, every drawn text and
touch target is appended to it with its final sizes and colours, as drawn: the audit
(`kiosk.drawing.audit`) checks those, not the layout's wishes.

A view is drawn only where it differs from the one drawn before it (`kiosk.drawing.damage`, decision
D26-1); `Renderer.invalidate()` makes the next one whole.
"""

from __future__ import annotations

import logging
import re
from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass, field

import pygame

from kiosk.drawing import cards, damage
from kiosk.drawing.fonts import cap_height, font, px_for_cap
from kiosk.drawing.view import BG, DARK_INK, INK, Color, Element, Limits, Rect, View, ui_scale
from kiosk.i18n import language
from referee.words import default_names_in

ELLIPSIS = "…"
CUT_MARK = "text cut:"  # how the renderer logs a text it cut (the monkey drill and the test suite look for it)
MAX_DRAWN = 1000  # characters of one text: more than any screen holds; a longer one is cut before it is measured
_UNDRAWABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # controls with no glyph (kept: tab, LF, CR)
_SPACES = re.compile("[\t\n\r]")


def drawable(text: object) -> str:
    """Any text as the font can draw it, so that no string from a screen, a guest, the café or a stick makes
    drawing raise: at most MAX_DRAWN characters, controls left out (tabs and line ends become spaces), a
    surrogate pair joined into its character and a lone surrogate drawn as U+FFFD. The café's contract already
    drops text with controls; this is the renderer's own guard, whatever the text's way here."""
    if not isinstance(text, str):
        text = str(text)
    if len(text) > MAX_DRAWN:
        text = text[:MAX_DRAWN - 1] + ELLIPSIS
    if text.isascii() and text.isprintable():
        return text
    text = _SPACES.sub(" ", _UNDRAWABLE.sub("", text))
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


logger = logging.getLogger(__name__)


def luminance(color: Color) -> float:
    """WCAG relative luminance of an sRGB colour."""
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = color[:3]
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Color, b: Color) -> float:
    """WCAG contrast ratio of two colours (1 … 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_for(fill: Color) -> Color:
    """Dark or light text, whichever contrasts more with `fill`."""
    return DARK_INK if contrast(DARK_INK, fill) >= contrast(INK, fill) else INK


def words(text: str) -> list[str]:
    """The words a text wraps between: split at spaces, tabs and line ends only, so a no-break space (U+00A0)
    keeps a name and its number on one line."""
    return [word for word in re.split(r"[ \t\n]+", text) if word]


class Measure:
    """How much room a text needs when the renderer draws it at its floor (the capital height of its role):
    screens lay their parts out with it so that every text fits, wrapped, and none is cut."""

    def __init__(self) -> None:
        self._lines: dict[tuple[str, int, float], tuple[int, bool]] = {}
        self._widths: dict[tuple[str, float], int] = {}

    @staticmethod
    def line(cap: float) -> int:
        """The height of one line of text whose capitals are `cap` px high."""
        return font(px_for_cap(cap)).get_linesize()

    def width(self, text: str, cap: float) -> int:
        """The width of `text` on one line at capitals `cap` px high."""
        text = drawable(default_names_in(text, language()))  # as `View.add` will show it, as it can be drawn
        found = self._widths.get((text, cap))
        if found is None:
            if len(self._widths) > 4000:
                self._widths.clear()
            found = self._widths[(text, cap)] = font(px_for_cap(cap)).size(text)[0]
        return found

    def lines(self, text: str, width: int, cap: float, pad: int = 2) -> int:
        """The lines `text` wraps onto in a box `width` px wide (the renderer's inner padding `pad` each side)."""
        return self.wrapped(text, width, cap, pad)[0]

    def fits(self, text: str, width: int, cap: float, pad: int = 2) -> bool:
        """Whether every word of `text` fits the box's width (a word wider than the box would be cut)."""
        return not self.wrapped(text, width, cap, pad)[1]

    def wrapped(self, text: str, width: int, cap: float, pad: int = 2) -> tuple[int, bool]:
        """(lines, whether a word had to be cut) of `text` as `View.add` will show it: a default name in the
        table's language ("Spieler 1" is wider than "Player 1"), as the font can draw it."""
        text = drawable(default_names_in(text, language()))
        key = (text, width - 2 * pad, cap)
        found = self._lines.get(key)
        if found is None:
            if len(self._lines) > 4000:
                self._lines.clear()
            f, inner = font(px_for_cap(cap)), width - 2 * pad
            cut = any(f.size(part)[0] > inner for word in words(text)
                      for part in Renderer._break_word(word, f, inner))
            found = self._lines[key] = (len(Renderer._wrap(text, f, inner)), cut)
        return found

    def height(self, text: str, width: int, cap: float, pad: int = 2) -> int:
        """The box height that holds `text` wrapped in `width` (renderer: 1 px off the top and the bottom)."""
        return self.lines(text, width, cap, pad) * self.line(cap) + 2


measure = Measure()


@dataclass(frozen=True)
class DrawnText:
    """One text as drawn: its capital height in px and the colours it was drawn in and on."""

    text: str  # what was drawn (after wrapping and cutting), lines joined with "\n"
    source: str  # the text the screen asked for
    rect: Rect
    cap_px: int
    fg: Color
    bg: Color
    role: str
    tag: str
    cut: bool  # the text did not fit even wrapped at its floor size and was cut with "…"
    group: str = ""  # texts of one group (a row of buttons) must share one size


@dataclass(frozen=True)
class DrawnTarget:
    """One touch target as drawn."""

    rect: Rect
    action: str
    tag: str


@dataclass
class Cuts:
    """Every text the renderer cut with "…" or drew below its role's floor, in every run (not only under the
    audit): real play draws screens the audit's scenes do not (issue #37). Counted per frame it was drawn in,
    the last few kept for `state`, each new one logged once as a warning."""

    count: int = 0
    last: deque[str] = field(default_factory=lambda: deque(maxlen=5))
    _logged: set[tuple[str, int, int]] = field(default_factory=set)

    def note(self, source: str, drawn: str, rect: Rect, why: str) -> None:
        self.count += 1
        example = f"{source!r} drawn as {drawn!r} ({why})"
        if not self.last or self.last[-1] != example:
            self.last.append(example)
        seen = (source, rect[2], rect[3])
        if seen not in self._logged and len(self._logged) < 1000:
            self._logged.add(seen)
            logger.warning("%s %s in a box of %d×%d px", CUT_MARK, example, rect[2], rect[3])

    def report(self) -> dict[str, object]:
        return {"count": self.count, "last": list(self.last)}


class Renderer:
    def __init__(self, surface: pygame.Surface):
        self.surface = surface
        self._images: dict[tuple[str, int, Color], pygame.Surface] = {}  # rendered lines, reused across frames
        self._fits: dict[tuple, tuple[list[str], int, bool]] = {}
        self._group_px: dict[str, int] = {}  # per drawn view: the one size of each group of texts
        # Per element drawn lately (and its group's size): a number standing for it, and the area it inks. The
        # frames are compared by these numbers (an element's hash is worked out afresh each time it is asked).
        self._inks: dict[Hashable, damage.Drawn] = {}
        self._serial = 0  # never reused, also when `_inks` is cleared: an element seen anew only draws more
        # The surface, its size and what was drawn on it last (None: unknown, the next view is drawn whole).
        self._last: tuple[pygame.Surface, tuple[int, int], list[damage.Drawn]] | None = None
        self.regions: list[pygame.Rect] | None = None  # what the last draw drew again (None: the whole surface)
        self.cuts = Cuts()
        self._cut_now: set[Element] = set()  # the texts counted as cut in this frame (drawn once per region)
        self.resize(surface)
        self.record: list[DrawnText | DrawnTarget] | None = None

    def resize(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self._last = None
        self._inks.clear()  # the inks were placed at the old size's scale and limits
        w, h = surface.get_size()
        self.scale = ui_scale(w, h)
        self.limits = Limits.for_size(w, h)
        self.card_metrics = cards.Metrics.of(self.limits, self.scale)

    # --- fonts

    def font(self, px: int) -> pygame.font.Font:
        return font(px)

    def cap_height(self, px: int) -> int:
        """The height of a capital H of the font at `px`, in pixels, as the font draws it."""
        return cap_height(px)

    def px_for_cap(self, cap: float) -> int:
        """The smallest font size whose capitals are at least `cap` px high."""
        return px_for_cap(cap)

    # --- drawing

    def draw(self, view: View) -> list[pygame.Rect] | None:
        """Draw `view`: only where it differs from the view drawn last (`kiosk.drawing.damage`), else whole.
        Returns the regions drawn again ([] when nothing changed), or None when the whole surface was drawn."""
        last, self._last = self._last, None  # an exception mid-draw leaves the surface unknown: whole next time
        self._group_px = {}
        self._cut_now.clear()
        self._group_px = self._group_sizes(view)
        drawn = self._drawn(view)
        found = None
        size = self.surface.get_size()
        if last is not None and drawn is not None and last[:2] == (self.surface, size):
            found = damage.regions(last[2], drawn, size)
        if found is not None and drawn is not None:
            self._draw_regions(view, drawn, found)
        else:
            self._draw_whole(view)
        self._last = (self.surface, size, drawn) if drawn is not None else None
        self.regions = found
        return found

    def invalidate(self) -> None:
        """Something else drew on the surface (or the window lost its picture): the next view is drawn whole."""
        self._last = None

    def _drawn(self, view: View) -> list[damage.Drawn] | None:
        """Each element's number and ink for comparing with the next view; None when the view cannot be compared
        (a picture element's PIL image is not hashable) or must be drawn whole (the audit records every text)."""
        if self.record is not None or any(e.kind == "picture" for e in view.elements):
            return None
        out = []
        for e in view.elements:
            key = (e, self._group_px.get(e.group)) if e.group else e
            found = self._inks.get(key)
            if found is None:
                if len(self._inks) > 4000:
                    self._inks.clear()
                self._serial += 1
                found = self._inks[key] = (self._serial, self._ink(e))
            out.append(found)
        return out

    def _draw_whole(self, view: View) -> None:
        self.surface.fill(BG)
        for e in view.elements:
            self._element(e)

    def _draw_regions(self, view: View, drawn: list[damage.Drawn], regions: list[pygame.Rect]) -> None:
        """Per region: the background, then every element whose ink meets it, in order, clipped to it."""
        surface = self.surface
        try:
            for region in regions:
                surface.set_clip(region)
                surface.fill(BG, region)
                for e, (_, ink) in zip(view.elements, drawn, strict=True):
                    if ink.colliderect(region):
                        self._element(e)
        finally:  # an element that raised must not leave the clip for the next (whole) frame
            surface.set_clip(None)

    def _element(self, e: Element) -> None:
        surface = self.surface
        rect = pygame.Rect(e.rect)
        if e.kind == "icon":
            self._icon(e, rect)
            return
        if e.kind == "picture":
            self._picture(e, rect)
            return
        if e.kind == "card" and e.face is not None:
            self._card(e, rect)
            return
        radius = 10 if e.kind in ("button", "card") else 8 if e.kind == "box" else 6
        if e.fill is not None:
            pygame.draw.rect(surface, e.fill, rect, border_radius=radius)
        if e.kind == "card":
            pygame.draw.rect(surface, (90, 90, 90), rect, width=2, border_radius=radius)
        if e.outline is not None and e.outline_px:
            pygame.draw.rect(surface, e.outline, rect, width=e.outline_px, border_radius=radius)
        if e.kind == "button" and self.record is not None:
            self.record.append(DrawnTarget(e.rect, e.action or "", e.tag))
        if e.text:
            self._text(e, rect, self._text_color(e))

    @staticmethod
    def _text_color(e: Element) -> Color:
        return ink_for(e.fill) if e.kind == "button" and e.fill is not None else e.color

    def _ink(self, e: Element) -> pygame.Rect:
        """The area `e` draws on: its rect, with a text's lines where they overflow it (a text taller than its box
        at its floor size is centred on it) and an icon's strokes (as wide as a seventh of it, round the points)."""
        rect = pygame.Rect(e.rect)
        if e.kind == "icon":
            return rect.inflate(2 * (max(3, rect.width // 7) + 2), 2 * (max(3, rect.width // 7) + 2))
        if not e.text or e.kind == "picture" or e.face is not None:
            return rect.inflate(2 * e.outline_px, 2 * e.outline_px) if e.outline_px else rect
        return rect.union(self._lines_area(self._placed(e, rect, self._text_color(e))[2]))

    def _card(self, e: Element, rect: pygame.Rect) -> None:
        """A card's picture (drawn once per face and size, `kiosk.drawing.cards`), framed when it is on top; its
        value and words recorded for the audit, and counted when they did not fit the card."""
        assert e.face is not None  # the renderer draws a card element only with its face
        picture, texts = cards.pictures.get(e.face, rect.size, self.card_metrics)
        self.surface.blit(picture, rect.topleft)
        if e.outline is not None and e.outline_px:
            frame = rect.inflate(2 * e.outline_px, 2 * e.outline_px)
            pygame.draw.rect(self.surface, e.outline, frame, width=e.outline_px, border_radius=12)
        for t in texts:
            on_screen = (t.rect[0] + rect.x, t.rect[1] + rect.y, t.rect[2], t.rect[3])
            if t.cut and e not in self._cut_now:
                self._cut_now.add(e)
                self.cuts.note(t.text, t.text, e.rect, "wider than its card")
            if self.record is not None:
                self.record.append(DrawnText(t.text, t.text, on_screen, t.cap_px, t.fg, t.bg, t.role, e.tag, t.cut))

    def _picture(self, e: Element, rect: pygame.Rect) -> None:
        """A grey picture (PIL, mode "L") scaled into its rect."""
        assert e.picture is not None  # a picture element carries its picture (`View.picture`)
        picture = e.picture.convert("RGB")
        surface = pygame.image.frombytes(picture.tobytes(), picture.size, "RGB")
        self.surface.blit(pygame.transform.smoothscale(surface, rect.size), rect.topleft)

    def _floor_cap(self, e: Element) -> float:
        return self.limits.cap_for(e.role)

    def _group_sizes(self, view: View) -> dict[str, int]:
        """For every group of texts (a row of buttons): the size each would get alone; the group takes the least,
        so labels in one row never differ in size (issue #26)."""
        sizes: dict[str, int] = {}
        for e in view.elements:
            if e.group and e.text:
                px = self._fitted(e, pygame.Rect(e.rect))[1]
                sizes[e.group] = min(px, sizes.get(e.group, px))
        return sizes

    def _fitted(self, e: Element, rect: pygame.Rect) -> tuple[list[str], int, bool]:
        """Lines, font size and whether cut, for `e`'s text in `rect` (cached: the same text in the same box)."""
        inner = rect.inflate(-2 * self._pad(e), -2)
        floor_px = self.px_for_cap(self._floor_cap(e))
        want_px = max(floor_px, self.px_for_cap(19 * self.scale * e.size))
        if e.group in self._group_px:
            want_px = max(floor_px, min(want_px, self._group_px[e.group]))
        key = (drawable(e.text), inner.width, inner.height, want_px, floor_px, e.lines, e.role == "key")
        fitted = self._fits.get(key)
        if fitted is None:
            if len(self._fits) > 4000:
                self._fits.clear()
            fitted = self._fits[key] = self._fit(*key)
        return fitted

    def _pad(self, e: Element) -> int:
        return max(4, round(6 * self.scale)) if e.kind == "button" or e.fill is not None else 2

    def _placed(self, e: Element, rect: pygame.Rect, color: Color
                ) -> tuple[list[str], int, list[tuple[pygame.Surface, tuple[int, int]]]]:
        """`e`'s lines, font size and each line's image with where it goes: centred on the box vertically (so a
        text taller than its box overflows it above and below), aligned as asked across."""
        inner = rect.inflate(-2 * self._pad(e), -2)
        lines, px, _ = self._fitted(e, rect)
        font = self.font(px)
        step = font.get_linesize()
        top = inner.y + (inner.height - step * len(lines)) // 2
        placed = []
        for i, line in enumerate(lines):
            image = self._render(font, line, px, color)
            if e.align == "center":
                x = inner.x + (inner.width - image.get_width()) // 2
            elif e.align == "right":
                x = inner.right - image.get_width()
            else:
                x = inner.x
            placed.append((image, (x, top + i * step)))
        return lines, px, placed

    @staticmethod
    def _lines_area(placed: list[tuple[pygame.Surface, tuple[int, int]]]) -> pygame.Rect:
        """The area a text's placed lines cover."""
        return pygame.Rect(placed[0][1], (0, 0)).unionall([pygame.Rect(at, image.get_size()) for image, at in placed])

    def _text(self, e: Element, rect: pygame.Rect, color: Color) -> None:
        lines, px, placed = self._placed(e, rect, color)
        cut = self._fitted(e, rect)[2]
        small = px < self.px_for_cap(self._floor_cap(e))
        if (cut or small) and e not in self._cut_now:
            self._cut_now.add(e)
            self.cuts.note(e.text, " | ".join(lines), e.rect, "cut" if cut else "below its floor")
        if self.record is not None:
            area = self._lines_area(placed)
            box = (area.x, area.y, area.w, area.h)
            self.record.append(DrawnText("\n".join(lines), e.text, box, self.cap_height(px), color,
                                         self._background(area), e.role, e.tag, cut, e.group))
        for image, at in placed:
            self.surface.blit(image, at)

    def _render(self, font: pygame.font.Font, line: str, px: int, color: Color) -> pygame.Surface:
        image = self._images.get((line, px, color))
        if image is None:
            if len(self._images) > 2000:
                self._images.clear()
            image = self._images[(line, px, color)] = self._line_image(font, line, color)
        return image

    @staticmethod
    def _line_image(font: pygame.font.Font, line: str, color: Color) -> pygame.Surface:
        """One line's image; an empty one for a line that has no width (only zero-width characters, which
        pygame refuses to draw) or that the font cannot draw at all."""
        try:
            return font.render(line, True, color)
        except (pygame.error, ValueError, UnicodeError):
            return pygame.Surface((1, font.get_linesize()), pygame.SRCALPHA)

    def _fit(self, text: str, width: int, height: int, want: int, floor: int, max_lines: int, balance: bool = False
             ) -> tuple[list[str], int, bool]:
        """Lines and font size for `text` in a width × height box: shrink to the floor, then wrap, then cut.
        `balance`: two lines of a large text (whose turn, a name) as even as the words allow, never one orphaned
        word on the second ("Spieler 3 ist am / Zug" reads "Spieler 3 / ist am Zug")."""
        px = want
        while True:
            font = self.font(px)
            if font.size(text)[0] <= width and (font.get_linesize() <= height or px == floor):
                return [text], px, False
            if px <= floor:
                break
            px = max(floor, int(px * 0.9))
        font = self.font(floor)
        room = max(1, height // font.get_linesize())
        if max_lines:
            room = min(room, max_lines)
        lines = self._wrap(text, font, width)
        if balance and len(lines) == 2:
            lines = self._balanced(text, font, width) or lines
        if len(lines) <= room:  # a single word wider than the box was cut while wrapping: that is cut too
            return lines, floor, "".join(lines).replace(" ", "") != text.replace(" ", "")
        kept = lines[:room]
        kept[-1] = self._cut(kept[-1] + " " + lines[room], font, width)
        return kept, floor, True

    @staticmethod
    def _balanced(text: str, font: pygame.font.Font, width: int) -> list[str] | None:
        """`text` on two lines whose longer one is as short as a break between words makes it; None: no break fits."""
        parts = words(text)
        best: tuple[int, list[str]] | None = None
        for i in range(1, len(parts)):
            first, second = " ".join(parts[:i]), " ".join(parts[i:])
            longer = max(font.size(first)[0], font.size(second)[0])
            if longer <= width and (best is None or longer < best[0]):
                best = (longer, [first, second])
        return best[1] if best else None

    @staticmethod
    def _wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
        lines: list[str] = []
        line = ""
        for word in words(text):
            candidate = f"{line} {word}" if line else word
            if font.size(candidate)[0] <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        if line:
            lines.append(line)
        out: list[str] = []
        for line in lines:  # a single word wider than the box: broken after / or -, else cut
            out += [part if font.size(part)[0] <= width else Renderer._cut(part, font, width)
                    for part in Renderer._break_word(line, font, width)]
        return out or [""]

    @staticmethod
    def _break_word(line: str, font: pygame.font.Font, width: int) -> list[str]:
        """A line as it is when it fits; else broken after `/` or `-` (a folder name, a date) into parts
        that fit where such breaks allow, so staff can read a whole path on the screen."""
        if font.size(line)[0] <= width:
            return [line]
        parts: list[str] = []
        current = ""
        for piece in re.findall(r"[^/-]*[/-]|[^/-]+$", line):
            if current and font.size(current + piece)[0] > width:
                parts.append(current)
                current = piece
            else:
                current += piece
        if current:
            parts.append(current)
        return parts

    @staticmethod
    def _cut(text: str, font: pygame.font.Font, width: int) -> str:
        """The longest start of `text` that fits with "…" (found by halving: a long text costs few measures)."""
        low, high = 0, len(text)
        while low < high:
            mid = (low + high + 1) // 2
            if font.size(text[:mid] + ELLIPSIS)[0] <= width:
                low = mid
            else:
                high = mid - 1
        return text[:low].rstrip() + ELLIPSIS

    def _background(self, area: pygame.Rect) -> Color:
        """The colour most of the text's box was before the text: sampled from the surface as drawn."""
        area = area.clip(self.surface.get_rect())
        if area.width <= 0 or area.height <= 0:
            return BG
        counts: dict[Color, int] = {}
        for i in range(7):
            for j in range(5):
                x = area.x + (2 * i + 1) * area.width // 14
                y = area.y + (2 * j + 1) * area.height // 10
                r, g, b = self.surface.get_at((x, y))[:3]
                counts[(r, g, b)] = counts.get((r, g, b), 0) + 1
        return max(counts, key=counts.__getitem__)

    def _icon(self, e: Element, rect: pygame.Rect) -> None:
        """Verdict and status signs drawn as shapes, so they read without a glyph and in greyscale."""
        s = self.surface
        w = max(3, rect.width // 7)
        x, y, rw, rh = rect
        if e.icon == "ok":
            points = [(x + rw * 0.12, y + rh * 0.55), (x + rw * 0.4, y + rh * 0.82), (x + rw * 0.9, y + rh * 0.2)]
            pygame.draw.lines(s, e.color, False, points, w)
        elif e.icon == "no":
            pygame.draw.line(s, e.color, (x + rw * 0.18, y + rh * 0.18), (x + rw * 0.82, y + rh * 0.82), w)
            pygame.draw.line(s, e.color, (x + rw * 0.82, y + rh * 0.18), (x + rw * 0.18, y + rh * 0.82), w)
        elif e.icon == "turn":
            pygame.draw.polygon(s, e.color, [(x, y), (x + rw, y + rh / 2), (x, y + rh)])
        elif e.icon == "warn":
            pygame.draw.polygon(s, e.color, [(x + rw / 2, y), (x + rw, y + rh), (x, y + rh)])
            pygame.draw.line(s, BG, (x + rw / 2, y + rh * 0.35), (x + rw / 2, y + rh * 0.7), max(2, w // 2))
            pygame.draw.circle(s, BG, (x + rw / 2, y + rh * 0.84), max(2, w // 3))

