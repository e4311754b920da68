"""Every route of the hub under arbitrary parameters (issue #34): hypothesis throws any text at every path
parameter and query field of every GET page and API route, and at every staff form, against the real app over a
store with games in it. Nothing may answer 500: a malformed parameter is the client's error (400 or 404)."""

from __future__ import annotations

import time
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.ingest import Incoming
from tests.hub_app import OWN, hub_client, log_in
from tests.hub_tables import LoggedTable, paired, random_records

ANY = st.one_of(st.text(st.characters(exclude_categories=["Cs"]), max_size=40),
                st.sampled_from(["9999-12-31", "0001-01-01", "2026-02-30", "-1", "0", "99999999999999999999", "..",
                                 "../..", "%00", "\x00", "NaN", "1e309", "'; DROP TABLE games;--", "g-1", "c1", "t1",
                                 "magische-7", "verified", "2026-11-14", "x" * 5000]))
ROUTES = ["/", "/table/{a}/{b}", "/leaderboard/{a}", "/games", "/games/{a}/{b}/{c}", "/games/{a}.jsonl",
          "/games/{a}", "/games/{a}/{b}/{c}.csv", "/games/{a}/{b}/{c}.jsonl", "/games.csv", "/players/{a}",
          "/evening", "/evening/{a}", "/print", "/api/tables", "/api/leaderboard/{a}", "/api/games",
          "/api/games/{a}/{b}/{c}", "/api/games/{a}", "/api/players/{a}", "/api/evening", "/api/evening/{a}",
          "/api/announcements", "/api/health", "/staff", "/staff/table/{a}/{b}", "/club-nights", "/club/{a}",
          "/club/{a}.json", "/club/{a}.csv", "/club/{a}/join"]
QUERY_KEYS = ["lang", "cafe", "table", "game", "status", "day", "page", "view", "every"]
SLOW = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    data = tmp_path_factory.mktemp("hub")
    with hub_client(data) as (client, app):
        for i, game in enumerate(("magische-7", "alles-klar")):
            table = LoggedTable(f"t{i + 1}")
            paired(app.ingest, "c1", table)
            records = random_records(table, game, seed=i)
            app.ingest.process([Incoming("log", "c1", f"t{i + 1}", r, time.time()) for r in records])
        assert len(app.reader.games()) == 2
        log_in(client)
        yield client


def quote(value: str) -> str:
    return urllib.parse.quote(value, safe="")


@SLOW
@given(route=st.sampled_from(ROUTES), a=ANY, b=ANY, c=ANY,
       query=st.dictionaries(st.sampled_from(QUERY_KEYS), ANY, max_size=4))
def test_no_get_route_answers_500(hub, route: str, a: str, b: str, c: str, query: dict[str, str]) -> None:
    path = route.format(a=quote(a), b=quote(b), c=quote(c))
    response = hub.get(path + ("?" + urllib.parse.urlencode(query) if query else ""), follow_redirects=False)
    assert response.status_code < 500, (path, query, response.text[:500])


FORMS = ["/staff/announce", "/staff/merge", "/staff/unmerge", "/staff/club-nights"]
FIELDS = ["de", "en", "until", "cafe", "clear", "alias", "name", "confirm", "action", "title", "game", "day",
          "round", "table", "tables", "note", "seating", "scoring", "rounds"]


@SLOW
@given(path=st.sampled_from(FORMS), form=st.dictionaries(st.sampled_from(FIELDS), ANY, max_size=6))
def test_no_staff_form_answers_500(hub, path: str, form: dict[str, str]) -> None:
    response = hub.post(path, data=form, headers=OWN, follow_redirects=False)
    assert response.status_code < 500, (path, form, response.text[:500])
