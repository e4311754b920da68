"""The club nights' desk for staff (behind the staff login): create an evening (its tables chosen from the
café's known tables), edit it until it starts, delete it until its first result, then the evening's desk —
the round's tables first (what each really shows, from its status), check-in, rounds, results, undo.

Every refusal is answered 400 with its reason in the reader's language (`DeskError`, `FormError`), never a
bare "not possible"; a form that names a round or table that does not exist is such a refusal, not a 500.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from hub.evenings.cards import card
from hub.evenings.desk import MAX_NAME, MAX_NOTE, MAX_TITLE, SCORINGS, SEATINGS, Desk, DeskError
from hub.evenings.exports import standings_rows
from hub.evenings.model import Evening
from hub.evenings.texts import ACTION_WORDS
from hub.forms import FormError, cross_site_refusal, read_form
from hub.identities import canonical_entry
from hub.texts import N_, lang_of, tr
from hub.views import Hub, Pages, not_found
from referee import games as referee_games

Changed = Callable[[str], None]


def needs_staff(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """Logged-in staff only (the hub's server-side session), and a POST only from the hub's own pages."""
    async def guarded(request: Request) -> Response:
        if not request.session.get("staff"):
            return RedirectResponse("/staff", status_code=303)
        if request.method == "POST" and (refusal := cross_site_refusal(request)) is not None:
            return refusal
        return await handler(request)
    return guarded


def number_field(form: dict[str, str], key: str, low: int, high: int, message: str) -> int:
    """A whole number from a form within [low, high], else a refusal saying what is expected."""
    text = form.get(key, "").strip()
    if not text.lstrip("-").isdigit() or not low <= int(text) <= high:
        raise DeskError(message, low=low, high=high)
    return int(text)


def settings_of(form: dict[str, str], tables: list[str]) -> dict[str, Any]:
    """An evening's settings from the create or edit form (the desk checks each)."""
    return {"game": form.get("game", ""),
            "rounds": number_field(form, "rounds", 1, 20, N_("An evening has {low} to {high} rounds.")),
            "tables": tables, "seating": form.get("seating", ""), "scoring": form.get("scoring", ""),
            "title": {"de": form.get("title_de", ""), "en": form.get("title_en", "")}}


class StaffDesk:
    def __init__(self, hub: Hub, pages: Pages, changed: Changed):
        self.hub, self.pages, self.changed = hub, pages, changed
        assert isinstance(hub.evenings, Desk)  # made only beside the guests' pages (hub.evenings.web), with a desk
        self.desk = hub.evenings

    def refused(self, request: Request, error: DeskError | FormError) -> str:
        return tr(error.message, lang_of(request), **error.values)

    def form_context(self, evening: Evening | None = None) -> dict[str, Any]:
        games = {g: referee_games.get(g) for g in referee_games.ids()}
        return {"games": games, "seatings": SEATINGS, "scorings": SCORINGS,
                "known_tables": self.hub.known_tables(self.hub.cafe), "max_title": MAX_TITLE, "max_name": MAX_NAME,
                "max_note": MAX_NOTE, "edited": evening}

    async def index(self, request: Request) -> Response:
        message, status = "", 200
        if request.method == "POST":
            try:
                form = await read_form(request)
                evening = self.desk.create(form.get("evening", ""), cafe=self.hub.cafe,
                                           **settings_of(form, _ticked(request, form)))
                return RedirectResponse(f"/staff/club/{evening.id}", status_code=303)
            except (DeskError, FormError) as error:
                message, status = self.refused(request, error), 400
        response = self.pages.render(request, "staff_evenings.html", message=message,
                                     evenings=[self.desk.evening(i) for i in self.desk.ids()], **self.form_context())
        response.status_code = status
        return response

    async def evening(self, request: Request) -> Response:
        evening_id = request.path_params["evening"]
        try:
            self.desk.evening(evening_id)
        except KeyError:
            return not_found(request, "No such club night.")
        message, status = "", 200
        if request.method == "POST":
            try:
                form = await read_form(request)
                if form.get("action") == "delete":
                    return self.delete(request, evening_id, form)
                done = self.act(evening_id, form, request)
                message = tr(done, lang_of(request))
                self.changed(evening_id)
            except (DeskError, FormError) as error:
                message, status = self.refused(request, error), 400
        response = self.desk_page(request, self.desk.evening(evening_id), message, status != 200)
        response.status_code = status
        return response

    def delete(self, request: Request, evening_id: str, form: dict[str, str]) -> Response:
        """First the question (what goes), then, confirmed, the evening is gone from every list."""
        evening = self.desk.evening(evening_id)
        if form.get("confirm") != "1":
            return self.pages.render(request, "staff_evening_delete.html", evening=evening)
        self.desk.delete(evening_id)
        self.changed(evening_id)
        return RedirectResponse("/staff/club-nights", status_code=303)

    def desk_page(self, request: Request, evening: Evening, message: str, failed: bool) -> Response:
        live = {row["table"]: row for row in self.hub.reader.tables(evening.cafe)}
        current = evening.current
        cards = {t.table: card(t, live.get(t.table), evening.id, current.number)
                 for t in current.tables} if current is not None else {}
        aliases = self.hub.reader.aliases()
        taken = {name.casefold() for name in evening.entrants}
        known = [p for p in self.hub.reader.players()
                 if p not in aliases and canonical_entry(p, aliases).casefold() not in taken]
        return self.pages.render(request, "staff_evening.html", evening=evening, message=message, failed=failed,
                                 rows=standings_rows(evening, lang_of(request)), live=live, cards=cards, known=known,
                                 action_words=ACTION_WORDS, **self.form_context(evening))

    def act(self, evening_id: str, form: dict[str, str], request: Request) -> str:
        """One staff form's action on the desk; the English sentence saying it is done."""
        action, name, note = form.get("action", ""), form.get("name", ""), form.get("note", "")
        simple: dict[str, Callable[[], Any]] = {
            "check_in": lambda: self.desk.check_in(evening_id, name),
            "remove": lambda: self.desk.remove(evening_id, name),
            "drop": lambda: self.desk.drop(evening_id, name),
            "back": lambda: self.desk.back(evening_id, name),
            "open": lambda: self.desk.set_checkin(evening_id, True),
            "close": lambda: self.desk.set_checkin(evening_id, False),
            "start": lambda: self.desk.start_round(evening_id),
            "redraw": lambda: self.desk.redraw(evening_id),
            "close_round": lambda: self.desk.close_round(evening_id),
            "end": lambda: self.desk.end(evening_id),
            "undo": lambda: self.desk.undo(evening_id),
            "edit": lambda: self.desk.edit(evening_id, **settings_of(form, _ticked(request, form))),
        }
        if action in simple:
            simple[action]()
            return "Done."
        if action not in ("accept", "replay", "enter"):
            raise DeskError("That button is not on this page: reload it.")
        round_no = number_field(form, "round", 1, 1000, N_("There is no such round: reload the page."))
        table = form.get("table", "")
        if action == "accept":
            self.desk.accept(evening_id, round_no, table, note)
        elif action == "replay":
            self.desk.replay(evening_id, round_no, table, note)
        else:
            self.desk.enter(evening_id, round_no, table, self.places(evening_id, round_no, table, form), note)
        return "Done."

    def places(self, evening_id: str, round_no: int, table: str, form: dict[str, str]) -> dict[str, int]:
        """The places staff chose for each seat of a table (`place-<seat>` fields)."""
        evening = self.desk.evening(evening_id)
        seats = self.desk.table_of(evening, round_no, table).players
        size = len(seats)
        return {player: number_field(form, f"place-{i}", 1, size,
                                     N_("Give every player of the table a place from {low} to {high}."))
                for i, player in enumerate(seats)}


def _ticked(request: Request, form: dict[str, str]) -> list[str]:
    """The tables ticked on the form: `table-<id>` checkboxes (a form's fields come as one dict)."""
    return [key.removeprefix("table-") for key, value in form.items() if key.startswith("table-") and value]


def routes(hub: Hub, pages: Pages, changed: Changed) -> list[Route]:
    desk = StaffDesk(hub, pages, changed)
    return [
        Route("/staff/club-nights", needs_staff(desk.index), methods=["GET", "POST"]),
        Route("/staff/club/{evening}", needs_staff(desk.evening), methods=["GET", "POST"]),
    ]
