"""The table's TOML configuration, hw's part: seats, their button pins, scanners and which seat each scanner serves.

    [table]        name, pin_factory (optional: lgpio | rpigpio | pigpio | native | mock)
    [buttons]      pull ("up" | "down" | "none"), active ("low" | "high"), debounce_ms
    [seats.NAME]   confirm = BCM pin, slap = BCM pin, optional pull/active, keys = {confirm = "q", slap = "w"},
                   optional led = BCM pin (the seat's light), active_high (the LED's level, default true)
    [scanners.ID]  type ("serial" | "wedge" | "sim"), seat (omit: shared by the table), port, baud,
                   terminator ("CR" | "LF" | "CRLF"), prefix, suffix, dedupe_ms, max_line, device (wedge)
    [camera]       (optional) the overhead camera and its zones: `hw.camera.zones`

The same file holds other layers' tables (the kiosk's `[kiosk]`, the café link's `[cafe]`): hw checks only
its own and leaves the rest to their owners. Whoever composes the whole file (the kiosk, `kiosk.settings.config`)
hands `parse` the other tables' checks; then a table nobody owns is an error too, and every problem of
every table comes out the same way, "FILE:LINE: message", sorted by line. The checks use `Checker`'s
primitives, so they find their lines as hw's do.

`load(path)` returns a `TableConfig` or raises `ConfigError` listing every problem
as "FILE:LINE: message". tomllib gives no positions for values, so `KeyLines`
finds the line of each key by reading the file's table headers and `key =` lines.
`check_config(path)` → (ok, messages) is the printout of a check.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from hw.buttons import BUTTONS, DEFAULT_DEBOUNCE_MS, ButtonPin
from hw.camera.zones import CameraConfig, check_camera
from hw.lights import LightPin
from hw.scanners import DEFAULT_DEDUPE_MS, DEFAULT_MAX_LINE, TERMINATORS, Framing
from referee.config_lines import ConfigError, KeyLines, Problem

PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
SCANNER_TYPES = ("serial", "wedge", "sim")
BAUD_RATES = (1200, 2400, 4800, 9600, 14400, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
BCM_PINS = range(28)  # GPIO0..GPIO27 on the 40-pin header
HW_TABLES = ("table", "buttons", "seats", "scanners", "camera")  # the top-level tables hw owns
SCANNER_KEYS = ("type", "seat", "port", "device", "baud", "terminator", "prefix", "suffix", "dedupe_ms", "max_line")
LIGHT_KEYS = ("led", "active_high")  # a seat's light: its BCM pin and the level that lights it
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,31}$")

SIM_CONFIG = "table.sim.toml"
"""The simulation default, shipped inside the `hw` package (`default_sim_path()`)."""


# ---------------------------------------------------------------- the result


@dataclass(frozen=True, slots=True)
class SeatConfig:
    name: str
    confirm: int
    slap: int
    pull_up: bool | None = True
    active_high: bool | None = None
    keys: dict[str, str] = field(default_factory=dict)
    """Simulation keyboard: button → key name (a single character or a pygame key name)."""
    led: int | None = None
    """BCM pin of the seat's light (the LED of a lit arcade button), or None."""
    led_active_high: bool = True
    """True: the pin driven high lights the LED (LED to ground, or a transistor's base); False: low lights it."""

    def pins(self) -> list[ButtonPin]:
        return [ButtonPin(self.name, b, getattr(self, b), self.pull_up, self.active_high) for b in BUTTONS]


@dataclass(frozen=True, slots=True)
class ScannerConfig:
    name: str
    type: str
    seat: str | None
    """None: the table's shared scanner."""
    port: str | None = None
    device: str | None = None
    baud: int = 9600
    framing: Framing = field(default_factory=Framing)
    dedupe_ms: float = DEFAULT_DEDUPE_MS


