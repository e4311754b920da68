"""`referee-kiosk camera read IMAGE... [--json] [--faces GAME]`: the camera reader on still pictures;
`camera teach GAME FOLDER`: a deck taught from a folder of stills; `camera restore FOLDER`: taught decks
from a backup.

For checking the reader on pictures taken elsewhere (a phone held over the table, a frame saved on
the Pi): every card code found in each picture, with its centre in pixels, and nothing that is not a
card code of a known game (a registered game's deck holds its face). Plain output is a line per code;
`--json` is one line per image: {"image": PATH, "codes": [{"code": …, "x": …, "y": …}]}. With `--faces
GAME` the cards are read by the faces taught for GAME as well (`kiosk.hardware.camera_stills`); a card read
by its face carries its face, no copy number ("by": "face"). The taught decks are the kiosk's: in
`--data-dir`, or the data directory of `--config`'s [kiosk], or the kiosk's default.
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


def _where(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, help="the kiosk's data directory (where taught decks are)")
    parser.add_argument("--config", type=Path, help="the table's config: its [kiosk] data_dir")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee-kiosk camera", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    read = sub.add_parser("read", help="print the card codes found in still images, with their centres")
    read.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    read.add_argument("--json", action="store_true", help="one JSON line per image")
    read.add_argument("--faces", metavar="GAME", help="read the cards by the faces taught for GAME too")
    _where(read)
    teach = sub.add_parser("teach", help="teach a deck from a folder of stills, one picture per face")
    teach.add_argument("game", metavar="GAME", help="the game whose deck it is (alles-klar, profi-sort, …)")
    teach.add_argument("folder", type=Path, metavar="FOLDER",
                       help="one picture per face, named by its code (AK_7.IV.png) or in the deck's order")
    teach.add_argument("--deck", metavar="NAME", help="teach this deck further (deck-1 …); default: a new deck")
    teach.add_argument("--anyway", action="store_true",
                       help="teach a picture that looks like a face already taught all the same")
    teach.add_argument("--json", action="store_true", help="one JSON line per picture")
    _where(teach)
    restore = sub.add_parser("restore", help="add the taught decks of an export folder (FOLDER/faces/…)")
    restore.add_argument("folder", type=Path, metavar="FOLDER")
    _where(restore)
    return parser


def data_dir_of(args: argparse.Namespace) -> Path:
    """The kiosk's data directory as the kiosk itself would find it."""
    if args.data_dir is not None:
        return Path(args.data_dir)
    from kiosk.settings import settings as settings_mod

    config = None
    if args.config is not None:
        from kiosk.settings.config import load

        config = load(args.config)
    return settings_mod.from_config(config).data_dir


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from kiosk.hardware import camera_stills
    from referee.config_lines import ConfigError

    try:
        if args.action == "teach":
            return _teach(args)
        if args.action == "restore":
            return _restore(args)
        return _read(args)
    except (camera_stills.StillError, ConfigError, OSError) as error:
        print(f"referee-kiosk camera {args.action}: {error}", file=sys.stderr)
        return 1


def _known_game(game: str) -> str:
    from kiosk.hardware.camera_stills import StillError
    from referee import games

    if game not in games.GAMES:
        raise StillError(f"no game {game!r} (games: {', '.join(games.ids())})")
    return game


def _read(args: argparse.Namespace) -> int:
    from kiosk.hardware.camera_stills import read_faces_in, taught_book

    game = _known_game(args.faces) if args.faces else None
    book = taught_book(data_dir_of(args), game) if game else None
    failed = False
    for path in args.images:
        try:
            found = [(s.code, s.x, s.y, "label") for s in read_image(path)]
            if book is not None:
                found += [(face, x, y, "face") for face, x, y in read_faces_in(book, path)]
        except (OSError, ValueError) as error:  # missing, unreadable or not a picture
            print(f"referee-kiosk camera read: {path}: {error}", file=sys.stderr)
            failed = True
            continue
        if args.json:
            print(json.dumps({"image": str(path), "codes": [
                {"code": code, "x": round(x, 1), "y": round(y, 1), **({"by": by} if game else {})}
                for code, x, y, by in found]}))
        elif not found:
            print(f"{path}: no card code")
        else:
            for code, x, y, by in found:
                print(f"{path}: {code} at ({x:.0f}, {y:.0f})" + (f" by its {by}" if game else ""))
    return 1 if failed else 0


def _teach(args: argparse.Namespace) -> int:
    from kiosk.hardware.camera_faces import faces_of
    from kiosk.hardware.camera_stills import teach_folder

    game = _known_game(args.game)
    deck, results = teach_folder(data_dir_of(args), game, args.folder, args.deck, args.anyway)
    for r in results:
        if args.json:
            print(json.dumps({"image": str(r.path), "face": r.face, "result": r.result, "looks_like": r.other}))
        elif r.result == "taught":
            print(f"{r.path}: {r.face} taught")
        elif r.result == "looks-like":
            print(f"{r.path}: not taught: it looks like {r.other}, taught before (--anyway teaches it as {r.face})")
        else:
            print(f"{r.path}: not taught: no card of the taught size found in the picture")
    faces = set(faces_of(game))
    print(f"{game} {deck.name}: {len(deck.faces() & faces)} of {len(faces)} faces taught",
          file=sys.stderr if args.json else sys.stdout)
    return 0 if all(r.result == "taught" for r in results) else 1


def _restore(args: argparse.Namespace) -> int:
    from kiosk.hardware.camera_stills import restore

    added = restore(data_dir_of(args), args.folder)
    for game, name, n in added:
        print(f"{game}: restored as {name} ({n} faces)")
    if not added:
        print(f"referee-kiosk camera restore: no taught deck in {args.folder}/faces", file=sys.stderr)
        return 1
    return 0
