"""`referee labels GAME --camera`: every label carries a 12–15 mm DataMatrix of its code that the overhead
camera reads at 0.15 mm per pixel, and its scanner symbol still reads at the label printer's 203 dpi."""

from __future__ import annotations

import pytest
import zxingcpp
from test_labels import CELL_FORMATS, DPI, render, run_cli

from referee import games
from referee.labels import LabelError, deck_labels
from referee.labels.layouts import LAYOUTS, get_layout
from referee.labels.pdf import camera_symbol, render_labels

CAMERA_MM_PER_PX = 0.15  # a Camera Module 3 about 53 cm above the table, at full resolution
CAMERA_DPI = 25.4 / CAMERA_MM_PER_PX
ROOMY = [name for name, layout in LAYOUTS.items() if layout.label_h - 2 * layout.padding >= 12]


def camera_cells(pdf: bytes, layout, count: int) -> list[list[tuple[str, float]]]:
    """Per label: the DataMatrix symbols found in its rectangle at 0.15 mm per pixel, with their side in mm."""
    px = CAMERA_DPI / 25.4
    cells = []
    for image in render(pdf, CAMERA_DPI):
        for position in range(layout.per_page):
            if len(cells) == count:
                break
            left, top = layout.cell(position)
            box = (round(left * px), round(top * px), round((left + layout.label_w) * px),
                   round((top + layout.label_h) * px))
            found = zxingcpp.read_barcodes(image.crop(box), formats=zxingcpp.BarcodeFormat.DataMatrix)
            cells.append([(r.text, (r.position.top_right.x - r.position.top_left.x + 1) / px) for r in found])
    return cells


@pytest.mark.parametrize("layout_name", ROOMY)
def test_every_camera_symbol_reads_at_the_cameras_resolution(layout_name: str) -> None:
    layout = get_layout(layout_name)
    labels = deck_labels("annaotto")  # the longest codes of all decks
    cells = camera_cells(render_labels(labels, layout, camera=True), layout, len(labels))
    assert [[text for text, _ in found] for found in cells] == [[label.code] for label in labels]
    assert all(11.9 <= side <= 15.1 for found in cells for _, side in found), cells[:3]


@pytest.mark.parametrize("game_id", games.ids())
def test_every_games_deck_reads_by_camera_and_by_scanner(game_id: str) -> None:
    layout = get_layout("a4-3x8")
    labels = deck_labels(game_id)
    pdf = render_labels(labels, layout, camera=True)
    cells = camera_cells(pdf, layout, len(labels))
    assert [[text for text, _ in found] for found in cells] == [[label.code] for label in labels]
    # the scanner's symbol (Code 128, or QR where bars would be too thin) still reads as printed at 203 dpi
    px = DPI / 25.4
    scanned = []
    for image in render(pdf, DPI):
        for position in range(layout.per_page):
            left, top = layout.cell(position)
            box = (round(left * px), round(top * px), round((left + layout.label_w) * px),
                   round((top + layout.label_h) * px))
            scanned.extend(r.text for r in zxingcpp.read_barcodes(image.crop(box), formats=CELL_FORMATS))
    assert sorted(scanned) == sorted(label.code for label in labels)


def test_the_camera_symbol_is_square_and_carries_the_plain_code() -> None:
    for label in deck_labels("profi-sort")[:5]:
        symbol = camera_symbol(label.code)
        assert len(symbol.matrix) == len(symbol.matrix[0])
        assert symbol.code == label.code


def test_labels_too_low_for_a_12_mm_symbol_are_refused_with_a_reason(tmp_path, capsys) -> None:
    layout = get_layout("letter-corner")
    assert layout.label_h - 2 * layout.padding < 12
    with pytest.raises(LabelError, match="12-15 mm"):
        render_labels(deck_labels("magische-7"), layout, camera=True)
    target = tmp_path / "corner.pdf"
    code, _, err = run_cli(capsys, "magische-7", "--camera", "--layout", "letter-corner", "-o", str(target))
    assert code == 2 and "12-15 mm" in err and not target.exists()


def test_the_command_writes_camera_sheets(tmp_path, capsys) -> None:
    target = tmp_path / "camera.pdf"
    code, out, err = run_cli(capsys, "alcasan", "--camera", "--layout", "a4-corner", "-o", str(target))
    assert (code, err) == (0, "") and "DataMatrix" in out
    layout = get_layout("a4-corner")
    labels = deck_labels("alcasan")
    cells = camera_cells(target.read_bytes(), layout, len(labels))
    assert [[text for text, _ in found] for found in cells] == [[label.code] for label in labels]
