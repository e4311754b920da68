"""[cafe] in the table's config (FILE:LINE errors) and the kiosk's --cafe-broker/--cafe/--table flags."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import textwrap

import pytest

from cafe.config import CafeLinkConfig, parse_broker
from kiosk.__main__ import _cafe_config, build_parser
from kiosk.settings.config import check_config, load, loads
from referee.config_lines import ConfigError

SEATS = """
[seats.north]
confirm = 5
slap = 6
"""


def with_cafe(cafe: str) -> str:
    return textwrap.dedent(SEATS) + textwrap.dedent(cafe)


def cafe_errors(cafe: str, path: str = "t.toml") -> list[str]:
    with pytest.raises(ConfigError) as info:
        loads(with_cafe(cafe), path)
    return [line for line in str(info.value).splitlines() if "warning" not in line]


def line_of(cafe: str, needle: str) -> int:
    return next(i for i, line in enumerate(with_cafe(cafe).splitlines(), 1) if needle in line)


def test_without_cafe_nothing_changes() -> None:
    assert loads(textwrap.dedent(SEATS)).cafe is None


def test_a_cafe_table_with_credentials_loads(tmp_path) -> None:
    (tmp_path / "secret").write_text("s3cret\n")
    (tmp_path / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    path = tmp_path / "table.toml"
    path.write_text(with_cafe("""
        [cafe]
        broker = "cafe-hub.local:8883"
        cafe = "nord"
        table = "t3"
        password_file = "secret"
        tls = true
        ca_file = "ca.pem"
    """))
    config = load(path).cafe
    assert config == CafeLinkConfig("cafe-hub.local", 8883, "nord", "t3", "table-t3", tmp_path / "secret", True,
                                    tmp_path / "ca.pem")
    ok, messages = check_config(path)
    assert ok, messages


@pytest.mark.parametrize("cafe, needle, fragment", [
    ('[cafe]\nbroker = "hub:99999"\ncafe = "nord"\ntable = "t1"\n', "broker", "port must be a number 1-65535"),
    ('[cafe]\nbroker = "hub:1883"\ncafe = "Nord"\ntable = "t1"\n', "cafe =", "cafe.cafe = 'Nord'"),
    ('[cafe]\nbroker = "hub:1883"\ncafe = "nord"\ntable = "t_1"\n', "table =", "cafe.table = 't_1'"),
    ('[cafe]\nbroker = "hub:1883"\ncafe = "nord"\n', "[cafe]", "[cafe] has no table"),
    ('[cafe]\nbroker = "hub:1883"\ncafe = "nord"\ntable = "t1"\nport = 1\n', "port =", "unknown key 'port'"),
    ('[cafe]\nbroker = "hub:1883"\ncafe = "nord"\ntable = "t1"\ntls = "yes"\n', "tls", "true or false"),
    ('[cafe]\nbroker = "hub:1883"\ncafe = "nord"\ntable = "t1"\npassword_file = "nope"\n', "password_file",
     "no such file"),
    ('[cafe]\nbroker = "fe80::1:1883"\ncafe = "nord"\ntable = "t1"\n', "broker", "in brackets"),
    ('[cafe]\nbroker = 1883\ncafe = "nord"\ntable = "t1"\n', "broker", "must be a string"),
])
def test_each_cafe_mistake_names_its_line(cafe: str, needle: str, fragment: str) -> None:
    errs = cafe_errors(cafe)
    assert len(errs) == 1, errs
    assert errs[0].startswith(f"t.toml:{line_of(cafe, needle)}: ") and fragment in errs[0], errs


def test_ca_file_needs_tls(tmp_path) -> None:
    (tmp_path / "ca.pem").write_text("x")
    cafe = f'[cafe]\nbroker = "hub"\ncafe = "nord"\ntable = "t1"\nca_file = "{tmp_path / "ca.pem"}"\n'
    errs = cafe_errors(cafe)
    assert len(errs) == 1 and "for tls = true" in errs[0], errs


def test_broker_addresses() -> None:
    assert parse_broker("hub") == ("hub", 1883) and parse_broker("hub", tls=True) == ("hub", 8883)
    assert parse_broker("[::1]:1884") == ("::1", 1884) and parse_broker("10.0.0.2:1") == ("10.0.0.2", 1)
    for bad in ("", ":1883", "hub:x", "hub:0", "a b:1"):
        with pytest.raises(ValueError):
            parse_broker(bad)


def flags(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def test_the_command_line_makes_or_overrides_the_cafe() -> None:
    assert _cafe_config(flags(), None) is None
    made = _cafe_config(flags("--cafe-broker", "127.0.0.1:1884", "--cafe", "nord", "--table", "t9"), None)
    assert made == CafeLinkConfig("127.0.0.1", 1884, "nord", "t9")
    configured = CafeLinkConfig("hub", 1883, "nord", "t1", "table-t1")
    assert _cafe_config(flags("--table", "t2"), configured) == CafeLinkConfig("hub", 1883, "nord", "t2", "table-t1")
    with pytest.raises(ValueError):
        _cafe_config(flags("--cafe-broker", "127.0.0.1:1884"), None)
    with pytest.raises(ValueError):
        _cafe_config(flags("--cafe-broker", "h:1", "--cafe", "Nord!", "--table", "t1"), None)


def test_a_password_file_on_the_command_line_names_the_tables_user(tmp_path) -> None:
    secret = tmp_path / "table-t9.password"
    secret.write_text("geheim\n")
    made = _cafe_config(flags("--cafe-broker", "hub:1883", "--cafe", "nord", "--table", "t9",
                              "--cafe-password-file", str(secret)), None)
    assert made == CafeLinkConfig("hub", 1883, "nord", "t9", "table-t9", secret)
    chosen = _cafe_config(flags("--cafe-broker", "hub:1883", "--cafe", "nord", "--table", "t9", "--cafe-user", "tisch9",
                                "--cafe-password-file", str(secret)), None)
    assert chosen is not None and chosen.username == "tisch9"
    with pytest.raises(ValueError, match="no such file"):
        _cafe_config(flags("--cafe-broker", "hub:1883", "--cafe", "nord", "--table", "t9",
                           "--cafe-password-file", str(tmp_path / "missing")), None)


def test_a_config_of_only_cafe_starts_a_simulated_table_and_nothing_else(tmp_path) -> None:
    """A laptop's café table needs no hardware tables (#35): [cafe] alone checks and starts with --sim; without
    --sim the kiosk says what is missing instead of driving pins nobody named."""
    config = tmp_path / "table.toml"
    config.write_text('[cafe]\nbroker = "127.0.0.1:1"\ncafe = "nord"\ntable = "t1"\n')
    checked = subprocess.run([sys.executable, "-m", "kiosk", "--check-config", str(config)], capture_output=True,
                             text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    run = [sys.executable, "-m", "kiosk", "--config", str(config), "--headless", "--data-dir", str(tmp_path / "d"),
           "--frames", "3"]
    started = subprocess.run([*run, "--sim", "--control", str(tmp_path / "c.sock")], capture_output=True, text=True,
                             timeout=120, env={**os.environ, "SDL_AUDIODRIVER": "dummy"})
    assert started.returncode == 0, started.stderr[-2000:]
    refused = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 78 and "names no hardware" in refused.stderr


def test_a_table_that_joins_from_its_admin_menu_names_only_the_hub() -> None:
    """`[cafe] hub` (and `table`): the Café screen starts from them; the broker comes from the hub at pairing."""
    config = loads(with_cafe('[cafe]\nhub = "cafe-hub.local"\ntable = "t3"\n'))
    assert (config.cafe, config.join.hub, config.join.table) == (None, "cafe-hub.local", "t3")
    mixed = '[cafe]\nhub = "cafe-hub.local"\nbroker = "cafe-hub.local:8883"\n'
    (error,) = cafe_errors(mixed)
    assert f"t.toml:{line_of(mixed, 'broker')}: cafe.broker is for a table set up by files" in error
    bad = '[cafe]\nhub = "cafe hub"\ntable = "T3"\n'
    errors = cafe_errors(bad)
    assert any(f"t.toml:{line_of(bad, 'hub =')}: cafe.hub 'cafe hub': no host name" in e for e in errors)
    assert any(f"t.toml:{line_of(bad, 'table =')}: cafe.table = 'T3'" in e for e in errors)
