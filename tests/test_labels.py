"""`referee labels`: every printed bar code decodes to exactly the deck's codes; bad requests write nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pypdfium2
import pytest
import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import games
from referee.cards import Card, plausible_code
from referee.cli import main
from referee.labels import LabelError, deck_labels, game_deck, scanner_test_codes
from referee.labels.faces import describe_face
from referee.labels.layouts import LAYOUTS, PAGES, Layout, get_layout
from referee.labels.pdf import MIN_MODULE, QUIET, make_symbol, render_labels, render_test_sheet

GAMES = games.ids()
# A 203-dpi label printer: 0.25 mm bars and modules are two dots. Every sheet is decoded rendered at that
# resolution, dot for dot.
DPI = 203
FORMATS = {"code128": zxingcpp.BarcodeFormat.Code128, "qr": zxingcpp.BarcodeFormat.QRCode}
# Per label, look for both symbologies the sheets use (a full multi-format scan of every cell costs 2-3x).
CELL_FORMATS = tuple(FORMATS.values())


def render(pdf: bytes, dpi: int) -> list:
    """Each page as a printer at `dpi` prints it: dots counted from the page's top-left corner at exactly that
    scale (the fraction of a dot at the right and bottom edge is cut off, or pdfium would stretch the page
    to whole pixels and shift the dot grid)."""
    doc = pypdfium2.PdfDocument(pdf)
    try:
        pages = []
        for i in range(len(doc)):
            page = doc[i]
            width, height = page.get_size()
            right, bottom = ((side * dpi / 72) % 1 * 72 / dpi for side in (width, height))
            pages.append(page.render(scale=dpi / 72, grayscale=True, crop=(0, bottom, right, 0)).to_pil())
        return pages
    finally:
        doc.close()


def module_mm(result, px: float) -> float:
    """The decoded symbol's module width in mm, measured on the image: its width over its module count."""
    p = result.position
    width = max(p.top_right.x, p.bottom_right.x) - min(p.top_left.x, p.bottom_left.x)
    if result.format == FORMATS["qr"]:
        modules = make_symbol("qr", result.text).modules_w - 2 * QUIET["qr"]
    else:
        modules = make_symbol("code128", result.text).modules_w - 2 * QUIET["code128"]
    return (width + 1) / px / modules


def decode_cells(pdf: bytes, layout: Layout) -> list[list[tuple[str, object]]]:
    """Per label position on every page (row by row): the bar codes found inside that label's rectangle,
    each checked to have modules of at least 0.25 mm as printed."""
    px = DPI / 25.4
    cells = []
    for image in render(pdf, DPI):
        assert abs(image.width - layout.page_size[0] * px) <= 1 and abs(image.height - layout.page_size[1] * px) <= 1
        for position in range(layout.per_page):
            left, top = layout.cell(position)
            box = (round(left * px), round(top * px), round((left + layout.label_w) * px),
                   round((top + layout.label_h) * px))
            found = zxingcpp.read_barcodes(image.crop(box), formats=CELL_FORMATS)
            for r in found:
                assert module_mm(r, px) >= 0.245, f"{r.text}: modules of {module_mm(r, px):.3f} mm"
            cells.append([(r.text, r.format) for r in found])
    return cells


def expected_format(code: str, layout: Layout) -> object:
    """Code 128 where its bars can be two 203-dpi dots (>= 0.25 mm) wide inside the label's padding, else QR."""
    inner_w = layout.label_w - 2 * layout.padding
    if layout.symbology == "code128" and inner_w / make_symbol("code128", code).modules_w >= 2 * 25.4 / 203:
        return FORMATS["code128"]
    return FORMATS["qr"]


