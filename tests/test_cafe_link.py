"""The kiosk's side of the café link, in-process against a real broker: the status follows the screens."""

from __future__ import annotations

import time

from cafe import contract
from cafe.config import CafeLinkConfig
from kiosk.app.cafe_link import CafeLink, CafeNews
from kiosk.loop.frame_loop import IDLE_WAIT_MS
from kiosk.screens.admin import AdminScreen
from tests.cafe_watch import Watcher
from tests.kiosk_helpers import make_app, press, settle

CAFE, TABLE = "nord", "t1"


def last_status(watcher: Watcher) -> dict:
    statuses = watcher.statuses(TABLE)
    return statuses[-1].payload if statuses else {}


def wait_status(app, watcher: Watcher, **wanted) -> dict:
    deadline = time.monotonic() + 20
    while True:
        settle(app, 1)
        status = last_status(watcher)
        if all(status.get(k) == v for k, v in wanted.items()):
            return status
        if time.monotonic() > deadline:
            raise TimeoutError(f"status {status} never had {wanted}")
        time.sleep(0.02)


def test_the_status_follows_the_screens(tmp_path, mosquitto) -> None:
    watcher = Watcher(mosquitto.host, mosquitto.port, CAFE)
    app = make_app(tmp_path)
    config = CafeLinkConfig(mosquitto.host, mosquitto.port, CAFE, TABLE)
    app.cafe.link = CafeLink(config, app.records.log, app.inbox.post).start()
    try:
        menu = wait_status(app, watcher, screen="menu", online=True)
        assert menu["game"] is None and menu["n"] == 0
        press(app, "game:magische-7")
        wait_status(app, watcher, screen="setup")
        press(app, "start")
        table = wait_status(app, watcher, screen="table", game="magische-7")
        uid = app.records.log.records()[0].game_uid
        assert table["game_uid"] == uid and table["n"] == 1 and table["turn"] in table["players"]
        assert set(table["scores"]) == set(table["players"]) and table["finished"] is False
        app.router.show(AdminScreen(app.host, app.router.screen))  # staff over a running game: still reported
        admin = wait_status(app, watcher, screen="admin")
        assert admin["game_uid"] == uid
        app.router.go_menu()
        wait_status(app, watcher, screen="menu", game=None)
        assert watcher.violations == []
    finally:
        app.cafe.link.stop()
        watcher.close()


def test_news_from_the_cafe_reaches_the_screen_only_through_the_loop(tmp_path, mosquitto) -> None:
    app = make_app(tmp_path)
    link = CafeLink(CafeLinkConfig(mosquitto.host, mosquitto.port, CAFE, TABLE), app.records.log, app.inbox.post)
    app.cafe.link = link  # not started: the news items are posted by hand, as the publisher's thread does
    settle(app)
    assert app.loop.view.tagged("cafe-offline")  # not connected yet
    app.inbox.post(CafeNews(online=True))
    settle(app)
    assert not app.loop.view.tagged("cafe-offline") and not app.loop.view.tagged("cafe-announce")
    soon = contract.announce_payload({"de": "Gleich", "en": "Soon"},
                                     until=time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(time.time() + 1)))
    app.inbox.post(CafeNews(announcement=soon, announced=True))
    settle(app)
    assert [e.text for e in app.loop.view.tagged("cafe-announce")] == ["Soon"]
    buttons_bottom = max(e.rect[1] + e.rect[3] for e in app.loop.view.elements if e.kind == "button")
    assert buttons_bottom <= app.loop.view.tagged("cafe-announce")[0].rect[1]  # the strip covers no button
    started = time.monotonic()
    for _ in range(5):  # no input comes: the loop wakes by itself when `until` has passed (and the audio sleeps)
        if not app.loop.view.tagged("cafe-announce"):
            break
        app.loop.step()
    assert not app.loop.view.tagged("cafe-announce"), "the announcement did not run out"
    assert time.monotonic() - started < IDLE_WAIT_MS / 1000, "the banner went at the idle wake, not at its end"


class _FakeScreen:
    """A stand-in with just the attributes `screen_name` reads (`name`, `back`): no pygame needed."""

    def __init__(self, name: str, back: object = None):
        self.name = name
        self.back = back


def test_every_kiosk_screen_maps_to_a_contract_screen() -> None:
    from kiosk.app.cafe_link import screen_name

    table, setup = _FakeScreen("table"), _FakeScreen("setup")
    assert screen_name(_FakeScreen("help", table)) == "table"
    assert screen_name(_FakeScreen("help", setup)) == "setup"
    assert screen_name(_FakeScreen("confirm", _FakeScreen("help", table))) == "table"
    assert screen_name(_FakeScreen("scanner-test")) == "admin"
    assert screen_name(_FakeScreen("button-test")) == "admin"
    assert screen_name(_FakeScreen("storage-fault")) == "error"
    assert screen_name(_FakeScreen("games")) == "menu"
    assert screen_name(_FakeScreen("history", table)) == "table"
    assert screen_name(_FakeScreen("demo")) == "demo"


def test_a_damaged_log_set_aside_while_running_sends_the_fresh_log_under_its_new_key(tmp_path, mosquitto) -> None:
    """The log found damaged while the kiosk runs: the retry sets it aside and starts a fresh one, which has a key
    of its own (a key belongs to its log); the café link follows: the status names the new key and the fresh
    log's records go out sealed with it."""
    import json

    from cafe.signing import parse_public
    from kiosk.app.app import App
    from kiosk.eventlog.storage import set_aside
    from kiosk.eventlog.store import EventLog
    from kiosk.settings.settings import Settings

    watcher = Watcher(mosquitto.host, mosquitto.port, CAFE)
    settings = Settings(data_dir=tmp_path, language="en", demo_after_s=0, width=800, height=480)
    app = App(settings, EventLog(settings.log_path, table=TABLE), headless=True)
    config = CafeLinkConfig(mosquitto.host, mosquitto.port, CAFE, TABLE)
    app.cafe.link = CafeLink(config, app.records.log, app.inbox.post).start()
    try:
        first_key = app.records.log.signer.public
        press(app, "game:magische-7")
        press(app, "start")
        wait_status(app, watcher, screen="table", key=first_key)
        watcher.wait(lambda: watcher.has_records(TABLE, 1), 20)
        app.records.log.close()
        set_aside(settings.log_path)  # what opening a damaged log does (tests/test_storage_faults.py)
        assert app.router.retry_storage()
        fresh_key = app.records.log.signer.public
        assert fresh_key != first_key and list(tmp_path.glob("events.sqlite3.corrupt-*"))
        app.router.go_menu()
        wait_status(app, watcher, screen="menu", key=fresh_key)
        press(app, "game:magische-7")
        press(app, "start")
        key = parse_public(fresh_key)

        deadline = time.monotonic() + 20
        while not [r for r in watcher.log_arrivals(TABLE) if r["n"] == 1 and _signed(r, key)]:
            settle(app, 1)
            assert time.monotonic() < deadline, json.dumps(watcher.log_arrivals(TABLE))[:500]
            time.sleep(0.05)
        assert watcher.violations == []
    finally:
        app.cafe.link.stop()
        watcher.close()


def _signed(record: dict, key) -> bool:
    from cafe.signing import signed_by

    return signed_by(record, key)
