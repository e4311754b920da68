"""Every page of the hub in a real browser (Debian's chromium) at a phone's 360 × 740, in German and English,
with the longest names a table lets a guest type: nothing scrolls sideways, and a long name stays inside its
card on the overview at a desk screen's size too. The hub's app is served by uvicorn over a store filled
through the hub's own ingest (tests/test_hub_owner.py)."""

from __future__ import annotations

import time
import urllib.parse

import pytest

from hub.auth import hash_password
from hub.ingest import Ingest
from hub.live import Broadcaster
from hub.queries import Reader
from hub.store import Store
from hub.web import Hub, create_app
from tests.hub_browser import browser
from tests.hub_browser import served as serving
from tests.hub_tables import LoggedTable
from tests.test_hub_owner import EVENING, PASSWORD, feed, renamed

LONG = "Maximiliane-Charlotte von Hohenzollern-Sigmaringen"
UNBROKEN = "Donaudampfschifffahrtsgesellschaftskapitänswitwe"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("phone")
    store = Store(tmp_path / "hub.sqlite")
    ingest = Ingest(store, lambda cafe, table, n: None)
    t1, t2 = LoggedTable("t1"), LoggedTable("t2")
    feed(ingest, t1, *renamed("magische-7", 1, {"Anna": LONG, "Ben": UNBROKEN}), EVENING, uid="g-1")
    feed(ingest, t2, *renamed("alles-klar", 2, {"Anna": UNBROKEN}), EVENING + 600, uid="g-1")
    feed(ingest, t1, *renamed("magische-7", 4, {"Anna": LONG, "Ben": UNBROKEN}), EVENING + 1200)
    hub = Hub(Reader(tmp_path / "hub.sqlite"), ingest, Broadcaster(), lambda c, p: None, "cafe-1",
              hash_password(PASSWORD), "Europe/Berlin", {"t1": "Fenster zur Straße am großen Kastanienbaum"})
    hub.announce("cafe-1", {"v": 1, "text": {"de": UNBROKEN * 2, "en": LONG}, "until": None})
    ingest.listeners.append(hub.broadcaster.from_thread)  # live news to the pages, as the service wires it
    with serving(create_app(hub)) as url:
        yield url, ingest, t2
    store.close()


GUEST_PAGES = ["/", "/table/cafe-1/t1", "/games", "/games?status=verified", "/games/cafe-1/t1/g-1", "/games/g-1",
               "/leaderboard/magische-7", "/leaderboard/alles-klar", f"/players/{urllib.parse.quote(LONG)}",
               f"/players/{urllib.parse.quote(UNBROKEN)}", "/evening/2026-11-14", "/print?day=2026-11-14", "/staff"]
STAFF_PAGES = ["/staff", "/staff/table/cafe-1/t1"]


def overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_page_fits_a_360_px_phone(served, lang):
    served = served[0]
    with browser() as chromium:
        page = chromium.new_page(viewport={"width": 360, "height": 740})
        for path in GUEST_PAGES:
            page.goto(f"{served}{path}{'&' if '?' in path else '?'}lang={lang}")
            assert page.evaluate("document.documentElement.lang") == lang
            assert overflow(page) <= 0, f"{path} is {overflow(page)} px wider than a 360 px phone"
        page.goto(f"{served}/staff?lang={lang}")
        page.fill("input[name=password]", PASSWORD)
        page.click("form.login button")
        page.wait_for_selector("form[action='/staff/logout']")
        for path in STAFF_PAGES:
            page.goto(f"{served}{path}?lang={lang}")
            assert overflow(page) <= 0, f"{path} (staff) is {overflow(page)} px wider than a 360 px phone"
        page.goto(f"{served}/staff?lang={lang}")
        logout = page.query_selector("form[action='/staff/logout'] button")
        h1 = page.query_selector("h1")
        size = "el => parseFloat(getComputedStyle(el).fontSize)"
        assert logout.evaluate(size) < h1.evaluate(size)  # "Abmelden" is a button, not a heading


def test_a_long_name_stays_inside_its_card(served):
    served = served[0]
    with browser() as chromium:
        for width, height in ((1366, 768), (360, 740)):
            page = chromium.new_page(viewport={"width": width, "height": height})
            page.goto(f"{served}/?lang=de")
            spill = page.evaluate("""[...document.querySelectorAll('.card')].map(card => {
                const box = card.getBoundingClientRect();
                const rights = [...card.querySelectorAll('*')].map(el => el.getBoundingClientRect().right);
                return Math.max(0, ...rights.map(right => right - box.right));
            })""")
            assert spill and max(spill) <= 0, f"a name runs {max(spill)} px out of its card at {width} px"


def test_a_card_shows_the_winners_and_the_link_of_a_game_that_just_finished(served):
    url, ingest, t2 = served
    with browser() as chromium:
        page = chromium.new_page(viewport={"width": 360, "height": 740})
        page.goto(f"{url}/?lang=en")
        page.wait_for_selector("#live:not([hidden])")
        records = feed(ingest, t2, *renamed("magische-7", 9, {}), time.time(), uid="live-1")
        link = page.wait_for_selector('.card[data-key="cafe-1/t2"] .result a[href="/games/cafe-1/t2/live-1"]')
        winners = records[-1]["winners"]
        assert winners and page.inner_text('.card[data-key="cafe-1/t2"] .result') == (
            f"Winners: {', '.join(winners)} · Last game")
        assert link.inner_text() == "Last game"
