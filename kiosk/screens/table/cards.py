"""The cards on the table screen: a row of card pictures (drawn from the game's definition) with who laid each,
or a row of cards in words for a game that draws no faces; as many as fit whole, the newest kept."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kiosk.drawing import cards as pictures
from kiosk.drawing.render import measure
from kiosk.drawing.view import MUTED, Color, View, ui_scale
from kiosk.games import Shown
from kiosk.screens.table.layout import Stack, cols

MOST = 6  # cards a row shows at most (the newest)


@dataclass(frozen=True)
class Title:
    """A card row's title: its words, ink, size and tag."""

    text: str
    color: Color = MUTED
    size: float = 0.6
    tag: str = "cards-title"


def card_row(v: View, stack: Stack, title: Title, shown: Sequence[Shown], gap: int, tag: str = "card") -> bool:
    """The title, then the cards side by side (newest on the right) with their owners under them; "—" for none.
    Returns whether the row found room."""
    lim = v.limits
    label_h = measure.height(title.text, stack.w, lim.cap) if title.text else 0
    cards = list(shown[-MOST:])
    if not cards:
        place = stack.take(label_h + measure.line(lim.cap) + 2)
        if place is not None:
            x, y, w, _ = place
            v.text((x, y, w, label_h), title.text, size=title.size, color=title.color, tag=title.tag)
            v.text((x, y + label_h, w, place[3] - label_h), "—", size=0.8, color=MUTED, tag=f"{tag}s-empty")
        return place is not None
    if all(card.face is not None for card in cards):
        return _pictures(v, stack, title, label_h, cards, gap, tag)
    return _words(v, stack, title, label_h, cards, gap, tag)


def slots(v: View, cards: Sequence[Shown], words: bool, gap: int) -> list[tuple[int, int]]:
    """(slot width, card width) per card: a card as wide as its face needs, its slot as wide as its owner's name."""
    m = pictures.metrics(v.width, v.height)
    out = []
    for card in cards:
        width = pictures.card_size(card.face, m, words)[0]
        owner = measure.width(card.owner, v.limits.cap) + 8 if card.owner else 0
        out.append((max(width, owner), width))
    return out


def fitting(v: View, cards: Sequence[Shown], width: int, gap: int, words: bool) -> list[Shown]:
    """The newest cards whose slots fit side by side in `width`."""
    kept = list(cards)
    while kept and sum(s for s, _ in slots(v, kept, words, gap)) + gap * (len(kept) - 1) > width:
        kept = kept[1:]  # the oldest card makes room: the newest (the top) is what a guest needs
    return kept


def _pictures(v: View, stack: Stack, title: Title, label_h: int, cards: list[Shown], gap: int, tag: str) -> bool:
    """Card pictures: with their small words where the room allows, else their values alone."""
    m = pictures.metrics(v.width, v.height)
    lim = v.limits
    owner_h = measure.line(lim.cap) + 2 if any(card.owner for card in cards) else 0
    frame = max(3, round(lim.gap / 2))
    for words in (True, False):
        kept = fitting(v, cards, stack.w - 2 * frame, gap // 2, words)
        card_h = max(pictures.card_size(card.face, m, words)[1] for card in kept) if kept else 0
        if kept and stack.bottom - stack.y >= label_h + card_h + owner_h + 2 * frame:
            break
    else:
        return False
    place = stack.take(label_h + card_h + owner_h + 2 * frame)
    if place is None:
        return False
    x, y, _, _ = place
    if label_h:
        v.text((x, y, stack.w, label_h), title.text, size=title.size, color=title.color, tag=title.tag)
    at = x + frame
    top = y + label_h + frame
    for (slot, width), card in zip(slots(v, kept, words, gap // 2), kept, strict=True):
        left = at + (slot - width) // 2
        v.card((left, top, width, card_h), card.label, card.highlight, tag=tag, face=card.face)
        if card.owner:
            v.text((at, top + card_h + frame, slot, owner_h), card.owner, size=0.6, color=MUTED, align="center",
                   tag=f"{tag}-owner")
        at += slot + gap // 2
    return True


def _words(v: View, stack: Stack, title: Title, label_h: int, cards: list[Shown], gap: int, tag: str) -> bool:
    """Cards in words on white cards (a game that draws no faces), as many as fit with their whole words."""
    lim = v.limits
    w = stack.w
    pad = max(4, round(6 * ui_scale(v.width, v.height)))
    while cards:
        places = cols((0, 0, w, 0), len(cards) if len(cards) > 2 else max(len(cards), 3), gap // 2)
        cw = places[0][2]
        if all(measure.fits(card.label, cw, lim.cap, pad) and measure.fits(card.owner, cw, lim.cap) for card in cards):
            break
        cards = cards[1:]
    if not cards:
        return False
    face_h = max(measure.lines(card.label, cw, lim.cap, pad) for card in cards) * measure.line(lim.cap) + 2 * pad
    owner_h = max((measure.height(card.owner, cw, lim.cap) for card in cards if card.owner), default=0)
    place = stack.take(label_h + face_h + owner_h)
    if place is None:
        return False
    x, y, _, _ = place
    if label_h:
        v.text((x, y, w, label_h), title.text, size=title.size, color=title.color, tag=title.tag)
    for (cx, _, _, _), card in zip(places, cards, strict=False):
        v.card((x + cx, y + label_h, cw, face_h), card.label, card.highlight, tag=tag)
        if card.owner:
            v.text((x + cx, y + label_h + face_h, cw, owner_h), card.owner, size=0.6, color=MUTED,
                   align="center", tag=f"{tag}-owner")
    return True
