"""The Mosquitto bridge for a chain of cafés: a café's broker forwards its own topics to a central broker.

Each café keeps its broker, tables and (if it wants) its own hub; one bridge
connection per café carries `tabletop-referee/v1/<cafe>/#` both ways: the tables'
status and log out to the central broker, the central hub's `replay` and
`announce` in. A central hub (`referee-hub --cafe +`) sees every café's tables.
`cleansession false` keeps the bridge's queue at the central broker across a
restart of either side, so nothing is lost while the link is down.
"""

from __future__ import annotations

from pathlib import Path

from cafe import contract
from hub.config import split_address


def bridge_config(cafe: str, central: str, *, username: str | None = None, password: str | None = None,
                  ca_file: Path | str | None = None) -> str:
    """The `conf.d` snippet for the café's Mosquitto (a bridge to `central`, HOST:PORT)."""
    contract.check_id(cafe, "café")
    host, port = split_address(central)
    lines = [
        f"# Tabletop Referee: café {cafe} bridged to the central broker {central} (referee-hub bridge-config)",
        f"connection tabletop-referee-{cafe}",
        f"address {host}:{port}",
        f"topic {contract.ROOT}/{cafe}/# both {contract.QOS}",
        f"remote_clientid tabletop-referee-bridge-{cafe}",
        "cleansession false",
        "try_private true",
        "notifications false",
        "restart_timeout 1 10",
    ]
    if username:
        lines.append(f"remote_username {username}")
    if password:
        lines.append(f"remote_password {password}")
    if ca_file:
        lines.append(f"bridge_cafile {ca_file}")
    return "\n".join(lines) + "\n"
