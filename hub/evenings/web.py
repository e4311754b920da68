"""The club nights' web pages: the staff desk (behind the staff login), the public standings (live by SSE,
fitting a phone), a full-screen TV view, a print view, CSV and JSON, and the guests' check-in page.

Its own templates (`hub/evenings/templates`); its sentences are in the hub's catalogue (`hub.texts`). The
hub's web app only adds these routes (`hub/web.py`). Staff actions run on the server's event loop thread and publish a
`{"type": "evening"}` news so open standings pages refresh.
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from hub.evenings.desk import SEATINGS, Desk, DeskError, Evening
from hub.evenings.texts import ACTION_WORDS
from hub.forms import FormError, cross_site_refusal, read_form
from hub.texts import LANGUAGES, N_, pick_language, tr
from hub.views import not_found
from referee import games as referee_games

HERE = Path(__file__).resolve().parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))


def lang_of(request: Request) -> str:
    return pick_language(request.query_params.get("lang"), request.cookies.get("lang"),
                         request.headers.get("accept-language"))


def number(value: Any, lang: str = "en") -> str:
    """A tournament number as people write it: 2, 2.5, 1.33 (German pages: 2,5; JSON and CSV keep the point)."""
    as_float = float(value)
    text = f"{as_float:.2f}".rstrip("0").rstrip(".") if as_float != int(as_float) else str(int(as_float))
    return text.replace(".", ",") if lang == "de" else text


def standings_rows(evening: Evening, lang: str = "en") -> list[dict[str, Any]]:
    return [{"rank": line.rank, "player": line.player, "points": number(line.points, lang),
             "score": number(line.score, lang), "opponents": number(line.opponents, lang), "played": line.played,
             "byes": line.byes}
            for line in evening.standings()]


def evening_json(evening: Evening) -> dict[str, Any]:
    """The whole evening: settings, entrants, rounds with each table's result, standings."""
    return {
        "evening": evening.id, "cafe": evening.cafe, "game": evening.game, "options": evening.options,
        "rounds": evening.rounds, "seating": evening.seating, "scoring": evening.scoring, "title": evening.title,
        "ended": evening.ended, "checkin_open": evening.checkin_open,
        "entrants": [{"name": e.name, "from_round": e.joined, "dropped_from": e.dropped, "via": e.via}
                     for e in evening.entrants.values()],
        "played": [{"round": r.number, "closed": r.closed, "byes": list(r.byes),
                    "tables": [{"table": t.table, "players": list(t.players), "dealer": t.dealer, "state": t.state,
                                "counts": t.counts, "game_uid": t.game_uid, "scores": t.scores,
                                "winners": t.winners, "note": t.note} for t in r.tables]} for r in evening.played],
        "standings": standings_rows(evening),
    }


