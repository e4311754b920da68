"""The gallery of table screens (docs/gallery.md): each game played by the simulator on a real `--sim` kiosk through
its control socket, shot mid-game just after a card was laid (the cards drawn, the verdict with its card), at each
size and language asked for.

    .venv/bin/python scripts/gallery.py [--out docs/gallery] [--sizes 800x480,720x1280] [--langs de] [--games …]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiosk import games  # noqa: E402
from referee import sim  # noqa: E402
from referee.table import Referee  # noqa: E402
from tests.kiosk_process import KioskProcess  # noqa: E402
from tests.test_kiosk_e2e import SEATS, play_event, start_game  # noqa: E402

SEED = 21


def shot_at(events: list[dict], fraction: float) -> int:
    """The number of the first event from `fraction` of the game on that lays one card (its verdict draws it)."""
    start = int(len(events) * fraction)
    for n, event in enumerate(events[start:], start + 1):
        if event.get("type") in ("play", "discard") and "card" in event:
            return n
    return len(events)


def shoot(game_id: str, size: str, lang: str, out: Path, fraction: float = 0.3, moves: int = 0,
          name: str = "") -> Path:
    """Play `game_id` to the chosen moment (`moves` events, else a card laid from `fraction` of the game on) on a
    kiosk of `size` speaking `lang`; its screenshot's path (`name`, else game-size-lang.png in `out`)."""
    with tempfile.TemporaryDirectory(prefix="gallery-") as tmp:
        kiosk = KioskProcess(Path(tmp), extra=["--size", size, "--lang", lang])
        try:
            players = sim.get(game_id).default_players
            options = sim.get(game_id)(random.Random(SEED), sim.names(players)).header.get("options", {})
            names = start_game(kiosk, game_id, players, options)
            table = sim.get(game_id)(random.Random(SEED), names)
            events = list(sim.play(table, Referee(table.header)))
            last = moves or shot_at(events, fraction)
            seat_of = dict(zip(names, SEATS, strict=False))
            for n, event in enumerate(events[:last], 1):
                play_event(kiosk, event, seat_of, n)
            path = out / (name or f"{game_id}-{size}-{lang}.png")
            kiosk.cmd("screenshot", path=str(path.resolve()))
            cuts = kiosk.state()["cut_texts"]["count"]
            if cuts:
                raise SystemExit(f"{path}: the renderer cut {cuts} text(s): {kiosk.state()['cut_texts']['last']}")
            return path
        finally:
            kiosk.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gallery", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "gallery")
    parser.add_argument("--sizes", default="800x480,720x1280")
    parser.add_argument("--langs", default="de")
    parser.add_argument("--games", default=",".join(g for g in games.ids() if g in sim.ids()))
    parser.add_argument("--readme", action="store_true", help="also docs/table-screen.png: the 7 for two, in English")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.readme:  # the README's picture: Die magische 7 for two, the first trick just taken
        print(shoot("magische-7", "800x480", "en", ROOT / "docs", moves=2, name="table-screen.png"), flush=True)
    for game_id in args.games.split(","):
        for size in args.sizes.split(","):
            for lang in args.langs.split(","):
                print(shoot(game_id, size, lang, args.out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
