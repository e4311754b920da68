"""Our own printed test faces for the four games that have no public card art (`hw.camera.printed`).

Four styles per game, drawn with Pillow and the DejaVu fonts, none like the kiosk's own card pictures:
- `a`: a white card with a thin frame, the value large in the middle in a sans face, small marks in two corners;
- `b`: a cream card with a coloured band, the value in a serif face off-centre, the marks in a row under it;
- `c`: a white rim around a panel printed in full colour, the print light on it (as many commercial decks): the
  value in a disc in the middle in a condensed face, indices in all four corners, Alles klar?'s numerals in two
  corners only (`hw.camera.artwork_c`);
- `d`: a pale grey-blue card with a dark line near its edge, the value in a ring at the top, Alles klar?'s
  numerals in a badge at the bottom (`hw.camera.artwork_d`). Drawn after the face reader was tuned on a, b and c:
  the held-out design of docs/figures.md (`hw.camera.printed.HELD_OUT`).
Alles klar?'s faces differ only in small Roman numerals (5 mm high), Die magische 7's in a sign before a number,
ANNAOTTO's in colour, pattern and sign: the cases a reader of printed faces must tell apart.
"""

from __future__ import annotations

import functools
import math
from typing import Any

STYLES = {prefix: ("a", "b", "c", "d") for prefix in ("AK", "AC", "M7", "AO")}
W, H = 420, 587  # 63 x 88 mm at 0.15 mm per pixel
FONTS = "/usr/share/fonts/truetype/dejavu/"
AO_RGB = {"RED": (210, 30, 40), "ORANGE": (245, 140, 20), "YELLOW": (245, 215, 40), "GREEN": (40, 150, 60),
          "BLUE": (30, 80, 200), "PURPLE": (120, 40, 150), "PINK": (240, 120, 180), "BROWN": (130, 80, 40)}
SET_RGB = ((30, 30, 30), (180, 30, 40), (30, 70, 170), (30, 120, 60), (130, 60, 140), (170, 100, 20), (60, 60, 60))
ELEMENT_RGB = {"WASSER": (30, 90, 200), "FEUER": (220, 60, 20), "ERDE": (120, 80, 30), "LUFT": (120, 170, 210)}


@functools.lru_cache(maxsize=16)
def font(name: str, px: int) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(FONTS + name, px)


def mm(v: float) -> int:
    return round(v / 0.15)


def draw(prefix: str, style: str, face: str, face_up: bool = True) -> tuple[Any, Any]:
    """(RGB picture, L mask) of one face of our own art; KeyError for an unknown game or style."""
    from PIL import Image, ImageDraw

    if style not in STYLES[prefix] or style in ("c", "d"):  # styles c, d: hw.camera.artwork_c, artwork_d
        raise KeyError(style)
    mask = outline_mask()
    if not face_up:
        return back(prefix, style), mask
    paper = (250, 244, 228) if style == "b" else (255, 255, 255)
    card = Image.new("RGB", (W, H), paper)
    d = ImageDraw.Draw(card)
    short = face.partition(":")[2]
    {"AK": _alles_klar, "AC": _alcasan, "M7": _magische, "AO": _annaotto}[prefix](d, card, style, short)
    return card, mask


def outline_mask() -> Any:
    """A card's outline: the rounded rectangle of every style."""
    from PIL import Image, ImageDraw

    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, W - 1, H - 1), radius=mm(3.5), fill=255)
    return mask


