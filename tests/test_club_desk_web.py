"""The club nights' desk as staff's tool (#35), over the hub's real app, store, ingest and desk (HTTP through
Starlette's test client): every refusal names its reason in the reader's language and is a 400, never a 500
(a round of −5 or 99, an unknown table); tables are chosen from the café's known tables; an evening is edited
until it starts and deleted (asked first) until its first result; a round is drawn again until its first game;
a dropped-out player comes back; check-in names are bounded and clean, the guests' limit counts an IPv6
device's whole /64; a table's guest names and the staff's merges are respected at check-in."""

from __future__ import annotations

import html
import time

import pytest
from starlette.testclient import TestClient

from cafe import contract
from hub.auth import hash_password
from hub.evenings.desk import Desk, address_key
from hub.ingest import Incoming, Ingest
from hub.live import Broadcaster
from hub.queries import Reader
from hub.store import Store
from hub.web import Hub, create_app
from kiosk.eventlog.store import EventLog
from referee.sim import random_game
from tests.hub_table_proc import renamed
from tests.hub_tables import LoggedTable, paired, status

PASSWORD = "Würfel und Tee"
ORIGIN = {"origin": "http://testserver"}


class Cafe:
    def __init__(self, tmp_path):
        self.store = Store(tmp_path / "hub.sqlite")
        self.ingest = Ingest(self.store, lambda c, t, n: None)
        self.sent: list[tuple[str, dict | None]] = []
        reader = Reader(tmp_path / "hub.sqlite")
        self.hub = Hub(reader, self.ingest, Broadcaster(), lambda c, p: None, "nord", hash_password(PASSWORD),
                       table_names={"t4": "Kamin"})
        self.hub.evenings = Desk(tmp_path, tmp_path / "hub.sqlite", lambda c, t, a: self.sent.append((t, a)),
                                 known_tables=self.hub.known_tables, aliases=reader.aliases)
        self.ingest.listeners.append(self.hub.evenings.on_news)
        self.logs = {t: LoggedTable(t) for t in ("t1", "t2", "t3")}
        for table in ("t1", "t2", "t3"):  # three tables reported (and paired); t4 is only named in the config
            self.ingest.process([Incoming("status", "nord", table, status(table, 0, screen="menu",
                                                                         key=self.logs[table].key), time.time())])
            paired(self.ingest, "nord", self.logs[table])
        self.client = TestClient(create_app(self.hub))

    def login(self) -> TestClient:
        self.client.post("/staff/login", data={"password": PASSWORD}, headers=ORIGIN)
        return self.client

    def post(self, path: str, lang: str = "en", **form: str):
        return self.client.post(f"{path}?lang={lang}", data=form, headers=ORIGIN)


@pytest.fixture
def cafe(tmp_path):
    c = Cafe(tmp_path)
    c.login()
    yield c
    c.store.close()


def message(response) -> str:
    page = response.text
    return html.unescape(page.split('id="message"', 1)[1].split(">", 1)[1].split("</p>", 1)[0])


def create(cafe: Cafe, **extra: str):
    form = {"title_de": "Freitag 27.11.", "title_en": "Friday", "game": "alles-klar", "rounds": "3",
            "seating": "mixing", "scoring": "places", "table-t1": "1", "table-t2": "1", "table-t3": "1"} | extra
    return cafe.post("/staff/club-nights", **form)


def test_an_evening_is_made_from_known_tables_with_a_readable_id_and_says_what_is_wrong(cafe) -> None:
    page = cafe.client.get("/staff/club-nights?lang=en").text
    for table in ("t1", "t2", "t3", "t4"):
        assert f'name="table-{table}"' in page  # chosen, not typed: the reported tables and the named one
    refused = create(cafe, **{"table-t9": "1"})
    assert refused.status_code == 400
    assert message(refused) == "Table t9 is not one of this café's tables (t1, t2, t3, t4)."
    german = create(cafe, lang="de", evening="Freitag 27.11.")
    assert german.status_code == 400 and "a-z, 0-9 und '-'" in message(german)
    assert message(create(cafe, rounds="0")) == "An evening has 1 to 20 rounds."
    assert message(create(cafe, **{"table-t1": "", "table-t2": "", "table-t3": ""})) == "Tick at least one table."
    made = cafe.client.post(
        "/staff/club-nights?lang=en", headers=ORIGIN, follow_redirects=False,
        data={"title_de": "Freitag 27.11.", "title_en": "Friday", "game": "alles-klar", "rounds": "3",
              "seating": "mixing", "scoring": "places", "table-t1": "1", "table-t2": "1"})
    assert made.status_code == 303 and made.headers["location"] == "/staff/club/freitag-27-11"
    again = create(cafe)
    assert message(again) == "An evening named freitag-27-11 exists already: choose another short name."


