"""A simulated table as its own process: plays random games and publishes them as a kiosk does.

    python -m tests.hub_table_proc --broker HOST:PORT --cafe C --table T --game G --seed S
           [--games N] [--pace S] [--falsify SEQ] [--out FILE] [--exit-when-done]

Retained status with a last will, every log record at QoS 1 in order, again from
the first one the broker has not acknowledged after every reconnect, and again from
`from` when the hub asks for a `replay`. `--out` gets every record (JSON lines)
before the first is sent, so a test can compare the hub's store with them. Prints
`ready` when it starts and `done` once the broker acknowledged every record.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from cafe import contract
from referee.table import Referee
from tests.hub_tables import SimTable, random_records


def table_records(table: str, game: str, seed: int, games: int, falsify: int | None) -> list[dict[str, Any]]:
    sim = SimTable(table)
    out: list[dict[str, Any]] = []
    for i in range(games):
        out += random_records(sim, game, seed + i, falsify=falsify)
    return out


def statuses(table: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The status a table shows after each record (turn and scores from its referee)."""
    out = []
    referee = None
    game = uid = None
    for record in records:
        if record["kind"] == "start":
            referee = Referee(record["header"])
            game, uid = record["header"]["game"], record["game_uid"]
        elif record["kind"] == "event" and referee is not None:
            referee.apply(record["event"])
        state = referee.state() if referee else {}
        out.append(contract.status_payload(
            table, screen="table", game=game, game_uid=uid, players=list(referee.players) if referee else [],
            turn=state.get("turn"), scores=state.get("scores", {}), finished=bool(state.get("finished")),
            n=record["n"]))
    return out


class Table:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.records = table_records(args.table, args.game, args.seed, args.games, args.falsify)
        self.statuses = statuses(args.table, self.records)
        self.lock = threading.Condition()
        self.connected = False
        self.next = 1  # the n to send next
        self.acked = 0  # every n up to this one the broker acknowledged
        self.pending: dict[int, int | None] = {}  # mid -> n (None: a status)
        self.early: set[int] = set()  # mids acknowledged before publish() returned
        self.said_done = False
        self.done_n: set[int] = set()
        host, _, port = args.broker.rpartition(":")
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"table-{args.cafe}-{args.table}",
                                  protocol=MQTTProtocolVersion.MQTTv5)
        self.client.will_set(contract.status_topic(args.cafe, args.table),
                             contract.encode(contract.offline_payload(args.table)), qos=1, retain=True)
        self.client.reconnect_delay_set(0.1, 2)
        self.client.on_connect = self.on_connect
        self.client.on_disconnect = self.on_disconnect
        self.client.on_publish = self.on_publish
        self.client.on_message = self.on_message
        self.client.connect_async(host, int(port), keepalive=5)

    def on_connect(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            return
        client.subscribe(contract.replay_topic(self.args.cafe, self.args.table), qos=1)
        with self.lock:
            self.connected = True
            self.pending.clear()
            self.early.clear()
            self.next = self.acked + 1  # everything the broker did not acknowledge goes again, in order
            index = max(self.acked, 1) - 1 if self.acked else None
            self.lock.notify_all()
        status = self.statuses[index] if index is not None else contract.status_payload(self.args.table,
                                                                                           screen="menu")
        client.publish(contract.status_topic(self.args.cafe, self.args.table), contract.encode(status), qos=1,
                       retain=True)

    def on_disconnect(self, client, userdata, flags, reason, properties) -> None:
        with self.lock:
            self.connected = False

    def on_publish(self, client, userdata, mid, reason, properties) -> None:
        with self.lock:
            if mid not in self.pending:
                self.early.add(mid)
                return
            n = self.pending.pop(mid)
            if n is not None:
                self.acknowledged(n)

    def track(self, mid: int, n: int | None) -> None:
        """Wait for the PUBACK of `mid` (a log record's n, or None for a status nobody waits for)."""
        with self.lock:
            if mid in self.early:  # the PUBACK came back before publish() returned
                self.early.discard(mid)
                if n is not None:
                    self.acknowledged(n)
            else:
                self.pending[mid] = n

    def acknowledged(self, n: int) -> None:
        self.done_n.add(n)
        while self.acked + 1 in self.done_n:
            self.acked += 1
        self.lock.notify_all()

    def on_message(self, client, userdata, message) -> None:
        try:
            _, payload = contract.validate(message.topic, message.payload)
        except contract.ContractError:
            return
        if payload is not None and "from" in payload:
            with self.lock:
                self.next = min(self.next, int(payload["from"]))
                self.done_n = {n for n in self.done_n if n < payload["from"]}
                self.acked = min(self.acked, int(payload["from"]) - 1)
                self.lock.notify_all()

    def done(self) -> bool:
        finished = self.acked >= len(self.records)
        if finished and not self.said_done:
            self.said_done = True
            print("done", flush=True)  # every record acknowledged by the broker; replays are still answered
        return self.args.exit_when_done and finished

    def run(self) -> None:
        self.client.loop_start()
        last_event = 0.0
        while True:
            with self.lock:
                while not self.done() and (not self.connected or self.next > len(self.records)):
                    self.lock.wait(0.2)
                if self.done():
                    break
                n = self.next
                self.next += 1
            record = self.records[n - 1]
            if record["kind"] == "event" and n not in self.done_n:
                pause = self.args.pace - (time.monotonic() - last_event)
                if pause > 0:
                    time.sleep(pause)
                last_event = time.monotonic()
            cafe, table = self.args.cafe, self.args.table
            # Never hold our lock across publish(): paho calls on_publish under its own lock.
            info = self.client.publish(contract.log_topic(cafe, table), contract.encode(record), qos=1)
            self.track(info.mid, n)
            info = self.client.publish(contract.status_topic(cafe, table), contract.encode(self.statuses[n - 1]),
                                       qos=1, retain=True)
            self.track(info.mid, None)
        self.client.disconnect()
        self.client.loop_stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--broker", required=True)
    parser.add_argument("--cafe", required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--game", default="magische-7")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--pace", type=float, default=0.2)
    parser.add_argument("--falsify", type=int)
    parser.add_argument("--out")
    parser.add_argument("--exit-when-done", action="store_true")
    args = parser.parse_args(argv)
    table = Table(args)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            for record in table.records:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    print("ready", flush=True)
    table.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
