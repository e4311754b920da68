"""One zone's crop → the card codes in it, with their centres: zxing-cpp, DataMatrix only, two passes.

Only DataMatrix is looked for: the camera's labels carry nothing else, and every other
format is one more way for a pattern on a card's back, a sleeve or a sleeve's reflection to
be misread. What decodes must also be a plausible card code (`referee.cards.plausible_code`,
the scanners' own first filter): foreign symbols in view are dropped, not reported.

Why two passes: zxing-cpp's DataMatrix detector misses symbols whose edges run about 26° off the
pixel grid (a card laid at 64°, 154°, 244° or 334°, give or take 3°), in every frame, however sharp:
rendered frames lost such a card for good (benchmarks/camera.py, docs/decisions.md H28-1). The second
pass reads the same crop squeezed to `SQUEEZE` of its width, which turns those edges by several degrees
out of the blind spot (and its own, elsewhere, lie where the first pass reads). Both passes run on
every frame, so a card in the blind spot is read in consecutive frames like any other and the
confirmation stays "N frames in a row". Labels are dark on light: zxing-cpp's inverted retry is off,
which pays for most of the second pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.cards import plausible_code

SQUEEZE = 0.8
"""The second pass's width factor: 0.7–0.8 left no angle unread in a 1° sweep at blur σ 0.4 and 1.5;
0.8 reads most on its own (it drops the fewest symbols that the first pass reads too)."""


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


def symbols(image: Any) -> list[tuple[str, float, float]]:
    """Every valid DataMatrix in a PIL image, by both passes: (text, centre x, centre y) in the image's
    pixels, each text once (the first pass's centre when both read it). Foreign texts included: `decode`
    drops them, the benchmark counts them."""
    from PIL import Image

    zxingcpp = decoder()
    found: dict[str, tuple[str, float, float]] = {}
    squeezed = image.resize((max(1, round(image.width * SQUEEZE)), image.height), Image.Resampling.BILINEAR)
    for picture, x_scale in ((image, 1.0), (squeezed, image.width / squeezed.width)):
        for result in zxingcpp.read_barcodes(picture, formats=zxingcpp.BarcodeFormat.DataMatrix,
                                             try_invert=False):
            if not result.valid or result.text in found:
                continue
            p = result.position
            corners = (p.top_left, p.top_right, p.bottom_right, p.bottom_left)
            found[result.text] = (result.text, sum(c.x for c in corners) / 4 * x_scale,
                                  sum(c.y for c in corners) / 4)
    return list(found.values())


def decode(image: Any, offset: tuple[int, int] = (0, 0)) -> list[Seen]:
    """Every plausible card code in `image` (a PIL image), centres shifted by `offset` (the crop's corner
    in the whole frame)."""
    return [Seen(text, x + offset[0], y + offset[1]) for text, x, y in symbols(image) if plausible_code(text)]
