"""The simulated table: the real adapters on gpiozero mock pins and pseudo-terminals.

`SimHardware` builds the same `hw.table.Table` the kiosk uses on real hardware, but
on a `MockFactory` of `TimedMockPin`s (a press drives the button's mock pin low,
with a chosen edge time if given) and, for every serial or "sim" scanner, on a
pseudo-terminal reached through a stable symlink, so `SerialScanner` reads real
bytes from a real tty and survives `unplug()` / `replug()` like a USB scanner.
Wedge scanners become `TypedScanner`s fed with typed text.

Drive it from
- the keyboard: `key(name, down)` with the per-seat key map of the config (`keys`);
- typed codes: `type_text("AK:8.II\\n", reader)`;
- a control socket: `serve(path)` accepts JSON lines on a UNIX socket, one
  command per line, one JSON reply per line:

      {"cmd": "press", "seat": "Anna", "button": "slap", "t_ns": 123456789}
      {"cmd": "release", "seat": "Anna", "button": "slap"}
      {"cmd": "tap", "seat": "Ben", "button": "confirm"}
      {"cmd": "scan", "code": "AK:8.II#1", "reader": "Anna"}
      {"cmd": "type", "text": "AK:8.II\\n", "reader": "table"}
      {"cmd": "raw", "reader": "Anna", "hex": "ff00 0d"}
      {"cmd": "unplug", "reader": "Anna"}   {"cmd": "replug", "reader": "Anna"}
      {"cmd": "ping"}  {"cmd": "seats"}  {"cmd": "readers"}  {"cmd": "help"}

  With a `[camera]` in the config, the simulated overhead camera (`hw.camera.sim`) adds
  `lay`, `cover`, `uncover`, `take` and `camera` (unplug / replug / stall / resume).

  → {"ok": true, ...} or {"ok": false, "error": "..."}. The kiosk adds commands
  (`screenshot`, `state`) with `add_command(name, handler)`; a handler gets the
  request dict, runs on the socket's thread and returns a dict (merged into the
  reply) or None.

Run standalone: `python -m hw.sim [--config FILE] [--socket PATH]` prints every
input as a JSON line; `python -m hw.sim --send PATH '{"cmd": "ping"}'` sends one.

The package by job: `table.py` the simulated table itself, `serial_device.py` a scanner's
pseudo-terminal, `commands.py` the control socket's commands (one table of them), `control.py`
the socket's server and a script's client, `__main__.py` the command line.
"""

from __future__ import annotations

from hw.sim.control import ControlClient, ControlServer
from hw.sim.table import SimHardware

__all__ = ["ControlClient", "ControlServer", "SimHardware"]
