"""The hub's config (TOML `[hub]`, FILE:LINE problems, command-line overrides), its CLI, the staff password hash."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hub.auth import check_password, hash_password, valid_hash
from hub.config import from_options, load
from referee.config_lines import ConfigError
from tests.hub_process import ROOT

GOOD = """\
[hub]
broker = "10.0.0.2:1883"
cafe = "nord"
data_dir = "/var/lib/referee-hub"
listen = "0.0.0.0:8080"
username = "hub"
password_file = "/etc/tabletop-referee/hub.password"
"""


def test_a_good_config_loads_and_options_override_it(tmp_path):
    path = tmp_path / "hub.toml"
    path.write_text(GOOD)
    config = load(path)
    assert (config.broker_host, config.broker_port, config.cafe, config.session_id) == (
        "10.0.0.2", 1883, "nord", "hub")  # the broker user's name: the café's broker ties ids to users
    assert load(path, {"listen": "127.0.0.1:9000", "cafe": None}).listen == "127.0.0.1:9000"
    assert from_options({"cafe": "+"}).session_id == "referee-hub-all"
    assert from_options({"cafe": "nord"}).session_id == "referee-hub-nord"


def test_https_needs_its_certificate_and_key_together(tmp_path):
    path = tmp_path / "hub.toml"
    path.write_text(GOOD + 'https_cert = "/etc/tabletop-referee/hub.crt"\n')
    with pytest.raises(ConfigError, match="https_cert and https_key go together"):
        load(path)
    path.write_text(GOOD + 'https_cert = "/c.crt"\nhttps_key = "/c.key"\ntrusted_proxy = "127.0.0.1"\n')
    config = load(path)
    assert (config.https_cert, config.https_key, config.trusted_proxy) == ("/c.crt", "/c.key", "127.0.0.1")


def test_every_problem_is_named_with_its_line(tmp_path):
    path = tmp_path / "hub.toml"
    path.write_text(GOOD.replace('cafe = "nord"', 'cafe = "Nord!"').replace('"0.0.0.0:8080"', '"8080"')
                    + 'tls = "yes"\ncolour = "blue"\nstaff_password_hash = "plain"\n[extra]\n')
    with pytest.raises(ConfigError) as error:
        load(path)
    lines = str(error.value).splitlines()
    assert f"{path}:3: cafe must be 1–32 of a-z, 0-9, '-' (starting with a letter or digit), or '+' for all" in lines
    assert f"{path}:5: listen: '8080' is not HOST:PORT" in lines
    assert f"{path}:8: tls must be true or false" in lines
    assert any(line.startswith(f"{path}:9: unknown key 'colour'") for line in lines)
    assert f"{path}:10: staff_password_hash is not a hash from `referee-hub hash-password`" in lines
    assert f"{path}:11: unknown table [extra]" in lines


def test_a_missing_cafe_and_tls_without_a_ca_are_problems(tmp_path):
    path = tmp_path / "hub.toml"
    path.write_text('[hub]\ntls = true\n')
    with pytest.raises(ConfigError) as error:
        load(path)
    assert "cafe is missing" in str(error.value) and f"{path}:2: tls = true needs ca_file" in str(error.value)
    with pytest.raises(ConfigError, match="command line: broker"):
        from_options({"cafe": "nord", "broker": "nohost"})


def test_check_config_and_hash_password_on_the_command_line(tmp_path):
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(GOOD)
    bad.write_text(GOOD.replace('"hub"', "7"))
    run = [sys.executable, "-m", "hub"]
    ok = subprocess.run([*run, "--check-config", str(good)], capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0 and "OK" in ok.stdout
    no = subprocess.run([*run, "--check-config", str(bad)], capture_output=True, text=True, cwd=ROOT)
    assert no.returncode == 1 and f"{bad}:6: username must be a string" in no.stderr
    hashed = subprocess.run([*run, "hash-password"], input="geheim\n", capture_output=True, text=True, cwd=ROOT,
                            check=True).stdout.strip()
    assert valid_hash(hashed) and check_password("geheim", hashed) and not check_password("Geheim", hashed)


def test_password_hashes_are_salted_and_checked():
    first, second = hash_password("pw"), hash_password("pw")
    assert first != second and check_password("pw", first) and check_password("pw", second)
    assert not check_password("pw", "scrypt$1$2$3$bad$bad") and not valid_hash("pw")


def test_the_hub_prints_the_address_its_page_is_at(tmp_path) -> None:
    """Staff need the address to open on their phones (#35): the hub says it when it starts."""
    from hub.__main__ import addresses
    from tests.hub_process import HubProcess

    assert addresses("127.0.0.1", 8080) == ["http://127.0.0.1:8080/"]
    assert addresses("0.0.0.0", 8080)[-1] == "http://127.0.0.1:8080/"
    assert addresses("::1", 8443, https=True) == ["https://[::1]:8443/"]
    with HubProcess(tmp_path / "hub", "127.0.0.1:1", "nord") as hub:
        log = hub.log_tail()
    assert f"the café's page is at {hub.url}/ (staff: {hub.url}/staff)" in log, log
