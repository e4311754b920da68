"""What guests see of a club night (#35), in a real browser (Debian's chromium): the TV view at 1920×1080 and
1366×768 with 40 players shows this round's seating and the standings without scrolling, paging itself until
every name has shown; the standings never split a word at 360 px; the print sheet carries the date and a QR
code; the CSV opens in a German spreadsheet (semicolons, BOM, decimal commas, numbers as numbers)."""

from __future__ import annotations

import csv
import io
import time

import pytest

from hub.evenings.desk import Desk
from hub.ingest import Ingest
from hub.live import Broadcaster
from hub.queries import Reader
from hub.store import Store
from hub.web import Hub, create_app
from tests.hub_browser import browser, served

NAMES = ["Anna", "Ben", "Cleo", "Dana", "Emil", "Fee", "Greta", "Hanne", "Ilka", "Jo", "Klara", "Lu", "Mats",
         "Nils", "Ole", "Paula", "Quirin", "Rosa", "Sven", "Tilda", "Ute", "Vera", "Wim", "Xaver", "Yara", "Zoe",
         "Maximiliane-Charlotte", "Bartholomäus", "Friederike", "Konstantin", "Leopoldine", "Wolfgang", "Adelheid",
         "Gottfried", "Hildegard", "Sebastian", "Theodora", "Valentin", "Wilhelmine", "Zacharias"]
TABLES = [f"t{i}" for i in range(1, 11)]

BROKEN_WORDS = """() => {
  // every word of the page's text that runs over two lines although it would fit on one
  const out = [];
  const walk = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const box = node.parentElement.getBoundingClientRect();
    for (const m of node.textContent.matchAll(/\\S{2,}/g)) {
      const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      const tops = new Set(rects.map(r => Math.round(r.top)));
      const width = rects.reduce((sum, r) => sum + r.width, 0);
      if (tops.size > 1 && width < box.width) out.push(m[0]);
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("club")
    store = Store(tmp_path / "hub.sqlite")
    reader = Reader(tmp_path / "hub.sqlite")
    hub = Hub(reader, Ingest(store, lambda c, t, n: None), Broadcaster(), lambda c, p: None, "nord", None,
              table_names={t: f"Tisch am Fenster {t[1:]}" for t in TABLES})
    desk = hub.evenings = Desk(tmp_path, tmp_path / "hub.sqlite", lambda c, t, a: None,
                               known_tables=hub.known_tables, aliases=reader.aliases)
    desk.create("gross", cafe="nord", game="alles-klar", rounds=3, tables=TABLES,
                title={"de": "Großer Spieleabend im Café Nord", "en": "Big games night at Café Nord"})
    for name in NAMES:
        desk.check_in("gross", name)
    desk.start_round("gross", seed=4)
    with served(create_app(hub)) as url:
        yield url, desk
    store.close()


def shown(page, section: str) -> set[str]:
    return set(page.eval_on_selector_all(f".tv-{section} .item:not([hidden])", "els => els.map(e => e.innerText)"))


@pytest.mark.parametrize("size", [(1920, 1080), (1366, 768)])
def test_the_tv_view_shows_the_seating_and_the_standings_of_40_players_paging_itself(club, size) -> None:
    url, desk = club
    seated = {p for t in desk.evening("gross").played[0].tables for p in t.players}
    assert seated == set(NAMES)
    with browser() as chromium:
        page = chromium.new_page(viewport={"width": size[0], "height": size[1]})
        page.goto(f"{url}/club/gross?view=tv&lang=de&every=2")
        seen_tables: set[str] = set()
        seen_rows: set[str] = set()
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:  # until every table and every line has shown, page by page
            assert page.evaluate("document.documentElement.scrollHeight") <= size[1]
            assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
            for item in page.query_selector_all(".tv .item:not([hidden])"):
                box = item.bounding_box()  # None: the page turned meanwhile and hid it
                assert box is None or box["y"] + box["height"] <= size[1] + 1, "an item below the screen"
            seen_tables |= shown(page, "seating")
            seen_rows |= shown(page, "standings")
            names_seen = {n for text in seen_tables for n in NAMES if n in text}
            rows_seen = {n for text in seen_rows for n in NAMES if f" {n} " in f" {text.replace(chr(10), ' ')} "}
            if names_seen == set(NAMES) and rows_seen == set(NAMES):
                break
            page.wait_for_timeout(500)
        assert names_seen == set(NAMES) and rows_seen == set(NAMES)
        assert int(page.get_attribute(".tv-standings", "data-pages") or 0) > 1  # 40 lines do not fit one page
        assert "Runde 1: wer wo sitzt" in page.inner_text(".tv-seating h2")
        assert page.locator(".tv-qr svg").count() == 1


def test_the_standings_split_no_word_and_fit_a_phone(club) -> None:
    url, _ = club
    with browser() as chromium:
        for lang in ("de", "en"):
            page = chromium.new_page(viewport={"width": 360, "height": 740})
            for path in ("/club/gross", "/club/gross?view=print", "/club-nights", "/club/gross/join"):
                page.goto(f"{url}{path}{'&' if '?' in path else '?'}lang={lang}")
                assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0, path
                assert page.evaluate(BROKEN_WORDS) == [], (path, lang)


def test_the_print_sheet_has_the_date_and_a_qr_code_and_the_csv_opens_in_a_spreadsheet(club) -> None:
    url, desk = club
    import urllib.request

    with urllib.request.urlopen(f"{url}/club/gross?view=print&lang=de") as response:
        sheet = response.read().decode()
    started = desk.evening("gross").actions[-1]["at"]
    assert time.strftime("%d.%m.%Y", time.localtime(started - 6 * 3600)) in sheet
    assert '<figure class="qr"><svg' in sheet and "/club/gross</span>" in sheet
    with urllib.request.urlopen(f"{url}/club/gross.csv?lang=de") as response:
        raw = response.read()
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == ["rank", "player", "points", "score_sum", "opponents_points", "games", "byes"]
    assert len(rows[1:41]) == 40 and all(r[0].isdigit() and r[5].isdigit() for r in rows[1:41])
    seats = rows[rows.index(["round", "table", "seat", "player", "score", "winner", "state", "note"]) + 1:]
    assert len(seats) == 40 and all(r[0] == "1" and r[2].isdigit() for r in seats)
