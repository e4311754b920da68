"""Draw label sheets and the scanner test sheet as PDF (reportlab), all in memory.

Every size is checked before anything is drawn: no bar or module is narrower than
0.25 mm (two dots of a 203-dpi label printer, what cheap scanners read with margin).
On a Code 128 sheet a code too long for that on its label gets a QR code instead
(`fallbacks()` counts them; wider labels such as a4-2x8 keep every label 1D); a QR
label too small for 0.25 mm modules is a LabelError, not a label that fails at the
table. Code 128 comes from reportlab's generator, QR from reportlab's encoder
(level M); both are drawn as plain rectangles.

Camera sheets (`camera=True`, `referee labels GAME --camera`) add to every label a square DataMatrix of
12–15 mm at its right edge (`referee.labels.datamatrix`), carrying the same code as the scanner's symbol;
the scanner's part of the label keeps the rest of its width.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.graphics.barcode import qrencoder
from reportlab.graphics.barcode.code128 import Code128
from reportlab.lib.colors import Color, black
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from referee.labels import Label, SheetCode
from referee.labels.datamatrix import PRINTER_DOT_MM, QUIET_MODULES, camera_module_mm, datamatrix
from referee.labels.errors import LabelError
from referee.labels.layouts import PAGES, Layout

PT_PER_MM = 72 / 25.4
# Narrowest module drawn (mm): 0.25 mm (10 mil) for both, two dots at 203 dpi (thermal label printers)
# and what cheap CCD scanners and 2D imagers read with margin (0.19 mm Code 128 failed at 216-288 dpi).
# Widest: no gain beyond these, the code only gets longer.
MIN_MODULE = {"code128": 0.25, "qr": 0.25}
MAX_MODULE = {"code128": 0.5, "qr": 1.0}
# A 203-dpi printer's dot: modules are whole dots and symbols start on the dot grid (from the page's top-left),
# so a thermal printer prints every bar exactly as wide as meant (a bar of 2.3 dots prints as 2 or 3).
DOT = PRINTER_DOT_MM
# Bar width reduction: each dark module is drawn this much inside its cell on every side, so an edge that
# falls exactly on a dot boundary does not blacken the next dot too (dot gain; rasterisers fill touched dots).
BWR = DOT / 10
QUIET = {"code128": 10, "qr": 4}  # quiet zone in modules, each side (ISO/IEC 15417, 18004)
SYMBOLOGY_NAMES = {"code128": "Code 128", "qr": "QR Code"}
FONT, BOLD, MONO = "Helvetica", "Helvetica-Bold", "Courier"
GREY = Color(0.35, 0.35, 0.35)


def _encodable(text: str) -> str:
    """The built-in fonts are Windows-1252: replace what they cannot show rather than print boxes."""
    return text.encode("cp1252", "replace").decode("cp1252")


# --- symbols -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Symbol:
    """A bar code of one code: how many modules wide (and high, for 2D) including its quiet zones."""

    kind: str
    code: str
    modules_w: int
    modules_h: int  # 0 for a linear code (its height is free)
    matrix: tuple[tuple[bool, ...], ...] = ()


def camera_symbol(code: str) -> Symbol:
    """The camera's DataMatrix of a code, with its one-module quiet zone counted in."""
    matrix = datamatrix(code)
    n = len(matrix)
    return Symbol("datamatrix", code, n + 2 * QUIET_MODULES, n + 2 * QUIET_MODULES, matrix)


def camera_module(symbol: Symbol, room_mm: float) -> float:
    """The module (mm) of the camera's symbol in `room_mm` (its quiet zone may lie in the label's padding)."""
    return camera_module_mm(len(symbol.matrix), room_mm)


