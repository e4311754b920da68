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
