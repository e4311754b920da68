"""Opening the table's hardware for the kiosk: real adapters from the config, or the simulated table.

Hardware threads only hand inputs to `App.post`. In simulation the kiosk also
answers on the simulated table's control socket: `screenshot PATH`, `state`,
`touch ACTION` and `view`, run on the display thread.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hw import config as hw_config
from hw.sim import SimTable
from hw.table import Table
from kiosk import fault_injection, seat_lights

log = logging.getLogger(__name__)


@dataclass
class Hardware:
    config: hw_config.TableConfig | None
    table: Any = None  # hw.table.Table or hw.sim.SimTable
    sim: SimTable | None = None
    control: Path | None = None

    @property
    def reader_seats(self) -> dict[str, str]:
        if self.config is None:
            return {}
        return {sc.name: sc.seat for sc in self.config.scanners if sc.seat}

    def key(self, char: str) -> bool:
        """A typed key that is a seat button in simulation: tap it (press and release)."""
        if self.sim is None or char not in self.sim.keymap:
            return False
        seat, button = self.sim.keymap[char]
        self.sim.tap(seat, button)
        return True

    def close(self) -> None:
        if self.table is not None:
            self.table.close()


def open_hardware(app: Any, config: hw_config.TableConfig | None, simulate: bool, control: Path | None) -> Hardware:
    """Open the real adapters (a config is needed) or the simulated table, all feeding `app.post`."""
    if simulate:
        config = config or hw_config.load_default_sim()
        sim = SimTable(config, sink=app.post).open()
        seat_lights.attach(app, sim.table, sim=True)
        hardware = Hardware(config, sim, sim, control)
        if control is not None:
            for name in ("screenshot", "state", "touch", "view", "admin"):
                sim.add_command(name, _command(app, name))
            if fault_injection.enabled():  # tests of the display loop's guard only (decision H22-2)
                log.warning("%s=1: the control socket's `fault` command can make screens raise",
                            fault_injection.ENV)
                sim.add_command("fault", lambda request: app.call("fault", request.get("where")))
            try:
                sim.serve(control)
            except OSError as error:  # e.g. a read-only data directory: the table still runs, by keyboard
                log.error("control socket %s: %s", control, error)
        return hardware
    if config is None:
        return Hardware(None)
    table = Table(config, app.post).open()
    seat_lights.attach(app, table)
    return Hardware(config, table)


def _command(app: Any, name: str):
    def handler(request: dict[str, Any]) -> dict[str, Any]:
        if name == "screenshot":  # "window": true → the whole --sim window, light strip included
            path = request.get("path")
            if not isinstance(path, str) or not path.startswith("/"):
                raise ValueError('screenshot needs an absolute "path" (the kiosk\'s working directory is no '
                                 "place for it)")
            return app.call("screenshot_window" if request.get("window") else "screenshot", Path(path))
        if name == "touch":  # "held": seconds the finger stays down (a hold-to-confirm button)
            return {"screen": app.call("action", (request["action"], float(request.get("held", 0.0))))}
        return app.call(name)

    return handler
