"""alcasan at the simulated table: single cards and reveals are scans, several cards of one face are gathered
("Lay several", one scan each, "Lay N cards"), taking the pile is a touch."""

from __future__ import annotations

import time
from typing import Any

from hw.scanners import DEFAULT_DEDUPE_MS

# A scanner reports the same code again only after its dedupe window (hw/scanners.py); a card that came back
# with a taken pile can be laid again within moments in a fast simulated game, so wait as a player would.
_scanned: dict[tuple[int, str, str], float] = {}


def scan(kiosk: Any, code: str, reader: str) -> None:
    key = (id(kiosk), reader, code)
    wait = _scanned.get(key, 0.0) + DEFAULT_DEDUPE_MS / 1000 + 0.1 - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    kiosk.cmd("scan", code=code, reader=reader)
    _scanned[key] = time.monotonic()


def drive(kiosk: Any, event: dict, seat_of: dict[str, str], count: int) -> bool:
    kind = event["type"]
    if kind == "play" and len(event.get("cards", ())) == 1:  # a one-card list is a single scan
        event = {"type": "play", "player": event["player"], "card": event["cards"][0]}
    if kind == "take_pile":
        kiosk.touch("act:take")
    elif kind in ("play", "reveal") and "card" in event and event["card"].startswith("AC:"):
        scan(kiosk, event["card"], seat_of[event["player"]])
    elif kind == "play" and "cards" in event and event["cards"][0].startswith("AC:"):
        screen = kiosk.touch("act:several")
        assert screen["pending"] == [], screen
        for n, code in enumerate(event["cards"], 1):
            scan(kiosk, code, seat_of[event["player"]])
            # "Lay 2 cards" / "2 Karten legen": one answer, naming how many (in the table's language)
            kiosk.wait(lambda s, n=n: len(s.get("pending") or []) == 1 and str(n) in s["pending"][0].split())
        kiosk.touch("choose:0")
    else:
        return False
    kiosk.wait_events(count)
    return True
