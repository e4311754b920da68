"""The table's TOML configuration: seats, their button pins, scanners and which seat each scanner serves.

    [table]        name, pin_factory (optional: lgpio | rpigpio | pigpio | native | mock)
    [buttons]      pull ("up" | "down" | "none"), active ("low" | "high"), debounce_ms
    [seats.NAME]   confirm = BCM pin, slap = BCM pin, optional pull/active, keys = {confirm = "q", slap = "w"},
                   optional led = BCM pin (the seat's light), active_high (the LED's level, default true)
    [scanners.ID]  type ("serial" | "wedge" | "sim"), seat (omit: shared by the table), port, baud,
                   terminator ("CR" | "LF" | "CRLF"), prefix, suffix, dedupe_ms, max_line, device (wedge)
    [kiosk]        data_dir, language ("de" | "en"), admin_pin_hash, demo_after_s, idle_pause_s, admin_hold_s,
                   screen_size, rotate, volume, mute
    [cafe]         (optional) broker = "host:port", cafe, table (ids), username, password_file, tls, ca_file
    [camera]       (optional) the overhead camera and its zones: `hw.camera.zones`

This is the one validator of the whole file (the kiosk's `[kiosk]` table included, as plain values:
`hw` does not import the kiosk): every unknown key, wrong type and invalid value is an error with its
line, so whatever `referee-kiosk --check-config` passes also starts.

`load(path)` returns a `TableConfig` or raises `ConfigError` listing every problem
as "FILE:LINE: message". tomllib gives no positions for values, so `_KeyLines`
finds the line of each key by reading the file's table headers and `key =` lines.
`check_config(path)` → (ok, messages) is what `referee-kiosk --check-config` prints.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from cafe.contract import is_id
from cafe.settings import CafeLinkConfig, parse_broker
from hw.buttons import BUTTONS, DEFAULT_DEBOUNCE_MS, ButtonPin
from hw.camera.zones import CameraConfig, check_camera
from hw.lights import LightPin
from hw.scanners import DEFAULT_DEDUPE_MS, DEFAULT_MAX_LINE, TERMINATORS, Framing

PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
SCANNER_TYPES = ("serial", "wedge", "sim")
BAUD_RATES = (1200, 2400, 4800, 9600, 14400, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
BCM_PINS = range(28)  # GPIO0..GPIO27 on the 40-pin header
LANGUAGES = ("de", "en")
KIOSK_KEYS = ("data_dir", "language", "admin_pin_hash", "demo_after_s", "idle_pause_s", "admin_hold_s", "screen_size",
              "rotate", "volume", "mute")
ROTATIONS = (0, 90, 180, 270)
# kiosk.pin.hash_pin's format: pbkdf2_sha256$ITERATIONS$SALT$HEX-DIGEST (make one: `referee-kiosk --hash-pin`)
PIN_HASH = re.compile(r"^pbkdf2_sha256\$(\d{4,8})\$([^$\s]{1,64})\$([0-9a-f]{64})$")
SCREEN_SIDE = (240, 8192)
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
class KioskSection:
    """The `[kiosk]` table, checked; None means "not set" (the kiosk's own default applies)."""

    data_dir: str | None = None
    language: str | None = None
    admin_pin_hash: str | None = None
    demo_after_s: float | None = None
    idle_pause_s: float | None = None
    admin_hold_s: float | None = None
    screen_size: tuple[int, int] | None = None
    rotate: int | None = None
    volume: int | None = None
    mute: bool | None = None


@dataclass(frozen=True, slots=True)
class TableConfig:
    name: str
    seats: tuple[SeatConfig, ...]
    scanners: tuple[ScannerConfig, ...]
    pin_factory: str | None = None
    debounce_ms: float = DEFAULT_DEBOUNCE_MS
    path: str | None = None
    kiosk: KioskSection = field(default_factory=KioskSection)
    cafe: CafeLinkConfig | None = None
    """The café broker this table publishes to; None: not in a café."""
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


@dataclass(frozen=True, slots=True)
class Problem:
    line: int | None
    message: str
    warning: bool = False

    def format(self, path: str) -> str:
        where = f"{path}:{self.line}" if self.line else path
        return f"{where}: {'warning: ' if self.warning else ''}{self.message}"


class ConfigError(ValueError):
    """The configuration file has errors; `problems` lists each with its line."""

    def __init__(self, path: str, problems: list[Problem]):
        self.path = path
        self.problems = problems
        super().__init__("\n".join(p.format(path) for p in problems))


# ---------------------------------------------------------------- key → line

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")
_INLINE_KEY = re.compile(r"""(?:^|[{,])\s*([A-Za-z0-9_-]+|"[^"]*"|'[^']*')\s*=""")


def _split_key(text: str) -> tuple[str, ...]:
    parts = re.findall(r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""", text)
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in parts)


class _KeyLines:
    """Maps dotted key paths to the line (1-based) where they are written."""

    def __init__(self, text: str):
        self.lines: dict[tuple[str, ...], int] = {}
        table: tuple[str, ...] = ()
        for n, line in enumerate(text.splitlines(), 1):
            m = _HEADER.match(line)
            if m and not _KEY.match(line):
                table = _split_key(m.group(2))
                self.lines.setdefault(table, n)
                continue
            m = _KEY.match(line)
            if not m:
                continue
            path = table + _split_key(m.group(1))
            self.lines.setdefault(path, n)
            rest = line[m.end():]
            brace = rest.find("{")
            if brace >= 0:
                for k in _INLINE_KEY.findall(rest[brace:]):
                    self.lines.setdefault(path + _split_key(k), n)

    def line(self, *path: str) -> int | None:
        while path:
            n = self.lines.get(path)
            if n is not None:
                return n
            path = path[:-1]
        return None


# ---------------------------------------------------------------- validation


class _Checker:
    def __init__(self, data: dict[str, Any], lines: _KeyLines, base: Path | None = None):
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
            self.err(path, f"{self.dotted(path)} must be a string, not {_toml_type(value)}")
            return None
        if choices is not None and value not in choices:
            self.err(path, f"{self.dotted(path)} = {value!r} is not one of {', '.join(choices)}")
            return None
        return value

    def number(self, path: tuple[str, ...], value: Any, lo: float, hi: float, integer: bool = False) -> Any:
        ok_type = isinstance(value, int) if integer else isinstance(value, int | float)
        if isinstance(value, bool) or not ok_type:
            kind = "an integer" if integer else "a number"
            self.err(path, f"{self.dotted(path)} must be {kind}, not {_toml_type(value)}")
            return None
        if not lo <= value <= hi:
            self.err(path, f"{self.dotted(path)} = {value} is out of range ({lo}..{hi})")
            return None
        return value

    # -- sections
    def boolean(self, path: tuple[str, ...], value: Any) -> bool | None:
        if not isinstance(value, bool):
            self.err(path, f"{self.dotted(path)} must be true or false, not {_toml_type(value)}")
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

    def run(self) -> TableConfig | None:
        data = self.data
        self.table((), data, ("table", "buttons", "seats", "scanners", "kiosk", "cafe", "camera"))
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
        kiosk = self.kiosk(data.get("kiosk", {}))
        cafe = self.cafe(data["cafe"]) if "cafe" in data else None
        camera = check_camera(self, data["camera"], {s.name for s in seats}) if "camera" in data else None
        if any(not p.warning for p in self.problems):
            return None
        return TableConfig(name or "table", tuple(seats), tuple(scanners), factory, float(debounce), kiosk=kiosk,
                           cafe=cafe, camera=camera)

    def kiosk(self, value: Any) -> KioskSection:
        """The `[kiosk]` table: each key checked the way the kiosk will use it."""
        path = ("kiosk",)
        section = self.table(path, value, KIOSK_KEYS)
        found: dict[str, Any] = {}
        if "data_dir" in section:
            found["data_dir"] = self.path_string((*path, "data_dir"), section["data_dir"], absolute=False)
        if "language" in section:
            found["language"] = self.string((*path, "language"), section["language"], LANGUAGES)
        if "admin_pin_hash" in section:
            pin = self.string((*path, "admin_pin_hash"), section["admin_pin_hash"])
            if pin is not None and not PIN_HASH.match(pin):
                self.err((*path, "admin_pin_hash"), "admin_pin_hash is not a PIN hash (pbkdf2_sha256$ITERATIONS$SALT$"
                         "DIGEST): write the hash, never the PIN; make one with `referee-kiosk --hash-pin`")
                pin = None
            found["admin_pin_hash"] = pin
        if "demo_after_s" in section:
            found["demo_after_s"] = self.number((*path, "demo_after_s"), section["demo_after_s"], 0, 86_400)
        if "idle_pause_s" in section:
            found["idle_pause_s"] = self.number((*path, "idle_pause_s"), section["idle_pause_s"], 0, 7 * 86_400)
        if "admin_hold_s" in section:
            found["admin_hold_s"] = self.number((*path, "admin_hold_s"), section["admin_hold_s"], 0.5, 30)
        if "rotate" in section:
            rotate = self.number((*path, "rotate"), section["rotate"], 0, 270, integer=True)
            if rotate is not None and rotate not in ROTATIONS:
                self.err((*path, "rotate"), f"kiosk.rotate = {rotate} is not one of 0, 90, 180, 270")
                rotate = None
            found["rotate"] = rotate
        if "volume" in section:
            found["volume"] = self.number((*path, "volume"), section["volume"], 0, 100, integer=True)
        if "mute" in section:
            found["mute"] = self.boolean((*path, "mute"), section["mute"])
        if "screen_size" in section:
            found["screen_size"] = self.screen_size((*path, "screen_size"), section["screen_size"])
        return KioskSection(**{k: (float(v) if isinstance(v, int) and k.endswith("_s") else v)
                               for k, v in found.items() if v is not None})

    def screen_size(self, path: tuple[str, ...], value: Any) -> tuple[int, int] | None:
        lo, hi = SCREEN_SIDE
        if not isinstance(value, list) or len(value) != 2:
            self.err(path, f"{self.dotted(path)} must be [width, height], not {_toml_type(value)}")
            return None
        sides = [self.number(path, side, lo, hi, integer=True) for side in value]
        if None in sides:
            return None
        return sides[0], sides[1]

    def cafe(self, value: Any) -> CafeLinkConfig | None:
        """[cafe]: the café's broker and this table's ids and credentials (shared/cafe-protocol.md)."""
        path = ("cafe",)
        section = self.table(path, value, ("broker", "cafe", "table", "username", "password_file", "tls", "ca_file"))
        if not isinstance(value, dict):
            return None
        problems = len(self.problems)
        ids: dict[str, str] = {}
        for key in ("broker", "cafe", "table"):
            if key not in section:
                example = '"cafe.local:1883"' if key == "broker" else '"nord"' if key == "cafe" else '"t1"'
                self.err(path, f"[cafe] has no {key} (e.g. {key} = {example})")
                continue
            text = self.string((*path, key), section[key])
            if text is None:
                continue
            if key != "broker" and not is_id(text):
                self.err((*path, key), f"cafe.{key} = {text!r}: use 1-32 characters a-z, 0-9, '-', "
                         "starting with a letter or digit")
                continue
            ids[key] = text
        tls = False
        if "tls" in section:
            if isinstance(section["tls"], bool):
                tls = section["tls"]
            else:
                self.err((*path, "tls"), f"cafe.tls must be true or false, not {_toml_type(section['tls'])}")
        host, port = "", 0
        if "broker" in ids:
            try:
                host, port = parse_broker(ids["broker"], tls)
            except ValueError as error:
                self.err((*path, "broker"), f"cafe.{error}")
        username = None
        if "username" in section:
            username = self.string((*path, "username"), section["username"])
            if username == "":
                self.err((*path, "username"), "cafe.username is empty")
        files: dict[str, Path | None] = {"password_file": None, "ca_file": None}
        for key in files:
            if key not in section:
                continue
            text = self.string((*path, key), section[key])
            if not text:
                if text == "":
                    self.err((*path, key), f"cafe.{key} is empty")
                continue
            file = Path(text).expanduser()
            file = file if file.is_absolute() else self.base / file
            if not file.is_file():
                self.err((*path, key), f"cafe.{key} = {text!r}: no such file ({file})")
                continue
            files[key] = file
        if files["ca_file"] is not None and not tls:
            self.err((*path, "ca_file"), "cafe.ca_file is for tls = true")
        if files["password_file"] is not None and username is None and "table" in ids:
            username = f"table-{ids['table']}"  # the broker user the café's broker config makes per table
        if len(self.problems) > problems:
            return None
        return CafeLinkConfig(host, port, ids["cafe"], ids["table"], username, files["password_file"], tls,
                              files["ca_file"])

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
                             f"not {_toml_type(raw['active_high'])}")
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
        ports: dict[str, tuple[str, ...]] = {}
        seat_of: dict[str | None, tuple[str, ...]] = {}
        known = ("type", "seat", "port", "device", "baud", "terminator", "prefix", "suffix", "dedupe_ms", "max_line")
        for name, raw in value.items():
            path = ("scanners", name)
            if not _NAME.match(name):
                self.err(path, f"scanner id {name!r}: use letters, digits, space, '_', '-' or '.' (at most 32)")
            section = self.table(path, raw, known)
            if not isinstance(raw, dict):
                continue
            kind = self.string((*path, "type"), section.get("type", "serial"), SCANNER_TYPES)
            seat = None
            if "seat" in section:
                seat = self.string((*path, "seat"), section["seat"])
                if seat is not None and seat not in seat_names:
                    known_seats = ", ".join(sorted(seat_names)) or "none"
                    self.err((*path, "seat"), f"unknown seat {seat!r} (seats: {known_seats})")
                    seat = None
                elif seat is not None and seat in seat_of:
                    other = seat_of[seat]
                    self.err((*path, "seat"), f"seat {seat!r} already has scanner {other[1]!r} "
                             f"(line {self.lines.line(*other)})")
                elif seat is not None:
                    seat_of[seat] = (*path, "seat")
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
            baud = 9600
            if "baud" in section:
                b = section["baud"]
                if isinstance(b, bool) or not isinstance(b, int) or b not in BAUD_RATES:
                    self.err((*path, "baud"), f"bad baud rate {b!r} (one of {', '.join(map(str, BAUD_RATES))})")
                else:
                    baud = b
            term = self.string((*path, "terminator"), section.get("terminator", "CR"), tuple(TERMINATORS))
            prefix = self.string((*path, "prefix"), section.get("prefix", "")) or ""
            suffix = self.string((*path, "suffix"), section.get("suffix", "")) or ""
            for key, text in (("prefix", prefix), ("suffix", suffix)):
                if text and (not text.isascii() or not text.isprintable()):
                    self.err((*path, key), f"{key} {text!r} must be printable ASCII")
            dedupe = self.number((*path, "dedupe_ms"), section.get("dedupe_ms", DEFAULT_DEDUPE_MS), 0, 60_000)
            max_line = self.number((*path, "max_line"), section.get("max_line", DEFAULT_MAX_LINE), 8, 4096,
                                   integer=True)
            if kind is None or term is None or dedupe is None or max_line is None:
                continue
            result.append(ScannerConfig(name, kind, seat, port, device, baud,
                                        Framing(term, prefix, suffix, max_line), float(dedupe)))
        return result

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


def _toml_type(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)


# ---------------------------------------------------------------- entry points


def _parse(text: str, path: str) -> tuple[TableConfig | None, list[Problem]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        line = int(m.group(1)) if m else max(1, text.count("\n") + (not text.endswith("\n")))
        col = f" (column {m.group(2)})" if m else ""
        return None, [Problem(line, f"not valid TOML: {message}{col}")]
    checker = _Checker(data, _KeyLines(text), Path(path).parent)
    config = checker.run()
    if config is not None:
        config = replace(config, path=path)
    return config, sorted(checker.problems, key=lambda p: (p.warning, p.line or 0))


def loads(text: str, path: str = "<config>") -> TableConfig:
    config, problems = _parse(text, path)
    if config is None:
        raise ConfigError(path, [p for p in problems if not p.warning])
    return config


def load(path: str | Path) -> TableConfig:
    """Read and validate a table config; ConfigError (every problem, with its line) if it is wrong."""
    path = Path(path)
    return loads(path.read_text(encoding="utf-8"), str(path))


def check_config(path: str | Path) -> tuple[bool, list[str]]:
    """(ok, messages): errors and warnings as "FILE:LINE: message", ready to print."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return False, [f"{path}: cannot read: {exc}"]
    config, problems = _parse(text, str(path))
    messages = [p.format(str(path)) for p in problems]
    if config is not None:
        messages.append(f"{path}: ok: {len(config.seats)} seats, {len(config.scanners)} scanners")
    return config is not None, messages


def default_sim_path() -> Path:
    return Path(str(resources.files("hw").joinpath(SIM_CONFIG)))


def load_default_sim() -> TableConfig:
    return load(default_sim_path())
