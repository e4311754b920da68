"""A TOML config file's problems with their lines, for every layer that reads one (the table's config in `hw` and
the kiosk, the hub's in `hub`): the line a key is written on, one problem per line, and the error that lists them.

It lives in `referee`, the one package both `hw` and `hub` may import; it reads text, never a file.
tomllib gives no positions for values, so `KeyLines` finds the line where each key path is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.errors import RefereeError


@dataclass(frozen=True, slots=True)
class Problem:
    line: int | None
    message: str
    warning: bool = False

    def format(self, path: str) -> str:
        where = f"{path}:{self.line}" if self.line else path
        return f"{where}: {'warning: ' if self.warning else ''}{self.message}"


class ConfigError(RefereeError, ValueError):
    """The configuration file has errors; `problems` lists each with its line."""

    def __init__(self, path: str, problems: list[Problem]):
        self.path = path
        self.problems = problems
        super().__init__("\n".join(p.format(path) for p in problems))


# ---------------------------------------------------------------- key → line

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")
_INLINE_KEY = re.compile(r"""(?:^|[{,])\s*([A-Za-z0-9_-]+|"[^"]*"|'[^']*')\s*=""")


def _split_key(text: str) -> tuple[str, ...]:
    parts = re.findall(r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""", text)
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in parts)


class KeyLines:
    """Maps dotted key paths to the line (1-based) where they are written."""

    def __init__(self, text: str):
        self.lines: dict[tuple[str, ...], int] = {}
        table: tuple[str, ...] = ()
        for n, line in enumerate(text.splitlines(), 1):
            m = _HEADER.match(line)
            if m and not _KEY.match(line):
                table = _split_key(m.group(2))
                self.lines.setdefault(table, n)
                continue
            m = _KEY.match(line)
            if not m:
                continue
            path = table + _split_key(m.group(1))
            self.lines.setdefault(path, n)
            rest = line[m.end():]
            brace = rest.find("{")
            if brace >= 0:
                for k in _INLINE_KEY.findall(rest[brace:]):
                    self.lines.setdefault(path + _split_key(k), n)

    def line(self, *path: str) -> int | None:
        while path:
            n = self.lines.get(path)
            if n is not None:
                return n
            path = path[:-1]
        return None
