"""Style `c` of our own printed test faces (`hw.camera.artwork`): a white rim around a panel in full colour, the
print light on it. Held out of the face reader's first tuning; looked at while it was reworked (issue #38), so no
longer a design it has not seen (style `d` is: `hw.camera.artwork_d`).

Alles klar?'s faces differ only in small Roman numerals (4 mm, light on the panel, in two opposite corners), its
panel's colour goes by the value alone; Die magische 7's -6 and 6 only in the sign; ANNAOTTO's sides by the panel's
colour, the pattern printed light over it, and the sign in a disc.
"""

from __future__ import annotations

import math
from typing import Any

from hw.camera.artwork import AO_RGB, ELEMENT_RGB, STYLES, H, W, back, font, mm, outline_mask

RIM = mm(3.5)
LIGHT = (250, 250, 245)
VALUE_RGB = ((170, 40, 50), (30, 100, 170), (40, 130, 80), (200, 110, 20), (100, 50, 140), (20, 120, 130),
             (150, 60, 100), (80, 90, 30), (60, 60, 160), (160, 80, 40), (40, 40, 40))


def draw(prefix: str, face: str, face_up: bool = True) -> tuple[Any, Any]:
    """(RGB picture, L mask) of one face in style `c`; KeyError for an unknown game."""
    from PIL import Image, ImageDraw

    if "c" not in STYLES[prefix]:
        raise KeyError(prefix)
    if not face_up:
        return back(prefix, "c"), outline_mask()
    card = Image.new("RGB", (W, H), (255, 255, 255))
    short = face.partition(":")[2]
    {"AK": _alles_klar, "AC": _alcasan, "M7": _magische, "AO": _annaotto}[prefix](ImageDraw.Draw(card), card, short)
    return card, outline_mask()


def _panel(d: Any, colour: tuple[int, int, int]) -> None:
    d.rounded_rectangle((RIM, RIM, W - RIM, H - RIM), radius=mm(2.5), fill=colour)


def _indices(card: Any, text: str, px: int, corners: str = "abcd", fill: tuple[int, int, int] = LIGHT,
             face: str = "DejaVuSansCondensed-Bold.ttf") -> None:
    """`text` small in the panel's corners (a top left, b top right, c bottom right, d bottom left); the
    bottom ones (and b) turned upside down, as printed cards do."""
    from PIL import Image, ImageDraw

    f = font(face, px)
    box = ImageDraw.Draw(card).textbbox((0, 0), text, font=f)
    stamp = Image.new("L", (int(box[2]) + 4, int(box[3]) + 4), 0)
    ImageDraw.Draw(stamp).text((2, 2), text, font=f, fill=255)
    turned = stamp.rotate(180)
    inset = RIM + mm(2)
    places = {"a": ((inset, inset), stamp), "b": ((W - inset - stamp.width, inset), turned),
              "c": ((W - inset - stamp.width, H - inset - stamp.height), turned),
              "d": ((inset, H - inset - stamp.height), stamp)}
    for corner in corners:
        (x, y), picture = places[corner]
        card.paste(fill, (x, y), picture)


def _disc(d: Any, colour: tuple[int, int, int], text: str, px: int, dy: int = 0) -> None:
    cx, cy, r = W // 2, H // 2 + dy, mm(17)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=LIGHT)
    d.text((cx, cy), text, font=font("DejaVuSansCondensed-Bold.ttf", px), fill=colour, anchor="mm")


def _alles_klar(d: Any, card: Any, short: str) -> None:
    value, *numerals = short.split(".")
    colour = VALUE_RGB[(int(value) - 1) % len(VALUE_RGB)]
    _panel(d, colour)
    _disc(d, colour, value, mm(20))
    _indices(card, value, mm(7), "ac")
    if numerals:  # the only print that tells 7, 7 I, 7 II … apart: 4 mm, in two opposite corners
        _indices(card, " ".join(numerals), mm(4), "bd", face="DejaVuSerifCondensed-Bold.ttf")