def make_symbol(kind: str, code: str) -> Symbol:
    if not code.isascii() or not code.isprintable():
        raise LabelError(f"{code!r}: only printable ASCII fits a label's bar code")
    if kind == "code128":
        width = Code128(code, barWidth=1, quiet=0).width  # in modules
        return Symbol(kind, code, round(width) + 2 * QUIET[kind], 0)
    if kind == "qr":
        qr = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
        qr.addData(code)
        qr.make()
        n: int = qr.getModuleCount()  # type: ignore[no-untyped-call]  # reportlab's stub leaves it untyped
        matrix = tuple(tuple(bool(m) for m in row) for row in qr.modules)
        return Symbol(kind, code, n + 2 * QUIET[kind], n + 2 * QUIET[kind], matrix)
    raise LabelError(f"unknown symbology {kind!r}")


def snap(mm: float) -> float:
    """The nearest position on the printer's dot grid."""
    return round(mm / DOT) * DOT


def fitted_module(symbol: Symbol, width_mm: float, height_mm: float | None = None) -> float:
    """The module (mm, whole printer dots) that fills the space, capped; may be below the readable minimum."""
    module = width_mm / symbol.modules_w
    if symbol.modules_h and height_mm is not None:
        module = min(module, height_mm / symbol.modules_h)
    module = min(module, MAX_MODULE[symbol.kind])
    return int(module / DOT + 1e-9) * DOT


def _module_for(symbol: Symbol, width_mm: float, height_mm: float | None = None) -> float:
    """The module (mm) that fills the space, capped; LabelError if it is below the readable minimum."""
    module = fitted_module(symbol, width_mm, height_mm)
    if module < MIN_MODULE[symbol.kind] - 1e-9:
        name = SYMBOLOGY_NAMES[symbol.kind]
        raise LabelError(
            f"{symbol.code!r} needs {symbol.modules_w} {name} modules; on this label they would be "
            f"{module:.3f} mm wide, below the readable {MIN_MODULE[symbol.kind]} mm: "
            "choose wider labels, a smaller padding or the QR symbology (--symbology qr)"
        )
    return module


def _draw_code128(c: Canvas, symbol: Symbol, x: float, y: float, module: float, height: float) -> None:
    """x, y: bottom-left of the quiet zone, in mm."""
    bars = Code128(symbol.code, barWidth=module * PT_PER_MM, barHeight=height * PT_PER_MM, quiet=0)
    bars.drawOn(c, (x + QUIET["code128"] * module) * PT_PER_MM, y * PT_PER_MM)


def _draw_qr(c: Canvas, symbol: Symbol, x: float, y: float, module: float) -> None:
    """x, y: bottom-left of the quiet zone, in mm."""
    quiet = QUIET["qr"]
    _draw_matrix(c, symbol.matrix, x + quiet * module, y + quiet * module, module)


def _runs(line: Sequence[bool]) -> list[tuple[int, int]]:
    """(start, end) of each run of dark modules in a row or column."""
    runs, i = [], 0
    while i < len(line):
        if line[i]:
            start = i
            while i < len(line) and line[i]:
                i += 1
            runs.append((start, i))
        else:
            i += 1
    return runs


def _draw_matrix(c: Canvas, matrix: tuple[tuple[bool, ...], ...], x: float, y: float, module: float) -> None:
    """A 2D symbol's modules without quiet zone; x, y: its bottom-left in mm. Dark runs of every row and of
    every column are each one rectangle (drawn inside by BWR), so two dark neighbours never show a seam."""
    n = len(matrix)
    c.setFillColor(black)

    def rect(col: int, row: int, cols: int, rows: int) -> None:
        c.rect((x + col * module + BWR) * PT_PER_MM, (y + (n - row - rows) * module + BWR) * PT_PER_MM,
               (cols * module - 2 * BWR) * PT_PER_MM, (rows * module - 2 * BWR) * PT_PER_MM, stroke=0, fill=1)

    for r, row in enumerate(matrix):
        for start, end in _runs(row):
            rect(start, r, end - start, 1)
    for col in range(len(matrix[0]) if matrix else 0):
        for start, end in _runs([row[col] for row in matrix]):
            if end - start > 1:
                rect(col, start, 1, end - start)


