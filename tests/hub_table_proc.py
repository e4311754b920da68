"""A simulated table as the kiosk is one: its event log (`kiosk.eventlog.store.EventLog`) as the outbox, and the
kiosk's café publisher (`cafe.publisher.Publisher`) sending it to the broker.

    python -m tests.hub_table_proc --broker HOST:PORT --cafe C --table T --data-dir DIR --game G --seed S
           [--games N] [--pace S] [--noise K] [--falsify SEQ] [--out FILE]

The table plays random games (the referee's simulator), and every `--noise`-th move
also scans the last card again (the referee rejects or takes it; the log keeps both,
as the kiosk's does). `--falsify SEQ` logs the answer to move SEQ of every game the
wrong way round, as a table with a broken referee would. Prints `ready` when it
starts, `done` once the broker acknowledged every record (then writes `--out`: every
record's payload, JSON lines), and keeps answering the hub's `replay` until killed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cafe.config import CafeLinkConfig, parse_broker
from cafe.publisher import Publisher
from kiosk.eventlog.store import EventLog, outbox
from referee.sim import random_game
from referee.table import Referee


def renamed(value: Any, names: dict[str, str]) -> Any:
    """A header or event with every player's name replaced (names are whole strings wherever they appear)."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {k: renamed(v, names) if k != "type" else v for k, v in value.items()}
    return value


class KioskTable:
    """One table: the kiosk's log and publisher, fed by the simulator at a table's pace."""

    def __init__(self, broker: str, cafe: str, table: str, data_dir: Path, *, window: int | None = None,
                 username: str | None = None, password_file: Path | None = None, ca_file: Path | None = None):
        host, port = parse_broker(broker)
        self.table = table
        self.log = EventLog(Path(data_dir) / f"{table}.sqlite", table=table)
        assert self.log.signer is not None
        self.key = self.log.signer.public  # what the hub's staff accept (pairing)
        extra = {"window": window} if window else {}
        link = CafeLinkConfig(host, port, cafe, table, username=username, password_file=password_file,
                              tls=ca_file is not None, ca_file=ca_file)
        self.publisher = Publisher(link, outbox(self.log.path), key=self.key, **extra)
        self.log.on_record(self.publisher.notify)
        self.on_event: Callable[[int], None] = lambda n: None  # called with each event record's n once logged

    def start(self) -> KioskTable:
        self.publisher.set_status({"screen": "menu", "game": None, "game_uid": None, "players": [], "turn": None,
                                   "scores": {}, "finished": False})
        self.publisher.start()
        return self

    def _status(self, referee: Referee, uid: str | None) -> None:
        state = referee.state()
        self.publisher.set_status({"screen": "table", "game": referee.header["game"], "game_uid": uid,
                                   "players": list(referee.players), "turn": state.get("turn"),
                                   "scores": state.get("scores", {}), "finished": bool(state.get("finished"))})

    def play(self, game: str, seed: int, pace: float = 0.0, noise: int = 0, falsify: int | None = None,
             should_stop: Callable[[], bool] = lambda: False, names: dict[str, str] | None = None) -> None:
        """One game from its start to its end record, one move every `pace` seconds; `names` renames the
        simulator's players (as guests type their names at the table)."""
        header, events = random_game(game, seed)
        if names:
            header, events = renamed(header, names), [renamed(e, names) for e in events]
        referee = Referee(header)
        game_id = self.log.new_game(header)
        uid = self.log.game_uid(game_id)
        self._status(referee, uid)
        moves: list[dict[str, Any]] = []
        for i, event in enumerate(events, 1):
            moves.append(event)
            if noise and i % noise == 0:
                moves.append(event)  # the same card scanned twice
        for seq, event in enumerate(moves, 1):
            if should_stop():
                self.log.set_status(game_id, "abandoned")
                return
            if pace:
                time.sleep(pace)
            answer = referee.apply(event)
            ok = answer.ok if seq != falsify else not answer.ok
            if ok:
                self.log.append(game_id, event)
            else:
                self.log.append_rejected(game_id, event, answer.error or "not-your-turn")
            n = self.log.last_n()
            self._status(referee, uid)
            self.on_event(n)
        state = referee.state()
        self.log.set_status(game_id, "finished" if state.get("finished") else "abandoned",
                            scores=state.get("scores", {}), winners=state.get("winners", []))
        self._status(referee, uid)

    def all_acked(self) -> bool:
        return self.publisher.acked >= self.log.last_n()

    def payloads(self) -> list[dict[str, Any]]:
        return [r.payload(self.table) for r in self.log.records()]

    def stop(self) -> None:
        self.publisher.stop()
        self.log.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--broker", required=True)
    parser.add_argument("--cafe", required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--game", default="magische-7")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--pace", type=float, default=0.2)
    parser.add_argument("--noise", type=int, default=0)
    parser.add_argument("--falsify", type=int)
    parser.add_argument("--out")
    parser.add_argument("--rename", action="append", default=[], metavar="OLD=NEW", help="a player's name")
    parser.add_argument("--username", help="the table's broker user")
    parser.add_argument("--password-file", type=Path, help="... and its password")
    args = parser.parse_args(argv)
    names = dict(pair.split("=", 1) for pair in args.rename)
    table = KioskTable(args.broker, args.cafe, args.table, Path(args.data_dir), username=args.username,
                       password_file=args.password_file).start()
    print("ready", flush=True)
    for i in range(args.games):
        table.play(args.game, args.seed + i, args.pace, args.noise, args.falsify, names=names)
    while not table.all_acked():
        time.sleep(0.05)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in table.payloads()),
                                  encoding="utf-8")
    print("done", flush=True)
    while True:  # online until killed: the hub may still ask for a replay
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
