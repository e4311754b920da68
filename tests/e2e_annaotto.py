"""ANNAOTTO at the simulated table: every simulated event made the way players make it.

Scans for the start card (the shared reader) and for plays (the actor's reader; a
card out of another hand after touching "From…" and that player), touches for
draws, calls, catches and the ANNAOTTO choices, seat buttons for `confirm` and
for slaps (stamped with the event's `t_us` as the edge time). `race_close` is the
kiosk's own timer: the driver waits for it.
"""

from __future__ import annotations

from typing import Any

from kiosk.games.annaotto import DEFAULT_RACE_TIMEOUT_MS
from referee.decks.annaotto import COLOUR_NAMES
from referee.words import tr


def _choose(kiosk: Any, label: str) -> None:
    pending = kiosk.wait(lambda s: s.get("pending"))["pending"]
    kiosk.touch(f"choose:{pending.index(label)}")


def drive(kiosk: Any, event: dict[str, Any], seat_of: dict[str, str], count: int) -> bool:
    if kiosk.state().get("game") != "annaotto":
        return False
    kind = event["type"]
    if kind == "start":
        kiosk.cmd("scan", code=event["card"])  # the operator, at the shared reader
    elif kind == "play":
        if "from" in event:
            kiosk.touch("act:from")
            _choose(kiosk, event["from"])
        code = event["card"] if "card" in event else event["cards"][0]
        kiosk.cmd("scan", code=code, reader=seat_of[event["player"]])
    elif kind == "draw":
        kiosk.touch("act:draw")
    elif kind == "press" and event["button"] == "confirm":
        kiosk.cmd("tap", seat=seat_of[event["player"]], button="confirm")
    elif kind == "press" and event["button"] == "slap":
        kiosk.cmd("tap", seat=seat_of[event["player"]], button="slap", t_ns=event["t_us"] * 1000)
    elif kind == "call":
        kiosk.touch(f"act:call:{event['player']}:{event['word']}")
    elif kind == "catch":
        kiosk.touch("act:catch")
        _choose(kiosk, event["player"])
    elif kind == "choose_colour":
        kiosk.touch("act:colour")
        _choose(kiosk, tr(COLOUR_NAMES[event["colour"]], kiosk.state().get("lang", "en")))  # as the table says it
    elif kind == "flip_choice":
        kiosk.touch("act:flip")
        index = {"self": 0, "next": 1}[event["who"]]
        kiosk.touch(f"choose:{index}")
    elif kind == "race_close":
        kiosk.wait_events(count, timeout=DEFAULT_RACE_TIMEOUT_MS / 1000 + 10)  # the kiosk's own timer
    else:
        return False
    return True
