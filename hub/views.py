"""What every page of the hub shares: the running hub's parts, the reader's language, tables and moves in words,
and rendering a template with the page's language and the words it needs."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.templating import Jinja2Templates

from hub import charts, formats
from hub.describe import describe, verdict
from hub.evenings.model import TableOutcome
from hub.ingest import Ingest
from hub.live import Broadcaster
from hub.queries import Reader
from hub.standings import RatingHistory
from hub.texts import LANGUAGES, N_, lang_of, tr
from referee import games as referee_games
from referee.ranking import TASKS

if TYPE_CHECKING:  # made by the service when the hub runs club nights / pairs tables (hub.service)
    from hub.evenings.desk import Desk
    from hub.handover import Handover

HERE = Path(__file__).resolve().parent
def game_ids() -> tuple[str, ...]:
    """Every game the hub knows, in menu order: asked of the registry each time (a game registered later too)."""
    return tuple(referee_games.ids())
FINAL = ("playing", "finished", "abandoned", "left", "voided")  # how a game ended (`final_status`)
STATUSES = (*FINAL, "verified", "disputed", "pending")  # the games filter: how it ended, or its check

Announce = Callable[[str, dict[str, Any] | None], None]


@dataclass(frozen=True)
class Situation:
    shown: dict[tuple[str, str], str | None]
    voided: set[tuple[str, str, str]]


def final_status(game: dict[str, Any], situation: Situation) -> str:
    """How a game ended: finished or abandoned (its end record), voided (a club night's desk had it played
    again), left (no end, and its table, online, shows something else: the players left it; resuming it makes
    it playing again), or still playing."""
    key = (game["cafe"], game["table"])
    if (*key, game["game_uid"]) in situation.voided:
        return "voided"
    if game["status"] != "playing":
        return str(game["status"])
    shown = situation.shown.get(key)  # "" an online table showing no game, None offline or never reported
    return "playing" if shown is None or shown == game["game_uid"] else "left"


@dataclass
class Hub:
    """What the pages need of the running hub."""

    reader: Reader
    ingest: Ingest
    broadcaster: Broadcaster
    announce: Announce
    cafe: str  # the café this hub serves, or "+" for a central hub of several
    staff_hash: str | None
    timezone: str = "Europe/Berlin"  # the café's: pages show the hub's receive times in it
    table_names: dict[str, str] = field(default_factory=dict)  # "t1" or "cafe/t1" → "Fenster"
    announcements: dict[str, dict[str, Any]] = field(default_factory=dict)  # café → the last one sent
    ratings_over_time: RatingHistory = field(default_factory=RatingHistory)
    evenings: Desk | None = None  # club nights, when the hub runs them
    health: Callable[[], dict[str, Any]] = dict  # the running hub's state (hub.service), for /api/health
    handover: Handover | None = None  # pairing without a shell, when the hub pairs tables
    unlock_file: Path | None = None  # `referee-hub unlock` touches it: the staff login's delays are cleared

    def __post_init__(self) -> None:
        self.zone = ZoneInfo(self.timezone)
        send = self.announce

        def announce_and_keep(cafe: str, payload: dict[str, Any] | None) -> None:
            send(cafe, payload)
            self.heard_announcement(cafe, payload)

        self.announce = announce_and_keep

    def heard_announcement(self, cafe: str, payload: dict[str, Any] | None) -> None:
        """The café's announcement as the broker holds it (retained): what this hub sent, and after a restart
        what the tables still show. Replaced as a whole, never changed in place, because the MQTT thread
        writes it while the web server reads it."""
        kept = dict(self.announcements)
        if payload is None:
            kept.pop(cafe, None)
        else:
            kept[cafe] = payload | {"sent": time.time()}
        self.announcements = kept

    def table_name(self, cafe: str, table: str) -> str:
        """The name the owner gave a table in the hub's config ("Fenster"), or ""."""
        return self.table_names.get(f"{cafe}/{table}") or self.table_names.get(table) or ""

    def known_tables(self, cafe: str) -> list[str]:
        """A café's tables as the club nights' desk offers them: those that reported and those the config names."""
        seen = [row["table"] for row in self.reader.tables(cafe)]
        named = [key.rpartition("/")[2] for key in self.table_names if key.startswith(f"{cafe}/") or "/" not in key]
        return sorted(set(seen) | set(named))

    def situation(self) -> Situation:
        """What the final status of games needs, read once per page: each table's game on screen (None while
        offline: a game may go on there unseen) and the games a club night's desk voided."""
        shown: dict[tuple[str, str], str | None] = {}
        for row in self.reader.tables():
            shown[(row["cafe"], row["table"])] = (row["status"].get("game_uid") or "") if row["online"] else None
        voided = self.evenings.voided() if self.evenings is not None else set()
        return Situation(shown, voided)

    def current_announcements(self) -> dict[str, dict[str, Any]]:
        """The announcements this hub sent that are still showing (not cleared, `until` not passed)."""
        now = dt.datetime.now(dt.UTC)
        return {cafe: a for cafe, a in self.announcements.items()
                if not a.get("until") or dt.datetime.fromisoformat(a["until"]) > now}


