"""`referee labels`: argument handling for the labels subcommand (wired in `referee/cli.py`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

from referee.labels.errors import LabelError
from referee.labels.layouts import DEFAULT_LAYOUT, LAYOUTS, PAGES, SYMBOLOGIES, Layout, get_layout

T = TypeVar("T")


def _mm(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a length in mm: {text!r}") from None


def _pair(kind: Callable[[str], T], sep: str = "x") -> Callable[[str], tuple[T, T]]:
    def parse(text: str) -> tuple[T, T]:
        a, found, b = text.lower().partition(sep)
        try:
            if not found:
                raise ValueError
            return kind(a), kind(b)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected AxB, e.g. 3x8 or 70x37, not {text!r}") from None

    return parse


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    lab = sub.add_parser(
        "labels",
        help="printable bar code labels for a game's deck, or a scanner test sheet (PDF)",
        description="Bar code labels for every physical card of a game's deck (ANNAOTTO: every side), "
        "on common sticker sheets; or one test sheet for setting up a scanner.",
    )
    lab.add_argument("game", nargs="?", help="the game id (see `referee games`)")
    lab.add_argument("-o", "--output", help="the PDF file to write")
    lab.add_argument("--test-sheet", action="store_true", help="one page of test codes for setting up a scanner")
    lab.add_argument("--list-layouts", action="store_true", help="list the sheet layouts and exit")
    lab.add_argument("--options", default="{}", help="the game's options as a JSON object (as in a header)")
    lab.add_argument("--players", type=int, help="number of players the deck is for (default: the smallest)")
    lab.add_argument("--layout", help=f"sheet layout (default {DEFAULT_LAYOUT['A4']}; see --list-layouts)")
    lab.add_argument("--page", choices=sorted(PAGES), help="paper size (picks its default layout)")
    lab.add_argument("--symbology", choices=SYMBOLOGIES, help="bar code (default: the layout's)")
    lab.add_argument("--grid", type=_pair(int), metavar="COLSxROWS", help="labels per row and column")
    lab.add_argument("--label-size", type=_pair(float), metavar="WxH", help="label size in mm")
    lab.add_argument("--margin-left", type=_mm, metavar="MM", help="left page margin in mm")
    lab.add_argument("--margin-top", type=_mm, metavar="MM", help="top page margin in mm")
    lab.add_argument("--gap-x", type=_mm, metavar="MM", help="space between columns in mm")
    lab.add_argument("--gap-y", type=_mm, metavar="MM", help="space between rows in mm")
    lab.add_argument("--padding", type=_mm, metavar="MM", help="blank edge inside each label in mm")
    lab.add_argument("--skip", type=int, default=0, metavar="N", help="leave the first N labels of sheet 1 free")
    lab.add_argument("--lang", choices=("de", "en"), default="de",
                     help="language of the cards' plain words on the labels (default de)")
    lab.add_argument("--outline", action="store_true", help="draw label outlines (for a trial print on paper)")
    lab.add_argument("--camera", action="store_true",
                     help="every label also carries a 12-15 mm DataMatrix for the overhead camera")
    lab.set_defaults(func=cmd_labels)


def _layout(args: argparse.Namespace) -> Layout:
    name = args.layout or DEFAULT_LAYOUT[args.page or "A4"]
    cols, rows = args.grid or (None, None)
    label_w, label_h = args.label_size or (None, None)
    return get_layout(name).with_overrides(
        page=args.page, symbology=args.symbology, cols=cols, rows=rows, label_w=label_w, label_h=label_h,
        margin_left=args.margin_left, margin_top=args.margin_top, gap_x=args.gap_x, gap_y=args.gap_y,
        padding=args.padding,
    ).check()


def _options(text: str) -> dict[str, Any]:
    try:
        options = json.loads(text)
    except json.JSONDecodeError as error:
        raise LabelError(f"--options is not JSON: {error.msg}") from None
    if not isinstance(options, dict):
        raise LabelError("--options must be a JSON object, e.g. '{\"copies\": 2}'")
    return options


def _umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write(path: str, data: bytes) -> None:
    """Write the whole file or nothing: a temporary file in the same folder, then renamed."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".labels-", suffix=".pdf", dir=folder)
    except OSError as error:
        raise LabelError(f"cannot write {path}: {error.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            os.fchmod(out.fileno(), 0o666 & ~_umask())  # as any new file (mkstemp makes it 0600)
        os.replace(tmp, path)
    except OSError as error:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise LabelError(f"cannot write {path}: {error.strerror}") from None


def run(args: argparse.Namespace) -> str:
    """Make the sheet and write it; the summary line. LabelError (and nothing written) on a bad request."""
    from referee import labels

    if args.list_layouts:
        return "\n".join(
            f"{layout.name:14} {layout.per_page:3} per page  {layout.title}" for layout in LAYOUTS.values()
        )
    if not args.output:
        raise LabelError("name the PDF to write with -o FILE")
    options = _options(args.options)
    if args.test_sheet:
        title, entries = labels.scanner_test_codes(args.game, options, args.players, args.lang)
        pdf = _pdf_module()
        data = pdf.render_test_sheet(title, entries, args.page or "A4")
        _write(args.output, data)
        return f"wrote {args.output}: scanner test sheet for {title} ({len(entries)} codes)"
    if not args.game:
        raise LabelError("name a game (see `referee games`), or use --test-sheet")
    layout = _layout(args)
    deck = labels.deck_labels(args.game, options, args.players, args.lang)
    pdf = _pdf_module()
    data = pdf.render_labels(deck, layout, skip=args.skip, outline=args.outline,
                             title=f"{deck[0].game}: card labels" if deck else "card labels", camera=args.camera)
    _write(args.output, data)
    sheets = -(-(len(deck) + args.skip) // layout.per_page)
    summary = (f"wrote {args.output}: {len(deck)} labels for {deck[0].game} on {sheets} sheet(s) "
               f"({layout.name}, {pdf.SYMBOLOGY_NAMES[layout.symbology]}"
               f"{' and a DataMatrix for the camera' if args.camera else ''})")
    two_d = pdf.fallbacks(deck, layout, args.camera)
    if two_d:
        summary += (f"; {two_d} codes too long for Code 128 bars of 0.25 mm on these labels are QR codes "
                    "(a 2D scanner reads them; for 1D-only scanners use wider labels: --layout a4-2x8 or "
                    "letter-2x10)")
    return summary


def _pdf_module() -> ModuleType:
    try:
        from referee.labels import pdf
    except ImportError as error:
        raise LabelError(
            f"making PDFs needs reportlab ({error.name} is missing): install the labels extra, "
            "pip install 'tabletop-referee[labels]' (from a checkout: pip install -e '.[labels]'); "
            "labels are best made on a laptop, a kiosk Pi does not need them"
        ) from None
    return pdf


def cmd_labels(args: argparse.Namespace) -> int:
    try:
        print(run(args))
    except LabelError as error:
        print(f"referee labels: {error}", file=sys.stderr)
        return 2
    return 0
