"""Style `d` of our own printed test faces (`hw.camera.artwork`): a pale grey-blue card with a dark line around it
near its edge, the value in a ring at the top, the rest of the print below. Drawn after the face reader was tuned
on styles a, b, c and eight French designs (issue #38), and held out of every decision since (docs/figures.md): its
figures say how the reader does on a deck it has not seen.

Alles klar?'s faces differ only in small Roman numerals (4 mm, in a badge at the bottom and once more small beside
the ring); Die magische 7's -6 and 6 only in the sign; ANNAOTTO's sides by colour, pattern (across the whole card)
and the sign on a band across it.
"""

from __future__ import annotations

import math
from typing import Any

from hw.camera.artwork import AO_RGB, ELEMENT_RGB, STYLES, H, W, back, font, mm, outline_mask

PAPER = (226, 231, 240)
INK = (40, 48, 70)
LINE = mm(2)  # the dark line's distance from the card's edge


def draw(prefix: str, face: str, face_up: bool = True) -> tuple[Any, Any]:
    """(RGB picture, L mask) of one face in style `d`; KeyError for an unknown game."""
    from PIL import Image, ImageDraw

    if "d" not in STYLES[prefix]:
        raise KeyError(prefix)
    if not face_up:
        return back(prefix, "d"), outline_mask()
    card = Image.new("RGB", (W, H), PAPER)
    d = ImageDraw.Draw(card)
    short = face.partition(":")[2]
    if prefix != "AO":
        d.rounded_rectangle((LINE, LINE, W - LINE, H - LINE), radius=mm(2), outline=INK, width=mm(0.6))
    {"AK": _alles_klar, "AC": _alcasan, "M7": _magische, "AO": _annaotto}[prefix](d, short)
    return card, outline_mask()


def _ring(d: Any, text: str, colour: tuple[int, int, int], px: int) -> None:
    """The value in a ring in the card's upper third."""
    cx, cy, r = W // 2, mm(26), mm(15)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=mm(1.2))
    d.text((cx, cy), text, font=font("DejaVuSansMono-Bold.ttf", px), fill=colour, anchor="mm")


def _alles_klar(d: Any, short: str) -> None:
    value, *numerals = short.split(".")
    colour = ((150, 40, 60), (30, 90, 150), (40, 120, 70))[int(value) % 3]
    _ring(d, value, colour, mm(14))
    for k in range(int(value)):  # as many bars as the value, in two rows
        x, y = mm(9) + (k % 6) * mm(8), mm(50) + (k // 6) * mm(9)
        d.rectangle((x, y, x + mm(5), y + mm(6)), fill=colour)
    if numerals:  # the only print that tells 7, 7 I, 7 II … apart: 4 mm, in a badge and beside the ring
        marks = " ".join(numerals)
        f = font("DejaVuSerif.ttf", mm(4))
        d.rounded_rectangle((W // 2 - mm(12), H - mm(15), W // 2 + mm(12), H - mm(8)), radius=mm(2),
                            fill=(250, 250, 250), outline=INK, width=2)
        d.text((W // 2, H - mm(11.5)), marks, font=f, fill=INK, anchor="mm")
        d.text((W - mm(6), mm(8)), marks, font=f, fill=INK, anchor="ra")


def _alcasan(d: Any, short: str) -> None:
    colour = ELEMENT_RGB.get(short, (70, 60, 50))
    if short in ELEMENT_RGB:
        _ring(d, short[0], colour, mm(14))
        cx, cy = W // 2, mm(62)
        for k in range(5):  # the element's sign, five times smaller and smaller
            r = mm(10) - k * mm(1.8)
            y = cy + k * mm(2)
            if short == "FEUER":
                d.polygon([(cx, y - r), (cx + r, y + r), (cx - r, y + r)], outline=colour, width=3)
            elif short == "WASSER":
                d.arc((cx - r, y - r, cx + r, y + r), 0, 180, fill=colour, width=4)
            elif short == "ERDE":
                d.rectangle((cx - r, y - r, cx + r, y + r), outline=colour, width=3)
            else:
                d.ellipse((cx - r, y - r, cx + r, y + r), outline=colour, width=3)
        d.text((cx, H - mm(10)), short.lower(), font=font("DejaVuSansMono.ttf", mm(5)), fill=INK, anchor="mm")
        return
    _ring(d, short, colour, mm(16))
    n = int(short)
    for k in range(n):  # the value's dots on a circle
        a = 2 * math.pi * k / n
        x, y = W // 2 + round(mm(14) * math.cos(a)), mm(62) + round(mm(14) * math.sin(a))
        d.ellipse((x - mm(2.5), y - mm(2.5), x + mm(2.5), y + mm(2.5)), fill=colour)


def _magische(d: Any, short: str) -> None:
    names = {"JOKER": "J", "MIRROR": "S", "CROSS": "K"}
    colour = (100, 60, 130) if short in names else ((170, 50, 30) if short.startswith("-") else (30, 80, 60))
    _ring(d, names.get(short, short.replace("-", "−")), colour, mm(12))
    if short in names:
        d.regular_polygon((W // 2, mm(62), mm(13)), 5, fill=colour)
        return
    value = int(short)
    for k in range(abs(value)):  # a ladder of rungs, as many as the value's size
        y = mm(48) + k * mm(2.6)
        d.line((W // 2 - mm(12), y, W // 2 + mm(12), y), fill=colour, width=mm(1))
    d.text((W // 2, H - mm(10)), "minus" if value < 0 else "plus" if value > 0 else "null",
           font=font("DejaVuSansMono.ttf", mm(4)), fill=INK, anchor="mm")


def _annaotto(d: Any, short: str) -> None:
    if short == "ANNAOTTO":
        for k, rgb in enumerate(AO_RGB.values()):
            d.rectangle((k * W // 8, 0, (k + 1) * W // 8, H), fill=rgb)
        d.ellipse((W // 2 - mm(18), H // 2 - mm(18), W // 2 + mm(18), H // 2 + mm(18)), fill=PAPER)
        d.text((W // 2, H // 2), "AO", font=font("DejaVuSansMono-Bold.ttf", mm(12)), fill=INK, anchor="mm")
        return
    colour, pattern, *sign = short.split(".")
    rgb = AO_RGB[colour]
    step = mm(7)
    if pattern == "DOTS":
        for y in range(step // 2, H, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, W, step):
                d.ellipse((x - mm(1.8), y - mm(1.8), x + mm(1.8), y + mm(1.8)), fill=rgb)
    elif pattern == "STRIPES":  # upright
        for x in range(0, W, step):
            d.rectangle((x, 0, x + step // 2, H), fill=rgb)
    elif pattern == "CHECKS":  # diamonds
        for y in range(0, H + step, step):
            for x in range(0, W + step, step):
                d.polygon([(x, y - step // 2), (x + step // 2, y), (x, y + step // 2), (x - step // 2, y)], fill=rgb)
    else:  # WAVES, across
        for y in range(step // 2, H, step):
            d.line([(x, y + round(mm(1.8) * math.sin(x / mm(3)))) for x in range(0, W, 3)], fill=rgb, width=mm(1.2))
    if sign:
        words = {"ANNA": "ANNA", "OTTO": "OTTO", "ALLE": "ALLE", "PLUS": "+2", "RETOUR": "<->", "HUERDEN": "HÜRDE"}
        d.rectangle((0, H // 2 - mm(7), W, H // 2 + mm(7)), fill=PAPER)
        d.text((W // 2, H // 2), words[sign[0]], font=font("DejaVuSansMono-Bold.ttf", mm(8)), fill=INK, anchor="mm")
