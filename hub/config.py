"""The hub's settings: a TOML file's `[hub]` table, command-line options over it, every problem as FILE:LINE.

    [hub]
    broker = "127.0.0.1:1883"        # the café's Mosquitto (host:port)
    cafe = "cafe-1"                  # the café this hub serves; "+" for a central hub of a chain
    data_dir = "/var/lib/referee-hub"
    listen = "0.0.0.0:8080"          # the web page
    username = "hub"                 # broker user; password_file holds its password (one line)
    password_file = "/etc/tabletop-referee/hub.password"
    tls = false                      # with ca_file = "/etc/…/ca.crt"
    client_id = "hub"                # the persistent session's name (default: the user name, else from the café)
    staff_password_hash = "scrypt$…" # `referee-hub hash-password` prints one
    https_cert = "/etc/tabletop-referee/hub.crt"  # HTTPS with a certificate of your own (with https_key);
    https_key = "/etc/tabletop-referee/hub.key"   #   without them the hub makes a self-signed one in data_dir
    https_names = ["cafe-hub.local"] # the names in that self-signed certificate (default: this machine's)
    plain_http = false               # true: plain HTTP, only behind a reverse proxy that serves HTTPS
    trusted_proxy = "127.0.0.1"      # behind a reverse proxy: its address(es), comma-separated; its
                                     #   X-Forwarded-For/-Proto then name the client and the scheme
    timezone = "Europe/Berlin"       # the café's zone: the pages show times in it
    table_broker = "cafe-hub.local:8883"   # pairing: the broker's TLS address a table gets when staff accept it
    table_ca_file = "/etc/mosquitto/tabletop-referee/tls/ca.crt"  # … and the café's CA it checks the broker with
    trust_first_key = false          # true: a table's first key is accepted without the staff (a laptop, a
                                     #   demo, a benchmark; never on a café's shared network)
    [hub.table_names]                # shown beside the ids; "cafe/t1" on a central hub
    t1 = "Fenster"

Like the kiosk's config, each message names the line of the key it is about.
"""

from __future__ import annotations

import re
import tomllib
import zoneinfo
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cafe.certs import check_names
from hub.auth import valid_hash
from referee.config_lines import ConfigError, KeyLines, Problem

ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")  # shared/cafe-protocol.md, Names
KEYS = ("broker", "cafe", "data_dir", "listen", "username", "password_file", "tls", "ca_file", "client_id",
        "staff_password_hash", "https_cert", "https_key", "https_names", "plain_http", "trusted_proxy", "timezone",
        "table_names", "trust_first_key", "table_broker", "table_ca_file")
FLAGS = ("tls", "plain_http", "trust_first_key")


@dataclass(frozen=True)
class HubConfig:
    broker: str = "127.0.0.1:1883"
    cafe: str = ""
    data_dir: str = "/var/lib/referee-hub"
    listen: str = "127.0.0.1:8080"
    username: str | None = None
    password_file: str | None = None
    tls: bool = False
    ca_file: str | None = None
    client_id: str | None = None
    staff_password_hash: str | None = field(default=None, repr=False)
    https_cert: str | None = None
    https_key: str | None = None
    https_names: list[str] = field(default_factory=list)
    plain_http: bool = False
    trusted_proxy: str | None = None
    timezone: str = "Europe/Berlin"
    table_names: dict[str, str] = field(default_factory=dict)
    trust_first_key: bool = False  # accept each new table's first key without the staff: a laptop, never a café
    table_broker: str | None = None
    table_ca_file: str | None = None

    @property
    def pairing(self) -> bool:
        """Tables may join without a shell (the hub hands them the broker's address and the café's CA)."""
        return bool(self.table_broker and self.table_ca_file) and self.cafe != "+"

    @property
    def broker_host(self) -> str:
        return split_address(self.broker)[0]

    @property
    def broker_port(self) -> int:
        return split_address(self.broker)[1]

    @property
    def session_id(self) -> str:
        """The broker session's client id: the broker user's name (the café's broker ties ids to users, so
        nobody else can take the hub's session), unless set; without a user, one named after the café."""
        default = "referee-hub-all" if self.cafe == "+" else f"referee-hub-{self.cafe}"
        return self.client_id or self.username or default


