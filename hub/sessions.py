"""Staff sessions kept by the hub, not in the browser: a random token in the cookie, its hash in a small SQLite
file beside the store. Logging out deletes the session, so a cookie copied off the café's Wi-Fi before is worth
nothing after; every session also names the staff password it was opened with, so changing the password (in the
hub's config) ends them all.

The cookie is HttpOnly and SameSite=Strict, and Secure whenever the page came over TLS (the hub's own HTTPS, or
a reverse proxy that says so in X-Forwarded-Proto). Guests carry no cookie and cost no lookup.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from starlette.types import ASGIApp, Receive, Scope, Send

COOKIE = "hub_staff"
LIFETIME_S = 12 * 3600

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    token TEXT PRIMARY KEY,        -- sha256 of the cookie's token: the file alone opens no session
    password TEXT NOT NULL,        -- which staff password it was opened with (a hash of its hash)
    created REAL NOT NULL, expires REAL NOT NULL, address TEXT
);
"""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Sessions:
    def __init__(self, path: Path | str = ":memory:", lifetime_s: float = LIFETIME_S):
        self.lifetime_s = lifetime_s
        self.lock = threading.Lock()
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=10)
        self.db.executescript(SCHEMA)

    def open(self, password_hash: str, address: str | None) -> str:
        """A new session for whoever just gave the password that `password_hash` checks; its cookie token."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self.lock:
            self.db.execute("DELETE FROM sessions WHERE expires < ?", (now,))
            self.db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?)",
                            (_digest(token), _digest(password_hash), now, now + self.lifetime_s, address))
        return token

    def valid(self, token: str, password_hash: str | None) -> bool:
        """An open, unexpired session opened with the password the hub has now."""
        if not token or not password_hash:
            return False
        with self.lock:
            row = self.db.execute("SELECT password, expires FROM sessions WHERE token=?", (_digest(token),)).fetchone()
        return row is not None and row[0] == _digest(password_hash) and row[1] > time.time()

    def close(self, token: str) -> None:
        """Log out: the session is gone, whoever holds its cookie."""
        with self.lock:
            self.db.execute("DELETE FROM sessions WHERE token=?", (_digest(token),))

    def count(self) -> int:
        with self.lock:
            return self.db.execute("SELECT COUNT(*) FROM sessions WHERE expires >= ?", (time.time(),)).fetchone()[0]


def cookie_token(scope: Scope) -> str:
    """The session cookie's value in an ASGI scope's headers ('' when none)."""
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _, token = part.strip().partition("=")
                if key == COOKIE:
                    return token
    return ""


class StaffSessionMiddleware:
    """Puts `{"staff": True, "token": …}` into `request.session` for a valid session cookie, `{}` otherwise."""

    def __init__(self, app: ASGIApp, sessions: Sessions, password_hash: Callable[[], str | None]):
        self.app = app
        self.sessions = sessions
        self.password_hash = password_hash

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            token = cookie_token(scope)
            valid = bool(token) and self.sessions.valid(token, self.password_hash())
            scope["session"] = {"staff": True, "token": token} if valid else {}
        await self.app(scope, receive, send)