def test_every_refusal_of_the_desk_names_its_reason_in_both_languages(cafe) -> None:
    create(cafe, evening="abend")
    desk = "/staff/club/abend"
    for name in ("Anna", "Ben", "Cleo"):
        assert cafe.post(desk, action="check_in", name=name).status_code == 200
    twice = cafe.post(desk, action="check_in", name="anna")
    assert twice.status_code == 400 and message(twice) == "Anna is checked in already."
    assert message(cafe.post(desk, "de", action="check_in", name="Anna")) == "Anna ist schon angemeldet."
    assert message(cafe.post(desk, action="enter", round="1", table="t1", note="x")).startswith("There is no round 1")
    assert message(cafe.post(desk, action="close_round")) == "No round is on: start one."
    assert cafe.post(desk, action="start").status_code == 200
    for round_no, table in (("-5", "t1"), ("99", "t1"), ("1", "t9"), ("x", "t1")):
        answer = cafe.post(desk, action="enter", round=round_no, table=table, note="n", **{"place-0": "1"})
        assert answer.status_code == 400, (round_no, table)
        assert message(answer) in ("There is no such round: reload the page.",
                                   "There is no round 99: choose a table of a round played.",
                                   "Table t9 has no seats in round 1.")
    seated = cafe.hub.evenings.evening("abend").played[0].tables[0]
    places = {f"place-{i}": "1" for i in range(len(seated.players))}
    no_note = cafe.post(desk, action="enter", round="1", table=seated.table, note=" ", **places)
    assert message(no_note) == "Write a note saying why the result is entered by hand."
    assert message(cafe.post(desk, "de", action="start")) == "Runde 1 läuft noch: zuerst schließen."
    assert message(cafe.post(desk, action="remove", name=seated.players[0])) == (
        f"{seated.players[0]} has played a round: let them drop out instead.")
    assert message(cafe.post(desk, action="back", name="Ben")) == "Ben has not dropped out."
    assert message(cafe.post(desk, action="dance")) == "That button is not on this page: reload it."
    assert cafe.post(desk, action="end").status_code == 200
    assert message(cafe.post(desk, action="check_in", name="Zoe")) == (
        "The evening has ended: undo its end to change it.")


def test_edit_until_the_start_delete_until_a_result(cafe) -> None:
    create(cafe, evening="typo", title_de="Freitga")
    desk = "/staff/club/typo"
    edited = cafe.post(desk, action="edit", title_de="Freitag", title_en="Friday", game="alles-klar", rounds="2",
                       seating="random", scoring="score", **{"table-t1": "1", "table-t2": "1"})
    assert edited.status_code == 200
    evening = cafe.hub.evenings.evening("typo")
    assert (evening.title["de"], evening.rounds, evening.tables, evening.scoring) == ("Freitag", 2, ["t1", "t2"],
                                                                                      "score")
    asked = cafe.post(desk, action="delete")
    assert asked.status_code == 200 and "Delete Friday?" in asked.text and "confirm-delete" in asked.text
    assert "typo" in cafe.hub.evenings.ids()  # only asked
    for name in ("Anna", "Ben", "Cleo"):
        cafe.post(desk, action="check_in", name=name)
    cafe.post(desk, action="start")
    late = cafe.post(desk, action="edit", title_de="X", game="alles-klar", rounds="2", seating="random",
                     scoring="places", **{"table-t1": "1"})
    assert message(late) == "The first round has started: the settings stay as they are."
    gone = cafe.client.post(f"{desk}?lang=en", data={"action": "delete", "confirm": "1"}, headers=ORIGIN,
                            follow_redirects=False)
    assert gone.status_code == 303 and "typo" not in cafe.hub.evenings.ids()
    assert cafe.client.get("/club/typo").status_code == 404 and "typo" not in cafe.client.get("/club-nights").text
    assert cafe.sent[-3:] == [("t1", None), ("t2", None)][-3:] or all(a is None for _, a in cafe.sent[-2:])


