"""The hub on a café's broker as `cafe broker-config` sets it up (users, passwords, the contract's ACL), with the
hub's config file as install-hub.sh writes it: a table's game arrives and is verified, a replay request with the
hub's credentials reaches the table, the staff's announcement from the hub reaches the tables, and a table's user
cannot announce."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from cafe import contract
from hub.auth import hash_password
from tests.hub_process import HubProcess
from tests.hub_table_proc import KioskTable
from tests.mosquitto import Broker, CafeBroker
from tests.test_hub_live import get_json, start_table, wait_for


def client(broker: Broker, user: str, password_file) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"probe-{user}-{time.monotonic_ns()}")
    c.username_pw_set(user, password_file.read_text().strip())
    c.connect(broker.host, broker.port)
    c.loop_start()
    return c


def replayed_as_hub(broker: Broker, password_file, last: int) -> list[int]:
    """Ask table t1 for its whole log with the hub's credentials; the record numbers it sends again."""
    heard: list[dict] = []
    watcher = client(broker, "hub", password_file)
    watcher.on_message = lambda c, u, m: heard.append(json.loads(m.payload))
    watcher.subscribe(contract.log_topic("nord", "t1"), qos=1)
    time.sleep(0.3)
    watcher.publish(contract.replay_topic("nord", "t1"), contract.encode(contract.replay_payload(1)), qos=1)
    wait_for(lambda: len({r["n"] for r in heard}) >= last, what="the replayed log")
    watcher.disconnect()
    watcher.loop_stop()
    return sorted({r["n"] for r in heard})


def test_the_hub_on_a_cafe_broker_with_users_and_acl(tmp_path):
    broker = CafeBroker(tmp_path, "nord", ["t1", "t2"], pairing=False).start()
    files = broker.files
    config = tmp_path / "hub.toml"
    config.write_text(f'[hub]\nusername = "hub"\npassword_file = "{files.passwords["hub"]}"\n'
                      f'staff_password_hash = "{hash_password("pw")}"\n')
    tables = []
    try:
        with HubProcess(tmp_path / "hub", broker.address, "nord", config=config) as hub:
            table = start_table(broker.address, "nord", "t1", tmp_path / "t1", "--game", "magische-7", "--pace", "0",
                                "--username", "table-t1", "--password-file", str(files.passwords["table-t1"]))
            tables.append(table)
            assert table.stdout is not None and table.stdout.readline().strip() == "done"
            (game,) = wait_for(lambda: [g for g in get_json(f"{hub.url}/api/games") if g["check"] == "verified"],
                               what="the table's game verified")
            last = game["end_n"]  # the table's whole log: one game, records 1 … end

            # A table's user may not announce (the broker drops it); the hub's user may.
            intruder = client(broker, "table-t2", files.passwords["table-t2"])
            intruder.publish(contract.announce_topic("nord"),
                             contract.encode(contract.announce_payload({"de": "Freibier!", "en": "Free beer!"})),
                             qos=1, retain=True).wait_for_publish(5)
            intruder.disconnect()
            intruder.loop_stop()
            announced: list = []  # heard as table t2 hears it (t1's user is the running table's client id)
            listener = client(broker, "table-t2", files.passwords["table-t2"])
            listener.on_message = lambda c, u, m: announced.append(contract.validate(m.topic, m.payload)[1])
            listener.subscribe(contract.announce_topic("nord"), qos=1)
            time.sleep(0.5)
            assert announced == []
            staff = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
            staff.addheaders = [("Origin", hub.url)]  # as a browser posting the hub's own form says
            staff.open(hub.url + "/staff/login", data=urllib.parse.urlencode({"password": "pw"}).encode()).close()
            staff.open(hub.url + "/staff/announce", data=urllib.parse.urlencode(
                {"de": "Gleich ist Schluss", "en": "Closing soon", "send": "1"}).encode()).close()
            wait_for(lambda: announced, what="the hub's announcement")
            assert announced[-1]["text"] == {"de": "Gleich ist Schluss", "en": "Closing soon"}
            # The hub's replay request passes the ACL to the table, which sends its log again. The probe uses the
            # hub's user, so it is the hub's client id: the hub stops first, or the two would throw each other off.
            hub.stop()
            assert replayed_as_hub(broker, files.passwords["hub"], last) == list(range(1, last + 1))
            listener.disconnect()
            listener.loop_stop()
    finally:
        for table in tables:
            table.kill()
        broker.stop()