@dataclass(frozen=True, slots=True)
class TableConfig:
    name: str
    seats: tuple[SeatConfig, ...]
    scanners: tuple[ScannerConfig, ...]
    pin_factory: str | None = None
    debounce_ms: float = DEFAULT_DEBOUNCE_MS
    path: str | None = None
    camera: CameraConfig | None = None
    """The overhead camera and its zones; None: no camera."""

    def seat(self, name: str) -> SeatConfig:
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)

    def button_pins(self) -> list[ButtonPin]:
        return [p for s in self.seats for p in s.pins()]

    def light_pins(self) -> list[LightPin]:
        """The seats that have a light, with its pin and polarity."""
        return [LightPin(s.name, s.led, s.led_active_high) for s in self.seats if s.led is not None]

    def scanner_for(self, seat: str) -> ScannerConfig | None:
        """The seat's own scanner, else the shared one, else None."""
        shared = None
        for sc in self.scanners:
            if sc.seat == seat:
                return sc
            if sc.seat is None and shared is None:
                shared = sc
        return shared


# ---------------------------------------------------------------- validation


class Checker:
    """Checks a parsed file's values and collects every problem with its line: the primitives (`table`,
    `string`, `number`, `boolean`, `path_string`) for any layer's tables, and hw's own tables (`hw`)."""

    def __init__(self, data: dict[str, Any], lines: KeyLines, base: Path | None = None):
        self.data = data
        self.lines = lines
        self.base = base or Path(".")  # relative file names in the config are relative to its folder
        self.problems: list[Problem] = []

    def err(self, path: tuple[str, ...], message: str) -> None:
        # A problem of the whole document (no seats at all) points at line 1.
        self.problems.append(Problem(self.lines.line(*path) or 1, message))

    def warn(self, path: tuple[str, ...], message: str) -> None:
        self.problems.append(Problem(self.lines.line(*path) or 1, message, warning=True))

    @staticmethod
    def dotted(path: tuple[str, ...]) -> str:
        return ".".join(path)

    def table(self, path: tuple[str, ...], value: Any, known: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.err(path, f"{self.dotted(path)} must be a table")
            return {}
        for key in value:
            if key not in known:
                self.err((*path, key), f"unknown key {key!r} in [{self.dotted(path)}] (known: {', '.join(known)})")
        return value

    def string(self, path: tuple[str, ...], value: Any, choices: tuple[str, ...] | None = None) -> str | None:
        if not isinstance(value, str):
            self.err(path, f"{self.dotted(path)} must be a string, not {toml_type(value)}")
            return None
        if choices is not None and value not in choices:
            self.err(path, f"{self.dotted(path)} = {value!r} is not one of {', '.join(choices)}")
            return None
        return value

    def number(self, path: tuple[str, ...], value: Any, lo: float, hi: float, integer: bool = False) -> Any:
        ok_type = isinstance(value, int) if integer else isinstance(value, int | float)
        if isinstance(value, bool) or not ok_type:
            kind = "an integer" if integer else "a number"
            self.err(path, f"{self.dotted(path)} must be {kind}, not {toml_type(value)}")
            return None
        if not lo <= value <= hi:
            self.err(path, f"{self.dotted(path)} = {value} is out of range ({lo}..{hi})")
            return None
        return value

    # -- sections
    def boolean(self, path: tuple[str, ...], value: Any) -> bool | None:
        if not isinstance(value, bool):
            self.err(path, f"{self.dotted(path)} must be true or false, not {toml_type(value)}")
            return None
        return value

    def path_string(self, path: tuple[str, ...], value: Any, absolute: bool = True) -> str | None:
        text = self.string(path, value)
        if text is None:
            return None
        if not text.strip():
            self.err(path, f"{self.dotted(path)} is empty")
            return None
        if "\0" in text:
            self.err(path, f"{self.dotted(path)} contains a NUL character")
            return None
        if absolute and not text.startswith("/"):
            self.err(path, f"{self.dotted(path)} = {text!r} must be an absolute path (starting with /)")
            return None
        return text

    def hw(self) -> TableConfig:
        """hw's own tables; whatever they lack is in `problems` (the result is only used when there are none)."""
        data = self.data
        table = self.table(("table",), data.get("table", {}), ("name", "pin_factory"))
        name = self.string(("table", "name"), table["name"]) if "name" in table else "table"
        factory = None
        if "pin_factory" in table:
            factory = self.string(("table", "pin_factory"), table["pin_factory"], PIN_FACTORIES)
        buttons = self.table(("buttons",), data.get("buttons", {}), ("pull", "active", "debounce_ms"))
        pull_up, active_high = self.polarity(("buttons",), buttons, (True, None))
        debounce = DEFAULT_DEBOUNCE_MS
        if "debounce_ms" in buttons:
            debounce = self.number(("buttons", "debounce_ms"), buttons["debounce_ms"], 0, 1000) or DEFAULT_DEBOUNCE_MS
        seats = self.seats(data.get("seats"), (pull_up, active_high))
        seats = self.seat_lights(data.get("seats"), seats)
        scanners = self.scanners(data.get("scanners", {}), {s.name for s in seats})
        self.coverage(seats, scanners)
        camera = check_camera(self, data["camera"], {s.name for s in seats}) if "camera" in data else None
        return TableConfig(name or "table", tuple(seats), tuple(scanners), factory, float(debounce), camera=camera)

    def polarity(self, path: tuple[str, ...], section: dict[str, Any],
                 default: tuple[bool | None, bool | None]) -> tuple[bool | None, bool | None]:
        pull_up, active_high = default
        if "pull" in section:
            pull = self.string((*path, "pull"), section["pull"], ("up", "down", "none"))
            if pull is not None:
                pull_up = {"up": True, "down": False, "none": None}[pull]
                active_high = None
        if "active" in section:
            active = self.string((*path, "active"), section["active"], ("low", "high"))
            if active is not None:
                active_high = active == "high"
                if pull_up is not None and active_high == pull_up:
                    level = "high" if pull_up else "low"
                    self.err((*path, "active"), f"active = {active!r} with pull = {'up' if pull_up else 'down'}: "
                             f"the button would read pressed while released (the pull holds it {level})")
        if pull_up is None and active_high is None:
            self.err((*path, "pull"), 'pull = "none" needs active = "low" or "high"')
        if pull_up is not None and active_high is not None and active_high != pull_up:
            active_high = None  # implied by the pull
        return pull_up, active_high

    def seats(self, value: Any, default: tuple[bool | None, bool | None]) -> list[SeatConfig]:
        if value is None:
            self.err((), "no [seats.NAME] tables: a table needs at least one seat")
            return []
        if not isinstance(value, dict):
            self.err(("seats",), "seats must be tables [seats.NAME]")
            return []
        seats: list[SeatConfig] = []
        pins: dict[int, tuple[str, ...]] = {}
        keys_used: dict[str, tuple[str, ...]] = {}
        for name, raw in value.items():
            path = ("seats", name)
            if not _NAME.match(name):
                self.err(path, f"seat name {name!r}: use letters, digits, space, '_', '-' or '.' (at most 32)")
            section = self.table(path, raw, (*BUTTONS, "pull", "active", "keys", *LIGHT_KEYS))
            if not section and not isinstance(raw, dict):
                continue
            numbers: dict[str, int] = {}
            for button in BUTTONS:
                if button not in section:
                    self.err(path, f"seat {name!r} has no {button} pin ({button} = BCM number)")
                    continue
                pin = self.number((*path, button), section[button], BCM_PINS.start, BCM_PINS.stop - 1, integer=True)
                if pin is None:
                    continue
                if pin in pins:
                    first = pins[pin]
                    self.err((*path, button), f"pin {pin} is used twice: {self.dotted((*path, button))} and "
                             f"{self.dotted(first)} (line {self.lines.line(*first)})")
                else:
                    pins[pin] = (*path, button)
                numbers[button] = pin
            pull_up, active_high = self.polarity(path, section, default) if (
                "pull" in section or "active" in section) else default
            keys = self.keys(path, section.get("keys", {}), keys_used)
            if len(numbers) == len(BUTTONS):
                seats.append(SeatConfig(name, numbers["confirm"], numbers["slap"], pull_up, active_high, keys))
        if not value:
            self.err(("seats",), "no seats: a table needs at least one [seats.NAME]")
        return seats

    def seat_lights(self, value: Any, seats: list[SeatConfig]) -> list[SeatConfig]:
        """The optional `led = PIN` and `active_high` of each seat: a BCM pin no button and no other light uses.

        A separate pass over the seat tables (after `seats`), so the buttons' pins are all known and a
        light that takes a button's pin is reported at the light, whichever seat comes first.
        """
        if not isinstance(value, dict):
            return seats
        taken: dict[int, tuple[str, ...]] = {}
        for seat in seats:
            for button in BUTTONS:
                taken.setdefault(getattr(seat, button), ("seats", seat.name, button))
        result = []
        by_name = {s.name: s for s in seats}
        for name, raw in value.items():
            if not isinstance(raw, dict) or name not in by_name:
                continue
            path = ("seats", name)
            seat = by_name[name]
            active_high = True
            if "active_high" in raw:
                if not isinstance(raw["active_high"], bool):
                    self.err((*path, "active_high"), f"{self.dotted((*path, 'active_high'))} must be true or false, "
                             f"not {toml_type(raw['active_high'])}")
                elif "led" not in raw:
                    self.err((*path, "active_high"), f"active_high is the light's level, but seat {name!r} has no led")
                else:
                    active_high = raw["active_high"]
            led = None
            if "led" in raw:
                led = self.number((*path, "led"), raw["led"], BCM_PINS.start, BCM_PINS.stop - 1, integer=True)
                if led is not None and led in taken:
                    first = taken[led]
                    self.err((*path, "led"), f"pin {led} is used twice: {self.dotted((*path, 'led'))} and "
                             f"{self.dotted(first)} (line {self.lines.line(*first)})")
                    led = None
                elif led is not None:
                    taken[led] = (*path, "led")
            result.append(replace(seat, led=led, led_active_high=active_high) if led is not None else seat)
        return result

    def keys(self, path: tuple[str, ...], value: Any, used: dict[str, tuple[str, ...]]) -> dict[str, str]:
        section = self.table((*path, "keys"), value, BUTTONS)
        keys: dict[str, str] = {}
        for button, key in section.items():
            kpath = (*path, "keys", button)
            if button not in BUTTONS:
                continue
            key = self.string(kpath, key)
            if key is None:
                continue
            if not key:
                self.err(kpath, f"{self.dotted(kpath)} is empty")
                continue
            if key in used:
                self.err(kpath, f"key {key!r} is used twice: {self.dotted(kpath)} and {self.dotted(used[key])} "
                         f"(line {self.lines.line(*used[key])})")
                continue
            used[key] = kpath
            keys[button] = key
        return keys

    def scanners(self, value: Any, seat_names: set[str]) -> list[ScannerConfig]:
        if not isinstance(value, dict):
            self.err(("scanners",), "scanners must be tables [scanners.ID]")
            return []
        result: list[ScannerConfig] = []
        ports: dict[str, tuple[str, ...]] = {}  # port → where it was first written
        seat_of: dict[str | None, tuple[str, ...]] = {}  # seat → where a scanner first claimed it
        for name, raw in value.items():
            path = ("scanners", name)
            if not _NAME.match(name):
                self.err(path, f"scanner id {name!r}: use letters, digits, space, '_', '-' or '.' (at most 32)")
            section = self.table(path, raw, SCANNER_KEYS)
            if not isinstance(raw, dict):
                continue
            kind = self.string((*path, "type"), section.get("type", "serial"), SCANNER_TYPES)
            seat = self.scanner_seat(path, section, seat_names, seat_of)
            port, device = self.scanner_device(path, section, kind, ports)
            baud = self.baud(path, section)
            framing = self.framing(path, section)
            dedupe = self.number((*path, "dedupe_ms"), section.get("dedupe_ms", DEFAULT_DEDUPE_MS), 0, 60_000)
            if kind is None or framing is None or dedupe is None:
                continue
            result.append(ScannerConfig(name, kind, seat, port, device, baud, framing, float(dedupe)))
        return result

    def scanner_seat(self, path: tuple[str, ...], section: dict[str, Any], seat_names: set[str],
                     seat_of: dict[str | None, tuple[str, ...]]) -> str | None:
        """The seat a scanner serves (None: shared): a known seat that no other scanner serves."""
        if "seat" not in section:
            return None
        seat = self.string((*path, "seat"), section["seat"])
        if seat is None:
            return None
        if seat not in seat_names:
            known_seats = ", ".join(sorted(seat_names)) or "none"
            self.err((*path, "seat"), f"unknown seat {seat!r} (seats: {known_seats})")
            return None
        if seat in seat_of:
            other = seat_of[seat]
            self.err((*path, "seat"), f"seat {seat!r} already has scanner {other[1]!r} "
                     f"(line {self.lines.line(*other)})")
        else:
            seat_of[seat] = (*path, "seat")
        return seat

    def scanner_device(self, path: tuple[str, ...], section: dict[str, Any], kind: str | None,
                       ports: dict[str, tuple[str, ...]]) -> tuple[str | None, str | None]:
        """(port, device): a serial scanner's port (used once), a wedge's input device; each only for its type."""
        name = path[-1]
        port = device = None
        if kind == "serial":
            if "port" not in section:
                self.err(path, f"serial scanner {name!r} has no port (e.g. port = \"/dev/serial/by-path/…\")")
            else:
                port = self.path_string((*path, "port"), section["port"])
                if port is not None and port in ports:
                    self.err((*path, "port"), f"port {port!r} is used twice: {self.dotted(path)} and "
                             f"{self.dotted(ports[port][:-1])} (line {self.lines.line(*ports[port])})")
                elif port is not None:
                    ports[port] = (*path, "port")
        elif kind == "wedge":
            if "device" not in section:
                self.err(path, f"wedge scanner {name!r} has no device (e.g. device = \"/dev/input/by-id/…-kbd\")")
            else:
                device = self.path_string((*path, "device"), section["device"])
        for key, wanted in (("port", "serial"), ("baud", "serial"), ("device", "wedge")):
            if key in section and kind is not None and kind != wanted:
                self.err((*path, key), f"{key} is for {wanted} scanners, not type = {kind!r}")
        return port, device

    def baud(self, path: tuple[str, ...], section: dict[str, Any]) -> int:
        if "baud" not in section:
            return 9600
        b = section["baud"]
        if isinstance(b, bool) or not isinstance(b, int) or b not in BAUD_RATES:
            self.err((*path, "baud"), f"bad baud rate {b!r} (one of {', '.join(map(str, BAUD_RATES))})")
            return 9600
        return b

    def framing(self, path: tuple[str, ...], section: dict[str, Any]) -> Framing | None:
        """How a scanner's lines end and what wraps them; None when a value is wrong (reported)."""
        term = self.string((*path, "terminator"), section.get("terminator", "CR"), tuple(TERMINATORS))
        prefix = self.string((*path, "prefix"), section.get("prefix", "")) or ""
        suffix = self.string((*path, "suffix"), section.get("suffix", "")) or ""
        for key, text in (("prefix", prefix), ("suffix", suffix)):
            if text and (not text.isascii() or not text.isprintable()):
                self.err((*path, key), f"{key} {text!r} must be printable ASCII")
        max_line = self.number((*path, "max_line"), section.get("max_line", DEFAULT_MAX_LINE), 8, 4096, integer=True)
        if term is None or max_line is None:
            return None
        return Framing(term, prefix, suffix, max_line)

    def coverage(self, seats: list[SeatConfig], scanners: list[ScannerConfig]) -> None:
        if not scanners and "camera" in self.data:
            return  # the camera reads the cards
        if not scanners:
            self.warn(("scanners",), "no scanners: cards can only be entered on the touchscreen")
            return
        if any(sc.seat is None for sc in scanners):
            return
        served = {sc.seat for sc in scanners}
        for seat in seats:
            if seat.name not in served:
                self.warn(("seats", seat.name), f"seat {seat.name!r} has no scanner and there is no shared scanner")


def toml_type(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)


# ---------------------------------------------------------------- entry points


Section = Callable[[Checker, Any], Any]
"""Another layer's table check: (checker, the table's value) → its value, problems added to the checker."""


@dataclass(frozen=True, slots=True)
class Parsed:
    """A checked file: hw's tables (None when anything is wrong), the other tables' values, every problem."""

    table: TableConfig | None
    sections: dict[str, Any]
    problems: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]


