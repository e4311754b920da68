"""Audit scenes of ANNAOTTO's ALLE race as real play draws it (issue #37): six players with 12-character names of
whom five lose by the timeout (every name in full), the countdown, and a race decided by less than a millisecond
with a tie among the last (the precision that decided it, the tie said as one)."""

from __future__ import annotations

import time

from kiosk.app.controller import TableController
from kiosk.app.host import KioskHost
from kiosk.audit_fixtures.table import LONG_NAMES, NAMES, show
from kiosk.drawing.audit import scene


def _opened(players: list[str]) -> TableController:
    c = TableController.new_game(None, "annaotto", players, players[-1])
    c.scan("AO:RED.DOTS")
    c.scan("AO:RED.DOTS.ALLE")
    c.action(f"call:{players[0]}:ALLE")
    return c


@scene("table:annaotto:race-countdown-six")
def countdown(app: KioskHost) -> None:
    c = _opened(LONG_NAMES)
    c.button(LONG_NAMES[3], "slap", time.monotonic_ns())
    show(app, c)


@scene("table:annaotto:race-timeout-six")
def timeout(app: KioskHost) -> None:
    """Five of six lose: the race closed by its timer with one slap."""
    c = _opened(LONG_NAMES)
    c.button(LONG_NAMES[3], "slap", time.monotonic_ns())
    c.submit({"type": "race_close"})
    show(app, c)


@scene("table:annaotto:race-tie")
def tie(app: KioskHost) -> None:
    """Decided by 0.3 ms; the last two slapped at the same microsecond and both lose."""
    players = NAMES[:4]
    c = _opened(players)
    base = time.monotonic_ns()
    for player, us in ((players[1], 0), (players[0], 400), (players[3], 700), (players[2], 700)):
        c.button(player, "slap", base + us * 1000)
    show(app, c)
