"""A connection flood against the hub, as one guest's laptop on the café's Wi-Fi could send it: many `GET /events`
(the live news stream) held open from one address, while another client times the pages. Used by the attack
drill (benchmarks/attack.py) and its tests; loopback only."""

from __future__ import annotations

import contextlib
import functools
import http.client
import socket
import ssl
import time
from dataclasses import dataclass, field

PAGES = ("/", "/games", "/api/tables", "/api/health")


@dataclass
class Flood:
    """`count` connections to host:port, each sending `GET path` and then holding its socket."""

    host: str
    port: int
    count: int
    path: str = "/events"
    tls: bool = False
    source: str = "127.0.0.2"  # the flood's own address (loopback has them all): the pages are fetched from another
    sockets: list[socket.socket] = field(default_factory=list)
    refused: int = 0  # connections the server closed or refused at once

    def open(self) -> Flood:
        context = _insecure() if self.tls else None
        request = f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nAccept: text/event-stream\r\n\r\n"
        for _ in range(self.count):
            try:
                sock = socket.create_connection((self.host, self.port), timeout=5, source_address=(self.source, 0))
                if context is not None:
                    sock = context.wrap_socket(sock, server_hostname=self.host)
                sock.sendall(request.encode())
                self.sockets.append(sock)
            except OSError:
                self.refused += 1
        return self

    def held(self) -> int:
        """How many of the flood's connections the server still holds open (a closed one reads EOF or fails)."""
        return sum(_open(sock) for sock in self.sockets)

    def close(self) -> None:
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.close()
        self.sockets.clear()


def _open(sock: socket.socket) -> bool:
    """Whether the server still holds `sock` open: what it sent is read away until it would block (open) or the
    stream ends (closed)."""
    sock.setblocking(False)
    try:
        while sock.recv(65536):
            pass
        return False
    except (BlockingIOError, ssl.SSLWantReadError):
        return True
    except OSError:
        return False


@functools.cache
def _insecure() -> ssl.SSLContext:
    """The hub's self-signed certificate is not what this measures: not checked. Made once: a new context reads
    the system's CA store, which costs far more than the handshake it is for."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def page_times(host: str, port: int, seconds: float, tls: bool = False, paths: tuple[str, ...] = PAGES,
               timeout: float = 5.0) -> tuple[list[float], int]:
    """Fetch the pages in turn for `seconds`, a new connection each: (each answer's time in ms, failures). A
    page that times out or is not 200 counts as a failure and as `timeout` in the times."""
    times: list[float] = []
    failures = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for path in paths:
            began = time.monotonic()
            try:
                conn = (http.client.HTTPSConnection(host, port, timeout=timeout, context=_insecure()) if tls
                        else http.client.HTTPConnection(host, port, timeout=timeout))
                conn.request("GET", path)
                status = conn.getresponse().status
                conn.close()
                ok = status == 200
            except OSError:
                ok = False
            times.append(1000 * (time.monotonic() - began) if ok else 1000 * timeout)
            failures += not ok
    return times, failures
