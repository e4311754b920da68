"""The staff page's part about the tables' keys and their records: tables waiting to join (accept or refuse, with
the fingerprint the table shows on its own Café screen), refused keys, the paired tables' fingerprints, records
kept aside as conflicts, and records dropped, per table and reason. Behind the staff login (`hub.staff`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from cafe.contract import is_id
from hub.admission import CHAIN, CONTRACT, HELD_FULL, QUOTA, REFUSED_KEY, RETIRED_KEY, SIGNATURE, UNSIGNED
from hub.forms import FormError
from hub.pairing import ACCEPTED, REFUSED, RETIRED, WAITING, Pairing
from hub.texts import N_, lang_of, tr
from hub.views import Hub

log = logging.getLogger("hub.staff")

DROP_WORDS = {
    SIGNATURE: N_("not signed with the table's key (forged, or signed by another key)"),
    REFUSED_KEY: N_("signed with a key the staff refused"),
    RETIRED_KEY: N_("signed with the table's old key (replaced by a new one)"),
    CHAIN: N_("does not continue the table's chain (reordered or slipped in)"),
    HELD_FULL: N_("too many records waiting (the table sends them again)"),
    CONTRACT: N_("not a record of the café protocol"),
    UNSIGNED: N_("unsigned: the table runs an older version"),
    QUOTA: N_("over the table's daily storage quota (the table keeps them; they are asked for again tomorrow)"),
}
CONFLICT_WORDS = {
    "same-n": N_("another record under a number the hub holds"),
    "second-start": N_("a second start for a game the hub holds"),
    "legacy": N_("an unsigned record from before signing that the table's signed log contradicts"),
}
MAX_FORM = 200  # characters of an id or a key in the forms (a key is 51)


def tables_view(hub: Hub, lang: str) -> dict[str, Any]:
    """What the staff page shows about keys, conflicts and drops."""
    pairing: Pairing = hub.ingest.pairing
    held = hub.reader.held_counts()
    keyed = {(k.cafe, k.table) for k in pairing.listed(ACCEPTED, RETIRED)}

    def key_row(key: Any) -> dict[str, Any]:
        return {"cafe": key.cafe, "table": key.table, "key": key.key, "fingerprint": key.fingerprint,
                "first_seen": key.first_seen, "last_seen": key.last_seen, "decided": key.decided,
                "held": held.get((key.cafe, key.table), 0), "change": (key.cafe, key.table) in keyed}

    conflicts = [c | {"words": tr(CONFLICT_WORDS.get(c["kind"], c["kind"]), lang)} for c in hub.reader.conflicts()]
    drops = [d | {"words": tr(DROP_WORDS.get(d["reason"], d["reason"]), lang)} for d in hub.reader.drops()]
    return {"waiting": [key_row(k) for k in pairing.listed(WAITING)],
            "refused": [key_row(k) for k in pairing.listed(REFUSED)],
            "paired": [key_row(k) for k in pairing.listed(ACCEPTED)], "conflicts": conflicts, "drops": drops}


def _chosen(hub: Hub, form: dict[str, str]) -> tuple[str, str, str]:
    """The café, table and key a staff form names: a key that table showed (or that was decided on before)."""
    cafe, table, key = (form.get(k, "")[:MAX_FORM] for k in ("cafe", "table", "key"))
    if not (is_id(cafe) and is_id(table)) or key not in {k.key for k in hub.ingest.pairing.keys(cafe, table)}:
        raise FormError("No such table key.")
    return cafe, table, key


async def decide(hub: Hub, request: Request, form: dict[str, str], accept: bool) -> str:
    """Accept or refuse a table's key (the form's); the sentence that says what was done."""
    cafe, table, key = _chosen(hub, form)
    pairing = hub.ingest.pairing
    act = pairing.accept if accept else pairing.refuse
    decision = await run_in_threadpool(act, cafe, table, key, time.time())
    text = N_("Table {table} accepted (key {fingerprint}).")
    if not accept:
        text = N_("Key {fingerprint} of table {table} refused.")
    return tr(text, lang_of(request), table=f"{cafe}/{table}", fingerprint=decision.fingerprint)


def post_handlers(hub: Hub, page: Callable[[Request, str], Response]) -> dict[str, Any]:
    """The staff's POST handlers (form → response), for `hub.staff` to guard and route."""
    async def accept(request: Request, form: dict[str, str]) -> Response:
        return page(request, await decide(hub, request, form, True))

    async def refuse(request: Request, form: dict[str, str]) -> Response:
        return page(request, await decide(hub, request, form, False))

    return {"/staff/tables/accept": accept, "/staff/tables/refuse": refuse}
