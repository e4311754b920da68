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
