"""The hub's web pages and JSON API (Starlette on uvicorn).

Why Starlette: a small, well-kept ASGI toolkit (routing, Jinja2 templates, sessions,
streaming responses for server-sent events, static files) without an ORM or a
framework's own project layout; the pages are server-rendered HTML that work without
JavaScript, and a few lines of JavaScript keep them live over SSE. uvicorn is the
ASGI server Starlette is tested with. Guests only read; the staff area is behind a
password whose scrypt hash sits in the hub's config. Nothing of the broker is exposed.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from hub.auth import check_password
from hub.describe import describe, verdict
from hub.ingest import Ingest
from hub.live import Broadcaster
from hub.queries import Reader
from hub.texts import LANGUAGES, pick_language, tr
from hub.topics import announce_payload
from referee import games as referee_games

HERE = Path(__file__).resolve().parent
GAME_IDS = tuple(referee_games.GAMES.ids())
STATUSES = ("playing", "finished", "abandoned", "verified", "disputed", "pending")

Announce = Callable[[str, dict[str, Any] | None], None]


@dataclass
class Hub:
    """What the pages need of the running hub."""

    reader: Reader
    ingest: Ingest
    broadcaster: Broadcaster
    announce: Announce
    cafe: str  # the café this hub serves, or "+" for a central hub of several
    staff_hash: str | None


def game_title(game_id: str | None) -> str:
    cls = referee_games.all_games().get(game_id or "")
    return cls.title if cls else (game_id or "")


def lang_of(request: Request) -> str:
    return pick_language(request.query_params.get("lang"), request.cookies.get("lang"),
                         request.headers.get("accept-language"))


def _with_words(record: dict[str, Any], lang: str) -> dict[str, Any]:
    if record.get("kind") == "event":
        event = record.get("event")
        return record | {"text": describe(event, lang), "verdict": verdict(record.get("answer"), lang, event)}
    return record


def dispute_words(answer: dict[str, Any], lang: str) -> str:
    """One side of a dispute in words: a move's verdict, or the final scores and winners."""
    if "scores" in answer:
        scores = ", ".join(f"{p} {v}" for p, v in (answer.get("scores") or {}).items())
        return f"{scores} · {tr('Winners', lang)}: {', '.join(answer.get('winners') or [])}"
    return verdict(answer, lang)


def table_view(row: dict[str, Any], lang: str) -> dict[str, Any]:
    """A table as the overview card and /api/tables show it."""
    status = row["status"]
    last = row.get("last")
    return {
        "cafe": row["cafe"], "table": row["table"], "online": row["online"],
        "screen": status.get("screen"), "game": status.get("game"), "game_title": game_title(status.get("game")),
        "game_uid": status.get("game_uid"), "players": status.get("players") or [], "turn": status.get("turn"),
        "scores": status.get("scores") or {}, "finished": bool(status.get("finished")), "n": status.get("n"),
        "last": None if last is None else {"n": last.get("n"), "ok": (last.get("answer") or {}).get("ok"),
                                           "text": describe(last.get("event"), lang),
                                           "verdict": verdict(last.get("answer"), lang, last.get("event"))},
        "last_received": row.get("last_received"), "seen": row.get("seen"),
    }