def split_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{text!r} is not HOST:PORT")
    return host.strip("[]"), int(port)


def _known_zone(name: str) -> bool:
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


def _problems(values: dict[str, Any]) -> list[tuple[str, str]]:
    """(key, message) for every value that is wrong."""
    out: list[tuple[str, str]] = []
    for key, value in values.items():
        if key not in KEYS:
            out.append((key, f"unknown key {key!r} in [hub] (known: {', '.join(KEYS)})"))
        elif key in FLAGS:
            if not isinstance(value, bool):
                out.append((key, f"{key} must be true or false"))
        elif key == "https_names":
            out += _names_problems(value)
        elif key == "table_names":
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                out.append((key, 'table_names must be a table of id = "name" (e.g. t1 = "Fenster")'))
        elif value is not None and not isinstance(value, str):
            out.append((key, f"{key} must be a string"))
        elif value is None:
            continue
        elif key in ("broker", "listen", "table_broker"):
            try:
                split_address(value)
            except ValueError as error:
                out.append((key, f"{key}: {error}"))
        elif key == "cafe" and value != "+" and not ID.match(value):
            out.append((key, "cafe must be 1–32 of a-z, 0-9, '-' (starting with a letter or digit), or '+' for all"))
        elif key == "timezone" and not _known_zone(value):
            out.append((key, f"timezone {value!r} is not a zone of the tz database (e.g. Europe/Berlin)"))
        elif key == "staff_password_hash" and not valid_hash(value):
            out.append((key, "staff_password_hash is not a hash from `referee-hub hash-password`"))
    if not values.get("cafe"):
        out.append(("cafe", "cafe is missing (the café id, or '+' for a central hub)"))
    if values.get("tls") and not values.get("ca_file"):
        out.append(("tls", "tls = true needs ca_file"))
    if bool(values.get("table_broker")) != bool(values.get("table_ca_file")):
        out.append(("table_broker", "table_broker and table_ca_file go together (pairing: the broker's TLS address "
                                    "and the café's CA)"))
    if bool(values.get("https_cert")) != bool(values.get("https_key")):
        out.append(("https_cert", "https_cert and https_key go together (the certificate and its key)"))
    return out


def _names_problems(value: Any) -> list[tuple[str, str]]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return [("https_names", 'https_names must be a list of host names or addresses (e.g. ["cafe-hub.local"])')]
    try:
        check_names(value)
    except ValueError as error:
        return [("https_names", f"https_names: {error}")]
    return []


def load(path: str | Path, overrides: dict[str, Any] | None = None) -> HubConfig:
    """The config file with command-line `overrides` (None values ignored); ConfigError lists every problem."""
    path = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as error:
        raise ConfigError(path, [Problem(None, f"cannot read: {error.strerror}")]) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(path, [Problem(None, str(error))]) from None
    lines = KeyLines(text)
    hub_line = lines.line("hub") or 1
    problems = [Problem(lines.line(k) or hub_line, f"unknown table [{k}]") for k in data if k != "hub"]
    section = data.get("hub", {})
    if not isinstance(section, dict):
        raise ConfigError(path, [Problem(hub_line, "hub must be a table")])
    values = section | {k: v for k, v in (overrides or {}).items() if v is not None}
    for key, message in _problems(values):
        problems.append(Problem(lines.line("hub", key) if key in section else None, message))
    if problems:
        raise ConfigError(path, problems)
    return HubConfig(**values)


def from_options(overrides: dict[str, Any]) -> HubConfig:
    """Command-line options alone (no file)."""
    values = {k: v for k, v in overrides.items() if v is not None}
    problems = _problems(values)
    if problems:
        raise ConfigError("command line", [Problem(None, m) for _, m in problems])
    return replace(HubConfig(), **values)


