"""The hub against what a guest or an attacker on the café's Wi-Fi sends (issue #34): forms with control
characters answered 400 with the reason, never passed on to the tables."""

from __future__ import annotations

from tests.hub_app import OWN, hub_client, log_in


def test_an_announcement_with_a_nul_is_refused_with_the_reason_and_never_sent(tmp_path) -> None:
    sent: list = []
    with hub_client(tmp_path, sent) as (client, _):
        log_in(client)
        for field in ("de", "en"):
            response = client.post("/staff/announce?lang=en", data={"de": "Happy hour", "en": "Happy hour",
                                                                     field: "Happy hour\x00"}, headers=OWN)
            assert response.status_code == 400
            assert "The form holds a control character" in response.text
        response = client.post("/staff/announce?lang=de", data={"de": "Happy\x1bhour"}, headers=OWN)
        assert response.status_code == 400 and "Das Formular enthält ein Steuerzeichen" in response.text
        assert sent == []
        assert client.post("/staff/announce", data={"de": "Happy hour 🍺"}, headers=OWN).status_code == 200
        assert sent[-1][1]["text"]["de"] == "Happy hour 🍺"


def test_every_answer_carries_the_security_headers_and_staff_pages_are_never_cached(tmp_path) -> None:
    from hub.headers import CSP

    with hub_client(tmp_path) as (client, _):
        guest_paths = ["/", "/games", "/leaderboard", "/api/tables", "/api/health", "/static/hub.css", "/nope",
                       "/evening", "/print", "/qr.svg", "/staff"]
        for path in guest_paths:
            response = client.get(path)
            assert response.headers["content-security-policy"] == CSP, path
            assert response.headers["x-frame-options"] == "DENY", path
            assert response.headers["x-content-type-options"] == "nosniff", path
            assert response.headers["referrer-policy"] == "same-origin", path
            assert (response.headers.get("cache-control") == "no-store") == path.startswith("/staff"), path
        log_in(client)
        for path in ("/", "/games", "/staff"):
            assert client.get(path).headers["cache-control"] == "no-store", path  # a staff browser's pages
        response = client.post("/staff/announce", data={"de": "x\x00"}, headers=OWN)
        assert response.status_code == 400 and response.headers["cache-control"] == "no-store"


def test_the_hub_unit_raises_the_open_files_above_the_connection_caps() -> None:
    import re
    from pathlib import Path

    from hub import limits

    unit = (Path(__file__).resolve().parents[1] / "systemd" / "referee-hub.service").read_text()
    found = re.search(r"^LimitNOFILE=(\d+)$", unit, re.M)
    assert found and int(found.group(1)) >= limits.TOTAL + limits.FILES_KEPT


def test_no_template_holds_what_the_policy_would_block() -> None:
    """Inline scripts, inline styles and event-handler attributes would not run under the pages' policy."""
    import re
    from pathlib import Path

    hub_dir = Path(__file__).resolve().parents[1] / "hub"
    for template in [*hub_dir.glob("templates/*.html"), *hub_dir.glob("evenings/templates/*.html")]:
        text = template.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag or 'type="application/json"' in tag, f"{template.name}: inline {tag}"
        assert not re.search(r"<style\b|\sstyle=|\son[a-z]+=|javascript:", text), template.name


def test_the_games_list_comes_in_pages_of_a_hundred(tmp_path) -> None:
    import time

    from hub.game_pages import PAGE
    from hub.ingest import Incoming
    from tests.hub_tables import LoggedTable, paired, random_records

    with hub_client(tmp_path) as (client, hub):
        table = LoggedTable("t1")
        paired(hub.ingest, "c1", table)
        for seed in range(2 * PAGE + 10):
            records = random_records(table, "magische-7", seed=seed)
            hub.ingest.process([Incoming("log", "c1", "t1", r, time.time()) for r in records])
        rows = [client.get(f"/games?page={page}&lang=en").text.count('<tr><td data-label="Table"')
                for page in (1, 2, 3)]
        assert rows == [PAGE, PAGE, 10]
        first, last = client.get("/games?lang=en").text, client.get("/games?page=3&lang=en").text
        assert "Older games" in first and "Newer games" not in first
        assert "Newer games" in last and "Older games" not in last
        for bad in ("0", "-1", "x", "9999999", "1e3"):
            assert client.get(f"/games?page={bad}").status_code == 400, bad
