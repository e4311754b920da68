"""The club nights' guest pages: every evening, an evening's standings and rounds (live by SSE, fitting a phone),
a TV view (this round's seating and the standings, paging itself), a print sheet (date and QR code), CSV for
a spreadsheet and JSON, and the guests' check-in page. The staff's desk is `hub.evenings.staff`.

Rendered with the hub's one set of templates and stylesheet (`hub.views.Pages`); every sentence from the hub's
catalogue (`hub.texts`). Staff actions publish a `{"type": "evening"}` news so open pages refresh.
"""

from __future__ import annotations

from typing import Any

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from hub import formats
from hub.downloads import csv_response
from hub.evenings import staff
from hub.evenings.desk import Desk, DeskError
from hub.evenings.exports import evening_json, sheet, standings_rows
from hub.evenings.model import Evening
from hub.forms import FormError, cross_site_refusal, read_form
from hub.texts import lang_of, tr
from hub.views import Hub, Pages, not_found

TV_PAGE_S = 12  # seconds a page of the TV view stays before the next


def evening_date(evening: Evening, hub: Hub, lang: str) -> str:
    """The evening's date as the café writes it: the day its first round started (or it was created)."""
    started = next((a["at"] for a in evening.actions if a["what"] == "start_round"), evening.created)
    return formats.date(formats.cafe_day(started, hub.zone), lang)


class EveningPages:
    def __init__(self, hub: Hub, pages: Pages):
        self.hub, self.pages = hub, pages
        assert isinstance(hub.evenings, Desk)  # the routes are made only where the hub runs club nights
        self.desk = hub.evenings

    def find(self, request: Request) -> Evening | None:
        try:
            return self.desk.evening(request.path_params["evening"])
        except KeyError:
            return None

    def changed(self, evening_id: str) -> None:
        self.hub.broadcaster.publish({"type": "evening", "evening": evening_id})

    def index(self, request: Request) -> Response:
        return self.pages.render(request, "evenings.html", evenings=[self.desk.evening(i) for i in self.desk.ids()])

    def page(self, request: Request) -> Response:
        evening = self.find(request)
        if evening is None:
            return not_found(request, "No such club night.")
        lang = lang_of(request)
        view = request.query_params.get("view", "")
        template = {"tv": "evening_tv.html", "print": "evening_print.html"}.get(view, "club.html")
        join_url = str(request.url_for("club-join", evening=evening.id))
        page_url = str(request.url_for("club-page", evening=evening.id))
        qr = segno.make(join_url if view == "tv" else page_url, error="m")
        return self.pages.render(request, template, evening=evening, rows=standings_rows(evening, lang),
                                 qr=qr.svg_inline(scale=4, dark="#000", light="#fff"), join_url=join_url,
                                 page_url=page_url, date=evening_date(evening, self.hub, lang),
                                 tv_page_s=_seconds(request.query_params.get("every"), TV_PAGE_S))

    def as_json(self, request: Request) -> Response:
        evening = self.find(request)
        if evening is None:
            return not_found(request, "No such club night.")
        return JSONResponse(evening_json(evening))

    def as_csv(self, request: Request) -> Response:
        evening = self.find(request)
        if evening is None:
            return not_found(request, "No such club night.")
        return csv_response(sheet(evening), f"{evening.id}.csv", lang_of(request))

    async def join(self, request: Request) -> Response:
        evening = self.find(request)
        if evening is None:
            return not_found(request, "No such club night.")
        lang = lang_of(request)
        message, status, name = "", 200, ""
        if request.method == "POST":
            refusal = cross_site_refusal(request)  # a page elsewhere cannot check guests in through their phones
            if refusal is not None:
                return refusal
            address = request.client.host if request.client else ""
            try:
                form = await read_form(request)
                evening = self.desk.check_in(evening.id, form.get("name", ""), via="guest", address=address)
                name = list(evening.entrants)[-1]
                message = tr("{name}, you are checked in.", lang, name=name)
                self.changed(evening.id)
            except DeskError as error:
                message, status = tr(error.message, lang, **error.values), 400
            except FormError as error:
                message, status = tr(error.message, lang, **error.values), 400
        response = self.pages.render(request, "join.html", evening=evening, message=message, failed=status != 200)
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
            return news.get("cafe") == cafe and news.get("type") in ("game", "status", "record")

        return StreamingResponse(self.hub.broadcaster.stream(wants, lambda news: {"refresh": True}),
                                 media_type="text/event-stream",
                                 headers={"cache-control": "no-cache", "x-accel-buffering": "no"})


def _seconds(text: str | None, default: int) -> int:
    """`?every=` seconds a TV page stays (2 to 60), else the default."""
    return min(60, max(2, int(text))) if text and text.isdigit() else default


def routes(hub: Hub, pages: Pages) -> list[Route]:
    """The club nights' routes: the guests' pages here, the staff's desk from `hub.evenings.staff`."""
    club = EveningPages(hub, pages)
    return [
        Route("/club-nights", club.index),
        Route("/club/{evening}.json", club.as_json),  # before the page: its {evening} would take "x.json" too
        Route("/club/{evening}.csv", club.as_csv),
        Route("/club/{evening}", club.page, name="club-page"),
        Route("/club/{evening}/join", club.join, methods=["GET", "POST"], name="club-join"),
        Route("/club/{evening}/events", club.events),
        *staff.routes(hub, pages, club.changed),
    ]

