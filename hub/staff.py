"""The staff area, behind the password whose scrypt hash is in the hub's config: announcements to every table,
a table's recent errors, merging two spellings of a player (asked first, undoable), gaps the hub gave up on.

Fit for a café's public Wi-Fi: a server-side session (`hub.sessions`) that logout and a password change end;
password guessing slowed per address and for the account (`hub.guard`), every failure logged with address and time;
every POST only from the hub's own pages (`hub.forms.cross_site_refusal`); every form checked on the server, a bad one
answered 400 with a sentence saying what to fix.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable
from datetime import datetime

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from cafe.contract import is_id
from cafe.handover import CODE_LIFETIME_S
from hub import handover_web
from hub.auth import check_password
from hub.forms import FormError, client_address, cross_site_refusal, local_time, read_form, text
from hub.guard import LoginGuard
from hub.merges import MAX_NAME, plan
from hub.pairing_pages import post_handlers, tables_view
from hub.ratelog import RateLimitedLog
from hub.sessions import COOKIE, LIFETIME_S, Sessions
from hub.store import MergeRefused
from hub.texts import lang_of, tr
from hub.topics import announce_payload
from hub.views import Hub, Pages, table_view, with_words

log = logging.getLogger("hub.staff")
refusals = RateLimitedLog(log, every_s=30.0)

MAX_ANNOUNCEMENT = 200  # characters per language: what a table's screen shows in one line
MAX_PASSWORD = 1024
LISTED_NAMES = 2000  # names offered in the merge form: the page stays bounded whatever the store holds

Handler = Callable[[Request, dict[str, str]], Awaitable[Response]]


def _now_iso() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


class StaffArea:
    def __init__(self, hub: Hub, pages: Pages, sessions: Sessions, guard: LoginGuard):
        self.hub, self.pages, self.sessions, self.guard = hub, pages, sessions, guard
        self.reader = hub.reader

    # ------------------------------------------------------------------ pages

    def page(self, request: Request, message: str = "", status_code: int = 200) -> Response:
        """The staff page for a logged-in browser, the login page otherwise."""
        if not request.session.get("staff"):
            response = self.pages.render(request, "login.html", message=message, configured=bool(self.hub.staff_hash))
        else:
            lang = lang_of(request)
            tables = [table_view(r, lang, self.hub) for r in self.reader.tables()]
            response = self.pages.render(
                request, "staff.html", message=message, tables=tables, players=self.reader.players()[:LISTED_NAMES],
                aliases=self.reader.aliases(), disputed=self.reader.games(status="disputed", limit=50),
                cafes=self.reader.cafes() if self.hub.cafe == "+" else [self.hub.cafe],
                missing=self.missing_records(lang), max_announcement=MAX_ANNOUNCEMENT,
                keys=tables_view(self.hub, lang),
                handover=self.hub.handover.codes(time.time()) if self.hub.handover is not None else None,
                code_minutes=CODE_LIFETIME_S // 60)
        response.status_code = status_code
        return response

    def missing_records(self, lang: str) -> list[str]:
        """Each gap the hub stopped asking replays for, as a sentence."""
        out = []
        for gap in self.hub.health().get("gaps_given_up", []):
            since = datetime.fromtimestamp(gap["since"]).astimezone().strftime("%Y-%m-%d %H:%M")
            out.append(tr("Table {table}: records from {first} on missing since {since}; no longer asked for.",
                          lang, table=f"{gap['cafe']}/{gap['table']}", first=gap["missing_from"], since=since))
        return out

    async def show(self, request: Request) -> Response:
        return self.page(request)

    async def table(self, request: Request) -> Response:
        if not request.session.get("staff"):
            return RedirectResponse("/staff", status_code=303)
        lang = lang_of(request)
        cafe, table = request.path_params["cafe"], request.path_params["table"]
        errors = [with_words(r, lang) for r in self.reader.errors(cafe, table)]
        disputed = self.reader.games(cafe=cafe, table=table, status="disputed", limit=20)
        row = self.reader.table(cafe, table)
        return self.pages.render(request, "staff_table.html", errors=errors, disputed=disputed,
                                 table=table_view(row, lang, self.hub) if row else {"cafe": cafe, "table": table})

    # ------------------------------------------------------------------ every POST

    def post(self, handler: Handler, staff_only: bool = True) -> Callable[[Request], Awaitable[Response]]:
        """A POST route: logged-in staff only (unless the login itself), from the hub's own pages only, its form
        read within limits; a FormError becomes a 400 with its sentence."""
        async def guarded(request: Request) -> Response:
            lang = lang_of(request)
            if staff_only and not request.session.get("staff"):
                return RedirectResponse("/staff", status_code=303)
            refusal = cross_site_refusal(request)
            if refusal is not None:
                return refusal
            try:
                return await handler(request, await read_form(request))
            except FormError as error:
                values = {k: tr(str(v), lang) if k == "field" else v for k, v in error.values.items()}
                return self.page(request, tr(error.message, lang, **values), status_code=400)
        return guarded

    # ------------------------------------------------------------------ login

    async def login(self, request: Request, form: dict[str, str]) -> Response:
        lang, address = lang_of(request), client_address(request)
        if not self.hub.staff_hash:
            return self.page(request, status_code=401)
        if self.guard.unlock_if_asked():
            log.warning("staff login: every delay cleared by referee-hub unlock at %s", _now_iso())
        wait = self.guard.attempt(address, time.monotonic())
        if wait:
            refusals.warning(f"locked:{address}", "staff login refused (too many failures) from %s at %s",
                             address, _now_iso())
            response = self.page(request, tr("Too many wrong passwords: try again in {seconds} s.", lang,
                                             seconds=math.ceil(wait)), status_code=429)
            response.headers["retry-after"] = str(math.ceil(wait))
            return response
        password = form.get("password", "")[:MAX_PASSWORD]
        # scrypt takes tens of milliseconds: off the event loop, so no live page stalls meanwhile
        if not await run_in_threadpool(check_password, password, self.hub.staff_hash):
            log.warning("staff login failed from %s at %s", address, _now_iso())
            return self.page(request, tr("Wrong password.", lang), status_code=401)
        self.guard.succeeded(address)
        token = self.sessions.open(self.hub.staff_hash, address)
        log.info("staff logged in from %s", address)
        response = RedirectResponse("/staff", status_code=303)
        response.set_cookie(COOKIE, token, max_age=int(LIFETIME_S), httponly=True, samesite="strict",
                            secure=request.url.scheme == "https")
        return response

    async def logout(self, request: Request, form: dict[str, str]) -> Response:
        self.sessions.close(request.session.get("token", ""))
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(COOKIE, httponly=True, samesite="strict", secure=request.url.scheme == "https")
        return response

    # ------------------------------------------------------------------ actions

    async def announce(self, request: Request, form: dict[str, str]) -> Response:
        lang = lang_of(request)
        cafe = form.get("cafe") or self.hub.cafe
        if (self.hub.cafe != "+" and cafe != self.hub.cafe) or not is_id(cafe):
            raise FormError("Not this hub's café.")
        if form.get("clear"):
            self.hub.announce(cafe, None)
            return self.page(request, tr("Announcement cleared.", lang))
        de = text(form, "de", "German", MAX_ANNOUNCEMENT)
        en = text(form, "en", "English", MAX_ANNOUNCEMENT)
        until = local_time(form.get("until", "").strip()[:40], "Until (optional)")
        if not (de or en):
            raise FormError("Write the announcement in German or English.")
        if until and datetime.fromisoformat(until) <= datetime.now().astimezone():
            raise FormError("{field}: that time has passed.", field="Until (optional)")
        self.hub.announce(cafe, announce_payload(de, en, until))
        return self.page(request, tr("Announcement sent.", lang))

    async def merge(self, request: Request, form: dict[str, str]) -> Response:
        """First the question (which games change), then, confirmed, the merge."""
        lang = lang_of(request)
        alias, name = text(form, "alias", "This spelling", MAX_NAME), text(form, "name", "Player", MAX_NAME)
        merge = await run_in_threadpool(plan, self.reader, alias, name)
        if merge.problem or form.get("confirm") != "1":
            problem = tr(merge.problem, lang, alias=alias, name=name) if merge.problem else ""
            response = self.pages.render(request, "staff_merge.html", merge=merge, problem=problem)
            response.status_code = 400 if problem else 200
            return response
        try:
            await run_in_threadpool(self.hub.ingest.merge_player, alias, name)
        except MergeRefused:  # another merge came first (an opposite one at the same moment): checked as it wrote
            raise FormError("{alias} and {name} were changed by another merge meanwhile: look again.",
                            alias=alias, name=name) from None
        log.info("staff merged %r into %r (%d games)", alias, name, len(merge.games))
        return self.page(request, tr("{alias} is now counted as {name}.", lang, alias=alias, name=name))

    async def unmerge(self, request: Request, form: dict[str, str]) -> Response:
        lang = lang_of(request)
        alias = text(form, "alias", "This spelling", MAX_NAME)
        if alias not in self.reader.aliases():
            raise FormError("{alias} is not merged.", alias=alias)
        name = await run_in_threadpool(self.hub.ingest.unmerge_player, alias)
        log.info("staff undid the merge of %r into %r", alias, name)
        return self.page(request, tr("{alias} counts on its own again.", lang, alias=alias))


def routes(hub: Hub, pages: Pages, sessions: Sessions, guard: LoginGuard | None = None) -> list[Route]:
    area = StaffArea(hub, pages, sessions, guard or LoginGuard(hub.unlock_file))
    return [
        Route("/staff", area.show),
        Route("/staff/login", area.post(area.login, staff_only=False), methods=["POST"]),
        Route("/staff/logout", area.post(area.logout), methods=["POST"]),
        Route("/staff/announce", area.post(area.announce), methods=["POST"]),
        Route("/staff/merge", area.post(area.merge), methods=["POST"]),
        Route("/staff/unmerge", area.post(area.unmerge), methods=["POST"]),
        Route("/staff/table/{cafe}/{table}", area.table),
        *(Route(path, area.post(handler), methods=["POST"])
          for path, handler in (post_handlers(hub, area.page) | handover_web.staff_handlers(hub)).items()),
    ]
