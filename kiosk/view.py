"""What a screen shows, as data: texts, buttons and boxes with their places.

Screens build a `View`; the renderer draws it; touch is hit-tested against it;
tests read it ("which texts and buttons are on the table screen?") without
looking at pixels. Coordinates are pixels of the current screen size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Rect = tuple[int, int, int, int]  # x, y, w, h
Color = tuple[int, int, int]

MIN_TOUCH = 48  # px: the smallest touch target

# A small palette with strong contrast, readable across a table.
BG: Color = (18, 38, 30)
PANEL: Color = (30, 58, 46)
CARD: Color = (245, 242, 230)
INK: Color = (240, 240, 235)
DARK_INK: Color = (20, 20, 20)
ACCENT: Color = (250, 200, 60)
GOOD: Color = (90, 200, 110)
BAD: Color = (235, 90, 80)
MUTED: Color = (150, 170, 160)
BUTTON: Color = (52, 96, 150)
BUTTON_HOT: Color = (80, 140, 210)


@dataclass(frozen=True, slots=True)
class Element:
    kind: Literal["box", "text", "button", "card"]
    rect: Rect
    text: str = ""
    color: Color = INK
    fill: Color | None = None
    size: float = 1.0  # text size relative to the screen's base size
    align: Literal["left", "center", "right"] = "left"
    action: str | None = None  # buttons: what a touch does
    tag: str = ""  # a name tests and the renderer can use ("turn", "seat:Anna", "feedback", ...)


@dataclass
class View:
    width: int
    height: int
    elements: list[Element] = field(default_factory=list)

    def add(self, element: Element) -> Element:
        self.elements.append(element)
        return element

    def text(self, rect: Rect, text: str, **kw: object) -> Element:
        return self.add(Element("text", rect, text, **kw))  # type: ignore[arg-type]

    def box(self, rect: Rect, fill: Color, tag: str = "") -> Element:
        return self.add(Element("box", rect, fill=fill, tag=tag))

    def button(self, rect: Rect, label: str, action: str, fill: Color = BUTTON, tag: str = "") -> Element:
        x, y, w, h = rect
        rect = (x, y, max(w, MIN_TOUCH), max(h, MIN_TOUCH))
        return self.add(Element("button", rect, label, fill=fill, action=action, align="center", tag=tag))

    def card(self, rect: Rect, label: str, highlight: bool = False, tag: str = "") -> Element:
        return self.add(Element("card", rect, label, color=DARK_INK, fill=ACCENT if highlight else CARD,
                                align="center", tag=tag))

    # --- reading a view (touch and tests)

    def hit(self, x: int, y: int) -> str | None:
        """The action of the topmost button under (x, y)."""
        for element in reversed(self.elements):
            if element.kind == "button" and element.action:
                ex, ey, ew, eh = element.rect
                if ex <= x < ex + ew and ey <= y < ey + eh:
                    return element.action
        return None

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

    def r(self, x: float, y: float, w: float, h: float) -> Rect:
        return (round(x * self.w), round(y * self.h), round(w * self.w), round(h * self.h))