def standings_csv(evening: Evening) -> str:
    """The standings, then every table of every round, as a spreadsheet reads them."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "player", "points", "score_sum", "opponents_points", "games", "byes"])
    for row in standings_rows(evening):
        writer.writerow([row["rank"], _cell(row["player"]), row["points"], row["score"], row["opponents"],
                         row["played"], row["byes"]])
    writer.writerow([])
    writer.writerow(["round", "table", "players", "state", "scores", "winners", "note"])
    for r in evening.played:
        for t in r.tables:
            writer.writerow([r.number, t.table, _cell(" / ".join(t.players)), t.state,
                             _cell(" / ".join(f"{p} {v}" for p, v in (t.scores or {}).items())),
                             _cell(" / ".join(t.winners)), _cell(t.note)])
    return out.getvalue()


def needs_staff(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """Logged-in staff only (the hub's server-side session), and a POST only from the hub's own pages."""
    async def guarded(request: Request) -> Response:
        if not request.session.get("staff"):
            return RedirectResponse("/staff", status_code=303)
        if request.method == "POST" and (refusal := cross_site_refusal(request)) is not None:
            return refusal
        return await handler(request)
    return guarded


class EveningPages:
    """The pages over the desk; `reader` is the hub's store reader (known players, the tables' live status)."""

    def __init__(self, desk: Desk, broadcaster: Any, reader: Any, cafe: str):
        self.desk, self.broadcaster, self.reader, self.cafe = desk, broadcaster, reader, cafe

    def render(self, request: Request, name: str, **context: Any) -> Response:
        lang = lang_of(request)
        context |= {"lang": lang, "t": lambda text: tr(text, lang), "languages": LANGUAGES, "now": time.time(),
                    "staff": bool(request.session.get("staff")), "path": request.url.path,
                    "game_title": lambda g: getattr(referee_games.get(g), "title", g),
                    "action_words": ACTION_WORDS}
        response = TEMPLATES.TemplateResponse(request, name, context)
        if request.query_params.get("lang") in LANGUAGES:
            response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
        return response

    def find(self, request: Request) -> Evening | None:
        try:
            return self.desk.evening(request.path_params["evening"])
        except KeyError:
            return None

    def changed(self, evening_id: str) -> None:
        self.broadcaster.publish({"type": "evening", "evening": evening_id})

    # ---------------------------------------------------------------- guests

    def index(self, request: Request) -> Response:
        return self.render(request, "evenings.html", evenings=[self.desk.evening(i) for i in self.desk.ids()])

    def page(self, request: Request) -> Response:
        evening = self.find(request)
        if evening is None:
            return not_found(request, "No such club night.")
        view = request.query_params.get("view", "")
        template = {"tv": "evening_tv.html", "print": "evening_print.html"}.get(view, "evening.html")
        join_url = str(request.url_for("club-join", evening=evening.id))
        qr = segno.make(join_url, error="m").svg_inline(scale=4, dark="#000", light="#fff")
        return self.render(request, template, evening=evening, rows=standings_rows(evening, lang_of(request)),
                           qr=qr, join_url=join_url)

    def as_json(self, request: Request) -> Response:
        evening = self.find(request)
        if evening is None:
            return not_found(request, "No such club night.")
        return JSONResponse(evening_json(evening))

    def as_csv(self, request: Request) -> Response:
        evening = self.find(request)
        if evening is None:
            return not_found(request, "No such club night.")
        return Response(standings_csv(evening), media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": f'attachment; filename="{evening.id}.csv"'})

    async def join(self, request: Request) -> Response:
        evening = self.find(request)
        if evening is None:
            return not_found(request, "No such club night.")
        message, status = "", 200
        if request.method == "POST":
            refusal = cross_site_refusal(request)  # a page elsewhere cannot check guests in through their phones
            if refusal is not None:
                return refusal
            address = request.client.host if request.client else ""
            try:
                form = await read_form(request)
                self.desk.check_in(evening.id, form.get("name", ""), via="guest", address=address)
                message = N_("You are checked in.")
                self.changed(evening.id)
            except (DeskError, FormError):
                message = N_("Check-in is closed.") if not evening.checkin_open else \
                    N_("That did not work: the name is taken, or too many names came from this device.")
                status = 400
            evening = self.desk.evening(evening.id)
        response = self.render(request, "join.html", evening=evening, message=message)
        response.status_code = status
        return response

    async def events(self, request: Request) -> Response:
        evening_id = request.path_params["evening"]
        try:
            cafe = self.desk.evening(evening_id).cafe
        except KeyError:
            return not_found(request, "No such club night.")

        def wants(news: dict[str, Any]) -> bool:
            if news.get("type") == "evening":
                return news.get("evening") == evening_id
            return news.get("cafe") == cafe and (news.get("type") == "game" or news.get("kind") == "start")

        return StreamingResponse(self.broadcaster.stream(wants, lambda news: {"refresh": True}),
                                 media_type="text/event-stream",
                                 headers={"cache-control": "no-cache", "x-accel-buffering": "no"})

    # ---------------------------------------------------------------- staff

    async def staff_index(self, request: Request) -> Response:
        message, status = "", 200
        if request.method == "POST":
            try:
                form = await read_form(request)
                evening = self.desk.create(
                    str(form.get("evening", "")).strip(), cafe=str(form.get("cafe", "")),
                    game=str(form.get("game", "")), rounds=int(str(form.get("rounds", "0")) or 0),
                    tables=str(form.get("tables", "")).split(), seating=str(form.get("seating", "")),
                    scoring=str(form.get("scoring", "")),
                    title={"de": str(form.get("title_de", "")).strip(), "en": str(form.get("title_en", "")).strip()})
                return RedirectResponse(f"/staff/club/{evening.id}", status_code=303)
            except (DeskError, ValueError):  # a FormError is a ValueError
                message, status = N_("Not possible now."), 400
        response = self.render(request, "staff_evenings.html",
                               evenings=[self.desk.evening(i) for i in self.desk.ids()],
                               games=referee_games.all_games(), seatings=SEATINGS, message=message,
                               cafe=self.cafe if self.cafe != "+" else "")
        response.status_code = status
        return response

    async def staff_evening(self, request: Request) -> Response:
        evening = self.find(request)
        if evening is None:
            return not_found(request, "No such club night.")
        message, status = "", 200
        if request.method == "POST":
            try:
                _act(self.desk, evening.id, await read_form(request))
                message = N_("Done.")
                self.changed(evening.id)
            except (DeskError, ValueError, KeyError):
                message, status = N_("Not possible now."), 400
            evening = self.desk.evening(evening.id)
        live = {row["table"]: row for row in self.reader.tables(evening.cafe)}
        rows = standings_rows(evening, lang_of(request))
        response = self.render(request, "staff_evening.html", evening=evening, rows=rows,
                               known=[p for p in self.reader.players() if p not in evening.entrants],
                               message=message, live=live)
        response.status_code = status
        return response


def routes(desk: Desk, broadcaster: Any, reader: Any, cafe: str) -> list[Route]:
    """The club nights' routes over the desk (`EveningPages`)."""
    pages = EveningPages(desk, broadcaster, reader, cafe)
    return [
        Route("/club-nights", pages.index),
        Route("/club/{evening}.json", pages.as_json),  # before the page: its {evening} would take "x.json" too
        Route("/club/{evening}.csv", pages.as_csv),
        Route("/club/{evening}", pages.page),
        Route("/club/{evening}/join", pages.join, methods=["GET", "POST"], name="club-join"),
        Route("/club/{evening}/events", pages.events),
        Route("/staff/club-nights", needs_staff(pages.staff_index), methods=["GET", "POST"]),
        Route("/staff/club/{evening}", needs_staff(pages.staff_evening), methods=["GET", "POST"]),
    ]


