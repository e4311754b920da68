"""A club night as data to take away: JSON (the whole evening, numbers as numbers) and a spreadsheet's CSV
(`hub.downloads.spreadsheet_csv`: semicolons, a BOM, decimal commas in German, numbers unquoted)."""

from __future__ import annotations

from typing import Any

from hub import formats
from hub.evenings.model import Evening


def standings_rows(evening: Evening, lang: str | None = None) -> list[dict[str, Any]]:
    """The standings; with `lang`, numbers as that language writes them (for a page), else as numbers."""
    def shown(value: Any) -> Any:
        exact = round(float(value), 4)
        return exact if lang is None else formats.number(exact, lang, 2, trim=True)

    return [{"rank": line.rank, "player": line.player, "points": shown(line.points), "score": shown(line.score),
             "opponents": shown(line.opponents), "played": line.played, "byes": line.byes}
            for line in evening.standings()]


def evening_json(evening: Evening) -> dict[str, Any]:
    """The whole evening: settings, entrants, rounds with each table's result, standings."""
    return {
        "evening": evening.id, "cafe": evening.cafe, "game": evening.game, "options": evening.options,
        "rounds": evening.rounds, "tables": evening.tables, "seating": evening.seating, "scoring": evening.scoring,
        "title": evening.title, "created": evening.created, "ended": evening.ended,
        "checkin_open": evening.checkin_open,
        "entrants": [{"name": e.name, "from_round": e.joined, "dropped_from": e.dropped, "via": e.via}
                     for e in evening.entrants.values()],
        "played": [{"round": r.number, "closed": r.closed, "byes": list(r.byes),
                    "tables": [{"table": t.table, "players": list(t.players), "dealer": t.dealer, "state": t.state,
                                "counts": t.counts, "game_uid": t.game_uid, "scores": t.scores,
                                "winners": t.winners, "note": t.note} for t in r.tables]} for r in evening.played],
        "standings": standings_rows(evening),
    }


STANDINGS_HEADER = ["rank", "player", "points", "score_sum", "opponents_points", "games", "byes"]
ROUNDS_HEADER = ["round", "table", "seat", "player", "score", "winner", "state", "note"]


def sheet(evening: Evening) -> list[list[Any]]:
    """The standings, an empty row, then one row per player and round (numbers as numbers)."""
    rows: list[list[Any]] = [STANDINGS_HEADER]
    for row in standings_rows(evening):
        rows.append([row["rank"], row["player"], row["points"], row["score"], row["opponents"], row["played"],
                     row["byes"]])
    rows += [[], ROUNDS_HEADER]
    for r in evening.played:
        for t in r.tables:
            for seat, player in enumerate(t.players, 1):
                score = (t.scores or {}).get(player)
                rows.append([r.number, t.table, seat, player, "" if score is None else score,
                             int(player in t.winners), t.state, t.note])
    return rows
