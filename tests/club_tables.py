"""Tables of a club night for the tests: each one the kiosk's own event log (the outbox) and café publisher, taking
the hub's assignment from the broker as a kiosk does, showing it (its status says so), then playing it with the
referee's simulator — the start record carrying `{evening, round}` as the kiosk's assignment screen makes it.

What a kiosk's screens would report is set by hand: the assignment screen (`assignment` in the status), the
game (screen `table`), its results (`finished`), a game the players left (back to the menu, no end record).
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

from cafe import contract
from cafe.config import CafeLinkConfig, parse_broker
from cafe.publisher import Publisher
from kiosk.eventlog.store import EventLog, outbox
from referee import sim
from referee.table import Referee


class ClubTable:
    def __init__(self, broker: str, cafe: str, table: str, data_dir: Path):
        host, port = parse_broker(broker)
        self.table = table
        self.log = EventLog(Path(data_dir) / f"{table}.sqlite", table=table)  # sealed records, as a kiosk's
        self.assignment: dict[str, Any] | None = None
        self.heard = threading.Event()
        assert self.log.signer is not None
        self.publisher = Publisher(CafeLinkConfig(host, port, cafe, table), outbox(self.log.path),
                                   on_assign=self._assigned, key=self.log.signer.public)
        self.log.on_record(self.publisher.notify)
        self.played: set[tuple[str, int, str]] = set()  # (evening, round, at) of the assignments played

    def _assigned(self, payload: dict[str, Any] | None) -> None:
        self.assignment = payload
        self.heard.set()
        if payload is not None and self._key(payload) not in self.played:
            self.status(screen="setup", assignment=contract.assignment_ref(payload))  # the assignment screen
        elif payload is None:
            self.status(screen="menu")

    @staticmethod
    def _key(a: dict[str, Any]) -> tuple[str, int, str]:
        return a["evening"], a["round"], a["at"]

    def start(self) -> ClubTable:
        self.status(screen="menu")
        self.publisher.start()
        return self

    def status(self, **fields: Any) -> None:
        base = {"screen": "menu", "game": None, "game_uid": None, "players": [], "turn": None, "scores": {},
                "finished": False}
        self.publisher.set_status(base | fields)

    def waiting(self, evening: str, round_no: int, timeout: float = 30) -> dict[str, Any]:
        """The assignment of `round_no`, once it is here and not played yet."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            a = self.assignment
            if a is not None and a["evening"] == evening and a["round"] == round_no and self._key(a) not in self.played:
                return a
            time.sleep(0.05)
        raise AssertionError(f"{self.table}: no assignment for round {round_no} of {evening}")

    def play(self, evening: str, round_no: int, seed: int, falsify: int | None = None,
             leave_after: int | None = None) -> str:
        """Play the assigned game to its end (or leave it after `leave_after` moves); its game uid."""
        a = self.waiting(evening, round_no)
        self.played.add(self._key(a))
        header = contract.assignment_header(a)
        referee = Referee(header)
        game = self.log.new_game(header, assignment=a)
        uid = self.log.game_uid(game)
        table = sim.get(header["game"])(random.Random(seed), list(header["players"]), dealer=header.get("dealer"))
        for seq, event in enumerate(sim.play(table), 1):
            if leave_after is not None and seq > leave_after:
                self.log.set_status(game, "paused")
                self.status(screen="menu")
                return uid
            answer = referee.apply(event)
            if seq == falsify or not answer.ok:  # a broken referee's answer: the hub disputes the game here
                self.log.append_rejected(game, event, answer.error or "not-your-turn")
            else:
                self.log.append(game, event)
            self._shown(referee, uid)
        state = referee.state()
        self.log.set_status(game, "finished", scores=state.get("scores", {}), winners=state.get("winners", []))
        self._shown(referee, uid)  # the results screen
        return uid

    def _shown(self, referee: Referee, uid: str) -> None:
        state = referee.state()
        self.status(screen="table", game=referee.header["game"], game_uid=uid, players=list(referee.players),
                    turn=state.get("turn"), scores={k: int(v) for k, v in state.get("scores", {}).items()},
                    finished=bool(state.get("finished")))

    def menu(self) -> None:
        """The guests touch Menu: the assignment shows again if one is waiting (as the kiosk does)."""
        a = self.assignment
        if a is not None and self._key(a) not in self.played:
            self.status(screen="setup", assignment=contract.assignment_ref(a))
        else:
            self.status(screen="menu")

    def all_acked(self) -> bool:
        return self.publisher.acked >= self.log.last_n()

    def stop(self) -> None:
        self.publisher.stop()
        self.log.close()
