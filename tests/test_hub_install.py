"""install-hub.sh in a throwaway root (as tests/test_pi.py does for the kiosk's installer): every file in place,
nothing run on the machine, idempotent, the broker's users from `cafe broker-config`, the bridge, the hub's unit
verified and sandboxed (systemd-analyze), shellcheck-clean; uninstall and purge."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from cafe import certs
from hub.config import load
from tests.test_pi import exposure, parents, skipped, tool, tree, verify

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ROOT / "scripts" / "install-hub.sh"
APP = "/opt/tabletop-referee-hub"

EXPECTED = {
    "/etc/systemd/system/referee-hub.service": "0o644",
    "/etc/tabletop-referee/hub.toml": "0o640",
    "/etc/tabletop-referee/hub.password": "0o640",
    "/var/lib/referee-hub": "0o750",
    "/etc/mosquitto/conf.d/tabletop-referee.conf": "0o644",
    "/etc/mosquitto/tabletop-referee/acl": "0o644",
    "/etc/mosquitto/tabletop-referee/passwd": "0o600",
    "/etc/mosquitto/tabletop-referee/tls/ca.crt": "0o644",
    "/etc/mosquitto/tabletop-referee/tls/ca.key": "0o600",
    "/etc/mosquitto/tabletop-referee/tls/broker.key": "0o600",
    "/etc/mosquitto/tabletop-referee/dynsec": "0o700",
    "/etc/mosquitto/tabletop-referee/dynsec/dynamic-security.json": "0o600",
    f"{APP}/docs/cafe.md": "0o644",
}


def install(destdir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DESTDIR"}
    result = subprocess.run([str(INSTALL), "--destdir", str(destdir), *args], capture_output=True, text=True,
                            env=env, timeout=120)
    if check:
        assert result.returncode == 0, result.stderr + result.stdout
        assert result.stderr == ""
    return result


def test_install_puts_every_file_in_place_and_changes_nothing_on_the_machine(tmp_path):
    result = install(tmp_path, "--cafe", "nord", "--tables", "t1 t2")
    files = tree(tmp_path)
    for path, mode in EXPECTED.items():
        assert files[path][0] == mode, path
    assert (tmp_path / "etc/systemd/system/referee-hub.service").read_bytes() == (
        ROOT / "systemd/referee-hub.service").read_bytes()
    config = load(tmp_path / "etc/tabletop-referee/hub.toml")
    assert (config.cafe, config.username, config.broker) == ("nord", "hub", "127.0.0.1:1883")
    password = (tmp_path / "etc/tabletop-referee/hub.password").read_text()
    assert password == (tmp_path / "etc/mosquitto/tabletop-referee/passwords/hub").read_text()
    snippet = (tmp_path / "etc/mosquitto/conf.d/tabletop-referee.conf").read_text()
    assert "acl_file /etc/mosquitto/tabletop-referee/acl" in snippet and str(tmp_path) not in snippet
    assert "listener 1883 127.0.0.1\n" in snippet and "listener 8883\n" in snippet  # plain only on loopback
    assert "plugin_opt_config_file /etc/mosquitto/tabletop-referee/dynsec/dynamic-security.json" in snippet
    acl = (tmp_path / "etc/mosquitto/tabletop-referee/acl").read_text()
    assert "user table-t1" in acl and "user table-t2" in acl and "user hub" not in acl  # the hub: the plugin's
    plugin = json.loads((tmp_path / "etc/mosquitto/tabletop-referee/dynsec/dynamic-security.json").read_text())
    assert [c["username"] for c in plugin["clients"]] == ["hub"]
    assert ["chown", "-R", "mosquitto:mosquitto", "/etc/mosquitto/tabletop-referee/dynsec",
            "/etc/mosquitto/tabletop-referee/tls/broker.key"] in skipped(result)
    commands = skipped(result)
    assert ["python3", "-m", "venv", f"{APP}/venv"] in commands
    assert [f"{APP}/venv/bin/python", "-m", "pip", "install", "--quiet", "--upgrade", f"{ROOT}[hub]"] in commands
    assert ["systemctl", "enable", "referee-hub.service"] in commands
    assert ["systemctl", "restart", "mosquitto.service"] in commands
    assert any(c[:2] == ["useradd", "--system"] and c[-1] == "referee-hub" for c in commands)
    assert {c[0] for c in commands} <= {"apt-get", "env", "useradd", "python3", f"{APP}/venv/bin/python", "chown",
                                         "systemctl"}
    [apt] = [c for c in commands if "install" in c and "apt-get" in c]
    assert "mosquitto" in apt


def test_install_is_idempotent_keeps_an_edited_config_and_adds_tables(tmp_path):
    install(tmp_path, "--cafe", "nord", "--tables", "t1 t2")
    first = tree(tmp_path)
    config = tmp_path / "etc/tabletop-referee/hub.toml"
    config.write_text(config.read_text().replace('listen = "0.0.0.0:8080"', 'listen = "0.0.0.0:8081"'))
    edited = tree(tmp_path)
    again = install(tmp_path)  # the café comes from the config now
    assert tree(tmp_path) == edited != first
    assert not re.search(r"^install-hub.sh: (installed|wrote) /", again.stdout, re.M)
    assert ["systemctl", "restart", "mosquitto.service"] not in skipped(again)
    t1 = (tmp_path / "etc/mosquitto/tabletop-referee/passwords/table-t1").read_text()
    more = install(tmp_path, "--tables", "t3")
    assert "tables by files: t1 t2 t3" in more.stdout
    assert (tmp_path / "etc/mosquitto/tabletop-referee/passwords/table-t1").read_text() == t1  # tables keep theirs
    assert "user table-t3" in (tmp_path / "etc/mosquitto/tabletop-referee/acl").read_text()
    assert set(first) >= {p for path in EXPECTED for p in parents(path)}


def test_https_by_default_its_fingerprint_printed_and_plain_http_only_behind_a_proxy(tmp_path):
    """The hub's own self-signed certificate (made by `referee-hub certificate` as the hub makes it on its first
    start), its fingerprint printed with the address; never plain HTTP on 0.0.0.0:8080 unless behind a proxy."""
    result = install(tmp_path, "--cafe", "nord", "--https-name", "cafe-hub.local", "--https-name", "192.168.1.5")
    config = load(tmp_path / "etc/tabletop-referee/hub.toml")
    assert (config.plain_http, config.https_cert, config.listen) == (False, None, "0.0.0.0:8080")
    assert config.https_names == ["cafe-hub.local", "192.168.1.5"]
    cert = certs.load_cert(tmp_path / "var/lib/referee-hub/https/hub.crt")
    assert certs.names_of(cert) == ["cafe-hub.local", "192.168.1.5"]
    line = f"install-hub.sh: serving https://cafe-hub.local:8080/: certificate SHA-256 {certs.fingerprint(cert)}"
    assert line in result.stdout
    again = install(tmp_path, "--self-signed")  # an old command line still works; the certificate is kept
    assert f"SHA-256 {certs.fingerprint(cert)}" in again.stdout and "made now" not in again.stdout
    proxied = install(tmp_path / "proxy", "--cafe", "nord", "--behind-proxy", "127.0.0.1")
    config = load(tmp_path / "proxy/etc/tabletop-referee/hub.toml")
    assert (config.plain_http, config.trusted_proxy, config.listen) == (True, "127.0.0.1", "127.0.0.1:8080")
    assert "plain HTTP behind the reverse proxy" in proxied.stdout


def test_the_bridge_is_switched_on_and_off(tmp_path):
    bridge = tmp_path / "etc/mosquitto/conf.d/tabletop-referee-bridge.conf"
    install(tmp_path, "--cafe", "nord", "--tables", "t1", "--bridge-to", "10.1.2.3:1883", "--bridge-user", "nord")
    text = bridge.read_text()
    assert "address 10.1.2.3:1883" in text and "topic tabletop-referee/v1/nord/# both 1" in text
    assert "remote_username nord" in text
    install(tmp_path)
    assert bridge.exists()
    install(tmp_path, "--no-bridge")
    assert not bridge.exists()


def test_without_file_tables_the_broker_is_set_up_for_pairing_and_named_as_asked(tmp_path):
    result = install(tmp_path, "--cafe", "nord", "--broker-name", "cafe-hub.local", "--broker-name", "10.0.0.5")
    broker = tmp_path / "etc/mosquitto/tabletop-referee"
    assert not (broker / "passwd").exists() and not (broker / "acl").exists()
    assert "acl_file" not in (tmp_path / "etc/mosquitto/conf.d/tabletop-referee.conf").read_text()
    cert = certs.load_cert(broker / "tls/broker.crt")
    assert certs.names_of(cert) == ["cafe-hub.local", "10.0.0.5"]
    cert.verify_directly_issued_by(certs.load_cert(broker / "tls/ca.crt"))
    assert "staff accept it on the hub's staff page" in result.stdout
    config = load(tmp_path / "etc/tabletop-referee/hub.toml")  # what a joining table gets: the .local name
    assert (config.table_broker, config.table_ca_file) == ("cafe-hub.local:8883",
                                                           "/etc/mosquitto/tabletop-referee/tls/ca.crt")
    ca = (broker / "tls/ca.crt").read_bytes()
    install(tmp_path, "--tables", "t9")  # later a table by files: the CA and the names stay
    assert (broker / "tls/ca.crt").read_bytes() == ca and (broker / "passwords/table-t9").exists()
    assert certs.names_of(certs.load_cert(broker / "tls/broker.crt")) == ["cafe-hub.local", "10.0.0.5"]


def test_without_a_broker_nothing_of_mosquitto_is_installed(tmp_path):
    result = install(tmp_path, "--cafe", "nord", "--no-broker")
    assert not (tmp_path / "etc/mosquitto").exists()
    assert not any("mosquitto" in " ".join(c) for c in skipped(result))


def test_uninstall_keeps_config_store_and_users_and_purge_removes_them(tmp_path):
    install(tmp_path, "--cafe", "nord", "--tables", "t1")
    (tmp_path / "var/lib/referee-hub/hub.sqlite").write_bytes(b"records")
    result = install(tmp_path, "--uninstall")
    assert not (tmp_path / "etc/systemd/system/referee-hub.service").exists()
    assert not (tmp_path / APP.lstrip("/")).exists()
    assert (tmp_path / "var/lib/referee-hub/hub.sqlite").exists()
    assert (tmp_path / "etc/mosquitto/tabletop-referee/passwd").exists()
    assert ["systemctl", "daemon-reload"] in skipped(result)
    purge = install(tmp_path, "--uninstall", "--purge")
    assert {kind for _, kind in tree(tmp_path).values()} <= {"dir"}
    assert ["userdel", "referee-hub"] in skipped(purge)


def test_install_refuses_bad_use(tmp_path):
    assert install(tmp_path, "--frobnicate", check=False).returncode == 2
    assert "name the café" in install(tmp_path / "a", "--tables", "t1", check=False).stderr
    assert "café id" in install(tmp_path / "b", "--cafe", "Nord!", check=False).stderr
    assert "--purge only" in install(tmp_path / "c", "--purge", check=False).stderr


@pytest.fixture
def units(tmp_path):
    """The installed unit with its /opt paths pointing into the throwaway root, where a stub hub answers."""
    root = tmp_path / "root"
    install(root, "--cafe", "nord", "--tables", "t1")
    stub = root / APP.lstrip("/") / "venv" / "bin" / "referee-hub"
    stub.parent.mkdir(parents=True)
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    units = tmp_path / "units"
    units.mkdir()
    text = (root / "etc/systemd/system/referee-hub.service").read_text().replace(APP, str(root) + APP)
    (units / "referee-hub.service").write_text(text)
    return units


def test_the_hub_unit_verifies_and_is_sandboxed(units):
    result = verify(units, "referee-hub.service")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert exposure(units, "referee-hub.service") < 2.0


def test_install_hub_is_shellcheck_clean():
    result = subprocess.run([tool("shellcheck"), "-x", str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_unit_runs_what_the_cli_takes():
    text = (ROOT / "systemd/referee-hub.service").read_text()
    assert f"ExecStart={APP}/venv/bin/referee-hub --config /etc/tabletop-referee/hub.toml" in text
    assert f"ExecStartPre={APP}/venv/bin/referee-hub --check-config /etc/tabletop-referee/hub.toml" in text
