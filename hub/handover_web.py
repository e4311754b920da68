"""The handover's addresses on the hub's web server: the tables' `POST /pair/hello` and `POST /pair/claim`, and the
staff's "new code" button (`hub/handover.py` does the work, `cafe/handover.py` says the protocol).

The tables' two are JSON only (`Content-Type: application/json`, which no page elsewhere can make a browser
send without asking first), at most `MAX_MESSAGE` bytes, read without waiting for more than that; no cookie is
read or set. A hub without pairing settings (`table_broker`, `table_ca_file`) answers them 404.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from cafe import contract, handover
from cafe.signing import is_public_text
from hub.forms import client_address
from hub.handover import Handover, Reply, refusal
from hub.views import Hub


async def read_message(request: Request) -> dict[str, Any] | Reply:
    """The table's JSON message, or the refusal to answer instead."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return refusal(415, "send application/json")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > handover.MAX_MESSAGE:
            return refusal(413, f"at most {handover.MAX_MESSAGE} bytes")
    try:
        return handover.decode(body, handover.MAX_MESSAGE)
    except handover.HandoverError as error:
        return refusal(400, str(error))


def answer(reply: Reply) -> Response:
    return JSONResponse(reply.body, status_code=reply.status, headers={"cache-control": "no-store"})


def table_route(hub: Hub, work: Callable[[Handover, dict[str, Any], Request], Reply]
                ) -> Callable[[Request], Awaitable[Response]]:
    async def route(request: Request) -> Response:
        desk: Handover | None = hub.handover
        if desk is None:
            return answer(refusal(404, "this hub pairs no tables"))
        message = await read_message(request)
        if isinstance(message, Reply):
            return answer(message)
        return answer(await run_in_threadpool(work, desk, message, request))  # scrypt, SQLite: off the loop
    return route


def routes(hub: Hub) -> list[Route]:
    """The tables' two addresses."""
    return [
        Route("/pair/hello", table_route(hub, lambda d, m, r: d.hello(m, client_address(r), time.time())),
              methods=["POST"]),
        Route("/pair/claim", table_route(hub, lambda d, m, r: d.claim(m, time.time())), methods=["POST"]),
    ]


def staff_handlers(hub: Hub) -> dict[str, Callable[[Request, dict[str, str]], Awaitable[Response]]]:
    """The staff's POST handlers (form → response), for `hub.staff` to guard (logged in, own pages) and route."""

    async def new_code(request: Request, form: dict[str, str]) -> Response:
        table, key = form.get("table", "")[:64], form.get("key", "")[:128]
        if hub.handover is not None and contract.is_id(table) and is_public_text(key):
            hub.handover.new_code(table, key)
        return RedirectResponse("/staff#handover", status_code=303)

    return {"/staff/handover/new-code": new_code}
