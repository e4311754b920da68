"""Live news for the web pages: the writer thread hands news in, every open page stream gets a copy.

Server-sent events over plain HTTP: the pages only listen (guests are read-only), SSE
reconnects by itself in every browser, and it passes proxies as ordinary HTTP. A
stream whose reader falls behind by QUEUE items is closed; its page reconnects and
reloads its state, so no page shows a half-applied history. News of the hub's own
broker link (`{"type": "link", "broker": bool}`) goes to every page: its "live" mark
means the hub hears the tables, not only that the web server answers.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

QUEUE = 1000
HEARTBEAT_S = 15.0


class Broadcaster:
    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.streams: set[tuple[asyncio.Queue, Callable[[dict[str, Any]], bool]]] = set()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def from_thread(self, news: dict[str, Any]) -> None:
        """Called by the writer thread: hand the news to the server's event loop."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.publish, news)

    def publish(self, news: dict[str, Any]) -> None:
        for stream in list(self.streams):
            queue, wants = stream
            if news.get("type") != "link" and not wants(news):  # the broker link concerns every page
                continue
            if queue.qsize() >= QUEUE:
                self.streams.discard(stream)
                queue.put_nowait(None)
                continue
            queue.put_nowait(news)

    async def stream(self, wants: Callable[[dict[str, Any]], bool],
                     render: Callable[[dict[str, Any]], dict[str, Any]]) -> AsyncIterator[str]:
        """The text/event-stream body for one page."""
        queue: asyncio.Queue = asyncio.Queue()
        entry = (queue, wants)
        self.streams.add(entry)
        try:
            yield "retry: 1000\n\n"
            while True:
                try:
                    news = await asyncio.wait_for(queue.get(), HEARTBEAT_S)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if news is None:
                    return
                yield f"data: {json.dumps(render(news), ensure_ascii=False)}\n\n"
        finally:
            self.streams.discard(entry)