def check_sheet(pdf: bytes, layout: Layout, codes: list[str], skip: int = 0) -> None:
    cells = decode_cells(pdf, layout)
    assert len(cells) == layout.per_page * -(-(len(codes) + skip) // layout.per_page)  # no extra page
    for position, found in enumerate(cells):
        index = position - skip
        if 0 <= index < len(codes):
            code = codes[index]
            assert found == [(code, expected_format(code, layout))], f"label {index} ({code})"
        else:
            assert found == [], f"an empty position {position} holds {found}"
    decoded = Counter(text for found in cells for text, _ in found)
    assert decoded == Counter(codes)


# --- every registered game's deck, on the default and the small sheets ---------------------------


@pytest.mark.slow
@pytest.mark.parametrize("layout_name", list(LAYOUTS))
@pytest.mark.parametrize("game_id", GAMES)
def test_every_label_decodes_to_exactly_the_deck(game_id: str, layout_name: str) -> None:
    _, deck = game_deck(game_id)
    labels = deck_labels(game_id)
    codes = [label.code for label in labels]
    assert codes == deck.codes()  # exactly the deck's physical cards, each once
    assert len(set(codes)) == deck.size
    for code in codes:
        card, _ = deck.lookup(code)  # raises for a code the referee would refuse
        assert card.copy is not None
        assert plausible_code(code)  # the scanner readers' first filter lets it through
    layout = get_layout(layout_name)
    check_sheet(render_labels(labels, layout), layout, codes)


@pytest.mark.parametrize("game_id", GAMES)
def test_label_words_describe_every_face(game_id: str) -> None:
    texts = {}
    for label in deck_labels(game_id):
        face = Card.from_code(label.code).face
        assert label.text == describe_face(face)  # no fallback to the raw face
        label.text.encode("cp1252")  # printable with the PDF's built-in fonts
        texts.setdefault(label.text, set()).add(face)
    assert all(len(faces) == 1 for faces in texts.values()), "two faces print the same words"


def test_copies_are_numbered_with_options_and_players() -> None:
    if "magische-7" in GAMES:
        two, four = deck_labels("magische-7", players=2), deck_labels("magische-7", players=4)
        assert (len(two), len(four)) == (24, 48)
        assert {lb.code for lb in four} >= {"M7:13#1", "M7:13#2", "M7:JOKER#4"}
        assert next(lb for lb in four if lb.code == "M7:JOKER#3").copy == "#3/4"
    if "alles-klar" in GAMES:
        faces = ["AK:5.II.IV"] * 3 + ["AK:1"] * 5
        labels = deck_labels("alles-klar", {"deck": faces})
        assert [lb.code for lb in labels] == [f"AK:5.II.IV#{n}" for n in (1, 2, 3)] + [f"AK:1#{n}" for n in range(1, 6)]
        assert labels[0].text == "5 · II · IV" and labels[0].copy == "#1/3"
        assert {lb.copy for lb in deck_labels("alles-klar")} == {"#1"}  # the default deck: one copy of each face


def test_skip_leaves_the_first_positions_free() -> None:
    labels = deck_labels(GAMES[0])[:30]
    layout = get_layout("a4-3x8")
    check_sheet(render_labels(labels, layout, skip=5), layout, [lb.code for lb in labels], skip=5)


# --- the plain words of all five decks (rules files, section 1) -----------------------------------


@pytest.mark.parametrize(
    ("face", "words"),
    [
        ("AK:8.II", "8 · II"), ("AK:11", "11"), ("AK:5.I.V", "5 · I · V"),
        ("AC:WASSER", "Wasser"), ("AC:LUFT", "Luft"), ("AC:10", "10"),
        ("PS:H10", "Herz 10"), ("PS:SQ", "Pik Dame"), ("PS:CA", "Kreuz Ass"), ("PS:D7", "Karo 7"),
        ("PS:CK", "Kreuz König"), ("PS:SJ", "Pik Bube"), ("PS:JOKER", "Joker"),
        ("M7:-6", "-6"), ("M7:0", "0"), ("M7:13", "13"), ("M7:MIRROR", "Spiegel"), ("M7:CROSS", "Kreuz"),
        ("AO:RED.DOTS.PLUS", "Rot · Punkte · PLUS"), ("AO:GREEN.WAVES", "Grün · Wellen"),
        ("AO:BLUE.DOTS.HUERDEN", "Blau · Punkte · HÜRDEN"), ("AO:ANNAOTTO", "ANNAOTTO"),
    ],
)
def test_face_words(face: str, words: str) -> None:
    assert describe_face(face) == words


def _rules_faces() -> dict[str, list[str]]:
    """Every default face of each deck, built from the rules files' section 1 (syntax, not the games)."""
    ak = [f"AK:{v}{n}" for v in range(1, 12) for n in ["", ".I", ".II", ".III", ".IV", ".V"]]
    ak += [f"AK:{v}.{a}.{b}" for v, a, b in [(1, "I", "II"), (5, "I", "V"), (9, "IV", "V"), (10, "I", "V")]]
    ac = [f"AC:{f}" for f in ["1", "2", "3", "5", "6", "7", "8", "9", "10", "WASSER", "FEUER", "ERDE", "LUFT"]]
    ps = [f"PS:{s}{r}" for s in "CSHD" for r in [*map(str, range(2, 11)), "J", "Q", "K", "A"]] + ["PS:JOKER"]
    m7 = [f"M7:{v}" for v in range(-6, 14)] + ["M7:JOKER", "M7:MIRROR", "M7:CROSS"]
    colours = ["RED", "ORANGE", "YELLOW", "GREEN", "BLUE", "PURPLE", "PINK", "BROWN"]
    patterns = ["DOTS", "STRIPES", "CHECKS", "WAVES"]
    ao = [f"AO:{c}.{p}" for c in colours for p in patterns] + ["AO:ANNAOTTO"]
    ao += [f"AO:{c}.{patterns[i % 4]}.{s}" for i, c in enumerate(colours)
           for s in ["ANNA", "OTTO", "ALLE", "PLUS", "RETOUR", "HUERDEN"]]
    return {"AK": ak, "AC": ac, "PS": ps, "M7": m7, "AO": ao}


@pytest.mark.parametrize("prefix", ["AK", "AC", "PS", "M7", "AO"])
def test_every_default_face_has_distinct_printable_words(prefix: str) -> None:
    faces = _rules_faces()[prefix]
    words = [describe_face(face) for face in faces]
    assert len(set(words)) == len(faces)
    for text in words:
        text.encode("cp1252")


@pytest.mark.parametrize(
    "face",
    ["AK:0", "AK:12", "AK:05", "AK:5.V.I", "AK:5.II.II", "AK:5.VI", "AK:5.I.II.III", "AC:4", "AC:Wasser", "AC:07",
     "AC:", "PS:H1", "PS:X10", "PS:HJOKER", "PS:joker", "M7:+5", "M7:05", "M7:-0", "M7:14", "M7:-7", "M7:joker",
     "AO:RED", "AO:RED.DOTS.ANNAOTTO", "AO:red.dots", "AO:RED.DOTS.PLUS.ALLE", "XX:1", "AK8", ""],
)
def test_malformed_faces_are_refused(face: str) -> None:
    with pytest.raises(ValueError):
        describe_face(face)


# --- sheet geometry -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_named_layouts_fit_their_page(name: str) -> None:
    layout = LAYOUTS[name].check()
    page_w, page_h = PAGES[layout.page]
    used_w, used_h = layout.used_size()
    assert used_w <= page_w + 0.01 and used_h <= page_h + 0.01
    assert layout.label_w >= 38 and layout.label_h >= 12.7


def test_the_common_70x37_sheet_is_there() -> None:
    layout = get_layout("a4-3x8")
    assert (layout.page, layout.cols, layout.rows, layout.label_w, layout.label_h) == ("A4", 3, 8, 70, 37)


@settings(max_examples=200, deadline=None)
@given(
    cols=st.integers(0, 6), rows=st.integers(0, 14), w=st.floats(-5, 120), h=st.floats(-5, 80),
    left=st.floats(-3, 60), top=st.floats(-3, 60), gx=st.floats(-2, 10), gy=st.floats(-2, 10),
    page=st.sampled_from(sorted(PAGES)),
)
def test_a_checked_layout_keeps_every_label_on_the_page(cols, rows, w, h, left, top, gx, gy, page) -> None:
    layout = get_layout("a4-3x8").with_overrides(cols=cols, rows=rows, label_w=w, label_h=h, margin_left=left,
                                                  margin_top=top, gap_x=gx, gap_y=gy, page=page)
    try:
        layout.check()
    except LabelError as error:
        assert str(error)
        return
    page_w, page_h = PAGES[page]
    for position in range(layout.per_page):
        x, y = layout.cell(position)
        assert x >= 0 and x + w <= page_w + 0.01 and y >= 0 and y + h <= page_h + 0.01


# --- the command: a clear error and no file for a bad request --------------------------------------


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["labels", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["no-such-game"], "unknown game 'no-such-game'"),
        ([GAMES[0], "--margin-top", "200"], "page is 297.0 mm high"),
        ([GAMES[0], "--margin-left", "30"], "page is 210.0 mm wide"),
        ([GAMES[0], "--grid", "4x8"], "4 columns of 70 mm"),
        ([GAMES[0], "--page", "Letter", "--layout", "a4-3x8"], "8 rows of 37 mm"),
        ([GAMES[0], "--label-size", "20x9", "--symbology", "qr"], "below the readable 0.25 mm"),
        ([GAMES[0], "--label-size", "12x37", "--symbology", "qr"], "no room beside its QR code"),
        ([GAMES[0], "--padding", "20"], "leaves nothing"),
        ([GAMES[0], "--margin-top", "-1"], "must not be negative"),
        ([GAMES[0], "--label-size", "nanx37"], "label w must be a finite number"),
        ([GAMES[0], "--gap-x", "inf"], "gap x must be a finite number"),
        ([GAMES[0], "--layout", "a5-1x1"], "unknown layout 'a5-1x1'"),
        ([GAMES[0], "--options", "{nope"], "not JSON"),
        ([GAMES[0], "--options", "[1]"], "must be a JSON object"),
        ([GAMES[0], "--options", '{"no_such_option": 1}'], "unknown option 'no_such_option'"),
        ([GAMES[0], "--players", "9"], "not 9"),
        ([GAMES[0], "--skip", "24"], "skip must be between 0 and 23"),
        (["--test-sheet", "no-such-game"], "unknown game"),
        ([], "name a game"),
    ],
)
def test_bad_requests_write_no_file(tmp_path, capsys, args: list[str], message: str) -> None:
    target = tmp_path / "labels.pdf"
    code, out, err = run_cli(capsys, *args, "-o", str(target))
    assert code == 2
    assert message in err and err.startswith("referee labels: ")
    assert out == ""
    assert list(tmp_path.iterdir()) == []  # no file, no temporary left behind


