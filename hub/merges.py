"""What merging two spellings of a player would change, worked out before anything changes.

A merge says: every game `alias` (and the spellings already merged into it) played counts as `name`'s. The
staff see those games and confirm; the merge is stored as an alias record that can be undone, and the ratings
are folded again from the verified games either way. Two spellings that sat at the same game are two people:
such a merge is refused, since the game could rate only one of them and a leaderboard would lose it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hub.queries import Reader
from hub.ratings import canonical
from hub.texts import N_

MAX_NAME = 100


@dataclass
class MergePlan:
    alias: str
    name: str
    games: list[dict[str, Any]] = field(default_factory=list)  # the games that change
    together: list[dict[str, Any]] = field(default_factory=list)  # games both played: the merge is refused
    problem: str = ""  # English sentence when the merge cannot be done (marked N_: the hub's catalogue has its German)


def spellings(target: str, aliases: Mapping[str, str], players: list[str]) -> set[str]:
    """Every name that counts as `target` (itself and what is merged into it)."""
    return {p for p in {*players, *aliases, target} if canonical(p, aliases) == target}


def games_of(reader: Reader, names: set[str]) -> list[dict[str, Any]]:
    """Every game one of `names` played, newest first."""
    marks = ",".join("?" * len(names))
    rows = reader.db.execute(f"SELECT uid, cafe, tbl, game, players, status, started_at FROM games WHERE EXISTS "
                             f"(SELECT 1 FROM json_each(games.players) WHERE json_each.value IN ({marks})) "
                             f"ORDER BY started_at DESC, uid", tuple(names))
    return [{"game_uid": uid, "cafe": cafe, "table": tbl, "game": game, "players": json.loads(players),
             "status": status, "started_at": started_at}
            for uid, cafe, tbl, game, players, status, started_at in rows]


def plan(reader: Reader, alias: str, name: str) -> MergePlan:
    """What merging `alias` into `name` changes, or why it cannot be done."""
    merge = MergePlan(alias, name)
    aliases, players = reader.aliases(), reader.players()
    if not alias or not name or alias == name:
        merge.problem = N_("A name cannot be merged into itself.")
    elif alias not in players or name not in players:
        merge.problem = N_("Choose two names from the list.")
    elif alias in aliases:
        merge.problem = N_("{alias} is already merged: undo that first.")
    elif canonical(name, aliases) == alias:
        merge.problem = N_("{name} is already counted as {alias}.")
    if merge.problem:
        return merge
    moving = spellings(alias, aliases, players)
    staying = spellings(canonical(name, aliases), aliases, players)
    merge.games = games_of(reader, moving)
    merge.together = [g for g in merge.games if staying & set(g["players"])]
    if merge.together:
        merge.problem = N_("{alias} and {name} played at the same game: they are two people.")
    return merge