# --- text --------------------------------------------------------------------------------------


def _wrap(text: str, font: str, size: float, width_pt: float) -> list[str]:
    lines: list[str] = []
    for word in text.split(" "):
        if lines and stringWidth(f"{lines[-1]} {word}", font, size) <= width_pt:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def _fit(text: str, font: str, width_mm: float, height_mm: float, max_size: float) -> tuple[float, list[str]]:
    """The largest size (pt) at which the text, wrapped at spaces, fits the box; a hard floor of 3 pt."""
    width_pt, height_pt = width_mm * PT_PER_MM, height_mm * PT_PER_MM
    size = max_size
    while size > 3:
        lines = _wrap(text, font, size, width_pt)
        if len(lines) * size * 1.15 <= height_pt and all(stringWidth(ln, font, size) <= width_pt for ln in lines):
            return size, lines
        size -= 0.5
    return 3.0, _wrap(text, font, 3.0, width_pt)


def _draw_lines(c: Canvas, lines: Sequence[str], font: str, size: float, x: float, top: float,
                align: str = "left") -> None:
    """Lines from `top` (mm, page coordinates from the bottom) downwards."""
    c.setFont(font, size)
    for i, line in enumerate(lines):
        baseline = top * PT_PER_MM - size * (0.85 + 1.15 * i)
        if align == "right":
            c.drawRightString(x * PT_PER_MM, baseline, line)
        else:
            c.drawString(x * PT_PER_MM, baseline, line)


# --- label sheets ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Placed:
    label: Label
    symbol: Symbol
    module: float
    camera: Symbol | None = None  # the camera's DataMatrix at the label's right edge (camera sheets)
    camera_module: float = 0.0

    @property
    def reserved(self) -> float:
        """Width (mm) the camera's symbol takes at the right, its quiet zone towards the rest included."""
        if self.camera is None:
            return 0.0
        return (len(self.camera.matrix) + QUIET_MODULES) * self.camera_module + 0.5


def _plan(labels: Sequence[Label], layout: Layout, camera: bool = False) -> list[_Placed]:
    """Every label's symbols and module sizes, checked before anything is drawn."""
    inner_h = layout.label_h - 2 * layout.padding
    placed = []
    for label in labels:
        cam = cam_module = None
        inner_w = layout.label_w - 2 * layout.padding
        if camera:
            cam = camera_symbol(label.code)
            cam_module = camera_module(cam, inner_h)
            inner_w -= _Placed(label, cam, 0.0, cam, cam_module).reserved
        kind = layout.symbology
        if kind == "code128":
            if inner_h < 14:
                raise LabelError(f"a {layout.label_h:g} mm high label is too low for a Code 128 label with text")
            symbol = make_symbol(kind, label.code)
            if fitted_module(symbol, inner_w) >= MIN_MODULE[kind] - 1e-9:
                placed.append(_Placed(label, symbol, _module_for(symbol, inner_w), cam, cam_module or 0.0))
                continue
            kind = "qr"  # too long for readable bars on this label: a 2D code instead
        symbol = make_symbol(kind, label.code)
        side = min(inner_h, inner_w - 8)  # room beside the code for the card's name
        if inner_w - 8 < (21 + 2 * QUIET["qr"]) * MIN_MODULE["qr"]:  # not even the smallest QR code fits
            raise LabelError(
                f"a {layout.label_w:g}x{layout.label_h:g} mm label has no room beside its QR code for the "
                "card's name: inside the padding the label must be at least 8 mm wider than its QR code"
                + (" and the camera's DataMatrix" if camera else "")
            )
        placed.append(_Placed(label, symbol, _module_for(symbol, side, side), cam, cam_module or 0.0))
    return placed


