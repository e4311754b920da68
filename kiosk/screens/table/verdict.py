"""The verdict panel: what it shows (a prompt, a question, a quiet note, ✓ or ✗ with its texts), how high
its texts make it, and how it is drawn: an outlined panel with ✓, a filled one with ✗ (shape as well as colour)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kiosk.drawing import cards
from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BAD_FILL, GOOD, INK, PANEL, Color, Rect, Role, View
from kiosk.games import Shown


@dataclass(frozen=True)
class Said:
    """One text of the verdict panel: its words, role, size, ink and tag."""

    text: str
    role: Role = ""
    size: float = 0.9
    color: Color = INK
    tag: str = "feedback"


@dataclass(frozen=True)
class Verdict:
    """What the verdict panel shows now: a neutral prompt, a question, a quiet note, ✓ or ✗ with its texts."""

    kind: Literal["prompt", "question", "quiet", "ok", "no"]
    said: tuple[Said, ...]
    card: Shown | None = None  # the one card the verdict is about, drawn at its right end (a game that draws faces)


def card_box(v: View, verdict: Verdict, width: int) -> tuple[int, int]:
    """(width, height) of the verdict's card picture (its value only) in a panel `width` px wide; (0, 0) without
    one, or where the card would leave a word of the verdict no room (a narrow panel says it in words alone)."""
    if verdict.card is None or verdict.card.face is None:
        return 0, 0
    size = cards.card_size(verdict.card.face, cards.metrics(v.width, v.height), words=False)
    text_w = _boxes(v, verdict.kind, width, size[0])[2]
    if not all(measure.fits(s.text, text_w, v.limits.cap_for(s.role)) for s in verdict.said):
        return 0, 0
    return size


def verdict_box(v: View, verdict: Verdict, width: int) -> tuple[int, int, int]:
    """(icon side, text indent, text width) of the verdict panel `width` px wide (its card at the right end)."""
    return _boxes(v, verdict.kind, width, card_box(v, verdict, width)[0])


def _boxes(v: View, kind: str, width: int, card_w: int) -> tuple[int, int, int]:
    beside = card_w + round(v.limits.gap) if card_w else 0
    if kind in ("prompt", "question", "quiet"):
        return 0, round(v.limits.gap), width - 2 * round(v.limits.gap) - beside
    side = min(round(v.limits.lead_cap * 2), round(width * 0.12))
    indent = side + side // 2
    return side, indent, width - indent - side // 4 - beside


def rejection_height(v: View, width: int) -> int:
    """The height of a usual rejection's panel `width` px wide: what to do on one line, the rule's sentence on two."""
    lim = v.limits
    return measure.line(lim.lead_cap) + 2 + 2 * measure.line(lim.cap) + 2 + 2 * (max(3, round(lim.gap / 2)) + 2)


def verdict_height(v: View, verdict: Verdict, width: int, steady: bool = True) -> int:
    """As high as its texts need (one lead line for the prompt and most verdicts)."""
    lim = v.limits
    _, _, text_w = verdict_box(v, verdict, width)
    edge = max(3, round(lim.gap / 2)) + 2
    need = sum(measure.height(s.text, text_w, lim.cap_for(s.role)) for s in verdict.said)
    # In portrait the seats stand on the verdict: it is at least a card's height and a short rejection's, so verdicts
    # keep the seats where they are (and a rejection draws only the verdict again, not the whole screen).
    least = 0
    if steady and v.height > v.width:  # a card, or a rejection: what to do, and the rule's sentence on two lines
        least = max(cards.height(cards.metrics(v.width, v.height), False), measure.line(lim.lead_cap) + 2
                    + 2 * measure.line(lim.cap) + 2)
    return max(need, measure.line(lim.lead_cap) + 2, card_box(v, verdict, width)[1], least) + 2 * edge


def draw_verdict(v: View, rect: Rect, verdict: Verdict) -> None:
    lim = v.limits
    x, y, w, h = rect
    side, indent, text_w = verdict_box(v, verdict, w)
    frame = max(3, round(lim.gap / 2))
    if verdict.kind == "question":
        v.box(rect, PANEL, tag="question", outline=ACCENT, outline_px=frame)
    elif verdict.kind == "ok":
        v.box(rect, PANEL, tag="verdict:ok", outline=GOOD, outline_px=frame)  # an outlined panel, ✓
        v.icon((x + side // 4, y + (h - side) // 2, side, side), "ok", GOOD, tag="verdict-icon:ok")
    elif verdict.kind == "no":
        v.box(rect, BAD_FILL, tag="verdict:no")  # a filled panel, ✗
        v.icon((x + side // 4, y + (h - side) // 2, side, side), "no", INK, tag="verdict-icon:no")
    heights = [measure.height(s.text, text_w, lim.cap_for(s.role)) for s in verdict.said]
    ty = y + (h - sum(heights)) // 2
    align = "center" if verdict.kind in ("prompt", "question", "quiet") else "left"
    for said, th in zip(verdict.said, heights, strict=True):
        v.text((x + indent, ty, text_w, th), said.text, size=said.size, color=said.color, role=said.role,
               align=align, tag=said.tag)
        ty += th
    card_w, card_h = card_box(v, verdict, w)
    if verdict.card is not None and card_w:
        right = x + w - max(3, round(lim.gap / 2)) - round(lim.gap) // 2
        v.card((right - card_w, y + (h - card_h) // 2, card_w, card_h), verdict.card.label, tag="verdict-card",
               face=verdict.card.face)