def test_an_unwritable_target_is_a_clear_error(tmp_path, capsys) -> None:
    code, _, err = run_cli(capsys, GAMES[0], "-o", str(tmp_path / "missing" / "labels.pdf"))
    assert code == 2 and "cannot write" in err
    assert list(tmp_path.iterdir()) == []


def test_the_command_writes_the_sheets(tmp_path, capsys) -> None:
    target = tmp_path / "deck.pdf"
    code, out, err = run_cli(capsys, GAMES[0], "-o", str(target), "--layout", "a4-corner", "--outline")
    assert (code, err) == (0, "")
    labels = deck_labels(GAMES[0])
    assert f"{len(labels)} labels" in out and "QR Code" in out
    check_sheet(target.read_bytes(), get_layout("a4-corner"), [lb.code for lb in labels])
    code, out, _ = run_cli(capsys, "--list-layouts")
    assert code == 0 and all(name in out for name in LAYOUTS)


def test_a_code_too_long_for_code_128_bars_gets_a_qr_code_and_wide_labels_keep_bars(tmp_path, capsys) -> None:
    from referee.labels import Label

    long_code = "AO:ORANGE.STRIPES.HUERDEN#1"
    label = Label(long_code, "Orange · Streifen · HÜRDEN", "#1", "ANNAOTTO")
    narrow = get_layout("a4-3x8")  # 67 mm inside: Code 128 bars would be 0.19 mm
    assert expected_format(long_code, narrow) == FORMATS["qr"]
    check_sheet(render_labels([label], narrow), narrow, [long_code])
    wide = get_layout("a4-2x8")  # 102 mm inside: 0.29 mm bars
    assert expected_format(long_code, wide) == FORMATS["code128"]
    check_sheet(render_labels([label], wide), wide, [long_code])
    assert MIN_MODULE == {"code128": 0.25, "qr": 0.25}
    code, out, _ = run_cli(capsys, "annaotto", "-o", str(tmp_path / "a.pdf"))
    assert code == 0 and "40 codes too long for Code 128 bars of 0.25 mm" in out and "a4-2x8" in out


