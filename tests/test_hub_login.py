"""Staff login throttles attackers, not staff (issue #34): growing delays per address and for the account instead
of a lockout of everyone. The issue's case — five wrong passwords from each of four addresses within a second and
a half — left the right password refused (429) from every address for up to an hour; now staff log in at once
from their own device, and after a short, bounded wait from a guessing one. `referee-hub unlock` clears it all."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from starlette.testclient import TestClient

from hub.guard import ACCOUNT_MAX_S, ADDRESS_MAX_S, FREE_FOR_ACCOUNT, FREE_PER_ADDRESS, UNLOCK_NAME, LoginGuard
from tests.hub_app import OWN, PASSWORD, hub_client


def client_at(app, address: str) -> TestClient:
    return TestClient(app, client=(address, 50000))


def login(client: TestClient, password: str) -> int:
    return client.post("/staff/login?lang=en", data={"password": password}, headers=OWN,
                       follow_redirects=False).status_code


def test_four_guessing_addresses_leave_the_right_password_working(tmp_path) -> None:
    with hub_client(tmp_path) as (client, _):
        guessers = [client_at(client.app, f"10.0.0.{i}") for i in range(1, 5)]
        answers = [login(g, f"guess {i}") for i in range(5) for g in guessers]
        assert answers.count(429) >= 4 and answers.count(401) <= 4 * (FREE_PER_ADDRESS + 1)  # the guessers slowed
        assert login(client_at(client.app, "10.0.0.99"), PASSWORD) == 303  # staff's own device: at once
        staff = guessers[0]  # staff who shared a guessing address (or mistyped): a short wait, then in
        response = staff.post("/staff/login?lang=en", data={"password": PASSWORD}, headers=OWN)
        assert response.status_code == 429
        wait = int(response.headers["retry-after"])
        assert wait <= ACCOUNT_MAX_S
        time.sleep(wait)
        assert login(staff, PASSWORD) == 303


def test_delays_grow_per_address_and_for_the_account_and_stay_bounded() -> None:
    guard, now = LoginGuard(), 1000.0
    waits = []
    for _ in range(40):  # one address guessing as fast as it is let, for hours
        while (wait := guard.attempt("10.0.0.1", now)) > 0:
            now += wait
        waits.append(guard.refused_for("10.0.0.1", now))
    assert waits[:FREE_PER_ADDRESS] == [0.0] * FREE_PER_ADDRESS
    grown = waits[FREE_PER_ADDRESS:]
    assert grown == sorted(grown) and grown[:4] == [1.0, 2.0, 4.0, 8.0]  # doubling …
    assert grown[-1] == ADDRESS_MAX_S  # … up to its bound, and it stays there (four guesses an hour)
    assert guard.refused_for("10.0.0.2", now) == 0  # another address waits for nothing of this one's

    guard, now = LoginGuard(), 1000.0
    for i in range(FREE_FOR_ACCOUNT + 20):  # many addresses, one guess each
        assert guard.attempt(f"10.0.1.{i}", now) == 0
    assert 0 < guard.refused_for("10.0.1.0", now) <= ACCOUNT_MAX_S  # a guessing address waits for the account
    assert guard.refused_for("10.0.2.1", now) == 0  # an address with no failure never does
    assert guard.attempt("2001:db8::1", now) == 0
    for _ in range(FREE_PER_ADDRESS):
        guard.attempt(f"2001:db8::{_ + 2}", now)
    assert guard.refused_for("2001:db8::ffff", now) > 0  # IPv6 counts by its /64: new addresses are no way round


def test_referee_hub_unlock_clears_the_delays_of_the_running_hub(tmp_path) -> None:
    root = Path(__file__).resolve().parents[1]
    with hub_client(tmp_path, unlock_file=tmp_path / UNLOCK_NAME) as (client, _):
        guesser = client_at(client.app, "10.0.0.1")
        answers = [login(guesser, f"guess {i}") for i in range(8)]
        assert answers[-1] == 429, answers
        config = tmp_path / "hub.toml"
        config.write_text(f'[hub]\ncafe = "c1"\ndata_dir = "{tmp_path}"\n')
        done = subprocess.run([sys.executable, "-m", "hub", "unlock", "--config", str(config)], cwd=root,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "delays are cleared" in done.stdout
        assert login(guesser, PASSWORD) == 303
