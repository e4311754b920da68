"""Pairing without a shell, end to end, with real parts only: Debian's mosquitto with TLS and dynamic security, the
real hub process over HTTPS, real kiosk processes driven through admin → Café as staff would.

- a new table: asks, waits, staff accept it, a wrong code is refused, the right one joins it; its game arrives over
  TLS and is verified;
- a refused table: gets nothing, has no broker user, nothing of it is stored;
- a table with a new key (a new SD card): waits again until accepted; the old key's broker password stops
  working when staff accept the new one;
- a broker whose certificate is not the café's: the table refuses it, publishes nothing there, and its Café
  screen says why;
- a hub impostor in the middle: the table opens nothing and keeps nothing;
- the hub's pairing addresses over real HTTPS: a wrong code and a replayed claim refused.
"""

from __future__ import annotations

import json
import time

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from cafe import handover
from cafe.signing import public_text
from tests.cafe_table import CafeTable
from tests.fake_hub import FakeHub
from tests.mosquitto import CafeBroker
from tests.pairing_e2e import Cafe, ask_to_join, enter_code, open_cafe_screen, text_of
from tests.test_cafe_broker import connect
from tests.test_hub_live import wait_for


@pytest.fixture(scope="module")
def cafe(tmp_path_factory):
    """One café for the module (broker and hub start once); each test pairs tables of its own names."""
    made = Cafe(tmp_path_factory.mktemp("pairing"))
    yield made
    made.stop()


def waiting_fingerprint(cafe: Cafe, table: str, timeout: float = 20.0) -> tuple[str, str]:
    deadline = time.monotonic() + timeout
    while True:
        found = [(fp, key) for t, fp, key in cafe.staff.waiting() if t == table]
        if found:
            return found[-1]
        if time.monotonic() > deadline:
            raise TimeoutError(f"{table} never waited to join")
        time.sleep(0.1)


def verified_games(cafe: Cafe, table: str) -> list[dict]:
    return [g for g in cafe.staff.api(f"/api/games?table={table}") if g["check"] == "verified"]


def join(cafe: Cafe, table: CafeTable, name: str) -> dict:
    """Admin → Café → ask, staff accept the fingerprint the table shows, the code typed: joined."""
    kiosk = table.start()
    screen = open_cafe_screen(kiosk)
    assert screen["state"] == "new" and len(screen["fingerprint"]) == 8
    assert ask_to_join(kiosk, cafe.hub_address, name)["state"] == "waiting"
    fingerprint, key = waiting_fingerprint(cafe, name)
    assert fingerprint == screen["fingerprint"]  # what staff compare
    cafe.staff.accept(name, key)
    code = cafe.staff.code_for(name)
    return enter_code(kiosk, code)


def test_a_new_table_joins_and_its_game_is_verified_over_tls(cafe, tmp_path) -> None:
    table = CafeTable(tmp_path / "t1", cafe.broker.tls_address, "nord", "t1")
    table.args = []  # no café in its config or flags: it joins from its admin menu
    try:
        kiosk = table.start()
        screen = open_cafe_screen(kiosk)
        assert ask_to_join(kiosk, cafe.hub_address, "t1")["state"] == "waiting"
        fingerprint, key = waiting_fingerprint(cafe, "t1")
        assert fingerprint == screen["fingerprint"]
        assert f"accept table t1 with the key {fingerprint}" in " ".join(kiosk.cmd("view")["texts"])
        cafe.staff.accept("t1", key)
        code = cafe.staff.code_for("t1")
        wrong = f"{(int(code.replace(' ', '')) + 1) % 10**12:012d}"
        state = enter_code(kiosk, wrong)
        assert (state["state"], state["problem"]) == ("accepted", "wrong-code")
        assert "Wrong code. 4 more tries." in kiosk.cmd("view")["texts"]
        assert enter_code(kiosk, code)["state"] == "joined"
        kiosk.wait(lambda s: s.get("online") and s.get("link") is None, 30)
        assert "Connected to the café's broker." in kiosk.cmd("view")["texts"]
        assert json.loads((tmp_path / "t1" / "cafe" / "joined.json").read_text())["broker"] == \
            cafe.broker.tls_address
        kiosk.touch("back")
        kiosk.touch("back")
        finish_a_game(table)  # a whole game of Alles klar?, start … end, over TLS
        games = wait_for(lambda: verified_games(cafe, "t1"), 60, "t1's game verified on the hub")
        assert games[0]["table"] == "t1"
    finally:
        table.kill()


def test_a_refused_table_gets_nothing(cafe, tmp_path) -> None:
    table = CafeTable(tmp_path / "t2", cafe.broker.tls_address, "nord", "t2")
    table.args = []
    try:
        kiosk = table.start()
        open_cafe_screen(kiosk)
        assert ask_to_join(kiosk, cafe.hub_address, "t2")["state"] == "waiting"
        _, key = waiting_fingerprint(cafe, "t2")
        cafe.staff.decide("t2", key, accept=False)
        kiosk.touch("ask")  # "Check again"
        assert kiosk.wait(lambda s: s["state"] != "working")["state"] == "refused"
        assert "The café refused this table's key." in kiosk.cmd("view")["texts"]
        assert "code" not in kiosk.cmd("view")["buttons"]
        assert not (tmp_path / "t2" / "cafe" / "password").exists()
        assert "t2" not in text_of(cafe.staff.page()).split("Codes for tables joining")[-1].split("</section>")[0]
        _, reason = connect(cafe.broker.host, cafe.broker.tls_port, "table-t2", "anything-at-all", cafe.broker.files.ca)
        assert reason.is_failure  # no broker user was made: it cannot publish
        assert [t for t in cafe.staff.api("/api/tables") if t["table"] == "t2"] == []
    finally:
        table.kill()


