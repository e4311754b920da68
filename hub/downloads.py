"""Downloads: every game as one CSV, one game's moves as CSV, a game's transcript (JSONL, replayable with
`referee replay`), and the QR code that opens the overview on a guest's phone.

CSVs are for German spreadsheet programs (semicolons, a BOM, numbers as numbers); every cell that a
spreadsheet would read as a formula (a name starting with `=`, `+`, `-`, `@`) is written as text
(`hub.formats.csv_cell`). Times are the hub's receive times in the café's zone; the table's
own clock stands beside them."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence

import segno
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from hub import formats
from hub.texts import lang_of
from hub.views import Hub, game_view, not_found, with_words

SEATS = 6  # the most players a game seats: one player and score column each in games.csv
GAMES_HEADER = ["cafe", "table", "table_name", "game_uid", "game", "status", "check", "winners", "started", "ended",
                "length_s", "started_at_table_clock", "ended_at_table_clock",
                *(f"{what}_{i}" for i in range(1, SEATS + 1) for what in ("player", "score"))]
MOVES_HEADER = ["n", "seq", "received", "at_table_clock", "kind", "move", "ok", "verdict"]


def spreadsheet_cell(value: object, lang: str) -> object:
    """A cell as a spreadsheet in `lang` reads it: a number stays a number (German: decimal comma, no
    thousands separator), a text that looks like a formula is made text (`formats.csv_cell`)."""
    if isinstance(value, float):
        text = repr(round(value, 6)).removesuffix(".0") if value == value else ""
        return text.replace(".", ",") if lang == "de" else text
    return formats.csv_cell(value)


def csv_response(rows: Iterable[Sequence[object]], filename: str, lang: str) -> Response:
    """CSV that German spreadsheet programs open as a table: semicolon-separated, UTF-8 with a byte order mark
    (else they read it as Latin-1), numbers unquoted with the page language's decimal mark."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerows([spreadsheet_cell(cell, lang) for cell in row] for row in rows)
    return Response(out.getvalue().encode("utf-8"), media_type="text/csv; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="{filename}"'})


def _csv_routes(hub: Hub) -> list[Route]:
    reader = hub.reader

    def games_csv(request: Request) -> Response:
        rows: list[list[object]] = [list(GAMES_HEADER)]
        situation = hub.situation()
        for g in (game_view(g, hub, situation) for g in reader.games(limit=1_000_000)):
            seats: list[object] = []
            for player in g["players"][:SEATS]:
                seats += [player, (g["scores"] or {}).get(player, "")]
            rows.append([g["cafe"], g["table"], g["table_name"], g["game_uid"], g["game"], g["final"], g["check"],
                         " / ".join(g["winners"]), g["started_local"] or "", g["ended_local"] or "",
                         "" if g["length_s"] is None else round(g["length_s"]), g["started_at"] or "",
                         g["ended_at"] or "", *seats])
        return csv_response(rows, "games.csv", lang_of(request))

    def game_csv(request: Request) -> Response:
        p = request.path_params
        game = reader.game(p["cafe"], p["table"], p["uid"])
        if game is None:
            return not_found(request, "No such game.")
        lang = lang_of(request)
        rows = []
        for r in reader.records(game["cafe"], game["table"], game["game_uid"]):
            r = with_words(r, lang)
            answer = r.get("answer") or {}
            rows.append([r["n"], answer.get("seq", ""), formats.local(r["received"], hub.zone).isoformat(
                timespec="seconds"), r.get("at") or "", r["kind"], r.get("text", ""),
                "" if r["kind"] != "event" else int(bool(answer.get("ok"))), r.get("verdict", "")])
        return csv_response([MOVES_HEADER, *rows], f"{game['cafe']}-{game['table']}-{game['game_uid']}.csv", lang)

    return [Route("/games.csv", games_csv), Route("/games/{cafe}/{table}/{uid}.csv", game_csv)]


def routes(hub: Hub) -> list[Route]:
    reader = hub.reader

    def transcript(request: Request) -> Response:
        p = request.path_params
        game = reader.game(p["cafe"], p["table"], p["uid"])
        if game is None:
            return not_found(request, "No such game.")
        records = reader.records(game["cafe"], game["table"], game["game_uid"])
        lines = [json.dumps(r["header"], ensure_ascii=False) for r in records if r.get("kind") == "start"]
        lines += [json.dumps(r.get("event"), ensure_ascii=False) for r in records if r.get("kind") == "event"]
        name = f"{game['cafe']}-{game['table']}-{game['game_uid']}.jsonl"
        return Response("\n".join(lines) + "\n", media_type="application/x-ndjson",
                        headers={"content-disposition": f'attachment; filename="{name}"'})

    def qr(request: Request) -> Response:
        """The overview's address as the guest's phone should open it: this page's own host and scheme."""
        code = segno.make(str(request.url_for("overview_page")), error="m")
        out = io.BytesIO()
        code.save(out, kind="svg", scale=8, border=2, xmldecl=False, svgns=True, title="QR")
        return Response(out.getvalue(), media_type="image/svg+xml", headers={"cache-control": "no-cache"})

    return [
        *_csv_routes(hub),
        Route("/games/{cafe}/{table}/{uid}.jsonl", transcript),
        Route("/qr.svg", qr),
    ]
