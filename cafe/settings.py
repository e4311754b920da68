"""Where and who a table is in the café: the `[cafe]` table of its config, as one value (stdlib only).

`hw/config.py` validates the TOML keys (with FILE:LINE) and builds this; the
kiosk's `--cafe-broker/--cafe/--table` flags build the same for a laptop.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883


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


def parse_broker(text: str, tls: bool = False) -> tuple[str, int]:
    """"host:port" (or "host", or "[v6]:port") → (host, port); ValueError says what is wrong."""
    text = text.strip()
    if not text:
        raise ValueError("broker is empty (use \"host:port\")")
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
        if rest and not rest.startswith(":"):
            raise ValueError(f"broker {text!r}: use \"[address]:port\"")
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
    elif ":" in text:
        raise ValueError(f"broker {text!r}: write an IPv6 address in brackets, \"[address]:port\"")
    else:
        host, port_text = text, ""
    if not host or any(c.isspace() or c in "/@" for c in host):
        raise ValueError(f"broker {text!r}: no host name")
    if not port_text:
        return host, DEFAULT_TLS_PORT if tls else DEFAULT_PORT
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"broker {text!r}: the port must be a number 1-65535")
    return host, int(port_text)
