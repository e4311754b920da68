"""The staff area in a real browser: login with the configured hash, an announcement to every table (checked as
the tables receive it from the broker), merging two spellings of a player, a table's recent errors; guests are
read-only. And every page of the hub fits a phone's width, in German and in English."""

from __future__ import annotations

import json
import threading
import urllib.request

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from cafe import contract
from hub.auth import hash_password
from tests.hub_browser import browser
from tests.hub_process import HubProcess
from tests.test_hub_live import get_json, start_table, wait_for

PASSWORD = "Kaffee und Karten"


class Announcements:
    """What a table hears on the café's announce topic (retained)."""

    def __init__(self, broker: str):
        host, _, port = broker.rpartition(":")
        self.messages: list[dict | None] = []
        self.arrived = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5)
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe(contract.announce_topic("cafe-1"), qos=1)
        self.client.on_message = self._message
        self.client.connect(host, int(port))
        self.client.loop_start()

    def _message(self, client, userdata, message) -> None:
        _, payload = contract.validate(message.topic, message.payload)
        self.messages.append(payload)
        self.arrived.set()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def staffed_hub(mosquitto, tmp_path):
    config = tmp_path / "hub.toml"
    config.write_text(f'[hub]\nstaff_password_hash = "{hash_password(PASSWORD)}"\n')
    with HubProcess(tmp_path / "hub", mosquitto.address, "cafe-1", config=config) as hub:
        tables = []
        for table, rename in (("t1", "Anna=Anna"), ("t2", "Anna=anna")):
            proc = start_table(mosquitto.address, "cafe-1", table, tmp_path / table, "--game", "magische-7",
                               "--seed", "7", "--pace", "0", "--noise", "4", "--rename", rename)
            assert proc.stdout is not None and proc.stdout.readline().strip() == "done"
            tables.append(proc)
        wait_for(lambda: len([g for g in get_json(f"{hub.url}/api/games") if g["check"] == "verified"]) == 2,
                 what="two verified games")
        yield hub
        for proc in tables:
            proc.kill()


def test_staff_log_in_announce_merge_and_read_a_tables_errors(staffed_hub, mosquitto):
    hub = staffed_hub
    heard = Announcements(mosquitto.address)
    with browser() as chromium:
        page = chromium.new_page()
        page.goto(hub.url + "/staff?lang=de")
        page.fill("input[name=password]", "falsch")
        page.click("form.login button")
        assert page.inner_text(".message.error") == "Falsches Passwort."
        page.fill("input[name=password]", PASSWORD)
        page.click("form.login button")
        page.wait_for_selector("text=Durchsage an alle Tische")

        page.fill("input[name=de]", "Die Küche schließt um 22 Uhr.")
        page.fill("input[name=en]", "The kitchen closes at 10 pm.")
        page.click("button[name=send]")
        page.wait_for_selector("text=Durchsage gesendet.")
        wait_for(lambda: any(m and m["text"]["de"] == "Die Küche schließt um 22 Uhr." for m in heard.messages),
                 what="the announcement at the tables")
        heard.arrived.clear()
        page.click("button[name=clear]")
        page.wait_for_selector("text=Durchsage gelöscht.")
        wait_for(lambda: heard.messages and heard.messages[-1] is None, what="the cleared announcement")

        page.goto(hub.url + "/staff/table/cafe-1/t1?lang=en")
        rows = page.locator("table.list tbody tr")
        records = get_json(f"{hub.url}/api/games?table=t1")[0]
        rejected = [r for r in get_json(f"{hub.url}/api/games/{records['game_uid']}")["records"]
                    if r["kind"] == "event" and not r["answer"]["ok"]]
        assert rejected and rows.count() == len(rejected)
        assert "rejected" in rows.first.inner_text()
    heard.close()


