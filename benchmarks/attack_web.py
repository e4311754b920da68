"""The attack drill's way to the hub's pages: HTTPS with the hub's self-signed certificate (not what this checks),
from a chosen loopback address, JSON and forms; and the staff's browser (a session cookie, posts from the hub's
own page). Used by benchmarks/attack.py."""

from __future__ import annotations

import functools
import http.client
import json
import ssl
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

HOST = "127.0.0.1"


@functools.cache
def insecure() -> ssl.SSLContext:
    """The hub's self-signed certificate is not what this measures: not checked. Made once: a new context reads
    the system's CA store, which costs far more than the handshake it is for."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


@dataclass
class Web:
    """Requests to the hub at `port` over HTTPS from `source` (a loopback address: each is a guest's device)."""

    port: int
    source: str = HOST
    cookie: str = ""
    timeout: float = 10.0

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> Answer:
        conn = http.client.HTTPSConnection(HOST, self.port, timeout=self.timeout, context=insecure(),
                                           source_address=(self.source, 0))
        headers = {"Origin": f"https://{HOST}:{self.port}", "Host": f"{HOST}:{self.port}"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            answer = Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
        finally:
            conn.close()
        for part in answer.headers.get("set-cookie", "").split(","):
            if part.strip().startswith("hub_staff="):
                self.cookie = part.strip().split(";")[0]
        return answer

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def json(self, path: str) -> Any:
        return self.get(path).json()

    def post(self, path: str, form: dict[str, str]) -> Answer:
        return self.request("POST", path, form)


@dataclass
class Staff:
    """Logged in as the café's staff, from their own phone's address."""

    web: Web
    password: str
    pages: list[str] = field(default_factory=list)

    def log_in(self) -> int:
        return self.web.post("/staff/login?lang=en", {"password": self.password}).status

    def page(self) -> str:
        return self.web.get("/staff?lang=en").text

    def wait_for_key(self, key: str, seconds: float = 30.0) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if key in self.page():
                return True
            time.sleep(0.2)
        return False

    def decide(self, table: str, key: str, cafe: str, accept: bool) -> str:
        self.wait_for_key(key)
        what = "accept" if accept else "refuse"
        return self.web.post(f"/staff/tables/{what}?lang=en", {"cafe": cafe, "table": table, "key": key}).text


def wait_until(check: Any, seconds: float = 30.0, step: float = 0.1) -> bool:
    """Whether `check()` came true within `seconds` (a drill reports, it does not raise)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if check():
                return True
        except (OSError, ValueError, KeyError, TypeError):
            pass
        time.sleep(step)
    return False