def back(prefix: str, style: str) -> Any:
    from PIL import Image, ImageDraw

    card = Image.new("RGB", (W, H), {"a": (40, 60, 120), "b": (120, 30, 40)}.get(style, (30, 90, 70)))
    d = ImageDraw.Draw(card)
    step = mm(4)
    for i in range(-H, W + H, step):
        d.line((i, 0, i + H, H), fill=(200, 200, 220), width=2)
    d.rounded_rectangle((mm(4), mm(4), W - mm(4), H - mm(4)), radius=mm(2), outline=(240, 240, 240), width=4)
    d.text((W // 2, H // 2), prefix, font=font("DejaVuSans-Bold.ttf", mm(10)), fill=(240, 240, 240), anchor="mm")
    return card


def _frame(d: Any, style: str, colour: tuple[int, int, int]) -> None:
    if style == "a":
        d.rounded_rectangle((mm(3), mm(3), W - mm(3), H - mm(3)), radius=mm(2), outline=colour, width=3)
    else:
        d.rectangle((0, mm(8), W, mm(16)), fill=colour)
        d.rectangle((0, H - mm(16), W, H - mm(8)), fill=colour)


def _corners(d: Any, text: str, px: int, colour: tuple[int, int, int], card: Any) -> None:
    """A small mark top left, and the same turned upside down bottom right (as printed cards do)."""
    from PIL import Image, ImageDraw

    f = font("DejaVuSerif-Bold.ttf", px)
    d.text((mm(5), mm(5)), text, font=f, fill=colour)
    box = d.textbbox((0, 0), text, font=f)
    stamp = Image.new("L", (box[2] + 4, box[3] + 4), 0)
    ImageDraw.Draw(stamp).text((2, 2), text, font=f, fill=255)
    stamp = stamp.rotate(180)
    card.paste(colour, (W - mm(5) - stamp.width, H - mm(5) - stamp.height), stamp)


def _alles_klar(d: Any, card: Any, style: str, short: str) -> None:
    value, *numerals = short.split(".")
    colour = SET_RGB[len(numerals) * 2 + (int(value) % 2) if numerals else 0]
    _frame(d, style, colour)
    marks = " ".join(numerals)
    if style == "a":
        d.text((W // 2, H // 2 - mm(4)), value, font=font("DejaVuSans-Bold.ttf", mm(30)), fill=colour, anchor="mm")
        _corners(d, value, mm(6), colour, card)
        if marks:  # small numerals, 5 mm high, under the corner value and under the big value
            f = font("DejaVuSerif.ttf", mm(5))
            d.text((mm(5), mm(13)), marks, font=f, fill=(20, 20, 20))
            d.text((W // 2, H // 2 + mm(16)), marks, font=f, fill=(20, 20, 20), anchor="mm")
    else:
        d.text((mm(10), mm(20)), value, font=font("DejaVuSerif-Bold.ttf", mm(26)), fill=colour)
        if marks:
            d.text((W - mm(8), H - mm(24)), marks, font=font("DejaVuSans.ttf", mm(5)), fill=(40, 40, 40),
                   anchor="rs")
        d.ellipse((W // 2 - mm(9), H // 2 + mm(6), W // 2 + mm(9), H // 2 + mm(24)), outline=colour, width=3)


def _alcasan(d: Any, card: Any, style: str, short: str) -> None:
    colour = ELEMENT_RGB.get(short, (40, 40, 40))
    _frame(d, style, colour)
    if short in ELEMENT_RGB:
        cx, cy = W // 2, H // 2
        r = mm(14)
        if short == "WASSER":
            for k in range(4):
                y = cy - r + k * r // 2
                d.line([(cx - r + i, y + round(mm(2) * math.sin(i / mm(3)))) for i in range(0, 2 * r, 4)],
                       fill=colour, width=5)
        elif short == "FEUER":
            d.polygon([(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)], fill=colour)
        elif short == "ERDE":
            d.rectangle((cx - r, cy - r // 2, cx + r, cy + r), fill=colour)
        else:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=6)
        name = short.capitalize()
        f = font("DejaVuSans-Bold.ttf" if style == "a" else "DejaVuSerif-Italic.ttf", mm(6))
        d.text((cx, cy + r + mm(8)), name, font=f, fill=colour, anchor="mm")
        _corners(d, name[0], mm(6), colour, card)
        return
    if style == "a":
        d.text((W // 2, H // 2), short, font=font("DejaVuSans-Bold.ttf", mm(32)), fill=colour, anchor="mm")
    else:
        d.text((W - mm(8), mm(20)), short, font=font("DejaVuSerif-Bold.ttf", mm(24)), fill=(90, 40, 30), anchor="ra")
        for k in range(int(short)):  # as many small dots as the value
            x, y = mm(10) + (k % 5) * mm(9), H - mm(40) + (k // 5) * mm(9)
            d.ellipse((x, y, x + mm(5), y + mm(5)), fill=(90, 40, 30))
    _corners(d, short, mm(6), colour, card)


def _magische(d: Any, card: Any, style: str, short: str) -> None:
    names = {"JOKER": "Joker", "MIRROR": "Spiegel", "CROSS": "Kreuz"}
    colour = (150, 20, 90) if short in names else ((30, 30, 120) if not short.startswith("-") else (160, 30, 30))
    _frame(d, style, colour)
    text = names.get(short, short.replace("-", "−"))
    if style == "a":
        size = mm(9) if short in names else mm(26)
        d.text((W // 2, H // 2), text, font=font("DejaVuSans-Bold.ttf", size), fill=colour, anchor="mm")
    else:
        size = mm(8) if short in names else mm(22)
        d.text((mm(8), H // 2 - mm(10)), text, font=font("DejaVuSerif-Bold.ttf", size), fill=colour)
        d.regular_polygon((W - mm(16), mm(28), mm(7)), 7, fill=colour)
    _corners(d, text if short not in names else text[0], mm(6), colour, card)


def _annaotto(d: Any, card: Any, style: str, short: str) -> None:
    if short == "ANNAOTTO":
        for k, rgb in enumerate(AO_RGB.values()):
            y0 = k * H // 8
            d.rectangle((0, y0, W, y0 + H // 8), fill=rgb)
        f = font("DejaVuSans-Bold.ttf" if style == "a" else "DejaVuSerif-Bold.ttf", mm(8))
        d.rectangle((mm(6), H // 2 - mm(8), W - mm(6), H // 2 + mm(8)), fill=(255, 255, 255))
        d.text((W // 2, H // 2), "ANNAOTTO", font=f, fill=(20, 20, 20), anchor="mm")
        return
    colour, pattern, *sign = short.split(".")
    rgb = AO_RGB[colour]
    light = tuple(min(255, c + (255 - c) * 2 // 3) for c in rgb)
    inner = (mm(5), mm(5), W - mm(5), H - mm(5)) if style == "a" else (mm(12), mm(20), W - mm(12), H - mm(20))
    d.rectangle(inner, fill=light)
    _pattern(d, pattern, rgb, inner, style)
    if sign:
        words = {"ANNA": "ANNA", "OTTO": "OTTO", "ALLE": "ALLE!", "PLUS": "+2", "RETOUR": "⇄", "HUERDEN": "HÜRDEN"}
        f = font("DejaVuSans-Bold.ttf" if style == "a" else "DejaVuSerif-Bold.ttf", mm(9))
        cy = H // 2 if style == "a" else mm(12)
        d.rounded_rectangle((mm(8), cy - mm(8), W - mm(8), cy + mm(8)), radius=mm(3), fill=(255, 255, 255),
                            outline=rgb, width=3)
        d.text((W // 2, cy), words[sign[0]], font=f, fill=(20, 20, 20), anchor="mm")


def _pattern(d: Any, pattern: str, rgb: tuple[int, int, int], box: tuple[int, int, int, int], style: str) -> None:
    x0, y0, x1, y1 = box
    step = mm(8) if style == "a" else mm(10)
    if pattern == "DOTS":
        for y in range(y0 + step // 2, y1 - step // 3, step):
            for x in range(x0 + step // 2, x1 - step // 3, step):
                d.ellipse((x - mm(2.2), y - mm(2.2), x + mm(2.2), y + mm(2.2)), fill=rgb)
    elif pattern == "STRIPES":
        for y in range(y0 + step // 4, y1, step):
            d.rectangle((x0, y, x1, min(y1, y + step // 2)), fill=rgb)
    elif pattern == "CHECKS":
        for j, y in enumerate(range(y0, y1, step)):
            for i, x in enumerate(range(x0, x1, step)):
                if (i + j) % 2 == 0:
                    d.rectangle((x, y, min(x1, x + step), min(y1, y + step)), fill=rgb)
    else:  # WAVES
        for y in range(y0 + step // 2, y1, step):
            d.line([(x, y + round(mm(2.5) * math.sin((x - x0) / mm(4)))) for x in range(x0, x1, 3)], fill=rgb,
                   width=mm(1.5))
