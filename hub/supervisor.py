"""Keeps the hub's worker threads alive: a thread that died (whatever killed it) is logged and started again.

The writer and the MQTT network thread already catch what a message can throw at
them; this is the last line behind those guards, for the bug nobody foresaw. The
web server would otherwise go on serving pages of a hub that stores nothing. What
it did is reported on `/api/health`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("hub.supervisor")


@dataclass
class Watched:
    name: str
    alive: Callable[[], bool]
    restart: Callable[[], None]
    restarts: int = 0
    last_restart: float | None = None


class Supervisor:
    def __init__(self, every_s: float = 1.0):
        self.every_s = every_s
        self.watched: list[Watched] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hub-supervisor", daemon=True)

    def watch(self, name: str, alive: Callable[[], bool], restart: Callable[[], None]) -> None:
        """Check `alive()` every `every_s`; when it is false, call `restart()`."""
        self.watched.append(Watched(name, alive, restart))

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            self.check()

    def check(self) -> None:
        """One round: restart every watched thread that is not alive."""
        for watched in self.watched:
            if self._stop.is_set():
                return
            try:
                if watched.alive():
                    continue
                watched.restarts += 1
                watched.last_restart = time.time()
                log.error("thread %s died; starting it again (restart %d)", watched.name, watched.restarts)
                watched.restart()
            except Exception:  # a failed restart is tried again next round
                log.exception("could not restart thread %s", watched.name)

    def report(self) -> dict[str, Any]:
        """Per thread: alive, how often it was restarted, when last."""
        return {w.name: {"alive": bool(w.alive()), "restarts": w.restarts, "last_restart": w.last_restart}
                for w in self.watched}
