"""The JSON API under /api/: what the pages show, for scripts and other screens. Read-only."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from hub.views import GAME_IDS, STATUSES, Hub, cafe_filter, lang_of, table_view


def routes(hub: Hub) -> list[Route]:
    reader = hub.reader

    def api_tables(request: Request) -> Response:
        lang = lang_of(request)
        return JSONResponse([table_view(r, lang) for r in reader.tables(cafe_filter(request))])

    def api_games(request: Request) -> Response:
        q = request.query_params
        status = q.get("status") or None
        if status and status not in STATUSES:
            return JSONResponse({"error": f"status must be one of {', '.join(STATUSES)}"}, status_code=400)
        return JSONResponse(reader.games(q.get("cafe") or None, q.get("table") or None, q.get("game") or None, status))

    def api_game(request: Request) -> Response:
        game = reader.game(request.path_params["uid"])
        if game is None:
            return JSONResponse({"error": "no such game"}, status_code=404)
        records = reader.records(game["cafe"], game["table"], game["game_uid"])
        return JSONResponse(game | {"records": records, "verification": {"status": game["check"],
                                                                         "dispute": game["dispute"]}})

    def api_leaderboard(request: Request) -> Response:
        game = request.path_params["game"]
        if game not in GAME_IDS:
            return JSONResponse({"error": "no such game"}, status_code=404)
        return JSONResponse({"game": game, "players": hub.ingest.board(game)})

    return [
        Route("/api/tables", api_tables),
        Route("/api/games", api_games),
        Route("/api/games/{uid}", api_game),
        Route("/api/leaderboard/{game}", api_leaderboard),
    ]
