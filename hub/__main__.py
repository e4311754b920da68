"""`referee-hub`: run the café hub, check its config, or make a staff password hash.

    referee-hub --broker HOST:PORT --cafe ID --data-dir DIR --listen HOST:PORT
    referee-hub --config /etc/tabletop-referee/hub.toml [options override the file]
    referee-hub --check-config FILE
    referee-hub hash-password            (reads the password from standard input or asks for it)
"""

from __future__ import annotations

import argparse
import getpass
import logging
import signal
import sys

from hub.config import ConfigError, HubConfig, from_options, load, split_address


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee-hub", description="The café hub of Tabletop Referee.")
    parser.add_argument("command", nargs="?", choices=["serve", "hash-password"], default="serve")
    parser.add_argument("--config", help="TOML file with a [hub] table")
    parser.add_argument("--check-config", metavar="FILE", help="check a config file and exit")
    parser.add_argument("--broker", help="the café's MQTT broker, HOST:PORT")
    parser.add_argument("--cafe", help="the café id, or + for every café (a central hub)")
    parser.add_argument("--data-dir", help="where the hub keeps its SQLite store")
    parser.add_argument("--listen", help="the web page's HOST:PORT")
    parser.add_argument("--client-id", help="the MQTT session's name (default: referee-hub-CAFE)")
    parser.add_argument("--log-level", default="INFO")
    return parser


def config_from(args: argparse.Namespace) -> HubConfig:
    overrides = {"broker": args.broker, "cafe": args.cafe, "data_dir": args.data_dir, "listen": args.listen,
                 "client_id": args.client_id}
    return load(args.config, overrides) if args.config else from_options(overrides)


def serve(config: HubConfig) -> int:
    import uvicorn

    from hub.service import Service

    service = Service(config)
    host, port = split_address(config.listen)
    server = uvicorn.Server(uvicorn.Config(service.app(), host=host, port=port, log_level="warning",
                                           timeout_graceful_shutdown=2, access_log=False))
    service.start()
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        server.run()
    finally:
        service.stop()
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
    return serve(config)


if __name__ == "__main__":
    sys.exit(main())
