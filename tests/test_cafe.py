"""A table in a café, through a real Mosquitto: whole games, the contract, faults, the ACL, the screen.

An independent subscriber (tests/cafe_watch.py) checks every message against
`shared/cafe-protocol.md`. The kiosk is a real `referee-kiosk --sim` process.
"""

from __future__ import annotations

import itertools
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cafe import contract
from cafe.broker import HUB_USER, table_user
from cafe.config import CafeLinkConfig
from cafe.publisher import Publisher
from cafe.signing import RecordSigner, new_private_key
from kiosk.eventlog.store import EventLog, outbox
from tests.cafe_table import CafeTable, games_of, replay_answers
from tests.cafe_watch import Watcher, retained
from tests.mosquitto import Broker, CafeBroker

CAFE, TABLE = "nord", "t1"


def wait_until(predicate, timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.02)


def check_games_replay(records: list[dict]) -> int:
    """Every finished game's start + events + end replays through `referee replay` to the answers it carries."""
    finished = 0
    for uid, game in games_of(records).items():
        kinds = [r["kind"] for r in game]
        assert kinds[0] == "start", uid
        if kinds[-1] != "end":
            continue  # still being played
        header = game[0]["header"]
        events = [r for r in game if r["kind"] == "event"]
        answers = replay_answers(header, [r["event"] for r in events])
        assert [{k: a[k] for k in ("seq", "ok", "error")} for a in answers] == [r["answer"] for r in events]
        assert answers[-1]["state"]["scores"] == game[-1]["scores"]
        assert answers[-1]["state"]["winners"] == game[-1]["winners"]
        finished += game[-1]["status"] == "finished"
    return finished


def test_a_table_plays_whole_games_through_a_real_broker(tmp_path, mosquitto) -> None:
    watcher = Watcher(mosquitto.host, mosquitto.port, CAFE)
    table = CafeTable(tmp_path / "kiosk", mosquitto.address, CAFE, TABLE)
    try:
        table.start()
        watcher.wait(lambda: any(a.payload and a.payload.get("online") for a in watcher.statuses(TABLE)), 30,
                     "the table never said it is online")
        while table.seed < 2 or table.kiosk.state()["screen"] != "table" \
                or not table.kiosk.state()["state"].get("finished"):
            table.play(1)
        truth = table.log_records()
        watcher.wait(lambda: watcher.has_records(TABLE, len(truth)), 30, "not every record reached the broker")
        assert watcher.violations == []
        # Without faults each record arrives exactly once, n strictly increasing from 1.
        assert [r["n"] for r in watcher.log_arrivals(TABLE)] == list(range(1, len(truth) + 1))
        assert watcher.records(TABLE) == truth
        assert table.rejected > 0 and any(not r["answer"]["ok"] for r in truth if r["kind"] == "event")
        assert check_games_replay(truth) == 2
        # The status: retained, online, the last record's n and the finished game's scores.
        watcher.wait(lambda: (watcher.statuses(TABLE)[-1].payload or {}).get("n") == len(truth), 10)
        # At most 10 statuses a second, by the table's own clock (`at`); the last change went out (n above).
        sent = [contract.parse_time(a.payload["at"]) for a in watcher.statuses(TABLE) if a.payload.get("online")]
        assert all((later - earlier).total_seconds() >= 0.099 for earlier, later in itertools.pairwise(sent))
        status = retained(mosquitto.host, mosquitto.port, contract.status_topic(CAFE, TABLE))
        assert status is not None and status["online"] and status["screen"] == "table"
        assert status["n"] == len(truth) and status["finished"] and status["game_uid"] == truth[-1]["game_uid"]
        assert status["scores"] == truth[-1]["scores"]
        # SIGKILL: the broker publishes the table's last will, retained.
        table.kill()
        watcher.wait(lambda: watcher.statuses(TABLE)[-1].payload == contract.offline_payload(TABLE), 30,
                     "no last will after the kill")
        assert retained(mosquitto.host, mosquitto.port, contract.status_topic(CAFE, TABLE)) == \
            contract.offline_payload(TABLE)
    finally:
        table.close()
        watcher.close()


