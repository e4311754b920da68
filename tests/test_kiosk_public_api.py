"""The kiosk uses only the referee's public API (issue #12): no private names, no game modules' internals.

What may come next, race results and who is next come from `Referee.hints()`; the screens
never import `referee.games.*` nor a name that starts with an underscore.
"""

from __future__ import annotations

import ast
from pathlib import Path

KIOSK = Path(__file__).resolve().parent.parent / "kiosk"


def imports() -> list[tuple[str, str, str]]:
    out = []
    for path in KIOSK.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                out.extend((str(path.relative_to(KIOSK)), node.module, alias.name) for alias in node.names)
            elif isinstance(node, ast.Import):
                out.extend((str(path.relative_to(KIOSK)), alias.name, "") for alias in node.names)
    return out


def test_no_private_names_or_game_internals_from_the_referee() -> None:
    referee = [(f, m, n) for f, m, n in imports() if m == "referee" or m.startswith("referee.")]
    assert referee, "the scan found the kiosk's imports"
    private = [(f, m, n) for f, m, n in referee if n.startswith("_") or any(p.startswith("_") for p in m.split("."))]
    games = [(f, m, n) for f, m, n in referee
             if m.startswith("referee.games.") or (m == "referee.games" and n not in ("get", "all_games"))]
    assert not private, private
    assert not games, games
