"""The JSON API under /api/: what the pages show, for scripts and other screens. Read-only.

Times: `started`/`ended` are the hub's receive times (Unix seconds), `started_local`/`ended_local` the same in
the café's zone (ISO 8601), `started_at`/`ended_at` the table's own clock as it wrote them."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from hub.owner_pages import chosen_day, evening_data, player_data
from hub.texts import lang_of
from hub.views import STATUSES, Hub, cafe_filter, game_ids, game_list, game_view, table_view


def _game_routes(hub: Hub) -> list[Route]:
    reader = hub.reader

    def api_games(request: Request) -> Response:
        q = request.query_params
        status = q.get("status") or None
        if status and status not in STATUSES:
            return JSONResponse({"error": f"status must be one of {', '.join(STATUSES)}"}, status_code=400)
        return JSONResponse(game_list(hub, status, cafe=q.get("cafe") or None, table=q.get("table") or None,
                                      game=q.get("game") or None))

    def api_game(request: Request) -> Response:
        p = request.path_params
        game = reader.game(p["cafe"], p["table"], p["uid"])
        if game is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        records = reader.records(game["cafe"], game["table"], game["game_uid"])
        return JSONResponse(game_view(game, hub) | {"records": records, "verification": {
            "status": game["check"], "dispute": game["dispute"]}})

    def api_game_by_uid(request: Request) -> Response:
        """The old address: the game when one table used this uid; 300 with the candidates when several did."""
        found = reader.games(uid=request.path_params["uid"], limit=100)
        if not found:
            return JSONResponse({"error": "no such game"}, status_code=404)
        if len(found) > 1:
            return JSONResponse({"error": "several tables used this uid", "games": [g["api"] for g in found]},
                                status_code=300)
        request.path_params.update(cafe=found[0]["cafe"], table=found[0]["table"])
        return api_game(request)

    return [Route("/api/games", api_games), Route("/api/games/{cafe}/{table}/{uid}", api_game),
            Route("/api/games/{uid}", api_game_by_uid)]


def _owner_routes(hub: Hub) -> list[Route]:
    def api_tables(request: Request) -> Response:
        lang = lang_of(request)
        return JSONResponse([table_view(r, lang, hub) for r in hub.reader.tables(cafe_filter(request))])

    def api_leaderboard(request: Request) -> Response:
        game = request.path_params["game"]
        if game not in game_ids():
            return JSONResponse({"error": "no such game"}, status_code=404)
        return JSONResponse({"game": game, "players": hub.ingest.board(game)})

    def api_player(request: Request) -> Response:
        data = player_data(hub, request.path_params["name"])
        if data is None:
            return JSONResponse({"error": "no such player"}, status_code=404)
        return JSONResponse(data)

    def api_evening(request: Request) -> Response:
        day = chosen_day(hub, request.path_params.get("day"))
        if day is None:
            return JSONResponse({"error": "a day is YYYY-MM-DD, 2000-01-01 to 2999-12-31"}, status_code=400)
        return JSONResponse(evening_data(hub, day))

    def api_announcements(request: Request) -> Response:
        """What every table of a café shows now, as this hub sent it (café → payload and when it was sent)."""
        return JSONResponse(hub.current_announcements())

    return [Route("/api/tables", api_tables), Route("/api/leaderboard/{game}", api_leaderboard),
            Route("/api/announcements", api_announcements),
            Route("/api/players/{name:path}", api_player), Route("/api/evening", api_evening),
            Route("/api/evening/{day}", api_evening)]


def routes(hub: Hub) -> list[Route]:
    return [*_game_routes(hub), *_owner_routes(hub)]
