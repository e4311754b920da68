"""The security headers on every answer of the hub: what a browser may load and run for its pages, no framing,
no guessed content types, no full addresses to other sites; staff pages never kept in a cache.

The pages load scripts, styles and images only from the hub itself (`/static/…`, `/qr.svg`) and fetch only
from it (the live news), so the policy names nothing else; inline scripts are not run (the words the scripts
use travel as `application/json` data, which a policy does not stop). `Cache-Control: no-store` is set on
everything under `/staff` and on every answer to a browser with a staff session, so a shared phone or a
proxy keeps no copy of a staff page.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-frame-options", b"DENY"),
           (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin")]
NO_STORE = (b"cache-control", b"no-store")


def staff_data(scope: Scope) -> bool:
    """Whether the answer may carry staff data: a staff path, or a browser with a staff session."""
    return scope.get("path", "").startswith("/staff") or bool(scope.get("session", {}).get("staff"))


class SecurityHeaders:
    """ASGI middleware: adds HEADERS (and NO_STORE for staff data) to every HTTP answer, replacing the same."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [*HEADERS, NO_STORE] if staff_data(scope) else HEADERS
                names = {name for name, _ in extra}
                message["headers"] = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names] + extra
            await send(message)

        await self.app(scope, receive, with_headers)
