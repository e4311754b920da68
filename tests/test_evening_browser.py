"""Club nights in a real browser (#27): staff create an evening, check players in (typed, known names offered),
start a round (the assignments reach the broker), close it, undo the close, close again and end the evening; the
public standings page fits 1366×768 and 360×740 in German and English and refreshes live (SSE) when a guest
checks in from a phone; the TV view carries the check-in QR code, the print view the rounds."""

from __future__ import annotations

import json
import threading

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cafe import contract
from hub.auth import hash_password
from tests.hub_browser import browser
from tests.hub_process import HubProcess
from tests.test_hub_live import wait_for

PASSWORD = "Karten und Kuchen"
NAMES = ["Anna", "Ben", "Cleo", "Dana", "Emil", "Fee"]


class Assignments:
    """What the tables hear on their `assign` topics (retained), as the broker delivers it."""

    def __init__(self, address: str):
        host, _, port = address.rpartition(":")
        self.heard: dict[str, dict | None] = {}
        self.lock = threading.Lock()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe(f"{contract.ROOT}/nord/table/+/assign", qos=1)
        self.client.on_message = self._message
        self.client.connect(host, int(port))
        self.client.loop_start()

    def _message(self, client, userdata, message) -> None:
        parsed, payload = contract.validate(message.topic, message.payload)
        with self.lock:
            self.heard[str(parsed.table)] = payload

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def hub(mosquitto, tmp_path):
    config = tmp_path / "hub.toml"
    config.write_text(f'[hub]\nstaff_password_hash = "{hash_password(PASSWORD)}"\n[hub.table_names]\nt1 = "Fenster"\n'
                      't2 = "Ecke"\n')
    with HubProcess(tmp_path / "hub", mosquitto.address, "nord", config=config) as process:
        yield process


def _no_overflow(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


@pytest.mark.slow
def test_staff_run_an_evening_and_guests_watch_it(hub, mosquitto) -> None:
    heard = Assignments(mosquitto.address)
    try:
        with browser() as chromium:
            staff = chromium.new_page(viewport={"width": 1366, "height": 768})
            staff.goto(hub.url + "/staff?lang=de")
            staff.fill("input[name=password]", PASSWORD)
            staff.click("form.login button")
            staff.goto(hub.url + "/staff/club-nights?lang=de")
            staff.fill("#create input[name=evening]", "dienstag")
            staff.fill("#create input[name=title_de]", "Dienstagsturnier")
            staff.fill("#create input[name=title_en]", "Tuesday tournament")
            staff.select_option("#create select[name=game]", "alles-klar")
            staff.fill("#create input[name=rounds]", "2")
            assert staff.is_checked("#create input[name=table-t1]") and staff.is_checked("#create input[name=table-t2]")
            staff.click("#create button")
            staff.wait_for_url("**/staff/club/dienstag")
            for name in NAMES:
                staff.fill("#checkin input[name=name]", name)
                staff.click("#checkin button")
                staff.wait_for_selector(f"#entrants >> text={name}")
            assert staff.locator("#entrants li").count() == 6

            staff.click("button[data-action=start]")
            staff.wait_for_selector("text=Runde 1")
            assert staff.locator(".desk-card").count() == 2
            wait_for(lambda: len([a for a in heard.heard.values() if a]) == 2, what="two tables' assignments")
            seated = sorted(p for a in heard.heard.values() if a for p in a["players"])
            assert seated == sorted(NAMES) and all(a["round"] == 1 for a in heard.heard.values() if a)

            staff.click("button[data-action=close_round]")
            staff.wait_for_selector("button[data-action=start]")
            wait_for(lambda: all(a is None for a in heard.heard.values()), what="the assignments cleared")
            staff.click("button[data-action=undo]")  # the close is taken back: the round is open again
            staff.wait_for_selector("button[data-action=close_round]")
            wait_for(lambda: all(a for a in heard.heard.values()), what="the assignments sent again")
            staff.click("button[data-action=close_round]")
            staff.wait_for_selector("button[data-action=start]")

            for lang, heading in (("de", "Tabelle"), ("en", "Standings")):
                for width, height in ((1366, 768), (360, 740)):
                    guest = chromium.new_page(viewport={"width": width, "height": height})
                    guest.goto(f"{hub.url}/club/dienstag?lang={lang}")
                    assert guest.locator("h2").first.inner_text() == heading
                    assert guest.locator("#standings tbody tr").count() == 6
                    _no_overflow(guest)
                    guest.close()

            watcher = chromium.new_page(viewport={"width": 360, "height": 740})
            watcher.goto(f"{hub.url}/club/dienstag?lang=de")
            watcher.wait_for_timeout(500)  # the page's event stream is open
            phone = chromium.new_page(viewport={"width": 360, "height": 740})
            phone.goto(f"{hub.url}/club/dienstag/join?lang=de")
            _no_overflow(phone)
            phone.fill("input[name=name]", "Fritz")
            phone.click("button[type=submit]")
            assert phone.inner_text("#message") == "Fritz, du bist angemeldet."
            watcher.wait_for_selector("#standings >> text=Fritz", timeout=10_000)  # live, no reload

            tv = chromium.new_page(viewport={"width": 1366, "height": 768})
            tv.goto(f"{hub.url}/club/dienstag?view=tv&lang=en")
            assert tv.locator(".tv-qr svg").count() == 1 and "Scan to check in" in tv.inner_text(".tv-qr")
            tv.goto(f"{hub.url}/club/dienstag?view=print&lang=en")
            assert "Round 1" in tv.inner_text("#rounds")

            staff.click("button[data-action=end]")
            staff.wait_for_selector("text=beendet")
            ended = json.loads(chromium.new_page().goto(f"{hub.url}/club/dienstag.json").text())
            assert ended["ended"] and len(ended["entrants"]) == 7
    finally:
        heard.close()