def parse(text: str, path: str = "<config>", sections: Mapping[str, Section] | None = None) -> Parsed:
    """Check a config's text. Without `sections` only hw's tables are checked and the others left alone; with
    them (the whole file's other tables, name → check) each is checked and an unknown table is an error."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        line = int(m.group(1)) if m else max(1, text.count("\n") + (not text.endswith("\n")))
        col = f" (column {m.group(2)})" if m else ""
        return Parsed(None, {}, [Problem(line, f"not valid TOML: {message}{col}")])
    checker = Checker(data, KeyLines(text), Path(path).parent)
    if sections is not None:
        checker.table((), data, (*HW_TABLES, *sections))
    if sections is not None and not any(name in data for name in HW_TABLES):
        # a file of the other tables only (a laptop's café table: `[cafe]`): the simulated table's hardware,
        # marked by its path, which the kiosk accepts only with --sim
        return _without_hardware(checker, data, sections)
    table = checker.hw()
    found = {name: check(checker, data[name]) for name, check in (sections or {}).items() if name in data}
    problems = sorted(checker.problems, key=lambda p: (p.warning, p.line or 0))
    ok = not any(not p.warning for p in problems)
    return Parsed(replace(table, path=path) if ok else None, found if ok else {}, problems)


def _without_hardware(checker: Checker, data: dict[str, Any], sections: Mapping[str, Section]) -> Parsed:
    found = {name: check(checker, data[name]) for name, check in sections.items() if name in data}
    problems = sorted(checker.problems, key=lambda p: (p.warning, p.line or 0))
    ok = not any(not p.warning for p in problems)
    return Parsed(load_default_sim() if ok else None, found if ok else {}, problems)


def without_hardware(table: TableConfig) -> bool:
    """Whether a config named no hardware and got the simulated table's (`--sim` only)."""
    return str(table.path) == str(default_sim_path())


