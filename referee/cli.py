"""`referee`: replay transcripts (JSON answers or a readable trace), list the games, print card labels."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO

from referee import games
from referee.pretty import format_step
from referee.transcript import replay


def _open(path: str) -> IO[str]:
    if path == "-":
        return sys.stdin
    return open(path, encoding="utf-8", errors="replace")


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        stream = _open(args.file)
    except OSError as error:
        print(f"referee replay: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    out = sys.stdout
    header_ok = True
    previous = None
    with stream:
        for step in replay(stream):
            if step.seq == 0:
                header_ok = False
            if args.pretty:
                out.write(format_step(step, previous, args.lang) + "\n")
                if step.answer.ok:
                    previous = step.state
            else:
                out.write(json.dumps(step.to_json(args.lang), ensure_ascii=False) + "\n")
    out.flush()
    return 0 if header_ok else 1


def cmd_games(args: argparse.Namespace) -> int:
    for game_id, cls in games.all_games().items():
        counts = "/".join(str(n) for n in cls.player_counts)
        print(f"{game_id:12} {cls.title:18} players {counts}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description="Tabletop Referee: the rules core.")
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("replay", help="answer every event of a transcript (tabletop-referee/1)")
    rep.add_argument("file", help="the transcript, or - for standard input")
    rep.add_argument("--pretty", action="store_true", help="a trace for people instead of JSON lines")
    rep.add_argument("--lang", choices=("en", "de"), default="en", help="language of the messages")
    rep.set_defaults(func=cmd_replay)
    lst = sub.add_parser("games", help="list the games the referee knows")
    lst.set_defaults(func=cmd_games)
    from referee.labels.cli import add_parser as add_labels  # no reportlab import until a PDF is made

    add_labels(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