@pytest.mark.slow
def test_broker_restarts_and_kills_while_publishing_lose_and_reorder_nothing(tmp_path, mosquitto) -> None:
    watcher = Watcher(mosquitto.host, mosquitto.port, CAFE)
    table = CafeTable(tmp_path / "kiosk", mosquitto.address, CAFE, TABLE)
    kills_mid_publish = 0
    try:
        table.start()
        table.play(10)
        for _ in range(3):  # the broker goes away during play and comes back
            mosquitto.stop()
            table.play(8)
            mosquitto.start()
            table.play(8)
        cycles = 0
        # A backlog piles up, the broker returns, the kiosk dies while sending it. Whether a kill lands
        # before the last PUBACK is a race with the machine's load: repeat until one has (at least 3).
        while cycles < 3 or (kills_mid_publish == 0 and cycles < 10):
            cycles += 1
            mosquitto.stop()
            table.play(140)  # over two windows (64 in flight): the kill should find some unsent
            before = len({r["n"] for r in watcher.log_arrivals(TABLE)})
            mosquitto.start()
            watcher.wait(lambda b=before: len({r["n"] for r in watcher.log_arrivals(TABLE)}) > b, 30)
            table.kill()
            log = EventLog(table.data_dir / "events.sqlite3")
            kills_mid_publish += log.acked(f"{mosquitto.host}:{mosquitto.port}/{CAFE}/{TABLE}") < log.last_n()
            log.close()
            table.start()
            table.play(3)
        truth = table.log_records()
        watcher.wait(lambda: watcher.has_records(TABLE, len(truth)), 60, "records missing after the faults")
        assert watcher.violations == []
        firsts = [r["n"] for r in watcher.records(TABLE)]
        assert firsts == list(range(1, len(truth) + 1)), "after dedupe: every record once, in order"
        assert watcher.records(TABLE) == truth
        assert watcher.chain_problems(TABLE) == []  # sealed as written: kills, restarts and resends kept it whole
        assert check_games_replay(truth) >= 1
        assert kills_mid_publish >= 1, "at least one kill hit the kiosk with records not yet acknowledged"
    finally:
        table.close()
        watcher.close()


def test_the_publisher_sends_from_the_acked_n_and_answers_replay(tmp_path, mosquitto) -> None:
    """In-process: records made while the broker is down wait in the log; `acked` moves only on PUBACK."""
    from kiosk.app.controller import TableController
    from referee import sim

    path = tmp_path / "events.sqlite3"
    log = EventLog(path, table=TABLE)
    header, events = sim.random_game("alles-klar", 11)
    controller = TableController.new_game(log, "alles-klar", header["players"], header.get("dealer"))
    for event in events[:10]:
        controller.submit(event)
    watcher = Watcher(mosquitto.host, mosquitto.port, CAFE)  # a persistent session: the broker queues for it
    mosquitto.stop()
    online: list[bool] = []
    config = CafeLinkConfig(mosquitto.host, mosquitto.port, CAFE, TABLE)
    publisher = Publisher(config, outbox(path), on_online=online.append, backoff=(0.05, 0.2)).start()
    log.on_record(publisher.notify)
    try:
        time.sleep(0.5)
        assert publisher.acked == 0 and not publisher.online and log.acked(config.destination) == 0
        mosquitto.start()
        wait_until(lambda: publisher.acked == 11, 30, "the backlog was not acknowledged")
        wait_until(lambda: log.acked(config.destination) == 11, 10)
        for event in events[10:20]:
            controller.submit(event)
        wait_until(lambda: watcher.has_records(TABLE, 21), 30)
        # The hub saw a gap: it asks for everything from 5 again, and gets it in order.
        hub = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        hub.connect(mosquitto.host, mosquitto.port)
        hub.loop_start()
        hub.publish(contract.replay_topic(CAFE, TABLE), contract.encode(contract.replay_payload(5)), qos=1)
        wait_until(lambda: len(watcher.log_arrivals(TABLE)) >= 21 + 17, 30, "no replay")
        arrivals = [r["n"] for r in watcher.log_arrivals(TABLE)]
        assert arrivals == list(range(1, 22)) + list(range(5, 22))
        assert online == [True]
        hub.disconnect()
        hub.loop_stop()
    finally:
        watcher.close()
        publisher.stop()
        log.close()


