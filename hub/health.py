"""`/api/health`: is the hub doing its job, not just serving pages — the broker link, the writer and network
threads (and how often the supervisor restarted them), what was stored and dropped, gaps given up on — and,
per table, what the staff must look at: records held (waiting for the staff's decision on a key, or for a gap),
conflicts kept aside, records dropped by reason, tables waiting to join.

503 while the hub cannot do its job (the broker link down, a thread dead), so a monitor (or `curl -f`) notices
without reading the body; `attention` counts what needs the staff (200 still: the hub works, someone tried)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from hub.pairing import ACCEPTED, WAITING
from hub.views import Hub

if TYPE_CHECKING:
    from hub.ingest import Ingest
    from hub.queries import Reader


def routes(hub: Hub) -> list[Route]:
    def health(request: Request) -> Response:
        state = hub.health()
        return JSONResponse(state, status_code=200 if state.get("ok", True) else 503)

    return [Route("/api/health", health)]


def integrity(reader: Reader, ingest: Ingest) -> dict[str, Any]:
    """The per-table part of /api/health: held, conflicts, drops, the gap given up on, the key's state."""
    tables = reader.integrity()
    for gap in ingest.gaps_given_up():
        tables.setdefault(f"{gap['cafe']}/{gap['table']}", {"held": {"pairing": 0, "gap": 0}, "conflicts": 0,
                                                            "dropped": {}})["gap"] = gap
    waiting = ingest.pairing.listed(WAITING)
    for key in ingest.pairing.listed(WAITING, ACCEPTED):
        entry = tables.setdefault(f"{key.cafe}/{key.table}", {"held": {"pairing": 0, "gap": 0}, "conflicts": 0,
                                                             "dropped": {}})
        if key.state == ACCEPTED:
            entry["key"] = key.fingerprint
        else:
            entry.setdefault("waiting_keys", []).append(key.fingerprint)
    attention = len(waiting) + sum(t["conflicts"] + sum(t["dropped"].values()) + ("gap" in t) + t["held"]["gap"] > 0
                                   for t in tables.values())
    totals = {"held": sum(sum(t["held"].values()) for t in tables.values()),
              "conflicts": sum(t["conflicts"] for t in tables.values()),
              "dropped": sum(sum(t["dropped"].values()) for t in tables.values()), "waiting_to_join": len(waiting)}
    return {"attention": attention, "integrity": totals, "tables": tables}
