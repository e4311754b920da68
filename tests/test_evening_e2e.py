"""A club night end to end (#27): 12 players, 3 rounds of Alles klar? on four real kiosk processes, the hub process
and the real Mosquitto. Staff run the evening over HTTP; every table starts from its assignment by seat buttons;
every result is verified; the hub is killed and restarted in the middle of round 2 and the round goes on; the
final standings equal an independent computation from the games' scores (the hub's own game list)."""

from __future__ import annotations

import random
import urllib.parse
import urllib.request
from fractions import Fraction

import pytest

from hub.auth import hash_password
from referee import sim
from tests.cafe_table import cafe_args
from tests.hub_process import HubProcess
from tests.kiosk_process import KioskProcess
from tests.mosquitto import Broker
from tests.test_hub_live import get_json, wait_for
from tests.test_kiosk_e2e import play_event

SEATS = ["Anna", "Ben", "Cleo", "Dev"]  # the simulated table's seat ids
NAMES = ["Ada", "Bo", "Cem", "Dora", "Eli", "Fee", "Gus", "Hanne", "Ilka", "Jo", "Kai", "Lu"]
TABLES = ["t1", "t2", "t3", "t4"]


def staff_session(url: str) -> urllib.request.OpenerDirector:
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    opener.addheaders.append(("Origin", url))  # the staff's POSTs come from the hub's own pages (hub.forms)
    opener.open(url + "/staff/login", data=urllib.parse.urlencode({"password": "pw"}).encode()).close()
    return opener


def post(opener: urllib.request.OpenerDirector, url: str, **fields: str) -> None:
    with opener.open(url, data=urllib.parse.urlencode(fields).encode()) as response:
        assert response.status == 200, response.status


def play_assigned(kiosk: KioskProcess, table: dict, round_no: int, seed: int, midway=None) -> None:
    """The table's players claim their seats in the order drawn and play their game to its end (`midway()` is
    called halfway through)."""
    state = kiosk.wait(lambda s: s["screen"] == "assignment" and s.get("round") == round_no, timeout=30)
    assert state["players"] == table["players"]
    for seat in SEATS[:len(table["players"])]:
        kiosk.cmd("tap", seat=seat, button="confirm")
    kiosk.wait(lambda s: len(s.get("claimed", {})) == len(table["players"]))
    assert kiosk.touch("start")["screen"] == "table"
    plan = list(sim.play(sim.get("alles-klar")(random.Random(seed), table["players"], dealer=table["dealer"])))
    seat_of = dict(zip(table["players"], SEATS, strict=False))
    for count, event in enumerate(plan, 1):
        play_event(kiosk, event, seat_of, count)
        if midway is not None and count == len(plan) // 2:
            midway()
    assert kiosk.state()["state"]["finished"]
    kiosk.touch("menu")


def independent(games: list[dict]) -> dict[str, Fraction]:
    """3/2/1/0 by place, ties sharing the places they cover, from each verified game's scores (most wins)."""
    points: dict[str, Fraction] = {}
    for game in games:
        scores = game["scores"]
        for p, v in scores.items():
            better = sum(1 for w in scores.values() if w > v)
            same = sum(1 for w in scores.values() if w == v)
            points[p] = points.get(p, Fraction(0)) + Fraction(sum([3, 2, 1, 0, 0][better:better + same]), same)
    return points


@pytest.mark.slow
def test_an_evening_of_twelve_players_on_four_tables(tmp_path) -> None:
    broker = Broker(tmp_path / "broker").start()
    config = tmp_path / "hub.toml"
    config.write_text(f'[hub]\nstaff_password_hash = "{hash_password("pw")}"\n')
    kiosks: list[KioskProcess] = []
    hub = HubProcess(tmp_path / "hub", broker.address, "nord", config=config).start()
    try:
        kiosks = [KioskProcess(tmp_path / t, cafe_args(broker.address, "nord", t)) for t in TABLES]
        staff = staff_session(hub.url)
        wait_for(lambda: len(get_json(hub.url + "/api/tables?cafe=nord")) == len(TABLES), what="the tables known")
        post(staff, hub.url + "/staff/club-nights", evening="dienstag", game="alles-klar", rounds="3",
             seating="mixing", scoring="places", title_de="Dienstag", title_en="Tuesday",
             **{f"table-{t}": "1" for t in TABLES})
        desk = hub.url + "/staff/club/dienstag"
        for name in NAMES:
            post(staff, desk, action="check_in", name=name)
        seed = 0
        uids: list[str] = []
        for round_no in (1, 2, 3):
            post(staff, desk, action="start")
            evening = get_json(hub.url + "/club/dienstag.json")
            tables = evening["played"][-1]["tables"]
            assert sorted(len(t["players"]) for t in tables) == [3, 3, 3, 3]
            assert sorted(p for t in tables for p in t["players"]) == sorted(NAMES)
            for i, table in enumerate(tables):
                if round_no == 2 and i == 2:  # the hub dies mid-round and comes back: the round goes on
                    hub.kill()
                    hub.start()
                seed += 1

                def progress(table: dict = table) -> None:  # staff see the table's game going on, live
                    def shown() -> bool:
                        with staff.open(desk + "?lang=en") as response:
                            page = response.read().decode()
                        card = page.split(f'data-table="{table["table"]}"', 1)[1].split("</article>", 1)[0]
                        return "says-playing" in card and 'class="note progress"' in card and "Turn:" in card
                    wait_for(shown, timeout=20, what="the table's progress on the staff page")

                play_assigned(kiosks[TABLES.index(table["table"])], table, round_no, seed,
                              midway=progress if (round_no, i) == (1, 0) else None)

            def counted(number: int = round_no) -> list[dict] | None:
                tables = get_json(hub.url + "/club/dienstag.json")["played"][number - 1]["tables"]
                return tables if all(t["state"] == "verified" for t in tables) else None

            done = wait_for(counted, timeout=60, what=f"round {round_no} verified")
            uids += [t["game_uid"] for t in done]
            post(staff, desk, action="close_round")
        post(staff, desk, action="end")
        final = get_json(hub.url + "/club/dienstag.json")
        games = [g for g in get_json(hub.url + "/api/games?cafe=nord") if g["game_uid"] in uids]
        assert len(games) == 9 + 3 and all(g["check"] == "verified" for g in games)
        expected = independent(games)
        shown = {row["player"]: row["points"] for row in final["standings"]}
        assert set(shown) == set(NAMES)
        for name in NAMES:
            assert abs(float(shown[name]) - float(expected[name])) < 0.006, (name, shown[name], expected[name])
        ranks = [float(row["points"]) for row in final["standings"]]
        assert ranks == sorted(ranks, reverse=True)
        assert final["ended"] and all(r["closed"] for r in final["played"])
    finally:
        for kiosk in kiosks:
            kiosk.close()
        hub.stop()
        broker.stop()
