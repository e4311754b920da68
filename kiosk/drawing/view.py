"""What a screen shows, as data: texts, buttons and boxes with their places.

Screens build a `View`; the renderer draws it; touch is hit-tested against it;
tests read it ("which texts and buttons are on the table screen?") without
looking at pixels. Coordinates are pixels of the current (logical, unrotated)
screen size.

The readability limits live here too (`Limits`): they are set for the official
7-inch 800×480 display read from 1.5 m and scale with the screen, so the
renderer can keep them and `referee-kiosk audit` can check what it drew.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from kiosk.i18n import language
from referee.words import default_names_in

if TYPE_CHECKING:
    from PIL import Image

    from referee.registry import CardFace

Rect = tuple[int, int, int, int]  # x, y, w, h
Color = tuple[int, int, int]

MIN_TOUCH = 48  # px at 800×480: the smallest touch target
MIN_GAP = 8  # px at 800×480: the least space between two touch targets
# Capital heights in millimetres on the panel, read from a chair 1.5 m away (issue #26).
CAP_MM = 3.0  # every text
LEAD_CAP_MM = 4.0  # the verdict's first line and the hint line
KEY_CAP_MM = 6.0  # whose turn it is and the scores
# Millimetres per pixel of the two real panels, in either orientation: the 7-inch Touch Display
# (800×480) and Touch Display 2 (720×1280, landscape 1280×720). Other sizes scale the 800×480 limits.
PANEL_MM_PER_PX: dict[tuple[int, int], float] = {
    (800, 480): 0.19, (480, 800): 0.19, (720, 1280): 0.12, (1280, 720): 0.12,
}
REFERENCE_MM_PER_PX = PANEL_MM_PER_PX[(800, 480)]
MIN_CONTRAST = 4.5  # WCAG AA for every text

# A small palette with strong contrast, readable across a table: light text on dark fills, dark text on light.
BG: Color = (18, 38, 30)
PANEL: Color = (30, 58, 46)
CARD: Color = (245, 242, 230)
INK: Color = (240, 240, 235)
DARK_INK: Color = (20, 20, 20)
ACCENT: Color = (250, 200, 60)
GOOD: Color = (90, 200, 110)
BAD: Color = (255, 130, 120)  # rejection words on dark fills (4.9:1 on PANEL)
BAD_FILL: Color = (150, 24, 24)  # the filled rejection panel (light text on it: 7.9:1)
TURN_FILL: Color = (250, 200, 60)  # the seat on turn: a light fill, dark text, a thick frame and a badge
MUTED: Color = (160, 180, 170)
BUTTON: Color = (52, 96, 150)

Role = Literal["", "lead", "key"]  # "lead": verdict's first line, hint line; "key": whose turn, scores
Icon = Literal["", "ok", "no", "turn", "warn"]


def ui_scale(width: int, height: int) -> float:
    """How much larger than 800×480 this screen is (either orientation): limits and sizes grow with it."""
    long, short = max(width, height), min(width, height)
    return min(long / 800, short / 480)


@dataclass(frozen=True)
class Limits:
    """The readability limits in pixels of one screen size (capitals from millimetres on the panel)."""

    cap: float
    lead_cap: float
    key_cap: float
    touch: float
    gap: float
    contrast: float = MIN_CONTRAST

    @classmethod
    def for_size(cls, width: int, height: int) -> Limits:
        return _limits(width, height)

    @classmethod
    def _for_size(cls, width: int, height: int) -> Limits:
        mm_per_px, s = pitch(width, height)
        return cls(round(CAP_MM / mm_per_px), round(LEAD_CAP_MM / mm_per_px), round(KEY_CAP_MM / mm_per_px),
                   MIN_TOUCH * s, MIN_GAP * s)

    def cap_for(self, role: str) -> float:
        """The smallest capital height a text of this role may have."""
        return {"key": self.key_cap, "lead": self.lead_cap}.get(role, self.cap)


def pitch(width: int, height: int) -> tuple[float, float]:
    """(millimetres per pixel, scale against 800×480) of a screen: a real panel's own, also for the panel less
    a strip at its edge (the café's); any other size scales the 800×480 panel's."""
    for (pw, ph), mm in PANEL_MM_PER_PX.items():
        if pw == width and ph * 0.7 <= height <= ph:
            return mm, ui_scale(pw, ph)
    s = ui_scale(width, height)
    return REFERENCE_MM_PER_PX / s, s


@functools.lru_cache(maxsize=64)
def _limits(width: int, height: int) -> Limits:
    """`Limits.for_size`, computed once per size (a frame asks it a few dozen times)."""
    return Limits._for_size(width, height)


@dataclass(frozen=True, slots=True)
class Element:
    kind: Literal["box", "text", "button", "card", "icon", "picture"]
    rect: Rect
    text: str = ""
    color: Color = INK
    fill: Color | None = None
    size: float = 1.0  # text size relative to the screen's base size
    align: Literal["left", "center", "right"] = "left"
    action: str | None = None  # buttons: what a touch does
    tag: str = ""  # a name tests and the renderer can use ("turn", "seat:Anna", "feedback", ...)
    role: Role = ""
    outline: Color | None = None  # a frame drawn around the fill (boxes, buttons, texts with a fill)
    outline_px: int = 0
    icon: Icon = ""
    lines: int = 0  # texts: at most this many wrapped lines (0: as many as the box holds)
    picture: Image.Image | None = None  # pictures: a grey image, scaled into the rect (the camera's calibration view)
    group: str = ""  # texts of one group (a row of buttons) are drawn at one size: the largest all of them fit
    face: CardFace | None = None  # cards: how the face is drawn; None: the card's words


@dataclass
class View:
    width: int
    height: int
    elements: list[Element] = field(default_factory=list)
    anywhere: str | None = None  # the action of a touch that hits no button (demo: any touch leaves it)

    @property
    def limits(self) -> Limits:
        return Limits.for_size(self.width, self.height)

    def lines_height(self, n: int) -> int:
        """The height a box needs for `n` lines of the smallest text (DejaVu's line: 1.2 × its size, the size
        about capital height / 0.73), with the renderer's inner margin: for layouts that must never cut."""
        return round(n * self.limits.cap / 0.73 * 1.2) + 4

    def add(self, element: Element) -> Element:
        if element.text:  # the default names ("Spieler 1") follow the language when it is switched mid-game
            shown = default_names_in(element.text, language())
            if shown != element.text:
                element = replace(element, text=shown)
        self.elements.append(element)
        return element

    def text(self, rect: Rect, text: str, **kw: object) -> Element:
        return self.add(Element("text", rect, text, **kw))  # type: ignore[arg-type]

    def box(self, rect: Rect, fill: Color, tag: str = "", outline: Color | None = None, outline_px: int = 0
            ) -> Element:
        return self.add(Element("box", rect, fill=fill, tag=tag, outline=outline, outline_px=outline_px))

    def icon(self, rect: Rect, icon: Icon, color: Color, tag: str = "") -> Element:
        return self.add(Element("icon", rect, color=color, icon=icon, tag=tag))

    def picture(self, rect: Rect, picture: Image.Image, tag: str = "") -> Element:
        return self.add(Element("picture", rect, picture=picture, tag=tag))

    def frame(self, rect: Rect, color: Color, width: int = 2, tag: str = "") -> Element:
        """An outline only (a camera zone drawn over its picture)."""
        return self.add(Element("box", rect, tag=tag, outline=color, outline_px=width))

    def button(self, rect: Rect, label: str, action: str, fill: Color = BUTTON, tag: str = "", group: str = "",
               size: float = 1.0) -> Element:
        """A touch target; buttons given the same `group` (one row, one grid) show their labels at one size."""
        x, y, w, h = rect
        least = round(self.limits.touch)
        rect = (x, y, max(w, least), max(h, least))
        return self.add(Element("button", rect, label, fill=fill, action=action, align="center", tag=tag,
                                group=group, size=size))

    def card(self, rect: Rect, label: str, highlight: bool = False, tag: str = "",
             face: CardFace | None = None) -> Element:
        """A card: its picture when the game draws its faces (`face`; the card on top framed in the accent colour),
        else its words on a white card (the top one yellow). `label` is the card in words either way (tests and
        `texts()` read it)."""
        if face is not None:
            frame = max(3, round(self.limits.gap / 2)) if highlight else 0
            return self.add(Element("card", rect, label, color=DARK_INK, align="center", tag=tag, face=face,
                                    outline=ACCENT if highlight else None, outline_px=frame))
        return self.add(Element("card", rect, label, color=DARK_INK, fill=ACCENT if highlight else CARD,
                                align="center", tag=tag))

    # --- reading a view (touch and tests)

    def hit(self, x: int, y: int) -> str | None:
        """The action of the topmost button under (x, y), else the view's `anywhere` action."""
        for element in reversed(self.elements):
            if element.kind == "button" and element.action:
                ex, ey, ew, eh = element.rect
                if ex <= x < ex + ew and ey <= y < ey + eh:
                    return element.action
        return self.anywhere

    def texts(self) -> list[str]:
        return [e.text for e in self.elements if e.text]

    def buttons(self) -> dict[str, str]:
        return {e.action: e.text for e in self.elements if e.kind == "button" and e.action}

    def tagged(self, tag: str) -> list[Element]:
        return [e for e in self.elements if e.tag == tag or e.tag.startswith(tag + ":")]

    def contains(self, fragment: str) -> bool:
        return any(fragment in t for t in self.texts())


class Grid:
    """Fractions of the screen to pixels, so one layout serves 800×480 and 1280×720."""

    def __init__(self, width: int, height: int):
        self.w = width
        self.h = height

    @property
    def portrait(self) -> bool:
        return self.h > self.w

    def r(self, x: float, y: float, w: float, h: float) -> Rect:
        return (round(x * self.w), round(y * self.h), round(w * self.w), round(h * self.h))
