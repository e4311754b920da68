"""Finished and running games: the list with filters, one game with its moves and its verification.

A game is named by (café, table, uid): a uid is only unique at its own table, so `/games/<uid>` (the old
address) leads to the one game of that uid, or lists them when several tables used it."""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from hub.texts import lang_of
from hub.views import STATUSES, Hub, Pages, dispute_words, game_list, game_view, not_found, with_words

PAGE = 100  # games per page of the list: its size stays bounded whatever the store holds
LAST_PAGE = 100_000


def page_of(text: str | None) -> int | None:
    """The list's page asked for (1 by default); None for anything but a number from 1 to LAST_PAGE."""
    if not text:
        return 1
    return int(text) if text.isdigit() and len(text) <= 6 and 1 <= int(text) <= LAST_PAGE else None


def _page_url(request: Request, page: int) -> str:
    """This list's address with another page (its filters kept)."""
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "page"]
    return "?" + urlencode([*query, ("page", str(page))])


def games_list(hub: Hub, pages: Pages, request: Request, uid: str | None = None) -> Response:
    """The list of games with its filters, a page of PAGE at a time (newest first)."""
    q, reader = request.query_params, hub.reader
    chosen = {k: q.get(k) or "" for k in ("cafe", "table", "game", "status")}
    page = page_of(q.get("page"))
    if page is None:
        return not_found(request, "A page is a number from 1 on.", 400)
    games = game_list(hub, chosen["status"] or None, cafe=chosen["cafe"] or None, table=chosen["table"] or None,
                      game=chosen["game"] or None, uid=uid, limit=PAGE + 1, offset=(page - 1) * PAGE)
    tables = sorted({row["table"] for row in reader.tables(chosen["cafe"] or None)})
    links = {"newer": _page_url(request, page - 1) if page > 1 else "",
             "older": _page_url(request, page + 1) if len(games) > PAGE else ""}
    return pages.render(request, "games.html", games=games[:PAGE], chosen=chosen, statuses=STATUSES,
                        cafes=reader.cafes(), tables=tables, pages=links)


def routes(hub: Hub, pages: Pages) -> list[Route]:
    reader = hub.reader

    def games_page(request: Request) -> Response:
        return games_list(hub, pages, request)

    def game_page(request: Request) -> Response:
        lang = lang_of(request)
        p = request.path_params
        game = reader.game(p["cafe"], p["table"], p["uid"])
        if game is None:
            return not_found(request, "No such game.")
        records = [with_words(r, lang) for r in reader.records(game["cafe"], game["table"], game["game_uid"])]
        dispute = game["dispute"] or {}
        return pages.render(request, "game.html", game=game_view(game, hub), records=records,
                            said_words=dispute_words(dispute.get("said") or {}, lang),
                            says_words=dispute_words(dispute.get("says") or {}, lang))

    def by_uid(request: Request) -> Response:
        """The old address: the game if only one table used this uid, else the games of that uid."""
        uid = request.path_params["uid"]
        found = reader.games(uid=uid, limit=2)
        if not found:
            return not_found(request, "No such game.")
        if len(found) == 1:
            suffix = request.path_params.get("suffix", "")
            return RedirectResponse(found[0]["url"] + suffix + (f"?{request.url.query}" if request.url.query else ""),
                                    status_code=307)
        return games_list(hub, pages, request, uid=uid)

    def by_uid_jsonl(request: Request) -> Response:
        request.path_params["suffix"] = ".jsonl"
        return by_uid(request)

    return [
        Route("/games", games_page),
        Route("/games/{cafe}/{table}/{uid}", game_page),
        Route("/games/{uid}.jsonl", by_uid_jsonl),
        Route("/games/{uid}", by_uid),
    ]
