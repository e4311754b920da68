"""The café the attack drill attacks, all real parts on loopback: Debian's Mosquitto as `cafe broker-config`
sets it up (TLS on the café's port, plain only on loopback, a user and ACL per table), the hub as a process
(HTTPS, the default 1,024 open files, staff who accept the table's key on the staff page), a table as a kiosk
is one (its signed event log and publisher, over TLS), and real kiosk processes for the table's screen. A
watcher reads /api/health throughout and keeps every answer."""

from __future__ import annotations

import itertools
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.attack_web import Staff, Web, wait_until
from hub.auth import hash_password
from tests.hub_process import HubProcess
from tests.hub_table_proc import KioskTable
from tests.mosquitto import CafeBroker

CAFE, TABLE, SCREEN_TABLE = "nord", "t1", "t2"
PASSWORD = "Geheim am Tresen"
STAFF_ADDRESS = "127.0.0.9"  # the staff's own phone


@dataclass
class Cafe:
    work: Path
    broker: CafeBroker
    hub: HubProcess
    table: KioskTable
    staff: Staff
    health: list[dict[str, Any]] = field(default_factory=list)
    kiosk_exits: int = 0
    flood_p99_ms: float = float("nan")
    _stop: threading.Event = field(default_factory=threading.Event)

    @property
    def web(self) -> Web:
        return Web(self.hub.port)

    def games(self) -> list[dict[str, Any]]:
        return self.web.json("/api/games?table=t1")

    def stored(self) -> list[dict[str, Any]]:
        """Every record the hub holds of t1, as the API gives it."""
        out: list[dict[str, Any]] = []
        for game in self.games():
            out += self.web.json(game["api"])["records"]
        return sorted(out, key=lambda r: r["n"])

    def lost_or_changed(self) -> int:
        """Records of the table's own log that the hub lacks or holds otherwise (and records it holds beyond)."""
        kept = {r["n"]: {k: v for k, v in r.items() if k not in ("received", "signed")} for r in self.stored()}
        logged = {r["n"]: r for r in self.table.payloads()}
        return sum(kept.get(n) != r for n, r in logged.items()) + len(set(kept) - set(logged))

    def dropped(self) -> dict[str, int]:
        return self.web.json("/api/health")["tables"].get(f"{CAFE}/{TABLE}", {}).get("dropped", {})

    def boards(self) -> dict[str, Any]:
        return {game: self.web.json(f"/api/leaderboard/{game}") for game in ("magische-7", "alles-klar")}

    def watch_health(self) -> None:
        def loop() -> None:
            while not self._stop.wait(0.5):
                try:
                    self.health.append(self.web.json("/api/health") | {"t": time.monotonic()})
                except (OSError, ValueError):
                    self.health.append({"unanswered": True, "t": time.monotonic()})
        threading.Thread(target=loop, name="health-watch", daemon=True).start()

    def honest(self) -> tuple[bool, str]:
        """/api/health never says `ok` without the broker link, and never hides drops it counted before."""
        seen = [h for h in self.health if not h.get("unanswered")]
        lies = [h for h in seen if h.get("ok") and not h.get("broker", {}).get("connected")]
        shrunk = [b for a, b in itertools.pairwise(seen) if _drops(b) < _drops(a)]
        unanswered = len(self.health) - len(seen)
        return not lies and not shrunk, (f"{len(seen)} answers, {unanswered} unanswered, {len(lies)} ok without "
                                         f"the broker, {len(shrunk)} with fewer drops than before")

    def close(self) -> None:
        self._stop.set()
        self.table.stop()
        self.hub.stop()
        self.broker.stop()


def _drops(health: dict[str, Any]) -> int:
    return sum(sum(t.get("dropped", {}).values()) for t in health.get("tables", {}).values())


def open_cafe(work: Path | None = None) -> Cafe:
    """Broker, hub, the table paired by the staff, its first game verified."""
    work = work or Path(tempfile.mkdtemp(prefix="drill-attack-"))
    broker = CafeBroker(work, CAFE, [TABLE, SCREEN_TABLE], pairing=False).start()
    config = work / "hub.toml"
    config.write_text(f'[hub]\nusername = "hub"\npassword_file = "{broker.files.passwords["hub"]}"\n'
                      f'staff_password_hash = "{hash_password(PASSWORD)}"\n')
    hub = HubProcess(work / "hub", broker.address, CAFE, config=config, trust_first_key=False, https=True,
                     nofile=1024).start()
    table = KioskTable(broker.tls_address, CAFE, TABLE, work / "t1", username="table-t1",
                       password_file=broker.files.passwords["table-t1"], ca_file=broker.files.ca).start()
    staff = Staff(Web(hub.port, STAFF_ADDRESS), PASSWORD)
    cafe = Cafe(work, broker, hub, table, staff)
    if staff.log_in() != 303:
        raise RuntimeError("the staff could not log in")
    staff.decide(TABLE, table.key, CAFE, accept=True)
    table.play("magische-7", seed=1, names={"Anna": "Zoë"})
    table.play("alles-klar", seed=2, names={"Anna": "zoë"})
    if not wait_until(lambda: len([g for g in cafe.games() if g["check"] == "verified"]) == 2, 60):
        raise RuntimeError(f"the table's games were not verified: {hub.log_tail()}")
    cafe.watch_health()
    return cafe