def fallbacks(labels: Sequence[Label], layout: Layout, camera: bool = False) -> int:
    """How many labels of a Code 128 sheet get a QR code because their code is too long for readable bars."""
    return sum(1 for item in _plan(labels, layout, camera) if item.symbol.kind != layout.symbology)


def _draw_label(c: Canvas, item: _Placed, layout: Layout, x0: float, top: float) -> None:
    """One label whose top-left corner is at (x0, top) in mm from the page's bottom-left."""
    page_h = layout.page_size[1]
    pad = layout.padding
    x, w = x0 + pad, layout.label_w - 2 * pad - item.reserved
    y_top, h = top - pad, layout.label_h - 2 * pad
    label, symbol, module = item.label, item.symbol, item.module
    c.setFillColor(black)
    if item.camera is not None:
        cam_side = len(item.camera.matrix) * item.camera_module
        cam_top = snap(page_h - (y_top - (h - cam_side) / 2))  # from the page's top, on the dot grid
        _draw_matrix(c, item.camera.matrix, snap(x0 + layout.label_w - pad - cam_side), page_h - cam_top - cam_side,
                     item.camera_module)
    if symbol.kind == "code128":
        head = min(9.0, h * 0.28)
        foot = 2.6
        copy_size, _ = _fit(label.copy, BOLD, w / 3, head, 11)
        copy_w = stringWidth(label.copy, BOLD, copy_size) / PT_PER_MM
        size, lines = _fit(_encodable(label.text), BOLD, w - copy_w - 2, head, 16)
        _draw_lines(c, lines, BOLD, size, x, y_top)
        _draw_lines(c, [label.copy], BOLD, copy_size, x + w, y_top, "right")
        bar_h = h - head - foot - 1.5
        bar_w = symbol.modules_w * module
        _draw_code128(c, symbol, snap(x + (w - bar_w) / 2), top - pad - head - 0.5 - bar_h, module, bar_h)
        c.setFillColor(GREY)
        code_size, _ = _fit(label.code, MONO, w * 0.62, foot, 7)
        _draw_lines(c, [label.code], MONO, code_size, x, y_top - h + foot)
        game_size, _ = _fit(_encodable(label.game), FONT, w * 0.36, foot, 6)
        _draw_lines(c, [_encodable(label.game)], FONT, game_size, x + w, y_top - h + foot, "right")
    else:
        side = symbol.modules_w * module
        below_top = snap(page_h - (y_top - (h - side) / 2))  # the symbol's top edge, from the page's top
        _draw_qr(c, symbol, snap(x), page_h - below_top - side, module)
        tx = x + side + 1
        tw = w - side - 1
        foot = min(2.6, h * 0.2)
        copy_h = min(4.5, h * 0.3)
        size, lines = _fit(_encodable(label.text), BOLD, tw, h - foot - copy_h, 12)
        _draw_lines(c, lines, BOLD, size, tx, y_top)
        copy_size, _ = _fit(label.copy, BOLD, tw, copy_h, 9)
        _draw_lines(c, [label.copy], BOLD, copy_size, tx, y_top - h + foot + copy_h)
        c.setFillColor(GREY)
        code_size, _ = _fit(label.code, MONO, tw, foot, 6)
        _draw_lines(c, [label.code], MONO, code_size, tx, y_top - h + foot)
    c.setFillColor(black)


