"""The camera's symbol: a square ECC200 DataMatrix of a card code, made by zxing-cpp's writer (libzint inside).

The overhead camera (`hw.camera`) reads cards from about 53 cm at about 0.15 mm per
pixel; a DataMatrix of 12–15 mm carrying the card's code as plain text reads there
(`../shared/HARDWARE-NOTES.md`, Barcodes). reportlab's own DataMatrix writer knows
only the fixed 44 × 44 symbol (modules too small at that size), so the symbol comes
from zxing-cpp, the same library that decodes it. Square symbols only
(`forceSquare`): a rectangular one of a long code would have modules half as tall.
"""

from __future__ import annotations

from referee.labels.errors import LabelError

CAMERA_SIDE_MM = (12.0, 15.0)
"""The printed symbol's side, without its quiet zone: what the camera reads at 0.15 mm per pixel."""
QUIET_MODULES = 1
"""ISO/IEC 16022's quiet zone: one module on every side (a label's blank padding may hold it)."""
PRINTER_DOT_MM = 25.4 / 203
"""A 203-dpi label printer's dot: modules are whole dots."""


def camera_module_mm(modules: int, room_mm: float) -> float:
    """The module (whole printer dots) of the biggest camera symbol of `modules` modules that is at most 15 mm
    and fits `room_mm`; LabelError if the symbol would be under 12 mm."""
    low, high = CAMERA_SIDE_MM
    module = int(min(high, room_mm) / modules / PRINTER_DOT_MM + 1e-9) * PRINTER_DOT_MM
    if module * modules < low - 1e-9:
        raise LabelError(
            f"the camera's DataMatrix must be {low:g}-{high:g} mm wide, but a label with {room_mm:.1f} mm "
            f"inside its padding leaves {module * modules:.1f} mm: choose taller labels or a smaller padding"
        )
    return module


def datamatrix(code: str) -> tuple[tuple[bool, ...], ...]:
    """The symbol's modules (True = dark), row by row from the top, without the quiet zone."""
    if not code.isascii() or not code.isprintable():
        raise LabelError(f"{code!r}: only printable ASCII fits a label's bar code")
    try:
        import zxingcpp
    except ImportError as error:
        raise LabelError(
            "camera labels need zxing-cpp to make their DataMatrix symbols: pip install 'tabletop-referee[labels]'"
        ) from error
    barcode = zxingcpp.create_barcode(code, zxingcpp.BarcodeFormat.DataMatrix, forceSquare=True)
    image = zxingcpp.write_barcode_to_image(barcode, scale=1, add_quiet_zones=False)
    rows, cols = image.shape
    pixels = memoryview(image)  # type: ignore[arg-type]  # an Image is a buffer; zxing-cpp's stub does not say so
    return tuple(tuple(pixels[r, c] < 128 for c in range(cols)) for r in range(rows))
