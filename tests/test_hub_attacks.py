"""What a holder of a table's broker password can do to the table's results, against the real parts: Debian's
Mosquitto set up as `cafe broker-config` does (users, passwords, the contract's ACL), the hub as a process with
its staff accepting the table on the staff page, and the table as a kiosk is one (its event log sealing each
record, its publisher). Each attack — a forged record, a squatted n, a reordered or re-signed record, a second
`start` for a verified game, a made-up rule-legal game — changes nothing stored or rated and shows to staff.

Then the same rules in one process: a second `start` signed with the table's own key (a conflict, the game
disputed), and a hub store from before signing (kept readable as unsigned, confirmed or set aside by the
table's signed log)."""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from cafe import contract
from cafe.signing import RecordSigner, new_private_key
from hub.auth import hash_password
from hub.ingest import Incoming, Ingest
from hub.queries import Reader
from hub.store import Store
from tests.hub_process import HubProcess
from tests.hub_table_proc import KioskTable
from tests.hub_tables import LoggedTable, paired, random_records
from tests.mosquitto import CafeBroker
from tests.test_hub_live import wait_for

CAFE, TABLE = "nord", "t1"
PASSWORD = "Geheim am Tresen"


class Staff:
    """The staff's browser on the hub: logged in, posting from the hub's own page."""

    def __init__(self, hub: HubProcess):
        self.hub = hub
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.post("/staff/login", {"password": PASSWORD})

    def post(self, path: str, fields: dict[str, str]) -> str:
        request = urllib.request.Request(self.hub.url + path, data=urllib.parse.urlencode(fields).encode(),
                                         headers={"Origin": self.hub.url}, method="POST")
        with self.opener.open(request, timeout=10) as answer:
            return answer.read().decode()

    def page(self) -> str:
        with self.opener.open(self.hub.url + "/staff?lang=en", timeout=10) as answer:
            return answer.read().decode()

    def accept(self, table: str, key: str) -> None:
        wait_for(lambda: key in self.page(), what=f"{table}'s key waiting to join")
        assert "accepted" in self.post("/staff/tables/accept?lang=en", {"cafe": CAFE, "table": table, "key": key})

    def refuse(self, table: str, key: str) -> None:
        wait_for(lambda: key in self.page(), what=f"{table}'s key waiting to join")
        self.post("/staff/tables/refuse?lang=en", {"cafe": CAFE, "table": table, "key": key})


def get(hub: HubProcess, path: str) -> object:
    try:
        with urllib.request.urlopen(hub.url + path, timeout=10) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        return json.load(error)


def publish_as(broker: CafeBroker, user: str, messages: list[tuple[str, bytes]]) -> None:
    """Publish with a table's password (its user: the broker throws the real table off, which comes back by
    itself) until every message is acknowledged, however often the two throw each other off."""
    left = list(messages)
    for _ in range(20):
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"attacker-{time.monotonic_ns()}")
        client.username_pw_set(user, broker.password(user))
        client.connect(broker.host, broker.port)
        client.loop_start()
        infos = [(m, client.publish(m[0], m[1], qos=1)) for m in left]
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not all(i.is_published() for _, i in infos):
            time.sleep(0.01)
        left = [m for m, i in infos if not i.is_published()]
        client.disconnect()
        client.loop_stop()
        if not left:
            return
    raise AssertionError(f"{len(left)} messages never acknowledged")


def forged(n_from: int, count: int, uid: str = "junk") -> list[tuple[str, bytes]]:
    """Records that look like t1's, numbered from `n_from`, sealed with a key that is not t1's."""
    junk = LoggedTable(TABLE, first_n=n_from, signer=RecordSigner(new_private_key()))
    return [(contract.log_topic(CAFE, TABLE), contract.encode(
        junk._record(uid, "event", event={"type": "pass", "player": "Anna"},
                     answer={"seq": i + 1, "ok": True, "error": None}))) for i in range(count)]


@pytest.fixture
def cafe(tmp_path):
    broker = CafeBroker(tmp_path, CAFE, [TABLE], pairing=False).start()
    config = tmp_path / "hub.toml"
    config.write_text(f'[hub]\nusername = "hub"\npassword_file = "{broker.files.passwords["hub"]}"\n'
                      f'staff_password_hash = "{hash_password(PASSWORD)}"\n')
    hub = HubProcess(tmp_path / "hub", broker.address, CAFE, config=config, trust_first_key=False).start()
    table = KioskTable(broker.address, CAFE, TABLE, tmp_path / "t1", username="table-t1",
                       password_file=broker.files.passwords["table-t1"]).start()
    try:
        staff = Staff(hub)
        staff.accept(TABLE, table.key)
        table.play("magische-7", seed=1)
        wait_for(lambda: [g for g in get(hub, "/api/games") if g["check"] == "verified"], what="the game verified")
        yield broker, hub, table, staff
    finally:
        table.stop()
        hub.stop()
        broker.stop()


