"""The table's whole config, composed by the kiosk: hw's tables (`hw.config`), the kiosk's `[kiosk]` and the
café link's `[cafe]`, checked here with hw.config's primitives so that every mistake of the file, whichever
table it is in, comes out the same way ("FILE:LINE: message") and a table nobody owns is one too.

    [kiosk]        data_dir, language ("de" | "en"), admin_pin_hash, demo_after_s, idle_pause_s, admin_hold_s,
                   screen_size, rotate, volume, mute
    [cafe]         (optional) broker = "host:port", cafe, table (ids), username, password_file, tls, ca_file;
                   or, for a table that joins from its admin menu, hub = "host:port" (and table)

Whatever `referee-kiosk --check-config` passes also starts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cafe.config import CafeLinkConfig, JoinSettings, parse_broker, parse_hub
from cafe.contract import is_id
from hw.config import Checker, Section, TableConfig, parse, toml_type
from hw.config import check_config as check_file
from kiosk.settings.pin import MAX_ITERATIONS, MIN_ITERATIONS
from referee.config_lines import ConfigError, Problem

ROTATIONS = (0, 90, 180, 270)
LANGUAGES = ("de", "en")
KIOSK_KEYS = ("data_dir", "language", "admin_pin_hash", "demo_after_s", "idle_pause_s", "admin_hold_s", "screen_size",
              "rotate", "volume", "mute")
# kiosk.settings.pin.hash_pin's format: pbkdf2_sha256$ITERATIONS$SALT$HEX-DIGEST (make one: `referee-kiosk --hash-pin`)
PIN_HASH = re.compile(r"^pbkdf2_sha256\$(\d{4,8})\$([^$\s]{1,64})\$([0-9a-f]{64})$")
SCREEN_SIDE = (240, 3840)
SCREEN_PIXELS = 3840 * 2160  # at most a 4K panel: 8192 × 8192 took 345 MB for the surfaces alone
FILE_LIMITS = {"password_file": 4096, "ca_file": 256 * 1024}  # checked before anything is read
MAX_CONFIG = 1024 * 1024
# `[kiosk]` numbers: key → (lowest, highest, whole numbers only)
NUMBERS = {"demo_after_s": (0, 86_400, False), "idle_pause_s": (0, 7 * 86_400, False),
           "admin_hold_s": (0.5, 30, False), "volume": (0, 100, True)}
CAFE_KEYS = ("broker", "cafe", "table", "username", "password_file", "tls", "ca_file", "hub")
CAFE_EXAMPLES = {"broker": '"cafe.local:1883"', "cafe": '"nord"', "table": '"t1"'}


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


def check_kiosk(checker: Checker, value: Any) -> KioskSection:
    """The `[kiosk]` table: each key checked the way the kiosk will use it (a `hw.config.Section`)."""
    path = ("kiosk",)
    section = checker.table(path, value, KIOSK_KEYS)
    found: dict[str, Any] = {}
    if "data_dir" in section:
        found["data_dir"] = checker.path_string((*path, "data_dir"), section["data_dir"], absolute=False)
    if "language" in section:
        found["language"] = checker.string((*path, "language"), section["language"], LANGUAGES)
    if "admin_pin_hash" in section:
        found["admin_pin_hash"] = _pin_hash(checker, section["admin_pin_hash"])
    for key, (lo, hi, integer) in NUMBERS.items():
        if key in section:
            found[key] = checker.number((*path, key), section[key], lo, hi, integer=integer)
    if "rotate" in section:
        rotate = checker.number((*path, "rotate"), section["rotate"], 0, 270, integer=True)
        if rotate is not None and rotate not in ROTATIONS:
            checker.err((*path, "rotate"), f"kiosk.rotate = {rotate} is not one of 0, 90, 180, 270")
            rotate = None
        found["rotate"] = rotate
    if "mute" in section:
        found["mute"] = checker.boolean((*path, "mute"), section["mute"])
    if "screen_size" in section:
        found["screen_size"] = _screen_size(checker, (*path, "screen_size"), section["screen_size"])
    given: dict[str, Any] = {k: (float(v) if isinstance(v, int) and k.endswith("_s") else v)
                             for k, v in found.items() if v is not None}
    return KioskSection(**given)


def _pin_hash(checker: Checker, value: Any) -> str | None:
    path = ("kiosk", "admin_pin_hash")
    pin = checker.string(path, value)
    found = PIN_HASH.match(pin) if pin is not None else None
    if pin is not None and found is None:
        checker.err(path, "admin_pin_hash is not a PIN hash (pbkdf2_sha256$ITERATIONS$SALT$DIGEST): write the hash, "
                    "never the PIN; make one with `referee-kiosk --hash-pin`")
        return None
    if found is not None and not MIN_ITERATIONS <= int(found.group(1)) <= MAX_ITERATIONS:
        checker.err(path, f"admin_pin_hash has {int(found.group(1)):,} iterations: use {MIN_ITERATIONS:,} to "
                    f"{MAX_ITERATIONS:,} (more holds the screen for seconds on every wrong PIN); "
                    "`referee-kiosk --hash-pin` makes a good one")
        return None
    return pin


def _screen_size(checker: Checker, path: tuple[str, ...], value: Any) -> tuple[int, int] | None:
    lo, hi = SCREEN_SIDE
    if not isinstance(value, list) or len(value) != 2:
        checker.err(path, f"{checker.dotted(path)} must be [width, height], not {toml_type(value)}")
        return None
    sides = [checker.number(path, side, lo, hi, integer=True) for side in value]
    if None in sides:
        return None
    if sides[0] * sides[1] > SCREEN_PIXELS:
        checker.err(path, f"{checker.dotted(path)} = {sides[0]} × {sides[1]}: at most {SCREEN_PIXELS:,} pixels "
                    "(a 4K panel)")
        return None
    return sides[0], sides[1]


@dataclass(frozen=True, slots=True)
class KioskConfig:
    """The whole file, checked: the table's hardware, the kiosk's settings, the café it publishes to."""

    table: TableConfig
    kiosk: KioskSection = field(default_factory=KioskSection)
    cafe: CafeLinkConfig | None = None
    """The café broker this table publishes to; None: not in a café (or it joins from its admin menu)."""
    join: JoinSettings | None = None
    """`[cafe] hub`: the hub a table without a broker in its config asks to join (the Café screen's start)."""


def check_cafe(checker: Checker, value: Any) -> CafeLinkConfig | JoinSettings | None:
    """[cafe]: the café's broker and this table's ids and credentials (shared/cafe-protocol.md); or only the hub to
    ask to join (pairing from the admin menu)."""
    path = ("cafe",)
    section = checker.table(path, value, CAFE_KEYS)
    if not isinstance(value, dict):
        return None
    if "hub" in section:
        return check_join(checker, section)
    problems = len(checker.problems)
    ids = _cafe_ids(checker, section)
    tls = False
    if "tls" in section:
        if isinstance(section["tls"], bool):
            tls = section["tls"]
        else:
            checker.err((*path, "tls"), f"cafe.tls must be true or false, not {toml_type(section['tls'])}")
    host, port = "", 0
    if "broker" in ids:
        try:
            host, port = parse_broker(ids["broker"], tls)
        except ValueError as error:
            checker.err((*path, "broker"), f"cafe.{error}")
    username = None
    if "username" in section:
        username = checker.string((*path, "username"), section["username"])
        if username == "":
            checker.err((*path, "username"), "cafe.username is empty")
    files = _cafe_files(checker, section)
    if files["ca_file"] is not None and not tls:
        checker.err((*path, "ca_file"), "cafe.ca_file is for tls = true")
    if files["password_file"] is not None and username is None and "table" in ids:
        username = f"table-{ids['table']}"  # the broker user the café's broker config makes per table
    if len(checker.problems) > problems:
        return None
    return CafeLinkConfig(host, port, ids["cafe"], ids["table"], username, files["password_file"], tls,
                          files["ca_file"])


def check_join(checker: Checker, section: dict[str, Any]) -> JoinSettings | None:
    """`[cafe] hub` (and `table`): a table that joins from its admin menu; the broker comes from the hub."""
    problems = len(checker.problems)
    for key in ("broker", "cafe", "username", "password_file", "tls", "ca_file"):
        if key in section:
            checker.err(("cafe", key), f"cafe.{key} is for a table set up by files: with hub = …, the hub hands "
                        "the broker over when staff accept the table")
    hub = checker.string(("cafe", "hub"), section["hub"])
    if hub is not None:
        try:
            parse_hub(hub)
        except ValueError as error:
            checker.err(("cafe", "hub"), f"cafe.{error}")
    table = checker.string(("cafe", "table"), section["table"]) if "table" in section else None
    if table is not None and not is_id(table):
        checker.err(("cafe", "table"), f"cafe.table = {table!r}: use 1-32 characters a-z, 0-9, '-', "
                    "starting with a letter or digit")
    if len(checker.problems) > problems or hub is None:
        return None
    return JoinSettings(hub.strip(), table)


def _cafe_ids(checker: Checker, section: dict[str, Any]) -> dict[str, str]:
    """broker, cafe and table: each given, a string, the ids as the contract allows them."""
    ids: dict[str, str] = {}
    for key in ("broker", "cafe", "table"):
        if key not in section:
            checker.err(("cafe",), f"[cafe] has no {key} (e.g. {key} = {CAFE_EXAMPLES[key]})")
            continue
        text = checker.string(("cafe", key), section[key])
        if text is None:
            continue
        if key != "broker" and not is_id(text):
            checker.err(("cafe", key), f"cafe.{key} = {text!r}: use 1-32 characters a-z, 0-9, '-', "
                        "starting with a letter or digit")
            continue
        ids[key] = text
    return ids


def _cafe_files(checker: Checker, section: dict[str, Any]) -> dict[str, Path | None]:
    """password_file and ca_file: existing files, relative ones to the config's folder."""
    files: dict[str, Path | None] = {"password_file": None, "ca_file": None}
    for key in files:
        if key not in section:
            continue
        text = checker.string(("cafe", key), section[key])
        if not text:
            if text == "":
                checker.err(("cafe", key), f"cafe.{key} is empty")
            continue
        file = Path(text).expanduser()
        file = file if file.is_absolute() else checker.base / file
        if not file.is_file():
            checker.err(("cafe", key), f"cafe.{key} = {text!r}: no such file ({file})")
            continue
        if file.stat().st_size > FILE_LIMITS[key]:
            checker.err(("cafe", key), f"cafe.{key} = {text!r}: {file.stat().st_size:,} bytes, more than such a "
                        f"file holds (at most {FILE_LIMITS[key]:,})")
            continue
        files[key] = file
    return files


SECTIONS: dict[str, Section] = {"kiosk": check_kiosk, "cafe": check_cafe}
"""The tables of the file beside hw's, and their checks."""


def loads(text: str, path: str = "<config>") -> KioskConfig:
    """The whole config from its text; ConfigError (every problem of every table, with its line) if it is wrong."""
    parsed = parse(text, path, SECTIONS)
    if parsed.table is None:
        raise ConfigError(path, parsed.errors)
    cafe = parsed.sections.get("cafe")
    return KioskConfig(parsed.table, parsed.sections.get("kiosk", KioskSection()),
                       cafe if isinstance(cafe, CafeLinkConfig) else None,
                       cafe if isinstance(cafe, JoinSettings) else None)


def load(path: str | Path) -> KioskConfig:
    """Read and check the table's whole config; ConfigError (with lines) if it is wrong."""
    path = Path(path)
    return loads(read_bounded(path, MAX_CONFIG).decode("utf-8", errors="replace"), str(path))


def read_bounded(path: Path, limit: int) -> bytes:
    """A file's bytes, ConfigError when it holds more than `limit` (found out without reading it whole)."""
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ConfigError(str(path), [Problem(None, f"more than {limit:,} bytes: not a table's config")])
    return data


def check_config(path: str | Path) -> tuple[bool, list[str]]:
    """(ok, messages) for the whole file: errors and warnings as "FILE:LINE: message", ready to print."""
    return check_file(path, SECTIONS)