def loads(text: str, path: str = "<config>") -> TableConfig:
    """hw's tables of a config's text; ConfigError (every problem, with its line) if they are wrong."""
    parsed = parse(text, path)
    if parsed.table is None:
        raise ConfigError(path, parsed.errors)
    return parsed.table


def load(path: str | Path) -> TableConfig:
    """Read and validate a table config's hw tables; ConfigError (every problem, with its line) if it is wrong."""
    path = Path(path)
    return loads(path.read_text(encoding="utf-8"), str(path))


def check_config(path: str | Path, sections: Mapping[str, Section] | None = None) -> tuple[bool, list[str]]:
    """(ok, messages): errors and warnings as "FILE:LINE: message", ready to print (`sections` as for `parse`)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return False, [f"{path}: cannot read: {exc}"]
    parsed = parse(text, str(path), sections)
    messages = [p.format(str(path)) for p in parsed.problems]
    if parsed.table is not None:
        messages.append(f"{path}: ok: {len(parsed.table.seats)} seats, {len(parsed.table.scanners)} scanners")
    return parsed.table is not None, messages


def default_sim_path() -> Path:
    return Path(str(resources.files("hw").joinpath(SIM_CONFIG)))


def load_default_sim() -> TableConfig:
    return load(default_sim_path())
