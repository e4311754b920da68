"""What every page of the hub shares: the running hub's parts, the reader's language, tables and moves in words,
and rendering a template with the page's language and the words it needs."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.templating import Jinja2Templates

from hub.describe import describe, verdict
from hub.ingest import Ingest
from hub.live import Broadcaster
from hub.queries import Reader
from hub.texts import LANGUAGES, pick_language, tr
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
    health: Callable[[], dict[str, Any]] = dict  # the running hub's state (hub.service), for /api/health


def game_title(game_id: str | None) -> str:
    cls = referee_games.all_games().get(game_id or "")
    return cls.title if cls else (game_id or "")


def lang_of(request: Request) -> str:
    return pick_language(request.query_params.get("lang"), request.cookies.get("lang"),
                         request.headers.get("accept-language"))


def with_words(record: dict[str, Any], lang: str) -> dict[str, Any]:
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


class Pages:
    """Renders the Jinja2 templates with the reader's language and what every page shows."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self.templates = Jinja2Templates(directory=str(HERE / "templates"))

    def render(self, request: Request, name: str, **context: Any) -> Response:
        lang = lang_of(request)
        context |= {"lang": lang, "t": lambda text, **v: tr(text, lang, **v), "game_title": game_title,
                    "game_ids": GAME_IDS, "staff": bool(request.session.get("staff")), "now": time.time(),
                    "path": request.url.path, "cafe": self.hub.cafe, "languages": LANGUAGES,
                    "broker_up": self.hub.health().get("broker", {}).get("connected", True)}
        response = self.templates.TemplateResponse(request, name, context)
        if request.query_params.get("lang") in LANGUAGES:
            response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
        return response


def cafe_filter(request: Request) -> str | None:
    return request.query_params.get("cafe") or None
