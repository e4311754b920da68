"""An attack drill on the club nights' forms (#35): random and hostile posts to every desk action and to the
guests' check-in — control characters, very long or empty names, rounds like −5 and 2⁶³, unknown tables, a
flood of check-ins from one IPv6 network — against the hub's real app, store and desk in one process.

Every answer must be a page (200, 303) or a refusal with its reason (400), never a server error; an evening's
players stay within their bounds (names clean and at most 40 characters, at most 3 guest names per device).

    python -m benchmarks.club_attack [--posts 5000] [--seed N]      (scripts/drill.sh club)
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

from starlette.testclient import TestClient  # noqa: E402

from hub.auth import hash_password  # noqa: E402
from hub.evenings.desk import GUESTS_PER_ADDRESS, MAX_NAME, Desk  # noqa: E402
from hub.ingest import Ingest  # noqa: E402
from hub.live import Broadcaster  # noqa: E402
from hub.queries import Reader  # noqa: E402
from hub.store import Store  # noqa: E402
from hub.web import Hub, create_app  # noqa: E402

ACTIONS = ("check_in", "remove", "drop", "back", "open", "close", "start", "redraw", "close_round", "undo",
           "accept", "replay", "enter", "edit", "end", "delete", "", "nope")
ORIGIN = {"origin": "http://testserver"}


def hostile(rng: random.Random) -> str:
    """A text a form field should never choke on."""
    pick = rng.randrange(9)
    if pick == 0:
        return "".join(chr(rng.randrange(0, 0x20)) for _ in range(rng.randrange(1, 6)))
    if pick == 1:
        return "x" * rng.choice((41, 200, 5000))
    if pick == 2:
        return rng.choice(("", " ", "\t", "Spieler 1", "Player 7", "=HYPERLINK(1)", "Anna\x00", "\u202eannA"))
    if pick == 3:
        return str(rng.choice((-5, 0, 99, 2**63, -(2**63), 10**30)))
    if pick == 4:
        return "".join(chr(rng.randrange(0x20, 0x2FFF)) for _ in range(rng.randrange(1, 30)))
    return rng.choice(("Anna", "anna", "ANNA", "Ben", "Cleo", "Dana", "Emil", "Fee", "t1", "t2", "t9", "1", "2"))


def form(rng: random.Random) -> dict[str, Any]:
    fields = {"action": rng.choice(ACTIONS), "name": hostile(rng), "note": hostile(rng), "round": hostile(rng),
              "table": hostile(rng), "rounds": hostile(rng), "game": rng.choice(("alles-klar", "x", "")),
              "seating": rng.choice(("mixing", "x")), "scoring": rng.choice(("places", "x")),
              "title_de": hostile(rng), "title_en": hostile(rng), "confirm": "1" if rng.random() < 0.02 else ""}
    for i in range(rng.randrange(0, 5)):
        fields[f"place-{i}"] = hostile(rng)
    if rng.random() < 0.3:
        fields[f"table-{hostile(rng)[:8]}"] = "1"
    return fields


def cafe(tmp: Path) -> tuple[Hub, Desk, Store]:
    """The hub's app over a fresh store, an evening on two tables."""
    store = Store(tmp / "hub.sqlite")
    reader = Reader(tmp / "hub.sqlite")
    hub = Hub(reader, Ingest(store, lambda c, t, n: None), Broadcaster(), lambda c, p: None, "nord",
              hash_password("pw"), table_names={"t1": "A", "t2": "B"})
    desk = hub.evenings = Desk(tmp, tmp / "hub.sqlite", lambda c, t, a: None, known_tables=hub.known_tables,
                               aliases=reader.aliases)
    desk.create("abend", cafe="nord", game="alles-klar", rounds=3, tables=["t1", "t2"])
    return hub, desk, store


def attack(hub: Hub, posts: int, rng: random.Random) -> tuple[Counter[int], list[str]]:
    """`posts` hostile posts, every fifth a guest's check-in from one of a few IPv6 networks; the answers, and
    the evenings used (a confirmed delete is obeyed: the next evening takes over)."""
    app = create_app(hub)
    staff = TestClient(app, raise_server_exceptions=False)
    staff.post("/staff/login", data={"password": "pw"}, headers=ORIGIN)
    answers: Counter[int] = Counter()
    evenings = ["abend"]
    for i in range(posts):
        if evenings[-1] not in hub.evenings.ids():
            evenings.append(f"abend-{len(evenings)}")
            hub.evenings.create(evenings[-1], cafe="nord", game="alles-klar", rounds=3, tables=["t1", "t2"])
        if i % 5 == 0:
            device = (f"2001:db8:0:{rng.randrange(3)}::{rng.randrange(1, 9999):x}", 5000)
            guest = TestClient(app, raise_server_exceptions=False, client=device)
            answer = guest.post(f"/club/{evenings[-1]}/join", data={"name": hostile(rng)}, headers=ORIGIN)
        else:
            answer = staff.post(f"/staff/club/{evenings[-1]}?lang=de", data=form(rng), headers=ORIGIN)
        answers[answer.status_code] += 1
    return answers, evenings


def drill(posts: int, seed: int) -> dict[str, Any]:
    """The attack and what it left: server errors (none allowed), names out of bounds, guests per device."""
    with tempfile.TemporaryDirectory() as folder:
        hub, desk, store = cafe(Path(folder))
        started = time.perf_counter()
        answers, evenings = attack(hub, posts, random.Random(seed))
        elapsed = time.perf_counter() - started
        entrants = [e for i in evenings if i in desk.ids() for e in desk.evening(i).entrants.values()]
        store.close()
    bad_names = [e.name for e in entrants if not e.name or len(e.name) > MAX_NAME
                 or any(unicodedata.category(c) in ("Cc", "Cs") for c in e.name)]
    per_device = Counter(e.address for e in entrants if e.via == "guest")
    errors = sum(n for code, n in answers.items() if code >= 500)
    most = max(per_device.values(), default=0)
    ok = not errors and not bad_names and most <= GUESTS_PER_ADDRESS
    return {"posts": posts, "answers": dict(sorted(answers.items())), "server_errors": errors,
            "bad_names": bad_names, "most_per_device": most, "devices": len(per_device),
            "evenings": len(evenings), "seconds": round(elapsed, 1), "ok": ok}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result = drill(args.posts, args.seed)
    print(result)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
