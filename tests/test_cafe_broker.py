"""`scripts/cafe-broker.sh` (python -m cafe broker-config): the files a café's broker needs, made again safely;
and what they do on Debian's real mosquitto: TLS on the café's network checked against the café's CA, plain MQTT
only on loopback, the hub managing users through the dynamic security plugin, file-based tables beside it."""

from __future__ import annotations

import json
import ssl
import subprocess
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cafe import certs, contract, dynsec
from cafe.broker import acl_text
from tests.mosquitto import CafeBroker

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "cafe-broker.sh"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=60)


def test_the_script_writes_config_certificates_users_and_keeps_them(tmp_path) -> None:
    out = tmp_path / "broker"
    done = run("--cafe", "nord", "--tables", "t1", "t2", "--out", str(out), "--port", "1884", "--tls-port", "8884",
               "--name", "cafe-hub.local", "--name", "192.168.1.5")
    assert done.returncode == 0, done.stderr
    conf = (out / "mosquitto.conf").read_text()
    assert "listener 1884 127.0.0.1\nuse_username_as_clientid true\n" in conf  # plain only on loopback
    assert (f"listener 8884\nuse_username_as_clientid true\ncertfile {out / 'tls/broker.crt'}\n"
            f"keyfile {out / 'tls/broker.key'}\n") in conf
    assert "allow_anonymous false" in conf and "persistence true" in conf
    assert f"password_file {out / 'passwd'}" in conf and f"acl_file {out / 'acl'}" in conf
    assert f"plugin {dynsec.find_plugin()}\nplugin_opt_config_file {out / 'dynsec/dynamic-security.json'}" in conf
    assert (out / "acl").read_text() == acl_text("nord", ["t1", "t2"], hub=False)  # the hub is the plugin's
    users = [line.split(":")[0] for line in (out / "passwd").read_text().splitlines()]
    assert users == ["table-t1", "table-t2"]
    assert (out / "passwords" / "table-t1").stat().st_mode & 0o077 == 0
    assert (out / "tls/ca.key").stat().st_mode & 0o077 == 0 and (out / "tls/broker.key").stat().st_mode & 0o077 == 0
    ca, cert = certs.load_cert(out / "tls/ca.crt"), certs.load_cert(out / "tls/broker.crt")
    assert sorted(certs.names_of(cert)) == ["192.168.1.5", "cafe-hub.local"]
    cert.verify_directly_issued_by(ca)
    assert certs.fingerprint(ca) in done.stdout
    plugin = json.loads((out / "dynsec/dynamic-security.json").read_text())
    assert [c["username"] for c in plugin["clients"]] == ["hub"]
    first = {p: (out / p).read_bytes() for p in ("passwords/table-t1", "tls/ca.crt", "tls/broker.crt")}
    again = run("--cafe", "nord", "--tables", "t1", "t2", "t3", "--out", str(out), "--name", "cafe-hub.local",
                "--name", "192.168.1.5")
    assert again.returncode == 0 and "made now" not in again.stdout
    assert {p: (out / p).read_bytes() for p in first} == first  # the tables keep their passwords and the CA
    assert (out / "passwords" / "table-t3").exists()
    renamed = run("--cafe", "nord", "--tables", "t1", "--out", str(out), "--name", "cafe-hub", "--renew")
    assert renamed.returncode == 0 and (out / "passwords" / "table-t1").read_bytes() != first["passwords/table-t1"]
    assert (out / "tls/ca.crt").read_bytes() == first["tls/ca.crt"]  # paired tables trust the same CA …
    assert certs.names_of(certs.load_cert(out / "tls/broker.crt")) == ["cafe-hub"]  # … for the new name


def test_bad_ids_names_and_options_are_refused_with_a_message(tmp_path) -> None:
    done = run("--cafe", "Nord", "--tables", "t1", "--out", str(tmp_path / "x"))
    assert done.returncode == 2 and "café 'Nord'" in done.stderr
    done = run("--cafe", "nord", "--out", str(tmp_path / "x"), "--name", "bad name!")
    assert done.returncode == 2 and "neither a host name nor an IP address" in done.stderr
    done = run("--cafe", "nord", "--out", str(tmp_path / "x"), "--no-pairing")
    assert done.returncode == 2 and "name the tables" in done.stderr
    done = run("--cafe", "nord", "--tables", "t1", "--out", str(tmp_path / "x"), "--conf-d", "--no-pairing")
    conf = (tmp_path / "x" / "mosquitto.conf").read_text()
    assert done.returncode == 0 and "persistence" not in conf and "plugin" not in conf