def acl_broker(tmp_path: Path) -> tuple[Broker, dict[str, str]]:
    """The file-based way (password file and ACL, no dynamic security), as `broker-config --no-pairing` writes it."""
    broker = CafeBroker(tmp_path, CAFE, ["t1", "t2"], pairing=False).start()
    return broker, {user: broker.password(user) for user in broker.files.passwords}


def client_of(broker: Broker, user: str, password: str) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.username_pw_set(user, password)
    connected = threading.Event()
    client.on_connect = lambda c, u, f, reason, p: connected.set() if not reason.is_failure else None
    client.connect(broker.host, broker.port)
    client.loop_start()
    assert connected.wait(10), f"{user} could not log in"
    return client


def test_the_generated_acl_holds_on_a_real_broker(tmp_path) -> None:
    broker, passwords = acl_broker(tmp_path)
    hub_watch = Watcher(broker.host, broker.port, CAFE, username=HUB_USER, password=passwords[HUB_USER])
    t1 = client_of(broker, table_user("t1"), passwords[table_user("t1")])
    acks: dict[int, object] = {}
    t1.on_publish = lambda c, u, mid, reason, p: acks.__setitem__(mid, reason)
    try:
        record = RecordSigner(new_private_key()).seal({
            "v": 1, "table": "t2", "n": 1, "at": contract.now_iso(), "game_uid": "g", "kind": "end",
            "status": "abandoned", "scores": {}, "winners": []}, None)
        denied = [t1.publish(contract.log_topic(CAFE, "t2"), contract.encode(record), qos=1),
                  t1.publish(contract.status_topic(CAFE, "t2"), contract.encode(contract.offline_payload("t2")),
                             qos=1, retain=True),
                  t1.publish(contract.announce_topic(CAFE),
                             contract.encode(contract.announce_payload({"de": "Freibier"})), qos=1, retain=True),
                  t1.publish(contract.replay_topic(CAFE, "t2"), contract.encode(contract.replay_payload(1)), qos=1)]
        own = t1.publish(contract.log_topic(CAFE, "t1"), contract.encode({**record, "table": "t1"}), qos=1)
        wait_until(lambda: len(acks) == 5, 10, "the broker did not answer every publish")
        for info in denied:
            assert acks[info.mid].is_failure and acks[info.mid].getName() == "Not authorized"
        assert not acks[own.mid].is_failure
        hub_watch.wait(lambda: len(hub_watch.log_arrivals("t1")) == 1, 10)
        time.sleep(0.3)
        assert [a.topic.table for a in hub_watch.arrivals] == ["t1"]  # nothing of t2, no announce
        # A table reads only its own replay and the announce (Mosquitto grants any subscription and
        # filters what it delivers): with the whole café subscribed, t1 gets its replay, not t2's nor t2's log.
        heard: list[str] = []
        subscribed = threading.Event()
        t1.on_message = lambda c, u, message: heard.append(message.topic)
        t1.on_subscribe = lambda c, u, mid, reasons, p: subscribed.set()
        t1.subscribe(contract.cafe_filter(CAFE), qos=1)
        assert subscribed.wait(10)
        hub = client_of(broker, HUB_USER, passwords[HUB_USER])
        t2 = client_of(broker, table_user("t2"), passwords[table_user("t2")])
        t2.publish(contract.log_topic(CAFE, "t2"), contract.encode(record), qos=1).wait_for_publish(10)
        for table in ("t2", "t1"):
            hub.publish(contract.replay_topic(CAFE, table), contract.encode(contract.replay_payload(1)),
                        qos=1).wait_for_publish(10)
        hub.publish(contract.announce_topic(CAFE), contract.encode(contract.announce_payload({"de": "Hallo"})),
                    qos=1, retain=True).wait_for_publish(10)
        wait_until(lambda: contract.announce_topic(CAFE) in heard, 10, "t1 did not hear the announce")
        assert heard == [contract.replay_topic(CAFE, "t1"), contract.announce_topic(CAFE)]
        hub_watch.wait(lambda: any(a.topic.kind == "announce" for a in hub_watch.arrivals), 10)
        hub.disconnect()
        hub.loop_stop()
        t2.disconnect()
        t2.loop_stop()
        intruder = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        intruder.username_pw_set(table_user("t1"), "wrong")
        refused = threading.Event()
        intruder.on_connect = lambda c, u, f, reason, p: refused.set() if reason.is_failure else None
        intruder.connect(broker.host, broker.port)
        intruder.loop_start()
        assert refused.wait(10)
        intruder.loop_stop()
        assert hub_watch.violations == []
    finally:
        t1.disconnect()
        t1.loop_stop()
        hub_watch.close()
        broker.stop()