def numbers(game: dict[str, Any] | TableOutcome) -> tuple[str, dict[str, Any]]:
    """What a game's result shows beside each name, by what the game ranks by: the tasks laid (Profi-Sort's
    beginner game, whose penalty scores are all 0), else its scores. A game row (dict) or a club table."""
    def get(key: str) -> Any:
        return game.get(key) if isinstance(game, dict) else getattr(game, key, None)

    if get("kind") == TASKS and get("ranked"):
        return N_("Tasks laid"), dict(get("ranked"))
    return N_("Scores"), dict(get("scores") or {})


def game_title(game_id: str | None) -> str:
    cls = referee_games.GAMES.get(game_id or "")
    return cls.title if cls else (game_id or "")


def not_found(request: Request, text: str, status_code: int = 404) -> Response:
    """A plain answer for a page that does not exist (or a bad day), in the reader's language."""
    return PlainTextResponse(tr(text, lang_of(request)), status_code=status_code)


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


def table_view(row: dict[str, Any], lang: str, hub: Hub | None = None) -> dict[str, Any]:
    """A table as the overview card and /api/tables show it: its game now, its last move, the last game it
    finished (winners and a link)."""
    status = row["status"]
    last = row.get("last")
    return {
        "cafe": row["cafe"], "table": row["table"], "online": row["online"],
        "name": hub.table_name(row["cafe"], row["table"]) if hub else "", "last_game": row.get("last_game"),
        "screen": status.get("screen"), "game": status.get("game"), "game_title": game_title(status.get("game")),
        "game_uid": status.get("game_uid"), "players": status.get("players") or [], "turn": status.get("turn"),
        "scores": status.get("scores") or {}, "finished": bool(status.get("finished")), "n": status.get("n"),
        "last": None if last is None else {"n": last.get("n"), "ok": (last.get("answer") or {}).get("ok"),
                                           "text": describe(last.get("event"), lang),
                                           "verdict": verdict(last.get("answer"), lang, last.get("event"))},
        "last_received": row.get("last_received"), "seen": row.get("seen"),
    }


def _clock_seconds(at: str | None) -> float | None:
    try:
        return dt.datetime.fromisoformat(at).timestamp() if at else None
    except ValueError:
        return None


def game_view(game: dict[str, Any], hub: Hub, situation: Situation | None = None) -> dict[str, Any]:
    """A game as the pages and the API show it: the table's name, the hub's receive times in the café's zone
    (ISO), and its length. The length is the table's own clock from start to end (a wrong clock is off by the
    same at both ends), else the hub's receive times."""
    start, end = _clock_seconds(game["started_at"]), _clock_seconds(game["ended_at"])
    length = end - start if start is not None and end is not None and end >= start else None
    if length is None and game["started"] is not None and game["ended"] is not None:
        length = game["ended"] - game["started"]

    def iso(received: float | None) -> str | None:
        return None if received is None else formats.local(received, hub.zone).isoformat(timespec="seconds")

    return game | {"table_name": hub.table_name(game["cafe"], game["table"]), "length_s": length,
                   "started_local": iso(game["started"]), "ended_local": iso(game["ended"]),
                   "final": final_status(game, situation or hub.situation())}


def game_list(hub: Hub, status: str | None, **query: Any) -> list[dict[str, Any]]:
    """Games as the list and the API show them; `status` filters by how they ended (left and voided are known
    only beside the tables' screens and the desk) or by their check."""
    situation = hub.situation()
    stored = status if status not in ("left", "voided", "playing") else None
    found = hub.reader.games(status=stored, **query)
    games = [game_view(g, hub, situation) for g in found]
    return [g for g in games if g["final"] == status] if status in FINAL and stored is None else games


class Pages:
    """Renders the Jinja2 templates with the reader's language and what every page shows."""

    def __init__(self, hub: Hub):
        self.hub = hub
        # one look: the café pages and the club nights' pages from one set of templates and components
        self.templates = Jinja2Templates(directory=[str(HERE / "templates"), str(HERE / "evenings" / "templates")])

    def render(self, request: Request, name: str, **context: Any) -> Response:
        lang = lang_of(request)
        hub = self.hub
        context |= {"lang": lang, "t": lambda text, **v: tr(text, lang, **v), "game_title": game_title,
                    "numbers": numbers, "game_ids": game_ids(), "staff": bool(request.session.get("staff")),
                    "now": time.time(),
                    "path": request.url.path, "cafe": hub.cafe, "languages": LANGUAGES,
                    "num": lambda value, places=1, trim=False: formats.number(value, lang, places, trim=trim),
                    "when": lambda received: formats.when(received, hub.zone, lang),
                    "clock": lambda at: formats.clock_text(at, hub.zone, lang), "length": formats.duration,
                    "table_name": hub.table_name, "club": hub.evenings is not None,
                    "announcements": hub.current_announcements(),
                    "chart": lambda ratings, title: charts.rating_chart(ratings, {
                        "games": tr("Games played", lang), "rating": tr("Rating", lang),
                        "title": tr("Rating over time", lang) + ": " + title},
                        lambda v: formats.number(v, lang, 1, trim=True)),
                    "broker_up": hub.health().get("broker", {}).get("connected", True)}
        response = self.templates.TemplateResponse(request, name, context)
        if request.query_params.get("lang") in LANGUAGES:
            response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
        return response


def cafe_filter(request: Request) -> str | None:
    return request.query_params.get("cafe") or None
