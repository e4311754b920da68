"""The hub's web pages and JSON API (Starlette on uvicorn).

Why Starlette: a small, well-kept ASGI toolkit (routing, Jinja2 templates, sessions,
streaming responses for server-sent events, static files) without an ORM or a
framework's own project layout; the pages are server-rendered HTML that work without
JavaScript, and a few lines of JavaScript keep them live over SSE. uvicorn is the
ASGI server Starlette is tested with. Guests only read; the staff area is behind a
password whose scrypt hash sits in the hub's config. Nothing of the broker is exposed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from hub import api, handover_web, health, limits, pages, staff
from hub.evenings import web as evenings_web
from hub.headers import SecurityHeaders
from hub.sessions import Sessions, StaffSessionMiddleware
from hub.views import HERE, Hub, Pages

__all__ = ["Hub", "create_app"]


def create_app(hub: Hub, sessions: Sessions | None = None) -> Starlette:
    """The ASGI app: guests' pages, the JSON API, the staff area, static files; `sessions` keeps the staff's
    sessions (in memory when not given: a restart then logs everyone out)."""
    renderer = Pages(hub)
    sessions = sessions or Sessions()
    routes = [*pages.routes(hub, renderer), *api.routes(hub), *health.routes(hub),
              *staff.routes(hub, renderer, sessions), *handover_web.routes(hub),
              *(evenings_web.routes(hub, renderer) if hub.evenings is not None else []),
              Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")]
    middleware = [Middleware(SecurityHeaders),
                  Middleware(StaffSessionMiddleware, sessions=sessions, password_hash=lambda: hub.staff_hash)]

    @asynccontextmanager
    async def bind(app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        hub.broadcaster.bind(loop)
        limits.quiet_accept_errors(loop)
        yield

    return Starlette(routes=routes, middleware=middleware, lifespan=bind)
