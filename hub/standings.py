"""What the owner looks up about players: one player's games and rating over time, and an evening's standings.

Both are read from the games the reader returns, through the staff's merges (an alias counts as its name), so
they agree with the leaderboards. The rating history folds the verified finished games in the order they ended,
as the leaderboards do (`hub.ratings`), and notes the player's rating after each of their games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hub.ratings import Ladder, Result, canonical


def spellings(name: str, aliases: Mapping[str, str]) -> list[str]:
    """Every name that counts as `name`: itself and the spellings merged into it."""
    return sorted({name, *(a for a in aliases if canonical(a, aliases) == name)}, key=str.casefold)


def rating_history(name: str, verified: Iterable[dict[str, Any]], aliases: Mapping[str, str]) -> list[dict[str, Any]]:
    """The player's rating in a game's leaderboard after each of their verified finished games, oldest first."""
    ladder = Ladder(aliases)
    out: list[dict[str, Any]] = []
    for game in verified:
        ladder.add(Result(game["game"], game["players"], game["scores"] or {}, game["winners"]))
        if name not in {canonical(p, aliases) for p in game["players"]}:
            continue
        standing = ladder.games.get(game["game"], {}).get(name)
        if standing is not None:
            out.append({"game": game["game"], "game_uid": game["game_uid"], "cafe": game["cafe"],
                        "table": game["table"], "url": game["url"], "ended": game["ended"],
                        "rating": round(standing.rating, 2), "played": standing.played})
    return out


def result_of(name: str, game: dict[str, Any], aliases: Mapping[str, str]) -> dict[str, Any]:
    """How `name` did in one game: the seat's spelling, its score, won or not."""
    seat = next((p for p in game["players"] if canonical(p, aliases) == name), name)
    return {"as": seat, "score": (game["scores"] or {}).get(seat), "won": seat in game["winners"]}


def evening(games: Iterable[dict[str, Any]], aliases: Mapping[str, str]) -> list[dict[str, Any]]:
    """Per game kind, each player's finished games and wins of one evening, most wins first.

    Disputed games do not count (their result is in doubt); pending ones do, as the evening is still on."""
    kinds: dict[str, dict[str, dict[str, Any]]] = {}
    for game in games:
        if game["status"] != "finished" or game["check"] == "disputed":
            continue
        winners = {canonical(w, aliases) for w in game["winners"]}
        rows = kinds.setdefault(game["game"], {})
        for seat in game["players"]:
            name = canonical(seat, aliases)
            row = rows.setdefault(name, {"player": name, "played": 0, "wins": 0})
            row["played"] += 1
            row["wins"] += name in winners
    return [{"game": kind, "players": sorted(rows.values(), key=lambda r: (-r["wins"], r["played"],
                                                                           r["player"].casefold()))}
            for kind, rows in sorted(kinds.items())]