def render_labels(labels: Sequence[Label], layout: Layout, skip: int = 0, outline: bool = False,
                  title: str = "Tabletop Referee labels", camera: bool = False) -> bytes:
    """The sheets as PDF bytes: labels row by row, the first `skip` positions of the first sheet left free;
    `camera`: every label also carries the overhead camera's DataMatrix."""
    layout.check()
    if skip < 0 or skip >= layout.per_page:
        raise LabelError(f"skip must be between 0 and {layout.per_page - 1} (one sheet holds {layout.per_page})")
    if not labels:
        raise LabelError("there are no labels to print")
    placed = _plan(labels, layout, camera)
    page_w, page_h = layout.page_size
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(page_w * PT_PER_MM, page_h * PT_PER_MM), invariant=True)
    c.setTitle(title)
    c.setCreator("referee labels")
    for i, item in enumerate(placed):
        position = i + skip
        if position and position % layout.per_page == 0:
            c.showPage()
        left, top = layout.cell(position)
        if outline:
            c.setStrokeColor(Color(0.8, 0.8, 0.8))
            c.setLineWidth(0.3)
            c.roundRect(left * PT_PER_MM, (page_h - top - layout.label_h) * PT_PER_MM,
                        layout.label_w * PT_PER_MM, layout.label_h * PT_PER_MM, 2 * PT_PER_MM)
        _draw_label(c, item, layout, left, page_h - top)
    c.showPage()
    c.save()
    return buffer.getvalue()


# --- the scanner test sheet --------------------------------------------------------------------

SHEET_MODULE = {"code128": 0.33, "qr": 0.5}


def render_test_sheet(game_title: str, entries: Sequence[SheetCode], page: str = "A4") -> bytes:
    """One page: each code as Code 128 and as QR, with what the referee should answer to it."""
    if page not in PAGES:
        raise LabelError(f"unknown page size {page!r} (known: {', '.join(PAGES)})")
    page_w, page_h = PAGES[page]
    margin, row_h, head_h = 15.0, 33.0, 26.0
    if head_h + len(entries) * row_h > page_h - 2 * margin:
        raise LabelError(f"{len(entries)} test codes do not fit on one {page} page")
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(page_w * PT_PER_MM, page_h * PT_PER_MM), invariant=True)
    c.setTitle(f"Scanner test sheet: {game_title}")
    c.setCreator("referee labels --test-sheet")
    top = page_h - margin
    _draw_lines(c, [_encodable(f"Scanner-Testblatt / scanner test sheet: {game_title}")], BOLD, 14, margin, top)
    notes = [
        "Jeden Code scannen (Strichcode: 1D-Scanner, QR: 2D-Scanner); der Schiedsrichter antwortet wie angegeben.",
        "Scan every code (bar code for 1D scanners, QR for 2D imagers); the referee must answer as given.",
        "Set the scanner to send the code exactly (no prefix, no case change) followed by Enter / CR.",
    ]
    _draw_lines(c, [_encodable(n) for n in notes], FONT, 8.5, margin, top - 8)
    bar_x, qr_x = margin, margin + 112
    text_x = qr_x + 26
    for i, entry in enumerate(entries):
        row_top = top - head_h - i * row_h
        bars = make_symbol("code128", entry.code)
        module = fitted_module(bars, min(SHEET_MODULE["code128"] * bars.modules_w, 108))
        if module < MIN_MODULE["code128"]:
            raise LabelError(f"{entry.code!r} is too long for the test sheet")
        _draw_code128(c, bars, snap(bar_x), row_top - 18, module, 16)
        c.setFillColor(GREY)
        _draw_lines(c, [entry.code], MONO, 8, bar_x + QUIET["code128"] * module, row_top - 19)
        c.setFillColor(black)
        qr = make_symbol("qr", entry.code)
        qr_module = fitted_module(qr, min(SHEET_MODULE["qr"] * qr.modules_w, 24), 24)
        side = qr.modules_w * qr_module
        _draw_qr(c, qr, snap(qr_x), page_h - snap(page_h - row_top) - side, qr_module)
        text = [_encodable(entry.text), _encodable(entry.expect_de), _encodable(entry.expect_en)]
        _draw_lines(c, text[:1], BOLD, 10, text_x, row_top - 2)
        _draw_lines(c, text[1:], FONT, 8.5, text_x, row_top - 8)
    c.showPage()
    c.save()
    return buffer.getvalue()