def stored(hub: HubProcess) -> list[dict]:
    """Every record the hub stores of t1, from its games' API."""
    out = []
    for game in get(hub, "/api/games?table=t1"):
        out += get(hub, game["api"])["records"]
    return sorted(out, key=lambda r: r["n"])


def same_as_the_tables_log(hub: HubProcess, table: KioskTable) -> bool:
    kept = [{k: v for k, v in r.items() if k not in ("received", "signed")} for r in stored(hub)]
    return kept == table.payloads()


def test_a_squatted_n_and_forged_records_change_nothing_and_show(cafe):
    """The issue's first High item: 40 junk records at n = the hub's last + 1 … + 40, published with t1's
    password; then the real table's next game. The real game is stored, the junk dropped and shown, nothing
    lost, /api/health honest."""
    broker, hub, table, staff = cafe
    last = table.log.last_n()
    publish_as(broker, "table-t1", forged(last + 1, 40))
    wait_for(lambda: get(hub, "/api/health")["tables"].get("nord/t1", {}).get("dropped", {}).get("signature") == 40,
             what="the 40 junk records dropped")
    table.play("magische-7", seed=2)  # 25+ real records at the numbers the junk claimed
    assert table.log.last_n() >= last + 25
    wait_for(lambda: len([g for g in get(hub, "/api/games") if g["check"] == "verified"]) == 2,
             what="the real second game verified")
    wait_for(lambda: same_as_the_tables_log(hub, table), what="every record of the table, as it wrote it")
    health = get(hub, "/api/health")
    assert health["tables"]["nord/t1"]["dropped"] == {"signature": 40}
    assert health["tables"]["nord/t1"]["conflicts"] == 0 and health["attention"] >= 1
    page = staff.page()
    assert "not signed with the table&#39;s key" in page or "not signed with the table's key" in page
    assert "40 records" in page


def test_a_second_start_and_an_end_for_a_verified_game_change_nothing_even_after_a_restart(cafe):
    """The issue's second High item: a `start` for the verified game's uid naming a "Forged" player, then an
    `end` with Forged the winner (99 points), published with t1's password: nothing overwritten, the leaderboard
    the same, also after a restart of the hub (a refold)."""
    broker, hub, _table, staff = cafe
    (game,) = get(hub, "/api/games")
    board = get(hub, "/api/leaderboard/magische-7")
    attacker = LoggedTable(TABLE, first_n=200000, signer=RecordSigner(new_private_key()))
    header = get(hub, game["api"])["records"][0]["header"] | {"players": [*game["players"], "Forged"]}
    start = attacker._record(game["game_uid"], "start", header=header)
    end = attacker._record(game["game_uid"], "end", status="finished", scores={"Forged": 99}, winners=["Forged"])
    publish_as(broker, "table-t1", [(contract.log_topic(CAFE, TABLE), contract.encode(r)) for r in (start, end)])
    wait_for(lambda: sum(get(hub, "/api/health")["tables"]["nord/t1"]["dropped"].values()) == 2,
             what="both dropped")
    assert get(hub, "/api/games") == [game]
    assert get(hub, "/api/leaderboard/magische-7") == board
    assert "2 records" in staff.page()
    hub.stop()
    hub.start()
    assert get(hub, "/api/leaderboard/magische-7") == board
    assert [g["players"] for g in get(hub, "/api/games")] == [game["players"]]


