"""The attack drill's attacks on the café's records and the hub (issue #34): each takes the café
(benchmarks/attack_cafe.py), attacks, and says refused / detected / harmless — or FAILED — with what it saw.

- refused: the hub or the broker would not take it (a 400, a 429, a dropped payload);
- detected: taken in, changed nothing, and shown to staff (dropped records counted on /api/health and the page);
- harmless: it ran and nothing it aimed at happened (the pages answered, the records stayed)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from benchmarks.attack_cafe import CAFE, TABLE, Cafe
from benchmarks.attack_web import Web, wait_until
from benchmarks.drills import pct, rss_kib
from benchmarks.flood import Flood, page_times
from cafe import contract
from cafe.signing import RecordSigner, new_private_key
from tests.hub_tables import LoggedTable, random_records

Verdict = tuple[str, str]


def publish_as(cafe: Cafe, user: str, messages: list[tuple[str, bytes]], retain: bool = False) -> int:
    """Publish with a user's password over TLS, as an attacker holding it would; how many the broker took."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"attacker-{time.monotonic_ns()}")
    client.username_pw_set(user, cafe.broker.password(user))
    client.tls_set(ca_certs=str(cafe.broker.files.ca))
    host, port = cafe.broker.tls_address.rsplit(":", 1)
    client.connect(host, int(port))
    client.loop_start()
    try:
        infos = [client.publish(topic, body, qos=1, retain=retain) for topic, body in messages]
        wait_until(lambda: all(i.is_published() for i in infos), 20, 0.01)
        return sum(i.is_published() for i in infos)
    finally:
        client.disconnect()
        client.loop_stop()


def log_messages(records: list[dict[str, Any]]) -> list[tuple[str, bytes]]:
    return [(contract.log_topic(CAFE, TABLE), json.dumps(r, ensure_ascii=False).encode()) for r in records]


def stranger(first_n: int) -> LoggedTable:
    """A script with t1's broker password but not its key."""
    return LoggedTable(TABLE, first_n=first_n, signer=RecordSigner(new_private_key()))


def _dropped_by(cafe: Cafe, before: dict[str, int], count: int) -> bool:
    now = cafe.dropped()
    return sum(now.values()) - sum(before.values()) >= count


def squatted_records(cafe: Cafe, size: int) -> Verdict:
    """The issue's first High item: junk at the hub's next n's, then the real table's next game."""
    before, last = cafe.dropped(), cafe.table.log.last_n()
    junk = stranger(last + 1)
    records = [junk._record("junk", "event", event={"type": "pass", "player": "Anna"},
                            answer={"seq": i + 1, "ok": True, "error": None}) for i in range(size)]
    publish_as(cafe, "table-t1", log_messages(records))
    dropped = wait_until(lambda: _dropped_by(cafe, before, size), 30)
    cafe.table.play("magische-7", seed=11)
    stored = wait_until(lambda: cafe.lost_or_changed() == 0, 60)
    shown = f"{size} records" in cafe.staff.page()
    ok = dropped and stored and shown
    return ("detected" if ok else "FAILED"), f"{size} junk records dropped and shown, the real game stored: {ok}"


def second_start(cafe: Cafe) -> Verdict:
    """A `start` naming "Forged" for a verified game's uid, then an `end` with Forged the winner."""
    before = cafe.dropped()
    game = next(g for g in cafe.games() if g["check"] == "verified")
    header = cafe.web.json(game["api"])["records"][0]["header"] | {"players": [*game["players"], "Forged"]}
    forger = stranger(200000)
    start = forger._record(game["game_uid"], "start", header=header)
    end = forger._record(game["game_uid"], "end", status="finished", scores={"Forged": 99}, winners=["Forged"])
    publish_as(cafe, "table-t1", log_messages([start, end]))
    dropped = wait_until(lambda: _dropped_by(cafe, before, 2), 30)
    same = [g["players"] for g in cafe.games() if g["game_uid"] == game["game_uid"]] == [game["players"]]
    return ("detected" if dropped and same else "FAILED"), f"both dropped: {dropped}, the game unchanged: {same}"


