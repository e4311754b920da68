"""`/api/health`: is the hub doing its job, not just serving pages — the broker link, the writer and network
threads (and how often the supervisor restarted them), what was stored and dropped, gaps given up on.

503 while something is wrong, so a monitor (or `curl -f`) notices without reading the body."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from hub.views import Hub


def routes(hub: Hub) -> list[Route]:
    def health(request: Request) -> Response:
        state = hub.health()
        return JSONResponse(state, status_code=200 if state.get("ok", True) else 503)

    return [Route("/api/health", health)]