def _alcasan(d: Any, card: Any, short: str) -> None:
    colour = ELEMENT_RGB.get(short, (45, 45, 60))
    _panel(d, colour)
    cx, cy, r = W // 2, H // 2 - mm(6), mm(13)
    if short in ELEMENT_RGB:
        if short == "WASSER":
            for k in range(3):
                d.rounded_rectangle((cx - r, cy - r + k * mm(9), cx + r, cy - r + k * mm(9) + mm(4)), radius=mm(2),
                                    fill=LIGHT)
        elif short == "FEUER":
            d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=LIGHT)
        elif short == "ERDE":
            d.rectangle((cx - r, cy - r, cx + r, cy + r), outline=LIGHT, width=mm(2))
        else:
            for k in (-1, 1):
                d.ellipse((cx + k * mm(6) - mm(7), cy - mm(7), cx + k * mm(6) + mm(7), cy + mm(7)), outline=LIGHT,
                          width=mm(1.2))
        d.text((cx, cy + r + mm(12)), short.upper(), font=font("DejaVuSansCondensed-Bold.ttf", mm(6)), fill=LIGHT,
               anchor="mm")
        _indices(card, short[0], mm(7))
        return
    _disc(d, colour, short, mm(18), dy=-mm(6))
    for k in range(int(short)):  # as many small squares as the value, in a row of five
        x, y = W // 2 - mm(22) + (k % 5) * mm(9), H - RIM - mm(24) + (k // 5) * mm(8)
        d.rectangle((x, y, x + mm(5), y + mm(5)), fill=LIGHT)
    _indices(card, short, mm(7))


def _magische(d: Any, card: Any, short: str) -> None:
    names = {"JOKER": "JOKER", "MIRROR": "SPIEGEL", "CROSS": "KREUZ"}
    colour = (110, 30, 110) if short in names else ((150, 30, 40) if short.startswith("-") else (30, 50, 120))
    _panel(d, colour)
    if short in names:
        d.regular_polygon((W // 2, H // 2 - mm(8), mm(14)), 7, fill=LIGHT)
        d.text((W // 2, H // 2 + mm(16)), names[short], font=font("DejaVuSansCondensed-Bold.ttf", mm(7)), fill=LIGHT,
               anchor="mm")
        _indices(card, names[short][0], mm(7))
        return
    text = short.replace("-", "−")
    _disc(d, colour, text, mm(18))
    _indices(card, text, mm(6))


def _annaotto(d: Any, card: Any, short: str) -> None:
    if short == "ANNAOTTO":
        for k, rgb in enumerate(AO_RGB.values()):
            r = mm(30) - k * mm(3.5)
            d.ellipse((W // 2 - r, H // 2 - r, W // 2 + r, H // 2 + r), fill=rgb)
        d.text((W // 2, H - RIM - mm(10)), "ANNAOTTO", font=font("DejaVuSansCondensed-Bold.ttf", mm(7)),
               fill=(30, 30, 30), anchor="mm")
        return
    colour, pattern, *sign = short.split(".")
    rgb = AO_RGB[colour]
    _panel(d, rgb)
    x0, y0, x1, y1 = RIM + mm(3), RIM + mm(3), W - RIM - mm(3), H - RIM - mm(3)
    step = mm(9)
    if pattern == "DOTS":
        for y in range(y0 + step // 2, y1 - step // 3, step):
            for x in range(x0 + step // 2, x1 - step // 3, step):
                d.ellipse((x - mm(1.6), y - mm(1.6), x + mm(1.6), y + mm(1.6)), fill=LIGHT)
    elif pattern == "STRIPES":  # diagonal
        for k in range(-(y1 - y0), x1 - x0, step):
            d.line((x0 + k, y0, x0 + k + (y1 - y0) // 2, y1), fill=LIGHT, width=mm(1.2))
    elif pattern == "CHECKS":
        for j, y in enumerate(range(y0, y1 - step // 2, step)):
            for i, x in enumerate(range(x0, x1 - step // 2, step)):
                if (i + j) % 2 == 0:
                    d.rectangle((x + mm(1), y + mm(1), x + step - mm(1), y + step - mm(1)), outline=LIGHT, width=3)
    else:  # WAVES, upright
        for x in range(x0 + step // 2, x1, step):
            d.line([(x + round(mm(2) * math.sin((y - y0) / mm(5))), y) for y in range(y0, y1, 3)], fill=LIGHT,
                   width=mm(1))
    if sign:
        words = {"ANNA": "ANNA", "OTTO": "OTTO", "ALLE": "ALLE", "PLUS": "+2", "RETOUR": "↻", "HUERDEN": "HÜRDE"}
        _disc(d, rgb, words[sign[0]], mm(8) if len(words[sign[0]]) > 2 else mm(14))