def test_the_acl_names_the_contracts_topics() -> None:
    text = acl_text("nord", ["t1"])
    assert "user table-t1\ntopic write tabletop-referee/v1/nord/table/t1/status\n" in text
    assert "topic read tabletop-referee/v1/nord/#" in text and "topic write tabletop-referee/v1/nord/announce" in text


# ---------------------------------------------------------------- on the real broker


def connect(host: str, port: int, user: str, password: str, ca: Path | None = None, client_id: str = ""
            ) -> tuple[mqtt.Client, object]:
    """A client's CONNACK reason (the exception the TLS handshake raised, or None when the broker hung up without
    an answer), its connection left open."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or f"probe-{user}", protocol=mqtt.MQTTv5)
    client.username_pw_set(user, password)
    if ca is not None:
        client.tls_set(ca_certs=str(ca), cert_reqs=ssl.CERT_REQUIRED)
    answered = threading.Event()
    reason: list[object] = []
    client.on_connect = lambda c, u, f, rc, p: (reason.append(rc), answered.set())
    try:
        client.connect(host, port)
    except OSError as error:
        return client, error
    client.on_disconnect = lambda *args: answered.set()
    client.loop_start()
    assert answered.wait(10), "neither a CONNACK nor a hang-up"
    return client, reason[0] if reason else None


def published(client: mqtt.Client, topic: str) -> object:
    """The broker's PUBACK reason for one QoS 1 message."""
    done = threading.Event()
    reason: list[object] = []
    client.on_publish = lambda c, u, mid, rc, p: (reason.append(rc), done.set())
    client.publish(topic, b"{}", qos=1)
    assert done.wait(10)
    return reason[0]


@pytest.fixture(scope="module")
def cafe_broker(tmp_path_factory):
    """One café broker for the module, as a café runs it: TLS on every interface, plain on loopback; the hub by
    the plugin, table t1 by the files."""
    broker = CafeBroker(tmp_path_factory.mktemp("cafe-broker"), "nord", ["t1"], bind=None).start()
    yield broker
    broker.stop()


def test_tls_is_checked_against_the_cafes_ca_and_a_stranger_certificate_is_refused(cafe_broker, tmp_path) -> None:
    t1 = cafe_broker.password("table-t1")
    client, reason = connect(cafe_broker.host, cafe_broker.tls_port, "table-t1", t1, cafe_broker.files.ca)
    assert not reason.is_failure
    assert not published(client, contract.status_topic("nord", "t1")).is_failure
    client.disconnect()
    stranger, _ = certs.make_ca("not the café")
    (tmp_path / "other-ca.crt").write_bytes(certs.cert_pem(stranger))
    _, error = connect(cafe_broker.host, cafe_broker.tls_port, "table-t1", t1, tmp_path / "other-ca.crt")
    assert isinstance(error, ssl.SSLCertVerificationError)
    _, reason = connect(cafe_broker.host, cafe_broker.tls_port, "table-t1", "wrong", cafe_broker.files.ca)
    assert reason.is_failure


def test_the_hub_adds_a_tables_user_through_dynamic_security(cafe_broker) -> None:
    hub, reason = connect(cafe_broker.host, cafe_broker.port, "hub", cafe_broker.password("hub"))
    assert not reason.is_failure
    answers: list[dict] = []
    heard = threading.Event()
    hub.on_message = lambda c, u, m: (answers.append(json.loads(m.payload)), heard.set())
    hub.subscribe(dynsec.RESPONSE_TOPIC, qos=1)

    def command(commands: list[dict]) -> list[dict]:
        heard.clear()
        hub.publish(dynsec.CONTROL_TOPIC, json.dumps({"commands": commands}), qos=1)
        assert heard.wait(10), "the plugin did not answer"
        return answers[-1]["responses"]

    first = command(dynsec.table_first("nord", "t7"))
    assert dynsec.failures(first) == [] and first[-1]["error"] == "Client not found"
    assert dynsec.failures(command(dynsec.table_second("t7", "secret-7", None))) == []
    t7, reason = connect(cafe_broker.host, cafe_broker.tls_port, "table-t7", "secret-7", cafe_broker.files.ca)
    assert not reason.is_failure
    assert not published(t7, contract.log_topic("nord", "t7")).is_failure
    assert published(t7, contract.log_topic("nord", "t1")).is_failure  # another table's log
    assert published(t7, contract.announce_topic("nord")).is_failure
    assert published(t7, dynsec.CONTROL_TOPIC).is_failure  # a table cannot manage users
    # Accepted again (a new key, a new SD card): a new password; whoever held the old one is cut off.
    again = command(dynsec.table_first("nord", "t7"))
    assert dynsec.failures(again) == [] and again[-1]["data"]["client"]["username"] == "table-t7"
    assert dynsec.failures(command(dynsec.table_second("t7", "secret-8", again[-1]["data"]["client"]))) == []
    _, reason = connect(cafe_broker.host, cafe_broker.tls_port, "table-t7", "secret-7", cafe_broker.files.ca)
    assert reason.is_failure
    # The hub writes what the contract lets it; a file-based table's user cannot use the plugin.
    assert not published(hub, contract.replay_topic("nord", "t7")).is_failure
    assert published(hub, contract.log_topic("nord", "t7")).is_failure
    t1, _ = connect(cafe_broker.host, cafe_broker.port, "table-t1", cafe_broker.password("table-t1"))
    assert published(t1, dynsec.CONTROL_TOPIC).is_failure
    for client in (hub, t7, t1):
        client.disconnect()


