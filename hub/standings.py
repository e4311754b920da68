"""What the owner looks up about players: one player's games and rating over time, and an evening's standings.

Both are read from the games the reader returns, through the staff's merges (an alias counts as its name), so
they agree with the leaderboards. The rating history folds the verified finished games in the order they ended,
as the leaderboards do (`hub.ratings`), and notes the player's rating after each of their games.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Any

from hub.identities import named
from hub.queries import Reader
from hub.ratings import Ladder, Result, canonical


def spellings(name: str, aliases: Mapping[str, str]) -> list[str]:
    """Every name that counts as `name`: itself and the spellings merged into it."""
    return sorted({name, *(a for a in aliases if canonical(a, aliases) == name)}, key=str.casefold)


class RatingHistory:
    """Every player's rating after each of their verified finished games, folded as the leaderboards fold them
    and kept between page views: a view folds only the games verified since the last one. A merge, or a game
    verified late that sorts before the last one folded, starts the fold again from the first game."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reset({})

    def _reset(self, aliases: Mapping[str, str]) -> None:
        self.aliases = dict(aliases)
        self.ladder = Ladder(aliases)
        self.last: tuple[float, str] | None = None
        self.folded = 0
        self.history: dict[str, list[dict[str, Any]]] = {}

    def of(self, reader: Reader, name: str) -> list[dict[str, Any]]:
        with self._lock:
            aliases = reader.aliases()
            if aliases != self.aliases or (self.last is not None and reader.verified_up_to(self.last) != self.folded):
                self._reset(aliases)
            for game in reader.verified_after(self.last):
                self._fold(game)
            return list(self.history.get(name, []))

    def _fold(self, game: dict[str, Any]) -> None:
        names = {canonical(p, self.aliases) for p in game["players"]}
        played = {n: s.played for n, s in self.ladder.games.get(game["game"], {}).items() if n in names}
        self.ladder.add(Result(game["game"], game["players"], game["scores"], game["winners"], game["guests"],
                               game["kind"], game["ranked"]))
        self.last, self.folded = (game["ended"], game["game_uid"]), self.folded + 1
        board = self.ladder.games.get(game["game"], {})
        for name in names:  # a game that seats one person twice after a merge is not rated: nobody moved
            standing = board.get(name)
            if standing is not None and standing.played > played.get(name, 0):
                self.history.setdefault(name, []).append({
                    "game": game["game"], "game_uid": game["game_uid"], "cafe": game["cafe"],
                    "table": game["table"], "url": game["url"], "ended": game["ended"],
                    "rating": round(standing.rating, 2), "played": standing.played})


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
        for seat in named(game["players"], game.get("guests", ())):  # a guest's default name is nobody's
            name = canonical(seat, aliases)
            row = rows.setdefault(name, {"player": name, "played": 0, "wins": 0})
            row["played"] += 1
            row["wins"] += name in winners
    return [{"game": kind, "players": sorted(rows.values(), key=lambda r: (-r["wins"], r["played"],
                                                                           r["player"].casefold()))}
            for kind, rows in sorted(kinds.items())]
