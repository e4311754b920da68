"""The storage fault screen: what is wrong with the game log, in big letters, until it is right again.

It tries the log again by itself every few seconds (a full disk once space is free, a read-only or
missing data directory once it is writable), then goes on to the game in progress or the menu. A
notice (a damaged log was set aside) waits for the staff's OK instead.
"""

from __future__ import annotations

import time
from typing import Any

from kiosk.drawing.view import BAD, INK, MUTED, Grid, View
from kiosk.eventlog.storage import FREE_ENOUGH, FULL, StorageFault, free_bytes
from kiosk.i18n import tr
from kiosk.screens import Host, Screen

RETRY_S = 3.0


class FaultScreen(Screen):
    name = "storage-fault"

    def __init__(self, app: Host, fault: StorageFault | None = None, notice: str | None = None):
        super().__init__(app)
        self.fault = fault
        self.notice = notice
        self.next_try = time.monotonic() + RETRY_S

    def view(self, width: int, height: int) -> View:
        g = Grid(width, height)
        v = View(width, height)
        # Short lines in big letters (read from 1.5 m, also in portrait): one line per part of the sentence.
        if self.fault is not None:
            self._lines(v, g, self.fault.sentence().split(" – "), 0.08, 0.32, 1.5, BAD, "fault")
            self._lines(v, g, _sentences(tr("New moves cannot be recorded. The table tries again by itself.")),
                        0.45, 0.22, 0.8, INK, "fault-help")
            lines = v.lines_height(5 if g.portrait else 3)  # for staff: the system's words, a path broken at "/"
            v.text((round(0.05 * width), height - lines - round(0.02 * height), round(0.9 * width), lines),
                   self.fault.detail[:160], size=0.45, color=MUTED, align="center", tag="fault-detail")
        else:
            self._lines(v, g, _sentences(self.notice or ""), 0.06, 0.5, 0.8, INK, "notice")
            v.button(g.r(0.3, 0.66, 0.4, 0.18), tr("OK"), "ok", tag="ok")
        return v

    @staticmethod
    def _lines(v: View, g: Grid, lines: list[str], top: float, height: float, size: float, color: tuple,
               tag: str) -> None:
        step = height / max(1, len(lines))
        for i, line in enumerate(lines):
            v.text(g.r(0.04, top + i * step, 0.92, step * 0.9), line, size=size, color=color, align="center",
                   tag=tag)

    def on_action(self, action: str) -> None:
        if action == "ok" and self.fault is None:
            self.app.after_storage_fault()

    def on_tick(self, now: float) -> bool:
        if self.fault is None or now < self.next_try:
            return False
        self.next_try = now + RETRY_S
        if self.fault.kind == FULL and free_bytes(self.app.settings.data_dir) < FREE_ENOUGH:
            return False
        return self.app.retry_storage()

    def next_wakeup(self) -> float | None:
        return self.next_try if self.fault is not None else None

    def model(self) -> dict[str, Any]:
        return {"screen": self.name, "fault": None if self.fault is None else self.fault.kind,
                "text": self.fault.sentence() if self.fault else self.notice}


def _sentences(text: str) -> list[str]:
    parts = [p.strip() for p in text.replace(". ", ".\n").splitlines()]
    return [p for p in parts if p]
