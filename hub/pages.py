"""The guests' pages: the café overview, a table live, leaderboards, the live news stream (server-sent events).
Read-only; everything comes from the hub's store and its news. Finished games are in `hub.game_pages`, the
downloads in `hub.downloads`, players and evenings in `hub.owner_pages`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from hub import downloads, game_pages, limits, owner_pages
from hub.texts import lang_of
from hub.views import Hub, Pages, cafe_filter, game_ids, game_title, not_found, table_view, with_words


def _live_routes(hub: Hub, pages: Pages) -> list[Route]:
    reader = hub.reader

    def overview(request: Request) -> Response:
        lang = lang_of(request)
        cafe = cafe_filter(request)
        tables = [table_view(r, lang, hub) for r in reader.tables(cafe)]
        return pages.render(request, "overview.html", tables=tables, cafes=reader.cafes(), selected_cafe=cafe)

    def table_page(request: Request) -> Response:
        lang = lang_of(request)
        cafe, table = request.path_params["cafe"], request.path_params["table"]
        row = reader.table(cafe, table)
        if row is None:
            return not_found(request, "No such table.")
        view = table_view(row, lang, hub)
        moves = []
        if view["game_uid"]:
            moves = [with_words(r, lang) for r in reader.records(cafe, table, view["game_uid"])
                     if r.get("kind") == "event"]
        return pages.render(request, "table.html", table=view, moves=moves)

    def leaderboard(request: Request) -> Response:
        game = request.path_params.get("game") or game_ids()[0]
        if game not in game_ids():
            return not_found(request, "No such game.")
        return pages.render(request, "leaderboard.html", game=game, board=hub.ingest.board(game))

    return [Route("/", overview, name="overview_page"), Route("/table/{cafe}/{table}", table_page),
            Route("/leaderboard", leaderboard), Route("/leaderboard/{game}", leaderboard)]


class CountedStream(StreamingResponse):
    """A live news stream that gives its place back (`hub.limits.streams`) however it ends."""

    def __init__(self, content: Any, release: Callable[[], None], **options: Any):
        super().__init__(content, **options)
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


def _events_route(hub: Hub) -> Route:
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

        address = request.client.host if request.client else "unknown"
        if not limits.streams.take(address):
            limits.refusals.warning(f"streams:{address}", "refused a live news stream to %s: %d open from it",
                                    address, limits.streams.open[address])
            return PlainTextResponse("busy\n", status_code=503, headers={"retry-after": "5", "connection": "close"})
        return CountedStream(hub.broadcaster.stream(wants, render), lambda: limits.streams.give_back(address),
                             media_type="text/event-stream",
                             headers={"cache-control": "no-cache", "x-accel-buffering": "no"})

    return Route("/events", events)


def routes(hub: Hub, pages: Pages) -> list[Route]:
    """Every guest page and download (more specific paths first: `/games/….csv` before `/games/…`)."""
    return [*_live_routes(hub, pages), *downloads.routes(hub), *game_pages.routes(hub, pages),
            *owner_pages.routes(hub, pages), _events_route(hub)]
