"""`referee-kiosk camera read IMAGE... [--json]`: the camera reader's decoding on still pictures.

For checking the reader on pictures taken elsewhere (a phone held over the table, a frame saved on
the Pi): every card code found in each picture, with its centre in pixels, and nothing that is not a
card code of a known game (a registered game's deck holds its face). Plain output is a line per code;
`--json` is one line per image: {"image": PATH, "codes": [{"code": …, "x": …, "y": …}]}.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import cache
from pathlib import Path

from hw.camera.decode import Seen, decode


@cache
def _known_faces() -> frozenset[str]:
    """Every face of every registered game's deck in its default set-up (a copy number may go beyond it:
    the copies option adds copies, not faces)."""
    from referee import games
    from referee.labels import game_deck

    faces: set[str] = set()
    for game_id in games.ids():
        _, deck = game_deck(game_id)
        faces.update(deck.faces())
    return frozenset(faces)


def known_card(code: str) -> bool:
    """A card code of a known game: its face is in a registered game's deck."""
    return code.partition("#")[0] in _known_faces()


def read_image(path: Path) -> list[Seen]:
    """The known card codes in one picture, each once, left to right."""
    from PIL import Image

    with Image.open(path) as picture:
        grey = picture.convert("L")
    found: dict[str, Seen] = {}
    for seen in decode(grey):
        if known_card(seen.code):
            found.setdefault(seen.code, seen)
    return sorted(found.values(), key=lambda s: (s.x, s.y))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee-kiosk camera", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    read = sub.add_parser("read", help="print the card codes found in still images, with their centres")
    read.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    read.add_argument("--json", action="store_true", help="one JSON line per image")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    failed = False
    for path in args.images:
        try:
            codes = read_image(path)
        except (OSError, ValueError) as error:  # missing, unreadable or not a picture
            print(f"referee-kiosk camera read: {path}: {error}", file=sys.stderr)
            failed = True
            continue
        if args.json:
            print(json.dumps({"image": str(path), "codes": [
                {"code": s.code, "x": round(s.x, 1), "y": round(s.y, 1)} for s in codes]}))
        elif not codes:
            print(f"{path}: no card code")
        else:
            for s in codes:
                print(f"{path}: {s.code} at ({s.x:.0f}, {s.y:.0f})")
    return 1 if failed else 0