def test_a_table_with_config_credentials_publishes_under_the_acl(tmp_path) -> None:
    """[cafe] with username/password_file against the generated broker config: the kiosk's records arrive."""
    broker, passwords = acl_broker(tmp_path)
    config = tmp_path / "table.toml"
    base = (Path(__file__).parent / "data" / "table.e2e.toml").read_text()
    config.write_text(base + f'\n[cafe]\nbroker = "{broker.address}"\ncafe = "{CAFE}"\ntable = "t1"\n'
                      f'password_file = "{tmp_path / "conf" / "passwords" / "table-t1"}"\n')
    watcher = Watcher(broker.host, broker.port, CAFE, username=HUB_USER, password=passwords[HUB_USER])
    from tests.kiosk_process import KioskProcess

    kiosk = KioskProcess(tmp_path / "kiosk", ["--config", str(config)])
    try:
        watcher.wait(lambda: any((a.payload or {}).get("online") for a in watcher.statuses("t1")), 30)
        kiosk.cmd("scan", code="M7:9#1", reader="table")  # on the menu: no game, no record
        assert watcher.violations == []
    finally:
        kiosk.close()
        watcher.close()
        broker.stop()
    watcher_seen = [a.payload for a in watcher.statuses("t1")]
    assert watcher_seen[-1] == contract.offline_payload("t1")  # stopped: offline (its last will)


def certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A throw-away CA and a server certificate for 127.0.0.1, made with Debian's openssl (an owner's own)."""
    folder.mkdir()

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True, timeout=60)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=café test CA")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj",
            "/CN=127.0.0.1")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "server.pem", "-days", "2", "-extfile", "san.ext")
    return folder / "ca.pem", folder / "server.pem", folder / "server.key"


@pytest.mark.parametrize("own", [False, True], ids=["cafe-ca", "own-certificate"])
def test_a_table_publishes_over_tls_with_its_password(tmp_path, own) -> None:
    """Over the TLS listener, checked against the café's CA that broker-config made (or the owner's own CA)."""
    ca, cert, key = certificates(tmp_path / "tls") if own else (None, None, None)
    broker = CafeBroker(tmp_path, CAFE, ["t1"], pairing=False, tls_cert=cert, tls_key=key).start()
    ca = ca or broker.files.ca
    log = EventLog(tmp_path / "events.sqlite3", table="t1")
    log.new_game({"format": "tabletop-referee/1", "game": "alles-klar", "players": ["Anna", "Ben"]})
    watcher = Watcher(broker.host, broker.tls_port, CAFE, username=HUB_USER, password=broker.password(HUB_USER),
                      ca_file=str(ca))
    config = CafeLinkConfig(broker.host, broker.tls_port, CAFE, "t1", table_user("t1"),
                            broker.files.passwords["table-t1"], tls=True, ca_file=ca)
    publisher = Publisher(config, outbox(log.path)).start()
    try:
        watcher.wait(lambda: watcher.has_records("t1", 1), 30, "nothing arrived over TLS")
        assert watcher.records("t1")[0]["kind"] == "start" and watcher.violations == []
        wait_until(lambda: publisher.acked == 1, 10)
    finally:
        publisher.stop()
        watcher.close()
        log.close()
        broker.stop()


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_the_screen_shows_offline_and_the_announcement(tmp_path, mosquitto, size) -> None:
    table = CafeTable(tmp_path / "kiosk", mosquitto.address, CAFE, TABLE)
    table.args += ["--size", f"{size[0]}x{size[1]}", "--lang", "de"]
    hub = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    try:
        kiosk = table.start()
        table.play(3)
        wait_until(lambda: "Café nicht erreichbar" not in kiosk.cmd("view")["texts"], 30)
        hub.connect(mosquitto.host, mosquitto.port)
        hub.loop_start()
        note = contract.announce_payload({"de": "Turnier um 20 Uhr an Tisch 3", "en": "Tournament at 8 pm"})
        hub.publish(contract.announce_topic(CAFE), contract.encode(note), qos=1, retain=True).wait_for_publish(10)
        wait_until(lambda: "Turnier um 20 Uhr an Tisch 3" in kiosk.cmd("view")["texts"], 30)
        mosquitto.stop()
        wait_until(lambda: "Café nicht erreichbar" in kiosk.cmd("view")["texts"], 30)
        table.play(2)  # the game goes on
        shot = tmp_path / f"cafe-{size[0]}x{size[1]}.png"
        kiosk.cmd("screenshot", path=str(shot))
        assert shot.stat().st_size > 0
        mosquitto.start()
        wait_until(lambda: "Café nicht erreichbar" not in kiosk.cmd("view")["texts"], 30)
        hub.reconnect()
        hub.publish(contract.announce_topic(CAFE), b"", qos=1, retain=True).wait_for_publish(10)
        wait_until(lambda: "Turnier um 20 Uhr an Tisch 3" not in kiosk.cmd("view")["texts"], 30)
    finally:
        hub.loop_stop()
        table.close()


def test_a_record_over_64_kib_goes_out_shortened_and_in_its_place(tmp_path, mosquitto) -> None:
    """No scanner makes such an event (64-byte lines), but the log could hold one: its answer still goes out (the
    event shortened before it is sealed, so the seal holds)."""
    log = EventLog(tmp_path / "events.sqlite3", table=TABLE)
    game = log.new_game({"format": "tabletop-referee/1", "game": "alles-klar", "players": ["Anna", "Ben"]})
    log.append_rejected(game, {"type": "play", "player": "Anna", "card": "AK:" + "9" * 70_000}, "unknown-card")
    log.append_rejected(game, {"type": "play", "player": "Ben", "card": "AK:1"}, "not-your-turn")
    watcher = Watcher(mosquitto.host, mosquitto.port, CAFE)
    publisher = Publisher(CafeLinkConfig(mosquitto.host, mosquitto.port, CAFE, TABLE), outbox(log.path)).start()
    try:
        watcher.wait(lambda: watcher.has_records(TABLE, 3), 30)
        _start, big, small = watcher.records(TABLE)
        assert big["n"] == 2 and big["event"] == {"type": "play", "oversize": True}
        assert big["answer"] == {"seq": 1, "ok": False, "error": "unknown-card"}
        assert small["event"]["card"] == "AK:1" and watcher.violations == []
    finally:
        publisher.stop()
        watcher.close()
        log.close()


@dataclass(frozen=True)
class KeptRecord:
    """A log record as a plain value (`cafe.outbox.OutboxRecord`): its number and its sealed bytes."""

    n: int
    data: bytes


class ListOutbox:
    """A second outbox beside the kiosk's event log: records in a list, acknowledgements in a dict."""

    def __init__(self, records: list[KeptRecord]):
        self.kept = records
        self.acks: dict[str, int] = {}
        self.closed = False

    def sealed(self, after_n: int = 0, limit: int | None = None) -> list[KeptRecord]:
        later = [r for r in self.kept if r.n > after_n]
        return later if limit is None else later[:limit]

    def last_n(self) -> int:
        return max((r.n for r in self.kept), default=0)

    def acked(self, destination: str) -> int:
        return self.acks.get(destination, 0)

    def set_acked(self, destination: str, n: int) -> None:
        self.acks[destination] = max(self.acks.get(destination, 0), n)

    def close(self) -> None:
        self.closed = True


def test_the_publisher_sends_from_any_outbox(mosquitto) -> None:
    """cafe/ knows the outbox only by its interface (cafe.outbox): records kept in a list, no kiosk and no SQLite,
    go out in order, and what the broker acknowledged is remembered in that outbox."""
    header = {"format": "tabletop-referee/1", "game": "alles-klar", "players": ["Anna", "Ben"]}
    signer, prev, kept = RecordSigner(new_private_key()), None, []
    for n, kind, fields in ((1, "start", {"header": header}),
                            (2, "event", {"event": {"type": "play", "player": "Ben", "card": "AK:1"},
                                          "answer": {"seq": 1, "ok": False, "error": "not-your-turn"}}),
                            (3, "end", {"status": "abandoned", "scores": {"Anna": 0, "Ben": 0}, "winners": []})):
        sealed = signer.seal({"v": 1, "table": TABLE, "n": n, "at": contract.now_iso(), "game_uid": "g1",
                              "kind": kind, **fields}, prev)
        prev = sealed["h"]
        kept.append(KeptRecord(n, contract.encode(sealed)))
    box = ListOutbox(kept)
    config = CafeLinkConfig(mosquitto.host, mosquitto.port, CAFE, TABLE)
    watcher = Watcher(mosquitto.host, mosquitto.port, CAFE)
    publisher = Publisher(config, lambda: box).start()
    try:
        watcher.wait(lambda: watcher.has_records(TABLE, 3), 30)
        assert [(r["n"], r["kind"]) for r in watcher.records(TABLE)] == [(1, "start"), (2, "event"), (3, "end")]
        assert watcher.violations == []
        wait_until(lambda: box.acked(config.destination) == 3, what="the broker's PUBACKs never reached the outbox")
    finally:
        publisher.stop()
        watcher.close()
    assert box.closed