def reordered_and_resigned(cafe: Cafe) -> Verdict:
    """Real records resent, moved, swapped, one changed and sealed with another key (which staff refuse)."""
    before = cafe.dropped()
    records = cafe.table.payloads()
    last = records[-1]
    moved, swapped = dict(records[3], n=last["n"] + 1), dict(records[5], n=records[4]["n"])
    other = RecordSigner(new_private_key())
    resigned = other.seal({k: v for k, v in last.items() if k not in ("h", "sig", "prev")}
                          | {"winners": ["Mallory"], "n": last["n"] + 1}, last["h"])
    publish_as(cafe, "table-t1", log_messages([records[2], moved, swapped, resigned]))
    status = contract.status_payload(TABLE, screen="menu", n=last["n"] + 1, key=other.public)
    publish_as(cafe, "table-t1", [(contract.status_topic(CAFE, TABLE), contract.encode(status))])
    waiting = cafe.staff.wait_for_key(other.public, 30)
    cafe.staff.decide(TABLE, other.public, CAFE, accept=False)
    dropped = wait_until(lambda: _dropped_by(cafe, before, 3), 30)
    intact = cafe.lost_or_changed() == 0
    ok = waiting and dropped and intact
    return ("detected" if ok else "FAILED"), (f"the new key waited for staff and was refused: {waiting}; "
                                              f"3 dropped: {dropped}; the log intact: {intact}")


def made_up_game(cafe: Cafe) -> Verdict:
    """A whole rule-legal game won by "Forged", made by a script in a second."""
    before, board = cafe.dropped(), cafe.boards()
    script = stranger(cafe.table.log.last_n() + 1)
    records = random_records(script, "magische-7", seed=9)
    text = json.dumps(records, ensure_ascii=False).replace('"Anna"', '"Forged"')
    records = script.reseal(json.loads(text))
    publish_as(cafe, "table-t1", log_messages(records))
    dropped = wait_until(lambda: _dropped_by(cafe, before, len(records)), 30)
    unrated = cafe.boards() == board and "Forged" not in json.dumps(cafe.boards())
    return ("detected" if dropped and unrated else "FAILED"), (f"{len(records)} records dropped: {dropped}; "
                                                               f"the leaderboards unchanged: {unrated}")


