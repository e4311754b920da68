"""What the café's owner reads off the hub, on a store filled through the hub's own ingest: games named by
(café, table, uid), CSV cells that no spreadsheet runs as formulas, times from the hub's clock in the café's
zone with the table's clock beside them, German numbers and dates, winners on the table cards, the current
announcement, a page per player, an evening's standings, a print view with a QR code, table names, scores and
lengths in the games list, one game as CSV — each on the page and in the JSON API, in German and English."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import segno
from starlette.testclient import TestClient

from hub import formats
from hub.auth import hash_password
from hub.config import load
from hub.ingest import Incoming, Ingest
from hub.live import Broadcaster
from hub.queries import Reader
from hub.store import Store
from hub.web import Hub, create_app
from referee.config_lines import ConfigError
from referee.sim import random_game
from tests.hub_tables import LoggedTable, paired, status

BERLIN = ZoneInfo("Europe/Berlin")
# 21:30 and 23:50 in Berlin on 14 Nov 2026, and 00:40 the next morning (the same evening); then 15 Nov 20:00
EVENING = dt.datetime(2026, 11, 14, 21, 30, tzinfo=BERLIN).timestamp()
PASSWORD = "Kaffee"
FORMULAS = ["=HYPERLINK(\"x\")", "+49 171", "-Ben", "@SUM(A1)"]


def renamed(game: str, seed: int, names: dict[str, str]) -> tuple[dict, list]:
    """A random game whose players are called `names` (every mention of the old name replaced)."""
    header, events = random_game(game, seed, None)
    text = json.dumps([header, events])
    for old, new in names.items():
        text = text.replace(json.dumps(old), json.dumps(new))
    header, events = json.loads(text)
    return header, events


def feed(ingest: Ingest, table: LoggedTable, header: dict, events: list, received: float, uid: str | None = None,
         clock: str | None = None) -> list[dict]:
    """One game's records through the hub's ingest, received one second apart from `received`."""
    if ingest.pairing.pinned("cafe-1", table.table) is None:
        paired(ingest, "cafe-1", table)
    records = list(table.game(header, events))
    for record in records:
        if uid:
            record["game_uid"] = uid
        if clock:
            record["at"] = clock
    records = table.reseal(records)
    for i, record in enumerate(records):
        ingest.process([Incoming("log", "cafe-1", table.table, record, received + i)])
    ingest.process([Incoming("status", "cafe-1", table.table,
                             status(table.table, records[-1]["n"], game=header["game"], finished=True,
                                    game_uid=records[-1]["game_uid"], players=header["players"], key=table.key),
                             received + 99)])
    return records


@pytest.fixture
def owner(tmp_path):
    store = Store(tmp_path / "hub.sqlite")
    ingest = Ingest(store, lambda cafe, table, n: None)
    t1, t2, t3 = LoggedTable("t1"), LoggedTable("t2"), LoggedTable("t3")
    # t1 and t2 both name their first game "g-1": a uid is only unique at its own table
    header, events = renamed("magische-7", 1, {})
    feed(ingest, t1, header, [events[1], *events], EVENING, uid="g-1")  # Ben first: rejected, not his turn
    feed(ingest, t2, *renamed("alles-klar", 2, {}), EVENING + 8400, uid="g-1",
         clock="1999-01-01T03:00:00.000+00:00")  # a Pi whose clock is wrong
    feed(ingest, t3, *renamed("magische-7", 3, dict(zip(["Anna", "Ben"], FORMULAS[:2], strict=False))),
         EVENING + 11400)  # 00:40 the next morning: still the evening of the 14th
    feed(ingest, t1, *renamed("magische-7", 4, {}), EVENING + 81000)  # the next evening
    hub = Hub(Reader(tmp_path / "hub.sqlite"), ingest, Broadcaster(), lambda c, p: None, "cafe-1",
              hash_password(PASSWORD), "Europe/Berlin", {"t1": "Fenster", "cafe-1/t2": "Ecke"})
    # the staff's POSTs come from the hub's own pages, as a browser's do (hub.forms)
    with TestClient(create_app(hub), headers={"Origin": "http://testserver"}) as client:
        client.hub = hub  # type: ignore[attr-defined]
        yield client
    store.close()


def test_a_uid_names_a_game_only_together_with_its_cafe_and_table(owner):
    games = owner.get("/api/games").json()
    same = sorted((g["table"], g["game"], g["url"], g["api"]) for g in games if g["game_uid"] == "g-1")
    assert same == [("t1", "magische-7", "/games/cafe-1/t1/g-1", "/api/games/cafe-1/t1/g-1"),
                    ("t2", "alles-klar", "/games/cafe-1/t2/g-1", "/api/games/cafe-1/t2/g-1")]
    assert owner.get("/api/games/cafe-1/t2/g-1").json()["game"] == "alles-klar"
    assert owner.get("/api/games/cafe-1/t1/g-1").json()["game"] == "magische-7"
    assert "Alles klar?" in owner.get("/games/cafe-1/t2/g-1?lang=en").text
    assert "Die magische 7" in owner.get("/games/cafe-1/t1/g-1?lang=en").text
    # the old address names both: a list (page) or 300 with both addresses (API), never the first table's game
    listing = owner.get("/games/g-1?lang=en")
    assert listing.status_code == 200
    assert "/games/cafe-1/t1/g-1" in listing.text and "/games/cafe-1/t2/g-1" in listing.text
    ambiguous = owner.get("/api/games/g-1")
    assert ambiguous.status_code == 300
    assert sorted(ambiguous.json()["games"]) == ["/api/games/cafe-1/t1/g-1", "/api/games/cafe-1/t2/g-1"]
    assert owner.get("/games/cafe-1/t3/g-1").status_code == 404
    # a uid used once still opens at its old address
    (unique,) = [g for g in games if g["table"] == "t3"]
    assert owner.get(f"/api/games/{unique['game_uid']}").json()["table"] == "t3"
    assert owner.get(f"/games/{unique['game_uid']}", follow_redirects=False).headers["location"] == unique["url"]
    assert owner.get("/games/cafe-1/t2/g-1.jsonl").text.startswith('{"format"')


def spreadsheet(text: str) -> list[list[str]]:
    """A CSV as a German spreadsheet program reads it: a BOM first, semicolons between cells."""
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


def test_no_csv_cell_is_a_formula(owner):
    rows = spreadsheet(owner.get("/games.csv").text)
    cells = [cell for row in rows[1:] for cell in row]
    numbers = re.compile(r"-?\d+(,\d+)?")  # a negative score is a number (German decimal comma), not a formula
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@") and not numbers.fullmatch(c)]
    assert "-3" in cells
    (t3,) = [r for r in rows[1:] if r[1] == "t3"]
    assert "'=HYPERLINK(\"x\")" in t3 and "'+49 171" in t3  # the players' cells, escaped as text
    header = rows[0]
    scores = [t3[header.index(f"score_{i}")] for i in (1, 2)]
    assert all(s.isdigit() for s in scores), scores  # numbers as numbers, one cell each
    game = next(g for g in owner.get("/api/games?table=t3").json())
    moves = spreadsheet(owner.get(game["url"] + ".csv?lang=en").text)
    assert moves[0] == ["n", "seq", "received", "at_table_clock", "kind", "move", "ok", "verdict"]
    assert len(moves) == 1 + len(owner.get(game["api"]).json()["records"])
    assert not [c for row in moves[1:] for c in row if c[:1] in ("=", "+", "-", "@")]
    assert any(c.startswith("'=HYPERLINK") for row in moves[1:] for c in row)
    assert formats.csv_cell("-3") == "'-3" and formats.csv_cell(-3) == -3 and formats.csv_cell("Anna") == "Anna"


def test_times_are_the_hubs_receive_times_in_the_cafes_zone_with_the_tables_clock_beside(owner):
    (t2,) = owner.get("/api/games?table=t2").json()
    assert t2["started_local"] == "2026-11-14T23:50:00+01:00"  # received 23:50 in Berlin
    assert t2["started_at"] == "1999-01-01T03:00:00.000+00:00"  # the table's clock, kept as it said
    de = owner.get(t2["url"] + "?lang=de").text
    # the table's clock beside, in the café's zone too (03:00 UTC is 04:00 in Berlin), not as a UTC string
    assert "14.11.2026, 23:50" in de and "01.01.1999, 04:00" in de and "1999-01-01 03:00" not in de
    assert "2026-11-14 23:50" in owner.get(t2["url"] + "?lang=en").text
    # lists sort by the hub's receive time, not by a table's clock that says 1999
    assert [g["table"] for g in owner.get("/api/games").json()] == ["t1", "t3", "t2", "t1"]
    assert t2["length_s"] is not None and t2["length_s"] >= 0


def test_numbers_and_dates_read_as_in_the_pages_language(owner):
    de, en = owner.get("/leaderboard/magische-7?lang=de").text, owner.get("/leaderboard/magische-7?lang=en").text
    assert re.search(r"<td>−?\d+,\d</td>", de) and not re.search(r"<td>−?\d+\.\d</td>", de)
    assert re.search(r"<td>−?\d+\.\d</td>", en)
    assert formats.number(5.5, "de") == "5,5" and formats.number(1234.5, "de") == "1.234,5"
    assert formats.number(5.5, "en") == "5.5" and formats.number(-2.25, "de") == "−2,2"


def test_the_errors_page_shows_dates_with_times(owner):
    owner.post("/staff/login", data={"password": PASSWORD})
    page = owner.get("/staff/table/cafe-1/t1?lang=de").text
    errors = re.findall(r">(\d\d\.\d\d\.\d{4}, \d\d:\d\d)<br>", page)
    rejected = [r for g in owner.get("/api/games?table=t1").json() for r in owner.get(g["api"]).json()["records"]
                if r["kind"] == "event" and not r["answer"]["ok"]]
    assert len(errors) == min(50, len(rejected)) and errors


def test_the_table_cards_show_the_winner_and_link_the_finished_game(owner):
    tables = {t["table"]: t for t in owner.get("/api/tables").json()}
    t1 = tables["t1"]
    latest = owner.get("/api/games?table=t1").json()[0]
    assert t1["last_game"]["url"] == latest["url"] and t1["last_game"]["winners"] == latest["winners"]
    assert latest["winners"]
    for lang, word in (("de", "Sieger"), ("en", "Winners")):
        page = owner.get(f"/?lang={lang}").text
        card = page[page.index('data-key="cafe-1/t1"'):page.index('data-key="cafe-1/t2"')]
        assert f'href="{latest["url"]}"' in card and word in card and latest["winners"][0] in card


def test_table_names_from_the_config_stand_beside_the_ids(owner):
    names = {t["table"]: t["name"] for t in owner.get("/api/tables").json()}
    assert names == {"t1": "Fenster", "t2": "Ecke", "t3": ""}
    assert {g["table"]: g["table_name"] for g in owner.get("/api/games").json()}["t2"] == "Ecke"
    for lang, table in (("de", "Tisch"), ("en", "Table")):
        assert f"{table} t1 · <span class=\"tlabel\">Fenster</span>" in owner.get(f"/?lang={lang}").text
        assert "Fenster" in owner.get(f"/games?lang={lang}").text and "Ecke" in owner.get("/table/cafe-1/t2").text


def test_the_games_list_shows_scores_and_length(owner):
    (t3,) = owner.get("/api/games?table=t3").json()
    for lang in ("de", "en"):
        page = owner.get(f"/games?lang={lang}").text
        assert ("Dauer" if lang == "de" else "Length") in page
        assert f"{formats.duration(t3['length_s'])}</td>" in page
        for player, score in t3["scores"].items():
            assert f"{player} {formats.number(score, lang, 0)}</span>" in page.replace("&#34;", '"')


def test_the_staff_page_shows_the_announcement_showing_now(owner):
    owner.post("/staff/login", data={"password": PASSWORD})
    assert "Gerade läuft keine Durchsage." in owner.get("/staff?lang=de").text
    owner.post("/staff/announce", data={"cafe": "cafe-1", "de": "Letzte Runde", "en": "Last round"})
    for lang, word in (("de", "Läuft gerade"), ("en", "Showing now")):
        page = owner.get(f"/staff?lang={lang}").text
        assert word in page and "Letzte Runde" in page and "Last round" in page
    assert owner.get("/api/announcements").json()["cafe-1"]["text"] == {"de": "Letzte Runde", "en": "Last round"}
    owner.post("/staff/announce", data={"cafe": "cafe-1", "clear": "1"})
    assert owner.get("/api/announcements").json() == {}
    assert "No announcement is showing." in owner.get("/staff?lang=en").text


def test_a_page_per_player_with_games_results_and_rating_over_time(owner):
    data = owner.get("/api/players/Anna").json()
    assert data["player"] == "Anna"
    assert {g["url"] for g in data["games"]} == {g["url"] for g in owner.get("/api/games").json()
                                               if "Anna" in g["players"]}
    verified = [g for g in data["games"] if g["check"] == "verified" and g["status"] == "finished"]
    assert len(data["ratings"]) == len(verified) >= 2
    assert data["ratings"][-1]["rating"] == next(p["rating"] for p in owner.get("/api/leaderboard/magische-7").json()
                                                 ["players"] if p["player"] == "Anna")
    for g in data["games"]:
        assert g["result"]["won"] == ("Anna" in g["winners"])
    for lang, heading in (("de", "Wertung im Verlauf"), ("en", "Rating over time")):
        page = owner.get(f"/players/Anna?lang={lang}").text
        assert heading in page and "<polyline" in page and all(g["url"] in page for g in data["games"])
    assert owner.get("/players/Nobody").status_code == 404
    assert owner.get("/api/players/Nobody").status_code == 404
    # a formula-looking name is a player too, reached through its escaped address
    assert owner.get("/api/players/%3DHYPERLINK(%22x%22)").json()["player"] == '=HYPERLINK("x")'


def test_standings_per_evening_count_games_after_midnight_to_the_evening_before(owner):
    evening = owner.get("/api/evening/2026-11-14").json()
    assert evening["games"] == 3  # 21:30, 23:50 and 00:40
    kinds = {k["game"]: k["players"] for k in evening["standings"]}
    assert set(kinds) == {"magische-7", "alles-klar"}
    assert sum(r["played"] for r in kinds["magische-7"]) == 4  # two games of two players
    assert kinds["magische-7"] == sorted(kinds["magische-7"], key=lambda r: (-r["wins"], r["played"],
                                                                             r["player"].casefold()))
    assert owner.get("/api/evening/2026-11-15").json()["games"] == 1
    assert owner.get("/api/evening/nonsense").status_code == 400  # a malformed day is the client's error
    for lang, title in (("de", "Abend vom 14.11.2026"), ("en", "Evening of 2026-11-14")):
        page = owner.get(f"/evening/2026-11-14?lang={lang}").text
        assert title in page and "Die magische 7" in page


def test_a_print_view_and_a_qr_code_that_opens_the_overview(owner):
    words_of = {"de": ("Druckansicht", "Stand des Abends"), "en": ("Print view", "Standings of the evening")}
    for lang, words in words_of.items():
        page = owner.get(f"/print?day=2026-11-14&lang={lang}").text
        assert all(w in page for w in words) and 'src="/qr.svg"' in page and "Die magische 7" in page
    svg = owner.get("/qr.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml")
    expected = io.BytesIO()
    segno.make("http://testserver/", error="m").save(expected, kind="svg", scale=8, border=2, xmldecl=False,
                                                    svgns=True, title="QR")
    assert svg.content == expected.getvalue()
    assert "@media print" in owner.get("/static/hub.css").text


def test_the_cafes_zone_and_table_names_come_from_the_hub_config(tmp_path):
    path = tmp_path / "hub.toml"
    path.write_text('[hub]\ncafe = "cafe-1"\ntimezone = "Europe/Vienna"\n[hub.table_names]\nt1 = "Fenster"\n')
    config = load(path)
    assert config.timezone == "Europe/Vienna" and config.table_names == {"t1": "Fenster"}
    path.write_text('[hub]\ncafe = "cafe-1"\ntimezone = "Mars/Olympus"\n[hub.table_names]\nt1 = 3\n')
    with pytest.raises(ConfigError) as error:
        load(path)
    assert f"{path}:3: timezone 'Mars/Olympus'" in str(error.value) and f"{path}:4: table_names" in str(error.value)


def test_a_cafe_day_runs_from_six_to_six():
    def day(hour: int, minute: int) -> dt.date:
        return formats.cafe_day(dt.datetime(2026, 11, 15, hour, minute, tzinfo=BERLIN).timestamp(), BERLIN)

    assert day(5, 59) == dt.date(2026, 11, 14) and day(6, 0) == dt.date(2026, 11, 15)
    ends = formats.day_bounds(dt.date(2026, 11, 14), BERLIN)[1]
    assert ends == dt.datetime(2026, 11, 15, 6, tzinfo=BERLIN).timestamp()


OWNER_MODULES = ["pages", "game_pages", "downloads", "owner_pages", "api", "views", "queries", "standings", "formats"]


@pytest.mark.parametrize("name", OWNER_MODULES)
def test_no_function_of_the_pages_is_longer_than_50_lines(name):
    from tests.test_function_length import long_functions

    assert long_functions(Path(__file__).resolve().parents[1] / "hub" / f"{name}.py") == []


def test_the_rating_over_time_follows_new_games_and_merges(owner):
    hub = owner.hub
    before = owner.get("/api/players/Ben").json()["ratings"]
    feed(hub.ingest, LoggedTable("t9"), *renamed("magische-7", 5, {}), EVENING + 90000)
    after = owner.get("/api/players/Ben").json()["ratings"]
    assert after[:-1] == before and len(after) == len(before) + 1
    board = owner.get("/api/leaderboard/magische-7").json()["players"]
    assert after[-1]["rating"] == next(p["rating"] for p in board if p["player"] == "Ben")
    hub.ingest.merge_player("+49 171", "Ben")  # t3's second seat was Ben all along
    merged = owner.get("/api/players/Ben").json()
    assert "+49 171" in merged["spellings"] and len(merged["ratings"]) == len(after) + 1
    assert any(g["table"] == "t3" and g["result"]["as"] == "+49 171" for g in merged["games"])
    board = owner.get("/api/leaderboard/magische-7").json()["players"]
    assert merged["ratings"][-1]["rating"] == next(p["rating"] for p in board if p["player"] == "Ben")
    assert owner.get("/api/players/%2B49%20171").json()["player"] == "Ben"
