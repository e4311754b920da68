"""Where and who a table is in the café: the `[cafe]` table of its config, as one value (stdlib only).

`hw/config.py` validates the TOML keys (with FILE:LINE) and builds this; the
kiosk's `--cafe-broker/--cafe/--table` flags build the same for a laptop.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
DEFAULT_HUB_PORT = 8080  # the hub's pages (HTTPS), where a table asks to join
MAX_ADDRESS = 300


@dataclass(frozen=True, slots=True)
class CafeLinkConfig:
    host: str
    port: int
    cafe: str
    table: str
    username: str | None = None
    password_file: Path | None = None
    tls: bool = False
    ca_file: Path | None = None

    @property
    def destination(self) -> str:
        """The key under which the event log remembers what this broker acknowledged."""
        return f"{self.host}:{self.port}/{self.cafe}/{self.table}"


@dataclass(frozen=True, slots=True)
class JoinSettings:
    """A table that joins a café from its admin menu (`[cafe] hub`, no broker): what the Café screen starts with."""

    hub: str
    table: str | None = None


def parse_broker(text: str, tls: bool = False) -> tuple[str, int]:
    """"host:port" (or "host", or "[v6]:port") → (host, port); ValueError says what is wrong."""
    return parse_address(text, DEFAULT_TLS_PORT if tls else DEFAULT_PORT, "broker")


def parse_hub(text: str) -> tuple[str, int]:
    """The hub's address as staff type it on a table ("cafe-hub.local", "192.168.1.10:8080")."""
    return parse_address(text, DEFAULT_HUB_PORT, "hub")


def parse_address(text: str, default_port: int, what: str) -> tuple[str, int]:
    """"host:port" (or "host", or "[v6]:port") → (host, port); ValueError says what is wrong."""
    text = text.strip()
    if not text:
        raise ValueError(f"{what} is empty (use \"host:port\")")
    if len(text) > MAX_ADDRESS:
        raise ValueError(f"{what}: longer than {MAX_ADDRESS} characters")
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
        if rest and not rest.startswith(":"):
            raise ValueError(f"{what} {text!r}: use \"[address]:port\"")
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
    elif ":" in text:
        raise ValueError(f"{what} {text!r}: write an IPv6 address in brackets, \"[address]:port\"")
    else:
        host, port_text = text, ""
    if not host or any(c.isspace() or c in "/@" or not c.isprintable() for c in host):
        raise ValueError(f"{what} {text!r}: no host name")
    if not port_text:
        return host, default_port
    if not (port_text.isascii() and port_text.isdigit()) or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"{what} {text!r}: the port must be a number 1-65535")
    return host, int(port_text)
