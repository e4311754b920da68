"""The hub's pages over HTTPS by default (a self-signed certificate made on the first start, its fingerprint in
the log and printed with the address), plain HTTP only when told; `referee-hub certificate` shows the same."""

from __future__ import annotations

import hashlib
import ssl
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from cafe import certs
from hub.config import load
from referee.config_lines import ConfigError
from tests.hub_process import ROOT, HubProcess


def served_fingerprint(hub: HubProcess) -> str:
    """The SHA-256 of the certificate the hub presents, as a browser shows it."""
    pem = ssl.get_server_certificate(("127.0.0.1", hub.port), timeout=10)
    return hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).digest().hex(":").upper()


def test_the_hub_serves_https_with_a_self_signed_certificate_it_made_and_keeps(mosquitto, tmp_path):
    config = tmp_path / "hub.toml"
    config.write_text('[hub]\nhttps_names = ["cafe-hub.local", "127.0.0.1"]\n')
    shown = subprocess.run([sys.executable, "-m", "hub", "certificate", "--config", str(config), "--cafe", "nord",
                            "--data-dir", str(tmp_path / "hub" / "data"), "--listen", "0.0.0.0:8443"],
                           capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("serving https://cafe-hub.local:8443/: certificate SHA-256 ")
    before = shown.stdout.split("SHA-256 ")[1].split()[0]
    hub = HubProcess(tmp_path / "hub", mosquitto.address, "nord", config=config, https=True)
    with hub:
        fingerprint = served_fingerprint(hub)
        assert fingerprint == before  # made once, by whichever ran first
        assert f"certificate SHA-256 {fingerprint}" in hub.log_tail()
        assert f"referee-hub: serving https://127.0.0.1:{hub.port}/" in hub.log_tail()  # printed on stdout too
        with urllib.request.urlopen(hub.url + "/api/tables", timeout=10, context=hub.ssl_context()) as answer:
            assert answer.status == 200
        with pytest.raises((urllib.error.URLError, ConnectionError)):  # no plain HTTP beside it
            urllib.request.urlopen(hub.url.replace("https:", "http:") + "/api/tables", timeout=5)
        cert = certs.load_cert(tmp_path / "hub" / "data" / "https" / "hub.crt")
        assert certs.names_of(cert) == ["cafe-hub.local", "127.0.0.1"]
    with hub:  # a restart serves the same certificate: staff compared it once
        assert served_fingerprint(hub) == before


def test_plain_http_only_when_configured(mosquitto, tmp_path):
    config = tmp_path / "hub.toml"
    config.write_text('[hub]\nplain_http = true\ntrusted_proxy = "127.0.0.1"\nlisten = "127.0.0.1:8080"\n')
    with HubProcess(tmp_path / "hub", mosquitto.address, "nord", config=config) as hub:
        with urllib.request.urlopen(hub.url + "/api/tables", timeout=10) as answer:
            assert answer.status == 200
        assert "plain HTTP behind the reverse proxy" in hub.log_tail()
    assert not (tmp_path / "hub" / "data" / "https").exists()


def test_https_settings_are_checked(tmp_path):
    path = tmp_path / "hub.toml"
    path.write_text('[hub]\ncafe = "nord"\nplain_http = "yes"\nhttps_names = ["good.local", "bad name"]\n')
    with pytest.raises(ConfigError) as error:
        load(path)
    assert f"{path}:3: plain_http must be true or false" in str(error.value)
    assert f"{path}:4: https_names: 'bad name' is neither a host name nor an IP address" in str(error.value)
