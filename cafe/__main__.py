"""`python -m cafe broker-config`: write a café's Mosquitto configuration (see cafe/broker.py and docs/cafe.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from cafe import broker, certs, contract
from cafe.config import DEFAULT_PORT, DEFAULT_TLS_PORT


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m cafe", description="Tabletop Referee: the café side.")
    sub = parser.add_subparsers(dest="command", required=True)
    conf = sub.add_parser("broker-config", help="write mosquitto.conf, the TLS certificates, the users and the ACL")
    conf.add_argument("--cafe", required=True, help="the café's id (a-z, 0-9, '-')")
    conf.add_argument("--tables", nargs="*", default=[], metavar="ID",
                      help="tables set up by files (a password file each, copied by hand); paired tables need none")
    conf.add_argument("--out", type=Path, required=True, help="the folder to write (e.g. /etc/mosquitto/tabletop)")
    conf.add_argument("--port", type=int, default=DEFAULT_PORT,
                      help=f"plain MQTT on 127.0.0.1 only, for the hub (default {DEFAULT_PORT})")
    conf.add_argument("--tls-port", type=int, default=DEFAULT_TLS_PORT,
                      help=f"TLS for the tables on the café's network (default {DEFAULT_TLS_PORT})")
    conf.add_argument("--bind", help="the TLS listener only on this address (default: every interface)")
    conf.add_argument("--name", action="append", dest="names", metavar="HOST",
                      help="a host name or address the tables reach the broker by, for its certificate (repeat it; "
                           "default: this machine's name, NAME.local, localhost, 127.0.0.1, ::1)")
    conf.add_argument("--no-pairing", action="store_true",
                      help="no dynamic security plugin: only the --tables' users (the hub cannot add tables)")
    conf.add_argument("--conf-d", action="store_true",
                      help="a snippet for Debian's /etc/mosquitto/conf.d (persistence comes from the main config)")
    conf.add_argument("--data-dir", type=Path, help="persistence folder (default OUT/data)")
    conf.add_argument("--tls-cert", type=Path, help="a certificate of your own instead of the café's CA (PEM) ...")
    conf.add_argument("--tls-key", type=Path, help="... and its key")
    conf.add_argument("--renew", action="store_true", help="new passwords for the hub and the --tables")
    conf.set_defaults(func=cmd_broker_config)
    return parser


def cmd_broker_config(args: argparse.Namespace) -> int:
    listeners = broker.Listeners(args.port, args.tls_port, args.bind)
    try:
        files = broker.write_broker_config(args.out, args.cafe, args.tables, listeners=listeners, names=args.names,
                                           pairing=not args.no_pairing, conf_d=args.conf_d, data_dir=args.data_dir,
                                           tls_cert=args.tls_cert, tls_key=args.tls_key, renew=args.renew)
    except (ValueError, OSError, contract.ContractError) as error:
        print(f"python -m cafe broker-config: {error}", file=sys.stderr)
        return 2
    print(f"broker config: {files.conf} (plain on 127.0.0.1:{args.port}, TLS on "
          f"{args.bind or 'every interface'}:{args.tls_port})")
    if files.ca is not None:
        cert = certs.load_cert(files.cert) if files.cert else None
        print(f"café CA:       {files.ca} (SHA-256 {certs.fingerprint(certs.load_cert(files.ca))})"
              f"{' — made now' if 'ca' in files.made else ''}")
        if cert is not None:
            print(f"certificate:   {files.cert} for {', '.join(certs.names_of(cert))}"
                  f"{' — made now' if 'certificate' in files.made else ''}")
    if files.dynsec is not None:
        print(f"pairing:       {files.dynsec} (the hub adds a table's user when staff accept it)")
    if files.acl is not None:
        print(f"ACL:           {files.acl}")
    print(f"passwords:     plain text per user in {files.folder / 'passwords'}")
    for user, path in files.passwords.items():
        print(f"  {user:<20} {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
