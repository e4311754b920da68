"""Club nights at the table (#27), on a real kiosk process and the real Mosquitto: the hub's retained assignment
shows "Runde 2 · Tisch t1: …", the named players claim their seats with their own buttons, the game starts with
exactly the assigned header and its `start` record carries the assignment; a table offline plays the round to
its end and its whole log arrives when the broker is back; the next assignment waits until the game is over, a
played one is not offered again, "other game" leaves it for the menu until the kiosk next goes there, and a
cleared one leaves the screen."""

from __future__ import annotations

import json
import random
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from cafe import contract
from referee import sim
from tests.cafe_table import cafe_args
from tests.kiosk_process import KioskProcess
from tests.mosquitto import Broker
from tests.test_kiosk_e2e import play_event

PLAYERS = ["Zoe", "Yan", "Xu"]
SEATS = ["Anna", "Ben", "Cleo"]  # the simulated table's seat ids (tests' e2e config), pressed in this order


def _hub(broker: Broker, heard: list[dict]) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"hub-{time.monotonic_ns()}")
    client.on_message = lambda c, u, m: heard.append(json.loads(m.payload))
    client.on_connect = lambda c, u, f, r, p: c.subscribe(contract.log_topic("nord", "t1"), qos=1)
    client.connect(broker.host, broker.port)
    client.loop_start()
    return client


def _wait(cond, seconds: float = 30.0, what: str = "") -> None:
    end = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError(what)
        time.sleep(0.05)


def _assign(client: mqtt.Client, assignment: dict | None) -> None:
    payload = b"" if assignment is None else contract.encode(assignment)
    client.publish(contract.assign_topic("nord", "t1"), payload, qos=1, retain=True).wait_for_publish(5)


def test_a_table_takes_its_assignment_plays_offline_and_delivers(tmp_path) -> None:
    broker = Broker(tmp_path / "broker").start()
    heard: list[dict] = []
    hub = _hub(broker, heard)
    assignment = contract.assign_payload("dienstag", 2, "alles-klar", PLAYERS, dealer="Yan",
                                         title={"de": "Dienstagsturnier", "en": "Tuesday tournament"})
    _assign(hub, assignment)
    kiosk = KioskProcess(tmp_path / "kiosk", [*cafe_args(broker.address, "nord", "t1"), "--lang", "de"])
    try:
        state = kiosk.wait(lambda s: s["screen"] == "assignment")
        assert state["headline"] == "Runde 2 · Tisch t1: Zoe, Yan, Xu"
        kiosk.touch("lang")
        assert kiosk.state()["headline"] == "Round 2 · Table t1: Zoe, Yan, Xu"
        assert kiosk.touch("start")["screen"] == "assignment"  # nobody has claimed a seat: no game yet
        for seat in SEATS:  # each named player presses their own seat button, in the order the screen calls
            kiosk.cmd("tap", seat=seat, button="confirm")
        state = kiosk.wait(lambda s: len(s.get("claimed", {})) == 3)
        assert state["claimed"] == {"Anna": 0, "Ben": 1, "Cleo": 2}
        kiosk.cmd("screenshot", path=str(tmp_path / "assignment.png"))
        assert (tmp_path / "assignment.png").stat().st_size > 1000
        assert kiosk.touch("start")["screen"] == "table"

        _wait(lambda: any(r.get("kind") == "start" for r in heard), what="the start record")
        start = next(r for r in heard if r.get("kind") == "start")
        assert start["header"] == contract.assignment_header(assignment)
        assert start["assignment"] == {"evening": "dienstag", "round": 2}
        _assign(hub, {**assignment, "round": 3, "players": ["Xu", "Zoe", "Yan"], "at": contract.now_iso()})
        time.sleep(1.0)
        assert kiosk.state()["screen"] == "table"  # the next round's assignment never interrupts a game

        broker.stop()  # the café's network goes down; the table plays on
        table = sim.get("alles-klar")(random.Random(7), PLAYERS, dealer="Yan")
        plan = list(sim.play(table))
        seat_of = dict(zip(PLAYERS, SEATS, strict=True))
        for count, event in enumerate(plan, 1):
            play_event(kiosk, event, seat_of, count)
        assert kiosk.state()["state"]["finished"]
        broker.start()
        hub.publish(contract.replay_topic("nord", "t1"), contract.encode(contract.replay_payload(1)), qos=1)
        _wait(lambda: any(r.get("kind") == "end" for r in heard), what="the end record after reconnecting")
        numbers = sorted({r["n"] for r in heard})
        assert numbers == list(range(1, numbers[-1] + 1))
        assert next(r for r in heard if r.get("kind") == "end")["status"] == "finished"

        kiosk.touch("menu")  # the game's end: on the way to the menu the waiting round-3 assignment shows
        state = kiosk.wait(lambda s: s["screen"] == "assignment")
        assert state["round"] == 3 and state["players"] == ["Xu", "Zoe", "Yan"]
        assert kiosk.touch("other")["screen"] == "menu"  # a game of their own instead: the menu
        kiosk.touch("lang")  # any screen change; the assignment comes back when the kiosk next goes to the menu
        kiosk.touch("game:alles-klar")
        kiosk.touch("back")
        assert kiosk.wait(lambda s: s["screen"] == "assignment")["round"] == 3
        _assign(hub, None)  # the hub clears it (the round closed)
        kiosk.wait(lambda s: s["screen"] == "menu")
    finally:
        kiosk.close()
        hub.disconnect()
        hub.loop_stop()
        broker.stop()