def test_a_refused_record_is_not_counted_as_sent(tmp_path) -> None:
    """A broker whose ACL lets the table say its status but not publish its log: PUBACK "Not authorized" never
    advances `acked`; the table drops the connection (the broker sends its last will) and tries again later."""
    folder = tmp_path / "broker"
    folder.mkdir()
    (folder / "acl").write_text(f"topic write {contract.status_topic(CAFE, TABLE)}\n"
                                f"topic read {contract.cafe_filter(CAFE)}\n")
    config = "listener {port} 127.0.0.1\nallow_anonymous true\nacl_file {dir}/acl\n"
    broker = Broker(folder, config=config).start()
    log = EventLog(tmp_path / "events.sqlite3", table=TABLE)
    log.new_game({"format": "tabletop-referee/1", "game": "alles-klar", "players": ["Anna", "Ben"]})
    watcher = Watcher(broker.host, broker.port, CAFE)
    publisher = Publisher(CafeLinkConfig(broker.host, broker.port, CAFE, TABLE), outbox(log.path),
                          backoff=(0.05, 0.1)).start()
    try:
        wait_until(lambda: publisher.connections >= 3, 30, "the table did not try again")
        assert publisher.acked == 0 and log.acked(publisher.config.destination) == 0
        watcher.wait(lambda: any(a.payload == contract.offline_payload(TABLE) for a in watcher.statuses(TABLE)), 10,
                     "no last will after the refusal")
        assert watcher.log_arrivals(TABLE) == [] and watcher.violations == []
    finally:
        publisher.stop()
        watcher.close()
        log.close()
        broker.stop()


def test_a_new_record_goes_out_once_the_frame_showing_it_is_out(tmp_path, mosquitto, monkeypatch) -> None:
    """The publisher waits for the frame after a commit (the kiosk hands the status over after each flip), not a
    fixed time (decision SG11): here the wait is made 60 s long, so a record going out before its frame would show,
    and one held back after it would time the test out."""
    monkeypatch.setattr("cafe.publisher.SETTLE_S", 60.0)
    log = EventLog(tmp_path / "events.sqlite3", table=TABLE)
    watcher = Watcher(mosquitto.host, mosquitto.port, CAFE)
    publisher = Publisher(CafeLinkConfig(mosquitto.host, mosquitto.port, CAFE, TABLE), outbox(log.path))
    log.on_record(publisher.notify)
    publisher.set_status({"screen": "menu", "game": None, "game_uid": None, "players": [], "turn": None,
                          "scores": {}, "finished": False})
    publisher.start()
    try:
        wait_until(lambda: publisher.online, what="the publisher never came online")
        watcher.wait(lambda: watcher.statuses(TABLE) != [], 30, "no status")
        log.new_game({"format": "tabletop-referee/1", "game": "alles-klar", "players": ["Anna", "Ben"]})  # n = 1
        time.sleep(1.0)  # committed, its frame not drawn yet
        assert watcher.records(TABLE) == []
        publisher.set_status({"screen": "table", "game": "alles-klar", "game_uid": None, "players": ["Anna", "Ben"],
                              "turn": "Anna", "scores": {}, "finished": False})  # the frame is out
        watcher.wait(lambda: watcher.has_records(TABLE, 1), 10, "the record waited past its frame")
        assert [r["kind"] for r in watcher.records(TABLE)] == ["start"]
    finally:
        publisher.stop()
        watcher.close()
        log.close()