def test_a_merge_asks_first_naming_its_games_and_undo_restores_the_leaderboard(staffed_hub):
    hub = staffed_hub
    board = f"{hub.url}/api/leaderboard/magische-7"
    before = get_json(board)["players"]
    assert {p["player"] for p in before} == {"Anna", "anna", "Ben"}
    t2_game = get_json(f"{hub.url}/api/games?table=t2")[0]
    with browser() as chromium:
        page = chromium.new_page()
        page.goto(hub.url + "/staff?lang=de")
        page.fill("input[name=password]", PASSWORD)
        page.click("form.login button")
        page.wait_for_selector("text=Durchsage an alle Tische")

        # Two people who sat at the same game: refused, naming that game; nothing changes.
        page.select_option("select[name=alias]", "Ben")
        page.select_option("select[name=name]", "Anna")
        page.click("form[action='/staff/merge'] button")
        assert page.inner_text(".message.error") == "Ben und Anna saßen am selben Spiel: das sind zwei Personen."
        assert page.locator("button[name=confirm]").count() == 0
        assert get_json(board)["players"] == before

        # A merge asks first and names the games it changes; nothing changes until confirmed.
        page.goto(hub.url + "/staff?lang=de")
        page.select_option("select[name=alias]", "anna")
        page.select_option("select[name=name]", "Anna")
        page.click("form[action='/staff/merge'] button")
        page.wait_for_selector("text=anna mit Anna zusammenführen?")
        (listed,) = page.locator(".merge-games li").all_inner_texts()
        assert listed.startswith("t2 · ") and "anna" in listed and len(t2_game["players"]) == 2
        assert get_json(board)["players"] == before
        page.click("button[name=confirm]")
        page.wait_for_selector("text=anna zählt jetzt als Anna.")
        after = {p["player"]: p for p in get_json(board)["players"]}
        assert set(after) == {"Anna", "Ben"} and after["Anna"]["played"] == 2 and after["Ben"]["played"] == 2

        # Undo: every entry as before the merge, ratings folded again from the verified games.
        page.click("ul.aliases li:has-text('anna') button")
        page.wait_for_selector("text=anna zählt wieder für sich.")
        assert page.locator("ul.aliases").count() == 0
        assert get_json(board)["players"] == before


def test_guests_cannot_act_as_staff(staffed_hub):
    hub = staffed_hub
    request = urllib.request.Request(hub.url + "/staff/announce", data=b"de=x&en=y", method="POST")
    with urllib.request.urlopen(request) as response:  # redirected to the login page
        assert response.url.endswith("/staff") and "password" in response.read().decode()
    request = urllib.request.Request(hub.url + "/staff/merge", data=b"alias=anna&name=Anna", method="POST")
    urllib.request.urlopen(request).close()
    board = get_json(f"{hub.url}/api/leaderboard/magische-7")["players"]
    assert {p["player"] for p in board} == {"Anna", "anna", "Ben"}
    with urllib.request.urlopen(hub.url + "/staff/table/cafe-1/t1") as response:
        assert "password" in response.read().decode()


PAGES = ["/", "/table/cafe-1/t1", "/games", "/games?status=verified", "/leaderboard/magische-7", "/staff"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_page_fits_a_phone_and_speaks_the_language(staffed_hub, lang):
    hub = staffed_hub
    game = get_json(f"{hub.url}/api/games?table=t1")[0]
    with browser() as chromium:
        page = chromium.new_page(viewport={"width": 360, "height": 740})
        for path in [*PAGES, f"/games/{game['game_uid']}"]:
            page.goto(f"{hub.url}{path}{'&' if '?' in path else '?'}lang={lang}")
            assert page.evaluate("document.documentElement.lang") == lang
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"{path} is {overflow} px wider than a phone"
        page.goto(f"{hub.url}/?lang={lang}")
        words = json.loads(page.inner_text("#words"))
        assert words["online"] == "online" and words["nogame"] == ("Kein Spiel" if lang == "de" else "No game")


def test_a_hub_started_after_an_announcement_shows_the_one_the_tables_still_show(mosquitto, tmp_path):
    """The broker keeps the café's announcement (retained); a restarted hub's staff page and API show it,
    and its clearing, from the broker — not only what this hub process sent itself."""
    host, _, port = mosquitto.address.rpartition(":")
    sender = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5)
    sender.connect(host, int(port))
    sender.loop_start()
    topic = contract.announce_topic("cafe-1")
    payload = contract.announce_payload({"de": "Heute Quiz um 20 Uhr.", "en": "Quiz tonight at 8."})
    sender.publish(topic, json.dumps(payload).encode(), qos=1, retain=True).wait_for_publish(10)
    try:
        with HubProcess(tmp_path / "hub", mosquitto.address, "cafe-1") as hub:
            wait_for(lambda: get_json(f"{hub.url}/api/announcements").get("cafe-1", {}).get("text", {}).get("de")
                     == "Heute Quiz um 20 Uhr.", what="the retained announcement on the restarted hub")
            sender.publish(topic, b"", qos=1, retain=True).wait_for_publish(10)
            wait_for(lambda: "cafe-1" not in get_json(f"{hub.url}/api/announcements"), what="the cleared one")
    finally:
        sender.loop_stop()
        sender.disconnect()
