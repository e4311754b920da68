"""Finished and running games: the list with filters, one game with its moves and its verification.

A game is named by (café, table, uid): a uid is only unique at its own table, so `/games/<uid>` (the old
address) leads to the one game of that uid, or lists them when several tables used it."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from hub.views import STATUSES, Hub, Pages, dispute_words, game_view, lang_of, not_found, with_words


def routes(hub: Hub, pages: Pages) -> list[Route]:
    reader = hub.reader

    def games_list(request: Request, uid: str | None = None) -> Response:
        q = request.query_params
        chosen = {k: q.get(k) or "" for k in ("cafe", "table", "game", "status")}
        found = reader.games(chosen["cafe"] or None, chosen["table"] or None, chosen["game"] or None,
                             chosen["status"] or None, uid=uid)
        tables = sorted({row["table"] for row in reader.tables(chosen["cafe"] or None)})
        return pages.render(request, "games.html", games=[game_view(g, hub) for g in found], chosen=chosen,
                            statuses=STATUSES, cafes=reader.cafes(), tables=tables)

    def games_page(request: Request) -> Response:
        return games_list(request)

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
        return games_list(request, uid=uid)

    def by_uid_jsonl(request: Request) -> Response:
        request.path_params["suffix"] = ".jsonl"
        return by_uid(request)

    return [
        Route("/games", games_page),
        Route("/games/{cafe}/{table}/{uid}", game_page),
        Route("/games/{uid}.jsonl", by_uid_jsonl),
        Route("/games/{uid}", by_uid),
    ]
