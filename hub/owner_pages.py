"""What the owner looks up: a page per player (games, results, rating over time), the standings of an evening
(a café day), and a print view for the wall (the evening's standings, the leaderboards, the QR code)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from hub import formats, standings
from hub.identities import is_guest_name
from hub.ratings import canonical
from hub.views import Hub, Pages, game_ids, game_view, not_found

PRINT_TOP = 10  # players per leaderboard on the printed sheet


def player_data(hub: Hub, name: str) -> dict[str, Any] | None:
    """One player (through the merges) for the page and the API; None when nobody of that name played."""
    reader = hub.reader
    if is_guest_name(name):  # a seat's default name is nobody's: no page, no rating
        return None
    aliases = reader.aliases()
    name = canonical(name, aliases)
    names = standings.spellings(name, aliases)
    games = reader.games(players=names, limit=1000)
    if not games:
        return None
    situation = hub.situation()
    rows = [game_view(g, hub, situation) | {"result": standings.result_of(name, g, aliases)} for g in games]
    history = hub.ratings_over_time.of(reader, name)
    return {"player": name, "spellings": names, "games": rows, "ratings": history,
            "boards": {g: next((s for s in hub.ingest.board(g) if s["player"] == name), None) for g in game_ids()}}


FIRST_DAY, LAST_DAY = dt.date(2000, 1, 1), dt.date(2999, 12, 31)  # a café day outside them is no evening of ours


def chosen_day(hub: Hub, text: str | None) -> dt.date | None:
    """The café day asked for (YYYY-MM-DD), today's by default; None for a malformed one or one outside
    FIRST_DAY–LAST_DAY (the day before 0001-01-01 or after 9999-12-31 is no date at all)."""
    if not text:
        return formats.cafe_day(dt.datetime.now(dt.UTC).timestamp(), hub.zone)
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        return None
    return day if FIRST_DAY <= day <= LAST_DAY else None


def evening_data(hub: Hub, day: dt.date) -> dict[str, Any]:
    games = hub.reader.games(received=formats.day_bounds(day, hub.zone), limit=10_000)
    return {"day": day.isoformat(), "games": len(games),
            "standings": standings.evening(games, hub.reader.aliases()),
            "previous": (day - dt.timedelta(days=1)).isoformat(), "next": (day + dt.timedelta(days=1)).isoformat()}


def routes(hub: Hub, pages: Pages) -> list[Route]:
    def player_page(request: Request) -> Response:
        data = player_data(hub, request.path_params["name"])
        if data is None:
            return not_found(request, "No such player.")
        return pages.render(request, "player.html", p=data)

    def evening_page(request: Request) -> Response:
        day = chosen_day(hub, request.path_params.get("day"))
        if day is None:
            return not_found(request, "A day is written YYYY-MM-DD.", 400)
        return pages.render(request, "evening.html", e=evening_data(hub, day), day=day, fmt_date=formats.date)

    def print_page(request: Request) -> Response:
        day = chosen_day(hub, request.query_params.get("day"))
        if day is None:
            return not_found(request, "A day is written YYYY-MM-DD.", 400)
        boards = {g: hub.ingest.board(g)[:PRINT_TOP] for g in game_ids()}
        return pages.render(request, "print.html", e=evening_data(hub, day), day=day, fmt_date=formats.date,
                            boards=boards, overview=str(request.url_for("overview_page")))

    return [
        Route("/players/{name:path}", player_page),
        Route("/evening", evening_page),
        Route("/evening/{day}", evening_page),
        Route("/print", print_page),
    ]
