"""One zone's crop → the card codes in it, with their centres: zxing-cpp, DataMatrix only.

Only DataMatrix is looked for: the camera's labels carry nothing else, and every other
format is one more way for a pattern on a card's back, a sleeve or a sleeve's reflection to
be misread. What decodes must also be a plausible card code (`referee.cards.plausible_code`,
the scanners' own first filter): foreign symbols in view are dropped, not reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.cards import plausible_code


@dataclass(frozen=True, slots=True)
class Seen:
    """A card code decoded in a picture, and its centre in that picture's pixels."""

    code: str
    x: float
    y: float


def decoder() -> Any:
    """zxing-cpp, or a RuntimeError that says which extra to install."""
    try:
        import zxingcpp
    except ImportError as error:
        raise RuntimeError("the camera reader needs zxing-cpp: pip install 'tabletop-referee[camera]'") from error
    return zxingcpp


def decode(image: Any, offset: tuple[int, int] = (0, 0)) -> list[Seen]:
    """Every plausible card code in `image` (a PIL image, or anything zxing-cpp reads), centres shifted by
    `offset` (the crop's corner in the whole frame)."""
    zxingcpp = decoder()
    found = []
    for result in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.DataMatrix):
        text = result.text
        if not result.valid or not plausible_code(text):
            continue
        p = result.position
        corners = (p.top_left, p.top_right, p.bottom_right, p.bottom_left)
        x = sum(c.x for c in corners) / 4 + offset[0]
        y = sum(c.y for c in corners) / 4 + offset[1]
        found.append(Seen(text, x, y))
    return found
