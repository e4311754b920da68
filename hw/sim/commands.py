"""The simulated table's control socket commands: one table of them, names to functions.

Every command takes the request (a dict with "cmd") and returns the fields its reply adds, or None. `answer`
runs one: an unknown name, a missing field or a bad value is answered `{"ok": false, "error": …}`, never
raised. The kiosk and the simulated camera add their own commands to the same table (`SimHardware.add_command`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from hw.config import TableConfig
from hw.sim.serial_device import SimSerialDevice

Command = Callable[[dict[str, Any]], "dict[str, Any] | None"]


class Drivable(Protocol):
    """What the commands drive (`hw.sim.table.SimHardware`)."""

    config: TableConfig
    devices: dict[str, SimSerialDevice]

    def press(self, seat: str, button: str, t_ns: int | None = None) -> None: ...

    def release(self, seat: str, button: str, t_ns: int | None = None) -> None: ...

    def tap(self, seat: str, button: str, t_ns: int | None = None, hold_ms: float = 60.0) -> None: ...

    def key(self, key: str, down: bool = True, t_ns: int | None = None) -> bool: ...

    def scan(self, code: str, reader: str | None = None) -> None: ...

    def type_text(self, text: str, reader: str | None = None) -> None: ...

    def raw(self, data: bytes, reader: str | None = None) -> None: ...

    def unplug(self, reader: str) -> None: ...

    def replug(self, reader: str, timeout: float = 10.0) -> bool: ...


def t_ns(request: Mapping[str, Any]) -> int | None:
    """The request's edge time: monotonic nanoseconds, or None for now."""
    t = request.get("t_ns")
    if t is not None and (isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < 1 << 63):
        raise ValueError("t_ns must be an integer 0 .. 2**63-1 (monotonic nanoseconds)")
    return t


def builtin(table: Drivable) -> dict[str, Command]:
    """The table's own commands: buttons, keys, scanners, and what the table has (`help` is `answer`'s)."""

    def readers(request: dict[str, Any]) -> dict[str, Any]:
        return {"readers": [{"name": sc.name, "seat": sc.seat, "type": sc.type,
                             "plugged": table.devices[sc.name].plugged if sc.name in table.devices else True}
                            for sc in table.config.scanners]}

    return {
        "ping": lambda request: {"pong": True},
        "seats": lambda request: {"seats": [{"name": s.name, "keys": s.keys} for s in table.config.seats]},
        "readers": readers,
        "press": lambda request: table.press(request["seat"], request["button"], t_ns(request)),
        "release": lambda request: table.release(request["seat"], request["button"], t_ns(request)),
        "tap": lambda request: table.tap(request["seat"], request["button"], t_ns(request),
                                         float(request.get("hold_ms", 60.0))),
        "key": lambda request: {"mapped": table.key(request["key"], bool(request.get("down", True)),
                                                    t_ns(request))},
        "scan": lambda request: table.scan(request["code"], request.get("reader")),
        "type": lambda request: table.type_text(request["text"], request.get("reader")),
        "raw": lambda request: table.raw(bytes.fromhex(request["hex"]), request.get("reader")),
        "unplug": lambda request: table.unplug(request["reader"]),
        "replug": lambda request: {"reconnected": table.replug(request["reader"])},
    }


def answer(commands: Mapping[str, Command], request: Any) -> dict[str, Any]:
    """Run one command; the reply always has "ok". `help` lists every command."""
    if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
        return {"ok": False, "error": 'a command is a JSON object with a string "cmd"'}
    name = request["cmd"]
    if name == "help":
        return {"ok": True, "commands": sorted([*commands, "help"])}
    command = commands.get(name)
    if command is None:
        known = ", ".join(sorted([*commands, "help"]))
        return {"ok": False, "error": f"unknown command {name!r} (known: {known})"}
    try:
        return {"ok": True, **(command(request) or {})}
    except KeyError as exc:
        return {"ok": False, "error": f"missing or unknown {exc}"}
    except Exception as exc:  # a bad command is answered, never fatal (OverflowError, pygame.error …)
        return {"ok": False, "error": str(exc) or type(exc).__name__}
