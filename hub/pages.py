"""The guests' pages: the café overview, a table live, finished games with downloads, leaderboards, the live
news stream (server-sent events). Read-only; everything comes from the hub's store and its news."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from hub.views import (
    GAME_IDS,
    STATUSES,
    Hub,
    Pages,
    cafe_filter,
    dispute_words,
    game_title,
    lang_of,
    table_view,
    with_words,
)


def routes(hub: Hub, pages: Pages) -> list[Route]:
    reader = hub.reader

    def overview(request: Request) -> Response:
        lang = lang_of(request)
        cafe = cafe_filter(request)
        tables = [table_view(r, lang) for r in reader.tables(cafe)]
        return pages.render(request, "overview.html", tables=tables, cafes=reader.cafes(), selected_cafe=cafe)

    def table_page(request: Request) -> Response:
        lang = lang_of(request)
        cafe, table = request.path_params["cafe"], request.path_params["table"]
        row = reader.table(cafe, table)
        if row is None:
            return PlainTextResponse("no such table", status_code=404)
        view = table_view(row, lang)
        moves = []
        if view["game_uid"]:
            moves = [with_words(r, lang) for r in reader.records(cafe, table, view["game_uid"])
                     if r.get("kind") == "event"]
        return pages.render(request, "table.html", table=view, moves=moves)

    def games_page(request: Request) -> Response:
        q = request.query_params
        chosen = {k: q.get(k) or "" for k in ("cafe", "table", "game", "status")}
        found = reader.games(chosen["cafe"] or None, chosen["table"] or None, chosen["game"] or None,
                             chosen["status"] or None)
        return pages.render(request, "games.html", games=found, chosen=chosen, statuses=STATUSES, cafes=reader.cafes())

    def game_page(request: Request) -> Response:
        lang = lang_of(request)
        game = reader.game(request.path_params["uid"])
        if game is None:
            return PlainTextResponse("no such game", status_code=404)
        records = [with_words(r, lang) for r in reader.records(game["cafe"], game["table"], game["game_uid"])]
        dispute = game["dispute"] or {}
        return pages.render(request, "game.html", game=game, records=records,
                            said_words=dispute_words(dispute.get("said") or {}, lang),
                            says_words=dispute_words(dispute.get("says") or {}, lang))

    def transcript(request: Request) -> Response:
        game = reader.game(request.path_params["uid"])
        if game is None:
            return PlainTextResponse("no such game", status_code=404)
        records = reader.records(game["cafe"], game["table"], game["game_uid"])
        lines = [json.dumps(r["header"], ensure_ascii=False) for r in records if r.get("kind") == "start"]
        lines += [json.dumps(r.get("event"), ensure_ascii=False) for r in records if r.get("kind") == "event"]
        name = f"{game['cafe']}-{game['table']}-{game['game_uid']}.jsonl"
        return Response("\n".join(lines) + "\n", media_type="application/x-ndjson",
                        headers={"content-disposition": f'attachment; filename="{name}"'})

    def games_csv(request: Request) -> Response:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["game_uid", "cafe", "table", "game", "players", "status", "check", "winners", "scores",
                         "started_at", "ended_at"])
        for g in reader.games(limit=1_000_000):
            writer.writerow([g["game_uid"], g["cafe"], g["table"], g["game"], " / ".join(g["players"]), g["status"],
                             g["check"], " / ".join(g["winners"]), json.dumps(g["scores"], ensure_ascii=False),
                             g["started_at"], g["ended_at"] or ""])
        return Response(out.getvalue(), media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": 'attachment; filename="games.csv"'})

    def leaderboard(request: Request) -> Response:
        game = request.path_params.get("game") or GAME_IDS[0]
        if game not in GAME_IDS:
            return PlainTextResponse("no such game", status_code=404)
        return pages.render(request, "leaderboard.html", game=game, board=hub.ingest.board(game))

    async def events(request: Request) -> Response:
        lang = lang_of(request)
        cafe, table = request.query_params.get("cafe"), request.query_params.get("table")

        def wants(news: dict[str, Any]) -> bool:
            return (not cafe or news.get("cafe") == cafe) and (not table or news.get("table") == table)

        def render(news: dict[str, Any]) -> dict[str, Any]:
            out = dict(news)
            for key in ("text", "verdict"):
                if isinstance(out.get(key), dict):
                    out[key] = out[key][lang]
            if out.get("type") == "status":
                out["game_title"] = game_title(out["status"].get("game"))
            return out

        return StreamingResponse(hub.broadcaster.stream(wants, render), media_type="text/event-stream",
                                 headers={"cache-control": "no-cache", "x-accel-buffering": "no"})

    return [
        Route("/", overview),
        Route("/table/{cafe}/{table}", table_page),
        Route("/games", games_page),
        Route("/games.csv", games_csv),
        Route("/games/{uid}.jsonl", transcript),
        Route("/games/{uid}", game_page),
        Route("/leaderboard", leaderboard),
        Route("/leaderboard/{game}", leaderboard),
        Route("/events", events),
    ]