def test_reordered_resent_and_re_signed_records_change_nothing(cafe):
    """Real records of the table sent again (a duplicate), moved to another n (their seal no longer holds),
    changed and sealed again with another key, and a status naming that other key: nothing stored changes; the
    other key waits for the staff, who refuse it; its records are dropped as refused from then on."""
    broker, hub, table, staff = cafe
    records = table.payloads()
    last = records[-1]
    moved = dict(records[3], n=last["n"] + 1)  # a real record, renumbered to the next place
    swapped = dict(records[5], n=records[4]["n"])  # two real records swapped
    stranger = RecordSigner(new_private_key())
    resigned = stranger.seal({k: v for k, v in last.items() if k not in ("h", "sig", "prev")}
                             | {"winners": ["Mallory"], "n": last["n"] + 1}, last["h"])
    publish_as(broker, "table-t1", [(contract.log_topic(CAFE, TABLE), contract.encode(r))
                                    for r in (records[2], moved, swapped, resigned)])
    fake_status = contract.status_payload(TABLE, screen="menu", n=last["n"] + 1, key=stranger.public)
    publish_as(broker, "table-t1", [(contract.status_topic(CAFE, TABLE), contract.encode(fake_status))])
    staff.refuse(TABLE, stranger.public)
    publish_as(broker, "table-t1", [(contract.log_topic(CAFE, TABLE), contract.encode(resigned))])
    wait_for(lambda: get(hub, "/api/health")["tables"]["nord/t1"]["dropped"].get("refused") == 1,
             what="the re-signed record dropped as refused")
    dropped = get(hub, "/api/health")["tables"]["nord/t1"]["dropped"]
    assert dropped == {"signature": 3, "refused": 1}  # the duplicate is no drop: it is ignored
    assert same_as_the_tables_log(hub, table)
    table.play("magische-7", seed=3)  # the real table goes on, its chain unbroken
    wait_for(lambda: len(get(hub, "/api/games")) == 2 and same_as_the_tables_log(hub, table),
             what="the table's next game")
    assert "a new key for a paired table" not in staff.page()


def test_a_made_up_rule_legal_game_is_not_rated(cafe):
    """A 70-odd record game won by "Forged", every move legal, published by a script without the table's key:
    not stored, not rated, shown."""
    broker, hub, table, staff = cafe
    board = get(hub, "/api/leaderboard/magische-7")
    script = LoggedTable(TABLE, first_n=table.log.last_n() + 1, signer=RecordSigner(new_private_key()))
    records = random_records(script, "magische-7", seed=9)
    names = {p: "Forged" if i == 0 else f"Mitläufer {i}" for i, p in enumerate(records[0]["header"]["players"])}
    text = json.dumps(records, ensure_ascii=False)
    for old, new in names.items():
        text = text.replace(json.dumps(old, ensure_ascii=False), json.dumps(new, ensure_ascii=False))
    records = script.reseal(json.loads(text))
    publish_as(broker, "table-t1", [(contract.log_topic(CAFE, TABLE), contract.encode(r)) for r in records])
    wait_for(lambda: get(hub, "/api/health")["tables"]["nord/t1"]["dropped"].get("signature") == len(records),
             what="every record of the made-up game dropped")
    assert len(get(hub, "/api/games")) == 1
    assert get(hub, "/api/leaderboard/magische-7") == board
    assert "Forged" not in json.dumps(get(hub, "/api/leaderboard/magische-7"))
    assert f"{len(records)} records" in staff.page()


# ---------------------------------------------------------------- in one process


@pytest.fixture
def writer(tmp_path):
    store = Store(tmp_path / "hub.sqlite")
    ingest = Ingest(store, lambda c, t, n: None)
    yield ingest, Reader(tmp_path / "hub.sqlite")
    store.close()


def feed(ingest: Ingest, records: list[dict]) -> None:
    ingest.process([Incoming("log", CAFE, r["table"], r, time.time()) for r in records])


def test_a_second_start_signed_by_the_table_itself_is_a_conflict_and_disputes_the_game(writer):
    """A table that signs a second `start` for a game it already started (its own key: a broken kiosk, or a
    stolen key): the record stays in its chain, but it is kept aside as a conflict, the game's facts come from the
    first start and the game is disputed, so it is not rated."""
    ingest, reader = writer
    table = LoggedTable(TABLE)
    paired(ingest, CAFE, table)
    records = random_records(table, "magische-7", seed=2)
    feed(ingest, records)
    assert [g["check"] for g in reader.games()] == ["verified"]
    uid, header = records[0]["game_uid"], records[0]["header"]
    forged_start = table._record(uid, "start", header=header | {"players": [*header["players"], "Forged"]})
    forged_end = table._record(uid, "end", status="finished", scores={"Forged": 99}, winners=["Forged"])
    feed(ingest, [forged_start, forged_end])
    (game,) = reader.games()
    assert game["players"] == header["players"] and game["check"] == "disputed"
    assert "Forged" not in game["winners"]
    assert [(c["n"], c["kind"]) for c in reader.conflicts()] == [(forged_start["n"], "second-start")]
    assert ingest.board("magische-7") == []
    ingest._refold()
    assert ingest.board("magische-7") == []