def test_a_table_with_a_new_key_waits_until_accepted_again(cafe, tmp_path) -> None:
    old = CafeTable(tmp_path / "t3-old", cafe.broker.tls_address, "nord", "t3")
    old.args = []
    new = CafeTable(tmp_path / "t3-new", cafe.broker.tls_address, "nord", "t3")  # a new SD card: a new key
    new.args = []
    try:
        assert join(cafe, old, "t3")["state"] == "joined"
        old_password = (tmp_path / "t3-old" / "cafe" / "password").read_text().strip()
        kiosk = new.start()
        screen = open_cafe_screen(kiosk)
        assert ask_to_join(kiosk, cafe.hub_address, "t3")["state"] == "waiting"
        fingerprint, key = waiting_fingerprint(cafe, "t3")
        assert fingerprint == screen["fingerprint"] != old.kiosk.cmd("state")["fingerprint"]
        assert "a new key for a paired table" in text_of(cafe.staff.page())
        old.kiosk.touch("back")
        old.kiosk.touch("back")
        old.play(3)  # the old table still plays and publishes meanwhile
        cafe.staff.accept("t3", key)
        assert enter_code(kiosk, cafe.staff.code_for("t3"))["state"] == "joined"
        _, reason = connect(cafe.broker.host, cafe.broker.tls_port, "table-t3", old_password, cafe.broker.files.ca)
        assert reason.is_failure  # the old SD card's password no longer works
        kiosk.touch("back")
        kiosk.touch("back")
        finish_a_game(new)
        wait_for(lambda: [g for g in verified_games(cafe, "t3") if g.get("players")], 60, "the new key's game verified")
    finally:
        old.kill()
        new.kill()


def test_a_broker_with_another_certificate_is_refused_and_the_screen_says_why(cafe, tmp_path) -> None:
    table = CafeTable(tmp_path / "t4", cafe.broker.tls_address, "nord", "t4")
    table.args = []
    impostor = CafeBroker(tmp_path / "impostor", "nord").start()  # a broker of someone else's, its own CA
    try:
        assert join(cafe, table, "t4")["state"] == "joined"
        table.kill()
        joined = tmp_path / "t4" / "cafe" / "joined.json"  # the table sent elsewhere (a spoofed address)
        joined.write_text(json.dumps(json.loads(joined.read_text()) | {"broker": impostor.tls_address}))
        kiosk = table.start()
        open_cafe_screen(kiosk)
        state = kiosk.wait(lambda s: s.get("link") == "certificate", 30)
        assert state["state"] == "joined"
        assert any("not signed by the café's certificate authority" in t for t in kiosk.cmd("view")["texts"])
        assert "New client connected" not in impostor.log_tail(100_000)  # nothing got past the handshake
    finally:
        table.kill()
        impostor.stop()


def test_a_hub_impostor_in_the_middle_changes_nothing(tmp_path) -> None:
    table = CafeTable(tmp_path / "t5", "127.0.0.1:1", "nord", "t5")
    table.args = []
    with FakeHub(tmp_path) as impostor:
        try:
            kiosk = table.start()
            open_cafe_screen(kiosk)
            assert ask_to_join(kiosk, impostor.address, "t5")["state"] == "accepted"  # so it says
            state = enter_code(kiosk, "1234 5678 9012")
            assert (state["state"], state["problem"]) == ("accepted", "forged")
            assert len(impostor.claims) == 1
            assert not (tmp_path / "t5" / "cafe" / "joined.json").exists()
            assert not (tmp_path / "t5" / "cafe" / "ca.crt").exists()
        finally:
            table.kill()


def test_a_wrong_and_a_replayed_claim_are_refused_over_https(cafe) -> None:
    private = Ed25519PrivateKey.generate()
    key = public_text(private.public_key())
    assert handover.hello(cafe.hub_address, "t6", key).body["state"] == "waiting"
    cafe.staff.accept("t6", key)
    code = cafe.staff.code_for("t6")
    answer = handover.hello(cafe.hub_address, "t6", key).body
    instance = handover.Instance("nord", "t6", key, answer["salt"])
    wrong = handover.derive(f"{(int(code.replace(' ', '')) + 7) % 10**12:012d}", instance)
    refused = handover.claim(cafe.hub_address, instance, wrong, private.sign)
    assert (refused.status, refused.body["tries_left"]) == (403, handover.CODE_TRIES - 1)
    keys = handover.derive(code, instance)
    first = handover.claim(cafe.hub_address, instance, keys, private.sign)
    assert first.status == 200 and handover.open_sealed(keys, instance, first.body).username == "table-t6"
    replayed = handover.claim(cafe.hub_address, instance, keys, private.sign)
    assert (replayed.status, replayed.body["state"]) == (410, "paired")


def test_the_pairing_attack_drill_finds_nothing_getting_through(tmp_path) -> None:
    """`scripts/drill.sh pairing` on a short run: garbage, a flood, unsigned and guessed claims, a replay, an
    impostor hub — each refused or harmless, never a server error."""
    import random

    from benchmarks.pair_drill import attacks

    cafe = Cafe(tmp_path / "drill", "drill")
    try:
        rows = attacks(cafe, (60, 8), random.Random(3), tmp_path)
    finally:
        cafe.stop()
    assert [row[0] for row in rows] == ["garbage", "unsigned", "guessing", "replay", "in the middle", "flood"]
    assert all(harmless for *_, harmless in rows), rows


def finish_a_game(table: CafeTable, most: int = 500) -> None:
    """Play until the game on the table has ended."""
    for _ in range(most):
        table.play(1)
        state = table.kiosk.state() if table.kiosk is not None else {}
        if state.get("screen") == "table" and state["state"].get("finished"):
            return
    raise AssertionError(f"no game ended within {most} events")