def test_a_qr_label_too_small_for_readable_modules_is_refused_before_drawing(tmp_path) -> None:
    from referee.labels import Label

    label = Label("AO:ORANGE.STRIPES.HUERDEN#1", "Orange · Streifen · HÜRDEN", "#1", "ANNAOTTO")
    tiny = get_layout("letter-corner").with_overrides(label_h=9.0, padding=0.5)  # 8 mm for 37 modules
    with pytest.raises(LabelError, match="below the readable"):
        render_labels([label], tiny)


# --- the scanner test sheet ------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_scanner_test_sheet_decodes_to_its_codes(tmp_path, capsys, game_id: str) -> None:
    target = tmp_path / "test.pdf"
    code, out, err = run_cli(capsys, "--test-sheet", game_id, "-o", str(target))
    assert (code, err) == (0, "") and "scanner test sheet" in out
    _, entries = scanner_test_codes(game_id)
    _, deck = game_deck(game_id)
    codes = [entry.code for entry in entries]
    verdicts = [code in deck for code in codes]
    assert verdicts.count(True) >= 2 and verdicts[-2:] == [False, False]  # an unknown code, another game's code
    prefixes = [Card.from_code(c).prefix for c in codes]
    assert len(set(prefixes[:-1])) == 1 and prefixes[-1] != prefixes[0]
    pages = render(target.read_bytes(), DPI)
    assert len(pages) == 1
    results = zxingcpp.read_barcodes(pages[0])
    assert all(module_mm(r, DPI / 25.4) >= 0.245 for r in results)
    found = Counter((r.text, r.format) for r in results)
    expected = Counter({(c, f): 1 for c in codes for f in FORMATS.values()})
    assert found == expected


