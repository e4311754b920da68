"""A screen that raises, for testing the display loop's guard on a real kiosk process (issue #22).

Reachable only through the simulated table's control socket, and only when the kiosk was started
with `REFEREE_KIOSK_FAULTS=1` in its environment (read once, at start): no guest can reach it —
a kiosk at a table runs without `--sim`, so without a control socket, and systemd's unit sets no
such variable (docs/decisions.md H22-2).
"""

from __future__ import annotations

import os
from typing import Any

from hw.inputs import Input
from kiosk.drawing.view import View
from kiosk.screens import Host, Screen

ENV = "REFEREE_KIOSK_FAULTS"
PLACES = ("draw", "input", "tick")


def enabled(environ: dict[str, str] | None = None) -> bool:
    """The test flag, as the kiosk's environment had it at start."""
    return (os.environ if environ is None else environ).get(ENV) == "1"


class InjectedFault(RuntimeError):
    """The fault a test asked for: one exception class, one line, so repeats are "the same fault"."""


class RaisingScreen(Screen):
    """Shows the screen it covers and raises where the test said: drawing, handling an input, or a tick."""

    name = "raising"
    takes_scans = True

    def __init__(self, app: Host, under: Screen, where: str):
        super().__init__(app)
        if where not in PLACES:
            raise ValueError(f"fault place {where!r} (one of {', '.join(PLACES)})")
        self.under = under
        self.where = where

    def _raise_if(self, place: str) -> None:
        if self.where == place:
            raise InjectedFault(f"injected fault ({place})")

    def view(self, width: int, height: int) -> View:
        self._raise_if("draw")
        return self.under.view(width, height)

    def on_action(self, action: str) -> None:
        self._raise_if("input")
        self.under.on_action(action)

    def on_input(self, item: Input) -> None:
        self._raise_if("input")
        self.under.on_input(item)

    def next_wakeup(self) -> float | None:
        return 0.0 if self.where == "tick" else self.under.next_wakeup()

    def on_tick(self, now: float) -> bool:
        self._raise_if("tick")
        return self.under.on_tick(now)

    def model(self) -> dict[str, Any]:
        return {**self.under.model(), "fault": self.where}