def test_a_round_is_drawn_again_with_a_late_arrival_and_a_dropped_player_comes_back(cafe) -> None:
    create(cafe, evening="abend")
    desk = "/staff/club/abend"
    for name in ("Anna", "Ben", "Cleo", "Dana", "Emil"):
        cafe.post(desk, action="check_in", name=name)
    cafe.post(desk, action="start")
    cafe.post(desk, action="check_in", name="Fee")  # late: from round 2 …
    assert cafe.hub.evenings.evening("abend").entrants["Fee"].joined == 2
    cafe.post(desk, action="drop", name="Emil")
    assert cafe.post(desk, action="redraw").status_code == 200  # … but drawn again, Fee plays round 1 now
    evening = cafe.hub.evenings.evening("abend")
    seated = sorted(p for t in evening.played[0].tables for p in t.players) + list(evening.played[0].byes)
    assert sorted(seated) == ["Anna", "Ben", "Cleo", "Dana", "Fee"]
    assigned = {t: a for t, a in cafe.sent if a}
    assert sorted(p for a in assigned.values() for p in a["players"]) == sorted(
        p for t in evening.played[0].tables for p in t.players)
    assert "6 playing" not in cafe.client.get(f"{desk}?lang=en").text
    assert "5 playing, 1 dropped out" in cafe.client.get(f"{desk}?lang=en").text
    assert cafe.post(desk, action="back", name="Emil").status_code == 200
    assert cafe.hub.evenings.evening("abend").entrants["Emil"].dropped is None
    assert "6 playing" in cafe.client.get(f"{desk}?lang=en").text


def test_check_in_names_are_clean_bounded_not_guests_and_through_the_merges(cafe) -> None:
    create(cafe, evening="abend")
    desk = "/staff/club/abend"
    assert message(cafe.post(desk, action="check_in", name="Eve\x00")) == (  # the form's edge (hub.forms)
        "The form holds a control character: remove it and send the form again.")
    with pytest.raises(ValueError) as refused:  # and the desk itself, whoever calls it
        cafe.hub.evenings.check_in("abend", "Eve\x07")
    assert refused.value.message == "Leave out control characters: type only letters, digits and punctuation."
    assert message(cafe.post(desk, action="check_in", name="x" * 41)) == "At most 40 characters, please."
    assert message(cafe.post(desk, action="check_in", name="Spieler 2")) == (
        "Spieler 2 is what a table calls a guest: type the player's own name.")
    cafe.store.merge_player("anna", "Anna", time.time())
    cafe.post(desk, action="check_in", name="anna")
    assert list(cafe.hub.evenings.evening("abend").entrants) == ["Anna"]  # the merged spelling counts as Anna
    assert message(cafe.post(desk, action="check_in", name="ANNA")) == (
        "ANNA counts as Anna, who is checked in already.")


def test_the_guests_limit_counts_a_devices_whole_ipv6_network(cafe) -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert address_key("10.0.0.7") == "10.0.0.7"
    desk = cafe.hub.evenings
    create(cafe, evening="gast")
    for i in range(3):
        desk.check_in("gast", f"Gast {i}", via="guest", address=f"2001:db8:1:2::{i + 1}")
    with pytest.raises(ValueError) as refused:
        desk.check_in("gast", "Noch einer", via="guest", address="2001:db8:1:2:ffff::77")
    assert refused.value.message == "This device has checked in {most} names already: ask the staff for more."
    desk.check_in("gast", "Nachbar", via="guest", address="2001:db8:1:3::1")  # another network


def test_a_tables_guest_names_are_never_rated_listed_or_suggested(cafe, tmp_path) -> None:
    """The table flags its default names as guests in the start record (the kiosk's own log makes it); a record
    from an older table without the flag: the hub knows a default name by itself."""
    log = EventLog(tmp_path / "t1.sqlite", table="t1")
    header, events = random_game("magische-7", 1, 4)
    header, events = renamed(header, {"Anna": "Spieler 1"}), [renamed(e, {"Anna": "Spieler 1"}) for e in events]
    game = log.new_game(header)
    for event in events:
        log.append(game, event)
    log.set_status(game, "finished")
    records = [r.payload("t1") for r in log.records()]
    assert records[0]["guests"] == ["Spieler 1"]  # sent as a guest by the table
    older_table = LoggedTable("t1", first_n=len(records) + 1, signer=log.signer)  # the same table, an older kiosk
    older_table.prev = records[-1]["h"]
    older = list(older_table.game(
        renamed(header, {"Spieler 1": "Player 2"}), [renamed(e, {"Spieler 1": "Player 2"}) for e in events]))
    assert "guests" not in older[0]
    cafe.ingest.pairing.refuse("nord", "t1", cafe.logs["t1"].key, time.time())
    paired(cafe.ingest, "nord", older_table)  # the kiosk's key, accepted for t1
    cafe.ingest.process([Incoming("log", "nord", "t1", r, time.time()) for r in records + older])
    board = [row["player"] for row in cafe.ingest.board("magische-7")]
    assert board and not [p for p in board if p.startswith(("Spieler", "Player"))]
    assert "Spieler 1" not in cafe.hub.reader.players() and "Ben" in cafe.hub.reader.players()
    page = cafe.client.get("/leaderboard/magische-7?lang=de").text
    assert "Spieler 1" not in page and "Player 2" not in page
    create(cafe, evening="abend")
    desk_page = cafe.client.get("/staff/club/abend?lang=en").text
    suggested = desk_page.split('<datalist id="known">', 1)[1].split("</datalist>", 1)[0]
    assert "Ben" in suggested and "Spieler" not in suggested and "Player 2" not in suggested
    game = cafe.client.get("/api/games?table=t1").json()[0]
    assert game["guests"] and set(game["guests"]) <= set(game["players"])  # kept in the game
    assert cafe.client.get("/players/Spieler%201").status_code == 404