def health(hub: HubProcess) -> dict:
    try:
        return get_json(hub.url + "/api/health")
    except urllib.error.HTTPError as error:
        return json.load(error)


def test_a_table_cannot_take_the_hubs_or_another_tables_session(tmp_path):
    """The broker ties client ids to users: table t1's user connecting with the hub's or table t3's client id
    (and a clean session, which would wipe the queue kept for that session) gets its own id instead."""
    broker = CafeBroker(tmp_path, "nord", ["t1", "t3"]).start()  # the hub by dynamic security
    files = broker.files
    config = tmp_path / "hub.toml"
    config.write_text(f'[hub]\nusername = "hub"\npassword_file = "{files.passwords["hub"]}"\n')
    table = None
    try:
        with HubProcess(tmp_path / "hub", broker.address, "nord", config=config) as hub:
            wait_for(lambda: health(hub)["broker"]["connected"], what="the hub connected")
            table = KioskTable(broker.address, "nord", "t3", tmp_path / "t3", username="table-t3",
                               password_file=files.passwords["table-t3"]).start()
            wait_for(lambda: table.publisher.online, what="table t3 online")
            for stolen in ("hub", "referee-hub-nord", "table-t3", "table-nord-t3"):
                thief = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=stolen, clean_session=True,
                                    protocol=MQTTProtocolVersion.MQTTv311)
                thief.username_pw_set("table-t1", files.passwords["table-t1"].read_text().strip())
                thief.connect(broker.host, broker.port)
                thief.loop_start()
                wait_for(thief.is_connected, what=f"the connection as {stolen}")
                time.sleep(0.5)
                thief.disconnect()
                thief.loop_stop()
            state = health(hub)
            assert state["broker"] == state["broker"] | {"connected": True, "connections": 1}, state
            assert table.publisher.online and table.publisher.connections == 1
            table.play("alles-klar", 4)
            (game,) = wait_for(lambda: [g for g in get_json(f"{hub.url}/api/games") if g["check"] == "verified"],
                               what="t3's game, verified")
            assert game["table"] == "t3"
            assert "use_username_as_clientid true" in files.conf.read_text()
    finally:
        if table is not None:
            table.stop()
        broker.stop()


def test_the_hub_subscribes_over_tls(tmp_path):
    """The hub usually takes the plain loopback listener; over the TLS one it checks the café's CA too."""
    broker = CafeBroker(tmp_path, "nord", ["t1"]).start()
    files = broker.files
    config = tmp_path / "hub.toml"
    config.write_text(f'[hub]\nusername = "hub"\npassword_file = "{files.passwords["hub"]}"\ntls = true\n'
                      f'ca_file = "{files.ca}"\n')
    table = None
    try:
        with HubProcess(tmp_path / "hub", broker.tls_address, "nord", config=config) as hub:
            table = KioskTable(broker.tls_address, "nord", "t1", tmp_path / "t1", username="table-t1",
                               password_file=files.passwords["table-t1"], ca_file=files.ca).start()
            table.play("alles-klar", 4)
            games = wait_for(lambda: [g for g in get_json(f"{hub.url}/api/games") if g["check"] == "verified"],
                             what="the game over TLS, verified")
            assert games[0]["table"] == "t1"
    finally:
        if table is not None:
            table.stop()
        broker.stop()
