"""`referee-hub`: run the café hub, check its config, or make a staff password hash.

    referee-hub --broker HOST:PORT --cafe ID --data-dir DIR --listen HOST:PORT
    referee-hub --config /etc/tabletop-referee/hub.toml [options override the file]
    referee-hub --check-config FILE
    referee-hub certificate --config FILE   (makes the self-signed HTTPS certificate if needed; prints its
                                         address and fingerprint)
    referee-hub hash-password            (reads the password from standard input or asks for it)
    referee-hub unlock --config FILE     (on the hub machine: clears the staff login's delays of the running hub)
    referee-hub bridge-config --cafe ID --central HOST:PORT [--remote-username U --remote-password-file F]
                                         (prints the café broker's bridge to a central broker)
"""

from __future__ import annotations

import argparse
import getpass
import logging
import signal
import sys

from hub.config import HubConfig, from_options, load, split_address
from referee.config_lines import ConfigError

log = logging.getLogger("hub")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee-hub", description="The café hub of Tabletop Referee.")
    parser.add_argument("command", nargs="?", default="serve",
                        choices=["serve", "hash-password", "bridge-config", "certificate", "unlock"])
    parser.add_argument("--config", help="TOML file with a [hub] table")
    parser.add_argument("--check-config", metavar="FILE", help="check a config file and exit")
    parser.add_argument("--broker", help="the café's MQTT broker, HOST:PORT")
    parser.add_argument("--cafe", help="the café id, or + for every café (a central hub)")
    parser.add_argument("--data-dir", help="where the hub keeps its SQLite store")
    parser.add_argument("--listen", help="the web page's HOST:PORT")
    parser.add_argument("--client-id", help="the MQTT session's name (default: referee-hub-CAFE)")
    parser.add_argument("--plain-http", action="store_true", default=None,
                        help="serve plain HTTP (only behind a reverse proxy that serves HTTPS)")
    parser.add_argument("--central", help="bridge-config: the central broker, HOST:PORT")
    parser.add_argument("--remote-username", help="bridge-config: the café's user at the central broker")
    parser.add_argument("--remote-password-file", help="bridge-config: a file holding that user's password")
    parser.add_argument("--bridge-cafile", help="bridge-config: CA certificate for TLS to the central broker")
    parser.add_argument("--trust-first-key", action="store_true", default=None,
                        help="accept each new table's first key without the staff (a laptop or a benchmark only)")
    parser.add_argument("--log-level", default="INFO")
    return parser


def config_from(args: argparse.Namespace) -> HubConfig:
    overrides = {"broker": args.broker, "cafe": args.cafe, "data_dir": args.data_dir, "listen": args.listen,
                 "client_id": args.client_id, "plain_http": args.plain_http,
                 "trust_first_key": args.trust_first_key}
    return load(args.config, overrides) if args.config else from_options(overrides)


def addresses(host: str, port: int, https: bool = False) -> list[str]:
    """The addresses a phone on the café's network opens the hub at: the listening host, or for every interface
    (0.0.0.0, ::) this machine's own addresses, loopback last."""
    import socket

    scheme = "https" if https else "http"
    hosts = [host]
    if host in ("0.0.0.0", "::", ""):
        found = {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
        hosts = [*sorted(h for h in found if not h.startswith("127.")), "127.0.0.1"]
    return [f"{scheme}://{f'[{h}]' if ':' in h else h}:{port}/" for h in hosts]


def serve(config: HubConfig) -> int:
    import uvicorn

    from hub import https, limits
    from hub.service import Service

    serving = https.prepare(config)  # HTTPS unless plain_http: the owner's certificate, or a self-signed one
    line = https.announce(config, serving)
    log.warning("%s", line)  # in the journal whatever the log level …
    print(f"referee-hub: {line}", flush=True)  # … and on the terminal of whoever started it
    service = Service(config)
    host, port = split_address(config.listen)
    # Behind a reverse proxy, its X-Forwarded-* only from its address.
    limits.configure(config.trusted_proxy)
    server = uvicorn.Server(uvicorn.Config(service.app(), host=host, port=port, log_level="warning",
                                           http=limits.CappedH11Protocol,
                                           timeout_graceful_shutdown=2, access_log=False,
                                           ssl_certfile=serving.cert, ssl_keyfile=serving.key,
                                           proxy_headers=bool(config.trusted_proxy),
                                           forwarded_allow_ips=config.trusted_proxy or "127.0.0.1"))
    service.start()
    for url in addresses(host, port, https=serving.cert is not None):
        print(f"referee-hub: the café's page is at {url} (staff: {url}staff)", flush=True)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        server.run()
    finally:
        service.stop()
    return 0


def certificate(config: HubConfig) -> int:
    """What staff compare in their browser, before the hub first runs (install-hub.sh prints it)."""
    from hub import https

    serving = https.prepare(config)
    print(https.announce(config, serving))
    return 0


def unlock(config: HubConfig) -> int:
    """The owner's way back in: the running hub clears every delay of the staff login at its next attempt (it
    looks at this file's time). Needs write access to the hub's data directory, i.e. the hub machine as root."""
    import os
    from pathlib import Path

    from hub.guard import UNLOCK_NAME

    marker = Path(config.data_dir) / UNLOCK_NAME
    try:
        marker.touch()
        os.utime(marker)
    except OSError as error:
        print(f"referee-hub unlock: cannot write {marker}: {error.strerror} (run it as root on the hub machine)",
              file=sys.stderr)
        return 1
    print(f"referee-hub: the staff login's delays are cleared at the next attempt ({marker})")
    return 0


def print_bridge(args: argparse.Namespace) -> int:
    from pathlib import Path

    from cafe.contract import ContractError
    from hub.bridge import bridge_config

    if not args.cafe or not args.central:
        print("referee-hub bridge-config: --cafe and --central are required", file=sys.stderr)
        return 2
    password = Path(args.remote_password_file).read_text().strip() if args.remote_password_file else None
    try:
        print(bridge_config(args.cafe, args.central, username=args.remote_username, password=password,
                            ca_file=args.bridge_cafile), end="")
    except (ContractError, ValueError) as error:
        print(f"referee-hub bridge-config: {error}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.command == "hash-password":
        from hub.auth import hash_password

        password = sys.stdin.readline().rstrip("\n") if not sys.stdin.isatty() else getpass.getpass("Password: ")
        if not password:
            print("referee-hub: empty password", file=sys.stderr)
            return 2
        print(hash_password(password))
        return 0
    if args.command == "bridge-config":
        return print_bridge(args)
    if args.check_config:
        try:
            load(args.check_config)
        except ConfigError as error:
            print(error, file=sys.stderr)
            return 1
        print(f"{args.check_config}: OK")
        return 0
    try:
        config = config_from(args)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    if args.command == "unlock":
        return unlock(config)
    return certificate(config) if args.command == "certificate" else serve(config)


if __name__ == "__main__":
    sys.exit(main())