def create_app(hub: Hub, secret_key: str) -> Starlette:
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    reader = hub.reader

    def page(request: Request, name: str, **context: Any) -> Response:
        lang = lang_of(request)
        context |= {"lang": lang, "t": lambda text, **v: tr(text, lang, **v), "game_title": game_title,
                    "game_ids": GAME_IDS, "staff": bool(request.session.get("staff")), "now": time.time(),
                    "path": request.url.path, "cafe": hub.cafe, "languages": LANGUAGES}
        response = templates.TemplateResponse(request, name, context)
        if request.query_params.get("lang") in LANGUAGES:
            response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
        return response

    def cafe_filter(request: Request) -> str | None:
        return request.query_params.get("cafe") or None

    # ------------------------------------------------------------------ guests' pages

    def overview(request: Request) -> Response:
        lang = lang_of(request)
        cafe = cafe_filter(request)
        tables = [table_view(r, lang) for r in reader.tables(cafe)]
        return page(request, "overview.html", tables=tables, cafes=reader.cafes(), selected_cafe=cafe)

    def table_page(request: Request) -> Response:
        lang = lang_of(request)
        cafe, table = request.path_params["cafe"], request.path_params["table"]
        row = reader.table(cafe, table)
        if row is None:
            return PlainTextResponse("no such table", status_code=404)
        view = table_view(row, lang)
        moves = []
        if view["game_uid"]:
            moves = [_with_words(r, lang) for r in reader.records(cafe, table, view["game_uid"])
                     if r.get("kind") == "event"]
        return page(request, "table.html", table=view, moves=moves)

    def games_page(request: Request) -> Response:
        q = request.query_params
        chosen = {k: q.get(k) or "" for k in ("cafe", "table", "game", "status")}
        found = reader.games(chosen["cafe"] or None, chosen["table"] or None, chosen["game"] or None,
                             chosen["status"] or None)
        return page(request, "games.html", games=found, chosen=chosen, statuses=STATUSES, cafes=reader.cafes())

    def game_page(request: Request) -> Response:
        lang = lang_of(request)
        game = reader.game(request.path_params["uid"])
        if game is None:
            return PlainTextResponse("no such game", status_code=404)
        records = [_with_words(r, lang) for r in reader.records(game["cafe"], game["table"], game["game_uid"])]
        dispute = game["dispute"] or {}
        return page(request, "game.html", game=game, records=records,
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
        return page(request, "leaderboard.html", game=game, board=hub.ingest.board(game))

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

    # ------------------------------------------------------------------ JSON API (read-only)

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

    # ------------------------------------------------------------------ staff

    def staff_page(request: Request, message: str = "", status_code: int = 200) -> Response:
        if not request.session.get("staff"):
            response = page(request, "login.html", message=message, configured=bool(hub.staff_hash))
            response.status_code = status_code
            return response
        tables = [table_view(r, lang_of(request)) for r in reader.tables()]
        return page(request, "staff.html", message=message, tables=tables, players=reader.players(),
                    aliases=reader.aliases(), disputed=reader.games(status="disputed", limit=50),
                    cafes=reader.cafes() if hub.cafe == "+" else [hub.cafe])

    def staff_get(request: Request) -> Response:
        return staff_page(request)

    async def login(request: Request) -> Response:
        form = await request.form()
        password = str(form.get("password", ""))
        # scrypt takes tens of milliseconds: off the event loop, so no live page stalls meanwhile
        if hub.staff_hash and await run_in_threadpool(check_password, password, hub.staff_hash):
            request.session["staff"] = True
            return RedirectResponse("/staff", status_code=303)
        await asyncio.sleep(1.0)  # a guesser gets one try a second per connection
        return staff_page(request, tr("Wrong password.", lang_of(request)), status_code=401)

    def logout(request: Request) -> Response:
        request.session.clear()
        return RedirectResponse("/", status_code=303)

    def needs_staff(handler: Callable) -> Callable:
        async def guarded(request: Request) -> Response:
            if not request.session.get("staff"):
                return RedirectResponse("/staff", status_code=303)
            return await handler(request)
        return guarded

    @needs_staff
    async def announce(request: Request) -> Response:
        form = await request.form()
        lang = lang_of(request)
        cafe = str(form.get("cafe") or hub.cafe)
        if hub.cafe != "+" and cafe != hub.cafe:
            return PlainTextResponse("not this hub's café", status_code=400)
        if form.get("clear"):
            hub.announce(cafe, None)
            return staff_page(request, tr("Announcement cleared.", lang))
        de, en = str(form.get("de", "")).strip(), str(form.get("en", "")).strip()
        until = str(form.get("until", "")).strip() or None
        if not (de or en):
            return staff_page(request, "", status_code=400)
        if until:  # the form's local time, with this machine's offset as the protocol wants
            until = datetime.fromisoformat(until).astimezone().isoformat(timespec="seconds")
        hub.announce(cafe, announce_payload(de, en, until))
        return staff_page(request, tr("Announcement sent.", lang))

    @needs_staff
    async def merge(request: Request) -> Response:
        form = await request.form()
        lang = lang_of(request)
        alias, name = str(form.get("alias", "")).strip(), str(form.get("name", "")).strip()
        if not alias or not name or alias == name:
            return staff_page(request, tr("A name cannot be merged into itself.", lang), status_code=400)
        hub.ingest.merge_player(alias, name)
        return staff_page(request, tr("{alias} is now counted as {name}.", lang, alias=alias, name=name))

    def staff_table(request: Request) -> Response:
        if not request.session.get("staff"):
            return RedirectResponse("/staff", status_code=303)
        lang = lang_of(request)
        cafe, table = request.path_params["cafe"], request.path_params["table"]
        errors = [_with_words(r, lang) for r in reader.errors(cafe, table)]
        disputed = reader.games(cafe=cafe, table=table, status="disputed", limit=20)
        row = reader.table(cafe, table)
        return page(request, "staff_table.html", errors=errors, disputed=disputed,
                    table=table_view(row, lang) if row else {"cafe": cafe, "table": table})

    routes = [
        Route("/", overview),
        Route("/table/{cafe}/{table}", table_page),
        Route("/games", games_page),
        Route("/games.csv", games_csv),
        Route("/games/{uid}.jsonl", transcript),
        Route("/games/{uid}", game_page),
        Route("/leaderboard", leaderboard),
        Route("/leaderboard/{game}", leaderboard),
        Route("/events", events),
        Route("/api/tables", api_tables),
        Route("/api/games", api_games),
        Route("/api/games/{uid}", api_game),
        Route("/api/leaderboard/{game}", api_leaderboard),
        Route("/staff", staff_get),
        Route("/staff/login", login, methods=["POST"]),
        Route("/staff/logout", logout, methods=["POST"]),
        Route("/staff/announce", announce, methods=["POST"]),
        Route("/staff/merge", merge, methods=["POST"]),
        Route("/staff/table/{cafe}/{table}", staff_table),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    middleware = [Middleware(SessionMiddleware, secret_key=secret_key, session_cookie="hub_staff",
                             max_age=12 * 3600, same_site="strict")]

    @asynccontextmanager
    async def bind(app: Starlette) -> AsyncIterator[None]:
        hub.broadcaster.bind(asyncio.get_running_loop())
        yield

    return Starlette(routes=routes, middleware=middleware, lifespan=bind)