def retained_and_oversize(cafe: Cafe, size: int) -> Verdict:
    """A real record sent retained; start records naming 3,000 players; records of 60 KB."""
    records = cafe.table.payloads()
    before = len(cafe.stored())
    took = publish_as(cafe, "table-t1", log_messages([records[-1]]), retain=True)
    crowd = [stranger(900000 + i)._record(f"crowd-{i}", "start", header={
        "format": contract.TRANSCRIPT_FORMAT, "game": "alles-klar", "players": [f"P{j}" for j in range(3000)]})
        for i in range(size // 4)]
    fat = [stranger(950000 + i)._record("fat", "event", event={"type": "pass", "pad": "x" * 60_000},
                                        answer={"seq": 1, "ok": True, "error": None}) for i in range(size)]
    took += publish_as(cafe, "table-t1", log_messages(crowd + fat))
    time.sleep(2.0)
    staff_page = len(cafe.staff.page().encode())
    same = len(cafe.stored()) == before and cafe.lost_or_changed() == 0
    return ("refused" if same else "FAILED"), (f"{took} messages published, none stored: {same}; the staff page "
                                               f"{staff_page / 1024:.0f} KiB")


def connection_flood(cafe: Cafe, count: int, seconds: float) -> Verdict:
    """The issue's third High item: `count` held `GET /events` from one address; the pages timed meanwhile (and
    for as long before it, for comparison). Each page load is a new HTTPS connection, its handshake included."""
    quiet, _ = page_times("127.0.0.1", cafe.hub.port, seconds, tls=True)
    flood = Flood("127.0.0.1", cafe.hub.port, count, tls=True, source="127.0.0.2").open()
    try:
        times, failures = page_times("127.0.0.1", cafe.hub.port, seconds, tls=True)
        held = flood.held()
    finally:
        flood.close()
    log = cafe.hub.log_tail(2_000_000)
    tracebacks = log.count("Traceback")
    cafe.flood_p99_ms = pct(times, 0.99)
    ok = failures == 0 and tracebacks == 0
    return ("harmless" if ok else "FAILED"), (f"{count} connections, {held} still held; {len(times)} page loads, "
                                              f"{failures} failed, p50 {pct(times, 0.5):.1f} ms, p99 "
                                              f"{pct(times, 0.99):.1f} ms (without the flood: p50 "
                                              f"{pct(quiet, 0.5):.1f} ms, p99 {pct(quiet, 0.99):.1f} ms); "
                                              f"{tracebacks} tracebacks")


def parallel_loads(cafe: Cafe) -> Verdict:
    """Eight guests loading every page at once: the hub's memory stays under the unit's cap (384 MB)."""
    rss: list[int] = []

    def load() -> None:
        web = Web(cafe.hub.port, "127.0.0.3")
        for path in ("/", "/games", "/staff", "/api/games", "/leaderboard", "/print", "/games.csv") * 3:
            web.get(path)

    threads = [threading.Thread(target=load) for _ in range(8)]
    [t.start() for t in threads]
    while any(t.is_alive() for t in threads):
        rss.append(_rss_mib(cafe.hub.proc.pid if cafe.hub.proc else 0))
        time.sleep(0.05)
    top = max(rss, default=0)
    return ("harmless" if top < 384 else "FAILED"), f"peak memory {top} MiB (the unit caps 384)"


def _rss_mib(pid: int) -> int:
    return rss_kib(pid) // 1024


def guessing(cafe: Cafe) -> Verdict:
    """The issue's Medium item: five wrong passwords from each of four addresses; then the staff's right one."""
    answers = [Web(cafe.hub.port, f"127.0.1.{a}").post("/staff/login", {"password": f"guess {i}"}).status
               for i in range(5) for a in range(1, 5)]
    staff = Web(cafe.hub.port, "127.0.0.10").post("/staff/login", {"password": cafe.staff.password}).status
    ok = 429 in answers and staff == 303
    return ("refused" if ok else "FAILED"), (f"guesses: {answers.count(401)} checked, {answers.count(429)} made to "
                                             f"wait; the right password from the staff's phone: {staff}")


def hostile_forms_and_addresses(cafe: Cafe) -> Verdict:
    """A NUL in an announcement, malformed days, a page framed elsewhere."""
    staff = cafe.staff.web
    nul = staff.post("/staff/announce?lang=en", {"de": "Happy hour\x00", "en": "Happy hour"}).status
    days = [cafe.web.get(p).status for p in ("/evening/9999-12-31", "/api/evening/0001-01-01", "/evening/x")]
    page = cafe.web.get("/")
    staff_page = staff.get("/staff")
    headers = ("default-src 'self'" in page.headers.get("content-security-policy", "")
               and page.headers.get("x-frame-options") == "DENY" and staff_page.headers.get("cache-control")
               == "no-store")
    ok = nul == 400 and days == [400, 400, 400] and headers
    return ("refused" if ok else "FAILED"), f"NUL announcement {nul}; malformed days {days}; headers set: {headers}"


def opposite_merges(cafe: Cafe) -> Verdict:
    """Two staff phones merging "Zoë" into "zoë" and "zoë" into "Zoë" at the same moment."""
    answers: list[int] = []
    start = threading.Barrier(2)

    def merge(alias: str, name: str) -> None:
        start.wait()
        answers.append(cafe.staff.web.post("/staff/merge", {"alias": alias, "name": name, "confirm": "1"}).status)

    threads = [threading.Thread(target=merge, args=p) for p in (("Zoë", "zoë"), ("zoë", "Zoë"))]
    [t.start() for t in threads]
    [t.join() for t in threads]
    ok = sorted(answers) == [200, 400]
    return ("refused" if ok else "FAILED"), f"answers {sorted(answers)}: one merge, the other refused"