def test_test_sheet_on_letter_and_default_game() -> None:
    title, entries = scanner_test_codes()
    pdf = render_test_sheet(title, entries, "Letter")
    (page,) = render(pdf, DPI)
    assert abs(page.width - 8.5 * DPI) <= 1 and abs(page.height - 11 * DPI) <= 1
    assert {r.text for r in zxingcpp.read_barcodes(page)} == {e.code for e in entries}


# --- the rules core does not need reportlab ---------------------------------------------------------


def test_referee_imports_and_runs_without_reportlab(tmp_path) -> None:
    target = tmp_path / "x.pdf"
    script = f"""
import sys
sys.modules["reportlab"] = None  # as if it were not installed
import referee, referee.table, referee.cli, referee.labels, referee.labels.faces, referee.labels.layouts
from referee.cli import main
assert main(["games"]) == 0
assert main(["labels", {GAMES[0]!r}, "-o", {str(target)!r}]) == 2
assert "reportlab" not in [m for m in sys.modules if sys.modules[m] is not None]
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "needs reportlab" in result.stderr and "tabletop-referee[labels]" in result.stderr
    assert not target.exists()


def test_options_reach_the_game_as_in_a_header() -> None:
    with pytest.raises(LabelError):
        game_deck(GAMES[0], json.loads('{"deck": 3}') if GAMES[0] == "alles-klar" else {"bogus": 1})
    with pytest.raises(LabelError, match="unknown game"):
        game_deck("nope")


@pytest.mark.parametrize(
    ("face", "words"),
    [("AO:RED.DOTS.PLUS", "Red · Dots · PLUS"), ("AO:BLUE.WAVES.HUERDEN", "Blue · Waves · HURDLES"),
     ("AO:GREEN.CHECKS.RETOUR", "Green · Checks · RETURN"), ("AC:WASSER", "Water"), ("PS:SQ", "Spades Queen"),
     ("M7:MIRROR", "Mirror"), ("AK:8.II", "8 · II")],
)
def test_face_words_in_english(face: str, words: str) -> None:
    assert describe_face(face, "en") == words


@pytest.mark.parametrize("prefix", ["AK", "AC", "PS", "M7", "AO"])
def test_english_words_are_distinct_and_printable(prefix: str) -> None:
    faces = _rules_faces()[prefix]
    words = [describe_face(face, "en") for face in faces]
    assert len(set(words)) == len(faces)
    for text in words:
        text.encode("cp1252")


@pytest.mark.parametrize(("lang", "word", "other"), [("en", "Red", "Rot"), ("de", "Rot", "Red")])
def test_labels_print_their_words_in_the_chosen_language(tmp_path, capsys, lang, word, other) -> None:
    target = tmp_path / "deck.pdf"
    code, _, err = run_cli(capsys, "annaotto", "-o", str(target), "--lang", lang)
    assert (code, err) == (0, "")
    doc = pypdfium2.PdfDocument(target.read_bytes())
    try:
        text = "".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()
    assert f"{word} · " in text and f"{other} · " not in text


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_the_pdf_gets_the_mode_the_umask_gives_any_new_file(tmp_path, capsys, mask: int) -> None:
    """Issue #37: the sheet was written 0600 (its temporary file's mode) whatever the umask."""
    import os
    import stat

    old = os.umask(mask)
    try:
        code, _, err = run_cli(capsys, GAMES[0], "-o", str(tmp_path / "deck.pdf"))
    finally:
        os.umask(old)
    assert (code, err) == (0, "")
    assert stat.S_IMODE((tmp_path / "deck.pdf").stat().st_mode) == 0o666 & ~mask
