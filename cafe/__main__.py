"""`python -m cafe broker-config`: write a café's Mosquitto configuration (see cafe/broker.py and docs/cafe.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from cafe import broker, contract


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m cafe", description="Tabletop Referee: the café side.")
    sub = parser.add_subparsers(dest="command", required=True)
    conf = sub.add_parser("broker-config", help="write mosquitto.conf, acl, passwd and each user's password file")
    conf.add_argument("--cafe", required=True, help="the café's id (a-z, 0-9, '-')")
    conf.add_argument("--tables", required=True, nargs="+", metavar="ID", help="the tables' ids")
    conf.add_argument("--out", type=Path, required=True, help="the folder to write (e.g. /etc/mosquitto/tabletop)")
    conf.add_argument("--port", type=int, default=broker.DEFAULT_PORT, help="listener port (default 1883)")
    conf.add_argument("--bind", help="listen only on this address (default: every interface)")
    conf.add_argument("--conf-d", action="store_true",
                      help="a snippet for Debian's /etc/mosquitto/conf.d (persistence comes from the main config)")
    conf.add_argument("--data-dir", type=Path, help="persistence folder (default OUT/data)")
    conf.add_argument("--tls-cert", type=Path, help="serve TLS with this certificate (PEM) ...")
    conf.add_argument("--tls-key", type=Path, help="... and this key")
    conf.add_argument("--renew", action="store_true", help="new passwords for every user")
    conf.set_defaults(func=cmd_broker_config)
    return parser


def cmd_broker_config(args: argparse.Namespace) -> int:
    if (args.tls_cert is None) != (args.tls_key is None):
        print("python -m cafe broker-config: --tls-cert and --tls-key go together", file=sys.stderr)
        return 2
    try:
        files = broker.write_broker_config(args.out, args.cafe, args.tables, port=args.port, bind=args.bind,
                                           conf_d=args.conf_d, data_dir=args.data_dir, tls_cert=args.tls_cert,
                                           tls_key=args.tls_key, renew=args.renew)
    except (ValueError, OSError, contract.ContractError) as error:
        print(f"python -m cafe broker-config: {error}", file=sys.stderr)
        return 2
    print(f"broker config: {files.conf}")
    print(f"ACL:           {files.acl}")
    print(f"passwords:     {files.passwd} (hashed); plain text per user in {files.folder / 'passwords'}")
    for user, path in files.passwords.items():
        print(f"  {user:<20} {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