def _act(desk: Desk, evening_id: str, form: dict[str, str]) -> None:
    """One staff form's action on the desk."""
    action = form.get("action", "")
    name, note = form.get("name", ""), form.get("note", "")
    round_no, table = int(form.get("round") or 0), form.get("table", "")
    if action == "check_in":
        desk.check_in(evening_id, name)
    elif action == "remove":
        desk.remove(evening_id, name)
    elif action == "drop":
        desk.drop(evening_id, name)
    elif action in ("open", "close"):
        desk.set_checkin(evening_id, action == "open")
    elif action == "start":
        desk.start_round(evening_id)
    elif action == "close_round":
        desk.close_round(evening_id)
    elif action == "end":
        desk.end(evening_id)
    elif action == "undo":
        desk.undo(evening_id)
    elif action == "accept":
        desk.accept(evening_id, round_no, table, note)
    elif action == "replay":
        desk.replay(evening_id, round_no, table, note)
    elif action == "enter":
        players = desk.evening(evening_id).played[round_no - 1].tables
        seats = next(t for t in players if t.table == table).players
        places = [int(p) for p in re.split(r"[\s,;]+", form.get("places", "").strip()) if p]
        if len(places) != len(seats):
            raise DeskError("a place for every player")
        desk.enter(evening_id, round_no, table, dict(zip(seats, places, strict=True)), note)
    else:
        raise DeskError(f"no action {action!r}")


def _cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
