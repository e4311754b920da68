"""`referee`: replay transcripts (JSON answers or a readable trace), list the games, print card labels."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Sequence
from typing import IO, Any

from referee import games
from referee.pretty import format_expect, format_step, is_expect
from referee.transcript import content_lines, parse, replay


def _open(path: str) -> IO[str]:
    # Bytes that are not UTF-8 are kept as lone surrogates, so that their line is `bad-event`
    # (or `bad-header`), not a line with replacement characters that might still parse.
    if path == "-":
        raw = getattr(sys.stdin, "buffer", None)
        return sys.stdin if raw is None else io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape")
    return open(path, encoding="utf-8", errors="surrogateescape")


def _answer_line(answer: dict[str, Any]) -> str:
    """One answer as JSON; a lone surrogate (from a `\\ud800` escape in the input) stays an escape."""
    text = json.dumps(answer, ensure_ascii=False)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(answer)
    return text


def _printable(text: str) -> str:
    if text.isascii():
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        stream = _open(args.file)
    except OSError as error:
        print(f"referee replay: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    out = sys.stdout
    header_ok = True
    with stream:
        if args.pretty:
            header_ok = _pretty(stream, out, args.lang)
        else:
            for step in replay(stream):
                header_ok = header_ok and step.seq != 0
                out.write(_answer_line(step.to_json(args.lang)) + "\n")
    out.flush()
    return 0 if header_ok else 1


def _pretty(stream: IO[str], out: IO[str], lang: str) -> bool:
    """The trace for people: each event with its verdict and the state it leads to; an acceptance line as what was
    expected of the answer before it (it is the checker's, not an event). Returns whether the header was valid."""
    lines = list(stream)
    first = next(content_lines(lines), None)
    header = parse(first) if first is not None else None
    game = header.get("game") if isinstance(header, dict) and isinstance(header.get("game"), str) else None
    previous, answered = None, None
    for step in replay(lines):
        if step.seq == 0:
            out.write(_printable(format_step(step, None, lang)) + "\n")
            return False
        if is_expect(step.event):
            out.write(_printable(format_expect(step.event, answered, lang)) + "\n")
            continue
        out.write(_printable(format_step(step, previous, lang, game)) + "\n")
        answered = step
        if step.answer.ok:
            previous = step.state
    return True


def cmd_games(args: argparse.Namespace) -> int:
    for game_id in games.ids():
        cls = games.get(game_id)
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
        status: int = args.func(args)
        return status
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