def test_a_record_at_a_held_n_with_another_hash_is_kept_aside(writer):
    """The table's own key signing another record 5 (a log forked by a restored backup): a conflict, never
    stored over the first."""
    ingest, reader = writer
    table = LoggedTable(TABLE)
    paired(ingest, CAFE, table)
    records = random_records(table, "magische-7", seed=3)
    feed(ingest, records)
    other = table.reseal([records[4] | {"answer": records[4]["answer"] | {"ok": not records[4]["answer"]["ok"]}}])
    feed(ingest, other)
    assert [(c["n"], c["kind"]) for c in reader.conflicts()] == [(5, "same-n")]
    assert [g["check"] for g in reader.games()] == ["verified"]


OLD_SCHEMA = """
CREATE TABLE records (cafe TEXT NOT NULL, tbl TEXT NOT NULL, n INTEGER NOT NULL, game_uid TEXT, kind TEXT NOT NULL,
    ok INTEGER, body TEXT NOT NULL, at TEXT, received REAL NOT NULL, PRIMARY KEY (cafe, tbl, n)) WITHOUT ROWID;
CREATE TABLE games (uid TEXT NOT NULL, cafe TEXT NOT NULL, tbl TEXT NOT NULL, game TEXT NOT NULL,
    players TEXT NOT NULL, start_n INTEGER NOT NULL, end_n INTEGER, status TEXT NOT NULL DEFAULT 'playing',
    checked TEXT NOT NULL DEFAULT 'pending', dispute TEXT, scores TEXT, winners TEXT, started_at TEXT,
    ended_at TEXT, ended REAL, PRIMARY KEY (cafe, tbl, uid));
CREATE TABLE tables (cafe TEXT NOT NULL, tbl TEXT NOT NULL, status TEXT NOT NULL, online INTEGER NOT NULL,
    seen REAL NOT NULL, PRIMARY KEY (cafe, tbl));
"""


def old_store(path: Path, records: list[dict], claimed: dict) -> None:
    """A hub's store as the hub before signing kept it: records as they came, a game row from their claims."""
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    for r in records:
        db.execute("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (CAFE, r["table"], r["n"], r["game_uid"], r["kind"], None, json.dumps(r), r["at"], time.time()))
    db.execute("INSERT INTO games (uid, cafe, tbl, game, players, start_n, end_n, status, checked, scores, winners, "
               "ended) VALUES (?, ?, ?, ?, ?, ?, ?, 'finished', 'verified', ?, ?, ?)",
               (records[0]["game_uid"], CAFE, TABLE, "magische-7", json.dumps(claimed["players"]), records[0]["n"],
                records[-1]["n"], json.dumps(claimed["scores"]), json.dumps(claimed["winners"]), time.time()))
    db.commit()
    db.close()


def test_an_earlier_hubs_store_stays_readable_as_unsigned_and_the_signed_log_confirms_or_sets_aside(tmp_path):
    """A store from before signing: its records kept (unsigned), its game derived again from them (the claims
    an attacker wrote into the old row are gone), no unsigned record let in any more; the table's signed log,
    once its key is accepted, confirms the records that match and sets aside the one that does not."""
    table = LoggedTable(TABLE)
    records = random_records(table, "magische-7", seed=4)
    unsigned = [{k: v for k, v in r.items() if k not in ("h", "sig", "prev")} for r in records]
    tampered = dict(unsigned[3], answer=dict(unsigned[3]["answer"], ok=not unsigned[3]["answer"]["ok"]))
    old_store(tmp_path / "hub.sqlite", [*unsigned[:3], tampered, *unsigned[4:]],
              {"players": ["Forged"], "scores": {"Forged": 99}, "winners": ["Forged"]})
    store = Store(tmp_path / "hub.sqlite")
    ingest = Ingest(store, lambda c, t, n: None)
    reader = Reader(tmp_path / "hub.sqlite")
    try:
        (game,) = reader.games()
        assert game["signed"] is False and game["players"] == records[0]["header"]["players"]
        assert game["check"] == "disputed"  # the tampered answer: the replay says otherwise
        assert ingest.board("magische-7") == []
        assert all(r["signed"] is False for r in reader.records(CAFE, TABLE, game["game_uid"]))
        ingest.process([Incoming("bad", CAFE, TABLE, {"reason": "unsigned", "sample": "{}"}, time.time())])
        paired(ingest, CAFE, table)
        feed(ingest, records)  # the table's replay, signed
        (game,) = reader.games()
        assert game["signed"] is True and game["check"] == "verified"
        assert [(c["n"], c["kind"]) for c in reader.conflicts()] == [(4, "legacy")]
        assert all(r["signed"] for r in reader.records(CAFE, TABLE, game["game_uid"]))
        assert sum(p["played"] for p in ingest.board("magische-7")) == 2
        assert [d["reason"] for d in reader.drops()] == ["unsigned"]
    finally:
        store.close()
