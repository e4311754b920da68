"""The staff area, behind the password whose scrypt hash is in the hub's config: announcements to every table,
a table's recent errors, merging two spellings of a player. A signed session cookie (SameSite strict) marks a
logged-in browser; every action checks it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from hub.auth import check_password
from hub.texts import tr
from hub.topics import announce_payload
from hub.views import Hub, Pages, lang_of, table_view, with_words


def routes(hub: Hub, pages: Pages) -> list[Route]:
    reader = hub.reader

    def staff_page(request: Request, message: str = "", status_code: int = 200) -> Response:
        if not request.session.get("staff"):
            response = pages.render(request, "login.html", message=message, configured=bool(hub.staff_hash))
            response.status_code = status_code
            return response
        tables = [table_view(r, lang_of(request)) for r in reader.tables()]
        return pages.render(request, "staff.html", message=message, tables=tables, players=reader.players(),
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
        errors = [with_words(r, lang) for r in reader.errors(cafe, table)]
        disputed = reader.games(cafe=cafe, table=table, status="disputed", limit=20)
        row = reader.table(cafe, table)
        return pages.render(request, "staff_table.html", errors=errors, disputed=disputed,
                            table=table_view(row, lang) if row else {"cafe": cafe, "table": table})

    return [
        Route("/staff", staff_get),
        Route("/staff/login", login, methods=["POST"]),
        Route("/staff/logout", logout, methods=["POST"]),
        Route("/staff/announce", announce, methods=["POST"]),
        Route("/staff/merge", merge, methods=["POST"]),
        Route("/staff/table/{cafe}/{table}", staff_table),
    ]