def test_on_either_listener_a_clients_id_is_its_user_name(cafe_broker) -> None:
    """Mosquitto keeps `use_username_as_clientid` per listener: a table's user sending the hub's id on the TLS
    listener (or on the plain one) must not throw the hub off."""
    hub, _ = connect(cafe_broker.host, cafe_broker.port, "hub", cafe_broker.password("hub"), client_id="hub")
    lost = threading.Event()
    hub.on_disconnect = lambda *args: lost.set()
    t1 = cafe_broker.password("table-t1")
    for port, ca in ((cafe_broker.tls_port, cafe_broker.files.ca), (cafe_broker.port, None)):
        thief, reason = connect(cafe_broker.host, port, "table-t1", t1, ca, client_id="hub")
        assert not reason.is_failure
        assert not lost.wait(1.0), f"a table's user took the hub's session on port {port}"
        thief.disconnect()
    hub.disconnect()


def listening(port: int) -> set[str]:
    """The local addresses a TCP port listens on, from the kernel's socket tables."""
    found: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, port_hex = local.rsplit(":", 1)
            if state == "0A" and int(port_hex, 16) == port:  # 0A: LISTEN
                found.add(address.strip("0") or "any")
    return found


def test_plain_mqtt_listens_on_loopback_only_and_tls_on_the_network(cafe_broker) -> None:
    assert listening(cafe_broker.port) == {"100007F"}  # 127.0.0.1, nothing else
    assert listening(cafe_broker.tls_port) == {"any"}  # every interface (0.0.0.0 and ::)
    client, answer = connect(cafe_broker.host, cafe_broker.tls_port, "table-t1", cafe_broker.password("table-t1"))
    assert answer is None  # no plain MQTT on the TLS port: the broker hangs up
    client.loop_stop()


def test_a_table_says_why_the_broker_cannot_be_used(cafe_broker, tmp_path) -> None:
    """The publisher's `problem` (what admin → Café shows): a stranger's certificate, a refused password."""
    from cafe.config import CafeLinkConfig
    from cafe.publisher import Publisher
    from kiosk.eventlog.store import EventLog, outbox

    stranger, _ = certs.make_ca("not the café")
    (tmp_path / "other-ca.crt").write_bytes(certs.cert_pem(stranger))
    (tmp_path / "wrong").write_text("not-the-password\n")
    log = EventLog(tmp_path / "events.sqlite3")
    heard: list[str | None] = []
    cases = [(tmp_path / "other-ca.crt", cafe_broker.files.passwords["table-t1"], "certificate"),
             (cafe_broker.files.ca, tmp_path / "wrong", "refused"),
             (cafe_broker.files.ca, cafe_broker.files.passwords["table-t1"], None)]
    try:
        for ca, password, problem in cases:
            config = CafeLinkConfig(cafe_broker.host, cafe_broker.tls_port, "nord", "t1", "table-t1", password,
                                    tls=True, ca_file=ca)
            publisher = Publisher(config, outbox(log.path), on_problem=heard.append, backoff=(0.1, 0.2)).start()
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and not (publisher.online if problem is None
                                                       else publisher.problem == problem):
                time.sleep(0.05)
            assert publisher.problem == problem and publisher.online == (problem is None)
            publisher.stop()
    finally:
        log.close()
    assert heard == ["certificate", "refused"]  # told once each; the good link has no problem to tell
