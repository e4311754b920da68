"""What one guest's device, or all of them, may hold of the hub at once, so that no flood takes the pages down.

- Connections: at most PER_ADDRESS open connections from one address and TOTAL in all (`CappedH11Protocol`, the
  HTTP protocol uvicorn runs); one more is answered `503` with `Retry-After` and closed at once, so it frees its
  file at once too. A connection that sends no request within REQUEST_WAIT_S is closed (a held, silent socket
  costs a file like any other). A trusted reverse proxy's address is not capped per address: every guest comes
  through it, and the per-address caps of the live streams apply to the address it forwards.
- Live news streams (`GET /events`, SSE): at most STREAMS_PER_ADDRESS from one address and STREAMS_TOTAL in all
  (`Streams`); one more is answered `503` at once. A page holds one; a phone with a few tabs a few.
- Accept errors (`EMFILE` when the files run out anyway): one log line per ACCEPT_LOG_S with a count, never a
  traceback per attempt (`quiet_accept_errors`).

The total caps follow the process's limit of open files (`configure`: the unit's `LimitNOFILE`, 4096, in
systemd/referee-hub.service): FILES_KEPT stay free for the store's and the sessions' files, the broker link and
the logs, so connections alone never exhaust the files.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
from collections import Counter
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from hub.ratelog import RateLimitedLog

PER_ADDRESS = 64
TOTAL = 1500
REQUEST_WAIT_S = 15.0
STREAMS_PER_ADDRESS = 8
STREAMS_TOTAL = 600
FILES_KEPT = 256
ACCEPT_LOG_S = 30.0
RESOURCE_ERRORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)

log = logging.getLogger("hub.limits")
refusals = RateLimitedLog(log, every_s=ACCEPT_LOG_S)
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 5\r\n\r\nbusy\n")


class Counts:
    """Open things per address and in all, on the event loop's thread only."""

    def __init__(self, per_address: int, total: int):
        self.per_address, self.total = per_address, total
        self.open: Counter[str] = Counter()
        self.refused = 0

    def take(self, address: str, capped: bool = True) -> bool:
        """Count one more for `address` if the caps allow it."""
        if sum(self.open.values()) >= self.total or (capped and self.open[address] >= self.per_address):
            self.refused += 1
            return False
        self.open[address] += 1
        return True

    def give_back(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


connections = Counts(PER_ADDRESS, TOTAL)
streams = Counts(STREAMS_PER_ADDRESS, STREAMS_TOTAL)
trusted_proxies: set[str] = set()  # set by the server from the config's trusted_proxy


def configure(trusted_proxy: str | None) -> None:
    """Before serving: the total caps within this process's limit of open files; the trusted proxy's addresses
    (comma-separated, as in the config) exempt from the per-address connection cap."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    connections.total = max(16, min(TOTAL, soft - FILES_KEPT))
    streams.total = max(8, min(STREAMS_TOTAL, connections.total // 2))
    trusted_proxies.clear()
    trusted_proxies.update(a.strip() for a in (trusted_proxy or "").split(",") if a.strip())


class CappedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the connection caps and the wait for a first request."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        self._address = str(peer[0]) if peer else "unknown"
        self._counted = connections.take(self._address, capped=self._address not in trusted_proxies)
        if not self._counted:
            refusals.warning(f"connections:{self._address}", "refused a connection from %s: %d open from it, "
                             "%d in all", self._address, connections.open[self._address],
                             sum(connections.open.values()))
            transport.write(BUSY)
            transport.abort()  # not close(): over TLS that waits up to 30 s for the guest's close_notify, holding
            return  # the connection's buffers (some 0.6 MB each) — a flood of refused connections would fill memory
        super().connection_made(transport)
        self._silent = self.loop.call_later(REQUEST_WAIT_S, self._close_if_silent)

    def _close_if_silent(self) -> None:
        if self.cycle is None and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._counted:
            super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._counted:
            return
        self._counted = False
        self._silent.cancel()
        connections.give_back(self._address)
        super().connection_lost(exc)
        # uvicorn cancels its keep-alive timer only on a clean close (exc None); a guest closing TLS without its
        # close_notify ends with an error, and the timer then holds this connection, its TLS object and its
        # 256 KiB read buffer for timeout_keep_alive (5 s): 300 page loads a second held 500 MB.
        self._unset_keepalive_if_required()


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Accept errors for want of files (or memory) as one line per ACCEPT_LOG_S with a count; asyncio itself
    pauses accepting for a second after each. Everything else goes to asyncio's own handler."""
    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in RESOURCE_ERRORS:
            refusals.warning("accept", "cannot accept connections: %s (%s)", error.strerror, context.get("message"))
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handle)
