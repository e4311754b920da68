"""Opening the table's hardware for the kiosk: real adapters from the config, or the simulated table.

Hardware threads only hand inputs to the kiosk's inbox (`kiosk.loop.inbox.Inbox`). In
simulation the kiosk also answers on the simulated table's control socket:
`screenshot PATH`, `state`, `touch ACTION` and `view`, run on the display thread. `--sim --camera`
adds the simulated overhead camera over the pile (`hw.camera.sim`), driven by the socket's `lay`,
`cover` and `take`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hw import config as hw_config
from hw.sim import SimHardware
from hw.sim.commands import Command
from hw.table import Table
from kiosk.app import fault_injection
from kiosk.hardware import seat_lights
from kiosk.loop.inbox import Inbox

if TYPE_CHECKING:
    from kiosk.hardware.camera_seat import TableCamera

logger = logging.getLogger(__name__)


@dataclass
class Hardware:
    config: hw_config.TableConfig | None
    table: Table | None = None  # the real table's adapters (under a simulation: the simulated table's own)
    sim: SimHardware | None = None
    control: Path | None = None
    lights: seat_lights.LightFollower | None = None  # when a seat has a light
    camera: TableCamera | None = None  # when the table has an overhead camera

    @property
    def table_name(self) -> str:
        return self.config.name if self.config is not None else "table"

    @property
    def seat_names(self) -> list[str]:
        """The config's seat ids (the admin's test screens)."""
        return [seat.name for seat in self.config.seats] if self.config is not None else []

    @property
    def reader_seats(self) -> dict[str, str]:
        if self.config is None:
            return {}
        seats = {sc.name: sc.seat for sc in self.config.scanners if sc.seat}
        if self.config.camera is not None:  # a seat's own zone (a pile's scans name their seat themselves)
            seats.update({z.reader: z.seat for z in self.config.camera.zones if z.seat})
        return seats

    def key(self, char: str) -> bool:
        """A typed key that is a seat button in simulation: tap it (press and release)."""
        if self.sim is None or char not in self.sim.keymap:
            return False
        seat, button = self.sim.keymap[char]
        self.sim.tap(seat, button)
        return True

    def close(self) -> None:
        """Close the adapters; a simulation closes its whole simulated table (control socket, pseudo-terminals)."""
        if self.sim is not None:
            self.sim.close()
        elif self.table is not None:
            self.table.close()


def open_hardware(inbox: Inbox, config: hw_config.TableConfig | None, simulate: bool, control: Path | None,
                  window: bool = False, camera: bool = False, data_dir: Path | None = None) -> Hardware:
    """Open the real adapters (a config is needed) or the simulated table, all posting to `inbox`. `window`: the
    simulation runs in a desktop window, which shows the seat lights in a strip under the screen. `camera`: the
    simulated table gets the simulated overhead camera. `data_dir`: where the camera's taught decks are."""
    if simulate:
        config = config or hw_config.load_default_sim()
        own_camera = config.camera is not None  # the config file's own [camera], where zones can be saved
        if camera:
            from hw.camera.sim import with_sim_camera

            config = with_sim_camera(config)
        sim = SimHardware(config, sink=inbox.post).open()
        table = sim.opened_table()
        hardware = Hardware(config, table, sim, control, seat_lights.follower(table, window),
                            _camera(config, table, own_camera, data_dir))
        if control is not None:
            for name in ("screenshot", "state", "touch", "view", "admin"):
                sim.add_command(name, _command(inbox, name))
            if fault_injection.enabled():  # tests of the display loop's guard only (decision H22-2)
                logger.warning("%s=1: the control socket's `fault` command can make screens raise",
                            fault_injection.ENV)
                sim.add_command("fault", lambda request: inbox.call("fault", request.get("where")))
            try:
                sim.serve(control)
            except OSError as error:  # e.g. a read-only data directory: the table still runs, by keyboard
                logger.error("control socket %s: %s", control, error)
        return hardware
    if config is None:
        return Hardware(None)
    webcam = None
    if config.camera is not None and config.camera.source == "v4l2" and config.camera.device is not None:
        from kiosk.hardware.webcam import WebcamSource

        webcam = WebcamSource(config.camera.device)
    table = Table(config, inbox.post, camera_source=webcam).open()
    return Hardware(config, table, lights=seat_lights.follower(table), camera=_camera(config, table, True, data_dir))


def _camera(config: hw_config.TableConfig, table: Table, own: bool, data_dir: Path | None) -> TableCamera | None:
    """The camera reader for the calibration screen, the pile zones' seat routing (own: the config file's own
    [camera], where the zones can be saved) and the taught decks (kept in `data_dir`)."""
    if config.camera is None:
        return None
    from kiosk.hardware.camera_faces import CameraFaces
    from kiosk.hardware.camera_seat import PileSeats, TableCamera

    faces = CameraFaces(table.camera, data_dir, config.camera.faces) if data_dir is not None else None
    return TableCamera(table.camera, Path(config.path) if own and config.path else None,
                       PileSeats({z.reader for z in config.camera.zones if z.seat is None}), faces)


def _command(inbox: Inbox, name: str) -> Command:
    def handler(request: dict[str, Any]) -> dict[str, Any]:
        if name == "screenshot":  # "window": true → the whole --sim window, light strip included
            path = request.get("path")
            if not isinstance(path, str) or not path.startswith("/"):
                raise ValueError('screenshot needs an absolute "path" (the kiosk\'s working directory is no '
                                 "place for it)")
            return inbox.call("screenshot_window" if request.get("window") else "screenshot", Path(path))
        if name == "touch":  # "held": seconds the finger stays down (a hold-to-confirm button)
            return {"screen": inbox.call("action", (request["action"], float(request.get("held", 0.0))))}
        return inbox.call(name)

    return handler
