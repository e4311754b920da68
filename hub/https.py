"""The hub's pages over HTTPS by default: the owner's certificate, or a self-signed one made on the first start.

Staff open the staff page on their phones over the café's Wi-Fi, where guests listen, so the hub never serves
plain HTTP unless told (`plain_http = true`, for a reverse proxy that serves HTTPS in front of it). Without
`https_cert`/`https_key` the hub makes a self-signed certificate in `DATA_DIR/https/` once (kept across
restarts; made again only when it nears its end or the names change) and logs and prints its SHA-256
fingerprint with the address it serves, for staff to compare when the browser asks the first time.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from cafe import certs
from hub.config import HubConfig, split_address

log = logging.getLogger("hub")

FOLDER = "https"
STEM = "hub"


@dataclass(frozen=True, slots=True)
class Serving:
    """What the web server is given: plain HTTP (cert None), or a certificate and its key."""

    cert: str | None = None
    key: str | None = None
    fingerprint: str | None = None
    made: bool = False  # the self-signed certificate was made now

    @property
    def scheme(self) -> str:
        return "http" if self.cert is None else "https"


def names(config: HubConfig) -> list[str]:
    """The self-signed certificate's names: the configured ones, or this machine's (and the address the hub
    listens on, when it is one address)."""
    if config.https_names:
        return certs.check_names(config.https_names)
    host = split_address(config.listen)[0]
    found = certs.default_names()
    return found if host in ("0.0.0.0", "::", "") or host in found else [*found, host]


def prepare(config: HubConfig) -> Serving:
    """The certificate the hub serves with (making the self-signed one if it must)."""
    if config.plain_http:
        return Serving()
    if config.https_cert and config.https_key:
        cert = certs.load_cert(Path(config.https_cert))
        return Serving(config.https_cert, config.https_key, certs.fingerprint(cert))
    pair, made = certs.ensure_server(Path(config.data_dir) / FOLDER, STEM, names(config), None)
    return Serving(str(pair.cert), str(pair.key), certs.fingerprint(certs.load_cert(pair.cert)), made)


def address(config: HubConfig, serving: Serving) -> str:
    """The page's address as staff type it: the listening host, or this machine's name when it listens on all."""
    host, port = split_address(config.listen)
    if host in ("0.0.0.0", "::", ""):
        host = names(config)[0] if serving.cert is not None else certs.default_names()[0]
    shown = f"[{host}]" if ":" in host else host
    return f"{serving.scheme}://{shown}:{port}/"


def announce(config: HubConfig, serving: Serving) -> str:
    """The line the hub logs and prints at its start."""
    url = address(config, serving)
    if serving.cert is None:
        behind = " behind the reverse proxy" if config.trusted_proxy else " (plain_http = true)"
        return f"serving {url}: plain HTTP{behind}"
    made = " (made now)" if serving.made else ""
    return f"serving {url}: certificate SHA-256 {serving.fingerprint}{made}"
