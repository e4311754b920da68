"""The attack drill (issue #34's "Done when"): every attack of the issue against a real café on loopback —
Debian's Mosquitto with TLS and a user per table, the hub as a process over HTTPS, a table signing its log,
real kiosk processes — and per attack whether it was refused, detected or harmless; then the totals: records
lost or changed, ratings changed by forged records, kiosk exits, the pages' p99 during the connection flood,
/api/health honest throughout.

    python -m benchmarks.attack [--small] [--json FILE]        (scripts/drill.sh attack)

`--small` is CI's size (tests/test_attack_drill.py): the same attacks, fewer junk records, a shorter flood.
Nothing is asserted here; the exit status is 1 when an attack FAILED or a total is not zero.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from benchmarks import attack_hub, attack_kiosk  # noqa: E402
from benchmarks.attack_cafe import Cafe, open_cafe  # noqa: E402

SIZES = {"small": {"junk": 40, "oversize": 20, "flood": 1050, "flood_s": 3.0},
         "full": {"junk": 200, "oversize": 500, "flood": 1050, "flood_s": 10.0}}


def attacks(size: dict[str, Any]) -> list[tuple[str, Callable[[Cafe], tuple[str, str]]]]:
    """(name, attack) in the order they run: the forgeries first (the leaderboards are compared around them)."""
    return [
        ("squatted n's: junk records at the hub's next numbers",
         lambda c: attack_hub.squatted_records(c, size["junk"])),
        ("a second start rewriting a verified game", attack_hub.second_start),
        ("records resent, moved, swapped, re-signed with a new key", attack_hub.reordered_and_resigned),
        ("a made-up rule-legal game won by Forged", attack_hub.made_up_game),
        ("a retained log record, 3,000 players, 60 KB records",
         lambda c: attack_hub.retained_and_oversize(c, size["oversize"])),
        (f"{size['flood']} held GET /events from one address",
         lambda c: attack_hub.connection_flood(c, size["flood"], size["flood_s"])),
        ("8 guests loading every page at once", attack_hub.parallel_loads),
        ("guessing the staff password from 4 addresses", attack_hub.guessing),
        ("a NUL in an announcement, malformed days, framing", attack_hub.hostile_forms_and_addresses),
        ("two opposite merges at the same moment", attack_hub.opposite_merges),
        ("a NUL announcement and Eve\\x00 assignment at a kiosk", attack_kiosk.nul_on_the_screen),
        ("the default PIN 1234 at the admin corner", attack_kiosk.default_pin),
        ("a USB stick with links to the live log", attack_kiosk.stick_links),
        ("a config beyond reason (iterations, screen, file)", attack_kiosk.config_beyond_reason),
    ]


def run(size: dict[str, Any]) -> dict[str, Any]:
    cafe = open_cafe()
    rows: list[dict[str, Any]] = []
    try:
        boards: dict[str, Any] = {}
        forged_ratings = 0
        for number, (name, attack) in enumerate(attacks(size), start=1):
            began = time.monotonic()
            try:
                verdict, detail = attack(cafe)
            except Exception as error:  # a drill reports what broke and goes on
                verdict, detail = "FAILED", f"{type(error).__name__}: {error}"[:300]
            rows.append({"attack": name, "verdict": verdict, "detail": detail, "s": time.monotonic() - began})
            print(f"{number:2}. {verdict:9} {name}: {detail}", flush=True)
            if number == 1:  # the first attack ends with a real game: the ratings from here to the forgeries' end
                boards = cafe.boards()
            if number == 4:
                forged_ratings = int(cafe.boards() != boards)
        honest, health = cafe.honest()
        forged_ratings += any(name in json.dumps(cafe.boards()) for name in ("Forged", "Mallory"))
        totals = {"records lost or changed": cafe.lost_or_changed(), "ratings changed by forged records":
                  forged_ratings, "kiosk exits": cafe.kiosk_exits, "pages p99 during the flood (ms)":
                  round(cafe.flood_p99_ms, 1), "health honest": honest, "health": health}
    finally:
        cafe.close()
    return {"attacks": rows, "totals": totals}


def report(result: dict[str, Any]) -> bool:
    """Print the totals; True when every attack was refused, detected or harmless and every total is zero."""
    totals = result["totals"]
    for key, value in totals.items():
        print(f"{key}: {value}")
    failed = [r["attack"] for r in result["attacks"] if r["verdict"] == "FAILED"]
    ok = not failed and totals["health honest"] and not any(
        totals[k] for k in ("records lost or changed", "ratings changed by forged records", "kiosk exits"))
    print(f"attacks: {len(result['attacks'])}, failed: {len(failed)}", flush=True)
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="CI's size")
    parser.add_argument("--json", type=Path, help="write the result here as JSON")
    args = parser.parse_args(argv)
    result = run(SIZES["small" if args.small else "full"])
    if args.json:
        args.json.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0 if report(result) else 1


if __name__ == "__main__":
    sys.exit(main())