def test_the_rating_is_explained_in_words_and_drawn_with_axes(cafe) -> None:
    table = cafe.logs["t1"]
    for seed in (1, 2):
        header, events = random_game("magische-7", seed, 4)
        cafe.ingest.process([Incoming("log", "nord", "t1", r, time.time()) for r in table.game(header, events)])
    page = cafe.client.get("/players/Ben?lang=de").text
    assert "μ" not in page and "Sieg gegen starke Spieler" in page
    chart = page.split('<svg viewBox="0 0 480 220"', 1)[1].split("</svg>", 1)[0]
    assert chart.count("<circle") == 2 and ">Gespielte Spiele<" in chart and ">Wertung<" in chart
    points = chart.split('<polyline points="', 1)[1].split('"', 1)[0].split()
    assert len(points) == 3  # the start at 0, then each game
    assert "Sieg gegen starke Spieler" in cafe.client.get("/leaderboard/magische-7?lang=de").text



def test_hostile_posts_to_the_desk_and_the_check_in_get_no_server_error() -> None:
    """The attack drill (scripts/drill.sh club) on a short run: every answer a page or a refusal, no name out of
    bounds, no device with more than 3 guest names."""
    from benchmarks.club_attack import drill

    result = drill(400, seed=7)
    assert result["server_errors"] == 0 and result["bad_names"] == [], result
    assert result["most_per_device"] <= 3 and result["answers"].get(400, 0) > 50, result
    assert result["ok"]


def test_every_game_has_a_final_status_on_the_pages_and_the_api(cafe) -> None:
    """finished and abandoned (the end record), left (no end, and the table, online, shows something else),
    voided (the desk had the table play it again); a game still on its table's screen is playing."""
    header, events = random_game("magische-7", 3, 4)
    logs = cafe.logs
    feed = cafe.ingest.process
    feed([Incoming("log", "nord", "t1", r, time.time()) for r in logs["t1"].game(header, events)])
    feed([Incoming("log", "nord", "t2", r, time.time()) for r in logs["t2"].game(header, events[:5], end="abandoned")])
    unfinished = list(logs["t3"].game(header, events[:6]))[:-1]  # no end record: the players left it
    feed([Incoming("log", "nord", "t3", r, time.time()) for r in unfinished])
    uid = unfinished[0]["game_uid"]
    finals = {g["table"]: g["final"] for g in cafe.client.get("/api/games").json()}
    assert finals == {"t1": "finished", "t2": "abandoned", "t3": "left"}  # t3's screen shows its menu
    feed([Incoming("status", "nord", "t3", status("t3", unfinished[-1]["n"], game_uid=uid, key=logs["t3"].key),
                   time.time())])
    assert cafe.client.get("/api/games?table=t3").json()[0]["final"] == "playing"  # resumed
    feed([Incoming("status", "nord", "t3", {"v": 1, "table": "t3", "online": False}, time.time())])
    assert cafe.client.get("/api/games?table=t3").json()[0]["final"] == "playing"  # offline: not known to be left

    desk = cafe.hub.evenings
    create(cafe, evening="abend", **{"table-t2": "", "table-t3": ""})
    for name in ("Anna", "Ben", "Cleo", "Dana"):
        desk.check_in("abend", name)
    evening = desk.start_round("abend", seed=1)
    assigned = next(a for t, a in reversed(cafe.sent) if t == "t1" and a)
    records = list(logs["t1"].game(contract.assignment_header(assigned), []))[:1]
    records[0]["assignment"] = contract.assignment_ref(assigned)
    records = logs["t1"].reseal(records)
    feed([Incoming("log", "nord", "t1", r, time.time()) for r in records])
    played = desk.evening("abend").played[0].tables[0].game_uid
    assert played == records[0]["game_uid"] and evening.played[0].tables[0].table == "t1"
    desk.replay("abend", 1, "t1", note="falscher Start")
    voided = cafe.client.get("/api/games?status=voided").json()
    assert [g["game_uid"] for g in voided] == [played]
    page = cafe.client.get("/games?lang=de").text
    for word in ("beendet", "abgebrochen", "verworfen"):
        assert f">{word}</span>" in page, word
