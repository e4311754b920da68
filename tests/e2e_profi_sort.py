"""Profi-Sort at the table: each simulated event made by touches, scans and seat buttons, as players would.

`drive(kiosk, event, seat_of, count)` works on anything with the control-socket calls of
`tests.kiosk_process.KioskProcess` (cmd, touch, state, wait, wait_events).
"""

from __future__ import annotations

import time
from typing import Any

from hw.scanners import DEFAULT_DEDUPE_MS
from referee.decks.profi_sort import REPEAT, TASK_IDS

GAME = "profi-sort"
NUMBER = {task_id: i + 1 for i, task_id in enumerate(TASK_IDS)}
_last_scan: dict[tuple[str, str], float] = {}


def scan(kiosk, code: str, reader: str) -> None:
    """Scan a card at a reader. A reader drops the same code again within its dedupe window (a card lying
    under it); a real table never rescans a card that fast, but a driven one can (the same card in the next
    round), so wait the window out as a table would."""
    window = getattr(kiosk, "dedupe_s", DEFAULT_DEDUPE_MS / 1000 + 0.05)
    wait = _last_scan.get((reader, code), -1e9) + window - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    kiosk.cmd("scan", code=code, reader=reader)
    _last_scan[(reader, code)] = time.monotonic()


def touch(kiosk, action: str) -> dict[str, Any]:
    """Touch a button that is on the screen now (never an action the screen does not offer)."""
    buttons = kiosk.cmd("view")["buttons"]
    assert action in buttons, f"no button {action!r} on screen: {buttons}"
    return kiosk.touch(action)


def choose(kiosk, match) -> None:
    """Touch the pending choice whose label matches, paging with the last option ("More") when needed."""
    for _ in range(5):
        pending = kiosk.state()["pending"]
        assert pending, "a question was expected on screen"
        hits = [i for i, label in enumerate(pending) if match(label)]
        if hits:
            touch(kiosk, f"choose:{hits[0]}")
            return
        touch(kiosk, f"choose:{len(pending) - 1}")
    raise AssertionError(f"no choice matches on any page: {pending}")


def scan_into(kiosk, codes: list[str], reader: str) -> None:
    """Scan cards into the collection on screen, each one answered before the next."""
    for code in codes:
        before = kiosk.state()["feedback"]
        scan(kiosk, code, reader)
        state = kiosk.wait(lambda s, before=before: s["feedback"] != before)
        assert state["feedback"]["ok"], state["feedback"]


def drive(kiosk, event: dict[str, Any], seat_of: dict[str, str], count: int) -> bool:
    if kiosk.state().get("game") != GAME:
        return False
    kind = event["type"]
    player = event.get("player")
    reader = seat_of.get(player) if player else None
    if kind == "draw":
        if event.get("from") == "discard":
            touch(kiosk, "act:draw-discard")
        elif count % 2:
            kiosk.cmd("tap", seat=reader, button="confirm")  # the seat's own button draws
        else:
            touch(kiosk, "act:draw")
    elif kind == "skip_with_ace":
        touch(kiosk, "act:skip")
    elif kind == "discard":
        scan(kiosk, event["card"], reader)  # after the draw a scan is the discard
    elif kind == "give_ace":
        touch(kiosk, "act:give")
        choose(kiosk, lambda label: label == event["to"])
        scan(kiosk, event["card"], reader)
    elif kind == "lay_task":
        touch(kiosk, "act:lay")
        task = event["task"]
        choose(kiosk, lambda label: label.startswith(f"{NUMBER[task]}:") if task != REPEAT else label.startswith("15"))
        if task == REPEAT:
            choose(kiosk, lambda label: label.startswith(f"{NUMBER[event['as']]}:"))
        for i, group in enumerate(event["groups"]):
            if i:
                touch(kiosk, "act:next")
            scan_into(kiosk, group, reader)
        touch(kiosk, "act:done")
    elif kind == "extend":
        touch(kiosk, "act:extend")
        choose(kiosk, lambda label: label.split(" · ")[0].split()[-1] == event["meld"].lstrip("m"))  # "meld 1"
        scan_into(kiosk, event["cards"], reader)
        if "at" in event:
            touch(kiosk, f"act:{event['at']}")
        touch(kiosk, "act:done")
    elif kind == "reveal_hand":
        touch(kiosk, f"act:reveal:{player}")
        scan_into(kiosk, event["cards"], reader)
        touch(kiosk, "act:done")
    elif kind == "redeal":
        touch(kiosk, "act:redeal")
        choose(kiosk, lambda label: label == player)
        scan_into(kiosk, event["cards"], reader)
        touch(kiosk, "act:done")
    elif kind == "new_round":
        touch(kiosk, "act:next-round")
    else:
        return False
    kiosk.wait_events(count)
    return True
