"""`referee-kiosk`: run the table kiosk (or `export`, `--check-config`)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cafe.config import CafeLinkConfig
    from kiosk.service.notify import Notifier
    from kiosk.settings.config import KioskConfig
    from kiosk.settings.settings import Settings

logger = logging.getLogger("referee-kiosk")


EX_UNAVAILABLE = 69  # sysexits.h: no display to draw on


def _headless_needed(kiosk_mode: bool, simulate: bool, asked: bool = False) -> bool:
    """Render with SDL's dummy driver only when asked (--headless, SDL_VIDEODRIVER=dummy) or when a
    simulation finds no screen; a real kiosk always tries its display and fails loudly without one."""
    driver = os.environ.get("SDL_VIDEODRIVER")
    if asked or driver in ("dummy", "offscreen"):
        return True
    if driver or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return False
    if kiosk_mode and Path("/dev/dri").exists():  # a Pi console: SDL's KMSDRM draws fullscreen
        return False
    return simulate


def package_version() -> str:
    """The installed distribution's version (what a bug report needs), or "unknown" from a bare checkout."""
    from importlib import metadata

    try:
        return metadata.version("tabletop-referee")
    except metadata.PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee-kiosk", description="Tabletop Referee: the table kiosk.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    parser.add_argument("--config", type=Path, help="the table's TOML config")
    parser.add_argument("--check-config", type=Path, metavar="FILE", help="check a config file and exit")
    parser.add_argument("--hash-pin", action="store_true",
                        help="read an admin PIN on stdin and print its [kiosk] admin_pin_hash line")
    parser.add_argument("--sim", action="store_true",
                        help="simulated hardware: keys 1-4/q-r are seat buttons, typed codes + Enter are scans")
    parser.add_argument("--control", type=Path, help="with --sim: the control socket (default DATA_DIR/control.sock)")
    parser.add_argument("--camera", action="store_true",
                        help="with --sim: the simulated overhead camera reads cards laid on the pile (lay, cover, "
                             "take on the control socket)")
    parser.add_argument("--kiosk", action="store_true", help="fullscreen, no way out for guests")
    parser.add_argument("--headless", action="store_true",
                        help="no screen: render with SDL's dummy driver (see it with --screenshot or the control "
                             "socket); without it a kiosk with no working display exits with status 69")
    parser.add_argument("--data-dir", type=Path, help="where the event log lives")
    parser.add_argument("--size", type=_size, default=None, help="window size WxH (default 800x480)")
    parser.add_argument("--lang", choices=("de", "en"), help="start language (default de)")
    parser.add_argument("--rotate", type=int, choices=(0, 90, 180, 270),
                        help="turn the picture clockwise on the display (default: [kiosk] rotate, 0)")
    parser.add_argument("--demo-after", type=float, help="seconds without a touch before demo mode (0: never)")
    parser.add_argument("--frames", type=int, default=0, help="stop after this many loop steps (tests)")
    parser.add_argument("--screenshot", type=Path, help="headless: save a screenshot here before exiting")
    parser.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error", "critical"),
                        help="least severe messages to log (default info); under systemd they carry journal "
                             "priorities")
    parser.add_argument("--cafe-broker", metavar="HOST:PORT", help="publish to this café MQTT broker (see [cafe])")
    parser.add_argument("--cafe", metavar="ID", help="with --cafe-broker: the café's id")
    parser.add_argument("--table", metavar="ID", help="with --cafe-broker: this table's id in the café")
    parser.add_argument("--cafe-user", metavar="NAME", help="with --cafe-broker: the broker user (default table-ID "
                        "when a password file is given)")
    parser.add_argument("--cafe-password-file", type=Path, metavar="FILE",
                        help="with --cafe-broker: a file holding the broker user's password (one line)")
    sub = parser.add_subparsers(dest="command")
    export = sub.add_parser("export", help="write logged games as transcripts")
    export.add_argument("-o", "--out", type=Path, default=Path("."), help="folder for the transcripts")
    export.add_argument("--game", type=int, help="only this game (its number in the log)")
    export.add_argument("--csv", action="store_true", help="also games.csv: a row per game (players, scores, rank)")
    backup = sub.add_parser("backup", help="a consistent copy of the event log (safe while the kiosk runs)")
    backup.add_argument("-o", "--out", type=Path, required=True, help="the copy's file name")
    sub.add_parser("audit", help="check every screen's readability limits (audit --help)")
    sub.add_parser("camera", help="the camera on still images: read cards, teach a deck from pictures, restore taught "
                   "decks (camera --help)")
    return parser


EX_CONFIG = 78  # sysexits.h: a configuration error (systemd names it "CONFIG")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["audit"]:  # readability audit of every screen (kiosk/drawing/audit.py has its own options)
        from kiosk.drawing.audit import main as audit_main

        return audit_main(argv[1:])
    if argv[:1] == ["camera"]:  # the camera reader on still images (kiosk/hardware/camera_cli.py has its own options)
        from kiosk.hardware.camera_cli import main as camera_main

        return camera_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    from kiosk.service import logs

    logs.setup(args.log_level)
    if args.check_config:
        return _check_config(args.check_config)
    if args.hash_pin:
        return _hash_pin()
    from hw.config import without_hardware
    from kiosk.service.notify import Notifier
    from kiosk.settings import config as kiosk_config
    from referee.config_lines import ConfigError

    notifier = Notifier()
    try:
        config = kiosk_config.load(args.config) if args.config else None
    except (ConfigError, OSError, UnicodeDecodeError) as error:
        for line in str(error).splitlines():
            logger.error("config: %s", line)
        notifier.status(f"config error in {args.config}: referee-kiosk --check-config {args.config}")
        return EX_CONFIG
    if config is not None and without_hardware(config.table) and not args.sim:
        logger.error("config: %s names no hardware ([seats.NAME], [scanners.NAME]): run it with --sim, or add the "
                  "table's hardware (table.example.toml)", args.config)
        return EX_CONFIG
    settings = _settings(config, args)
    if args.command == "export":
        return _export(settings, args, config.table.name if config else "table")
    if args.command == "backup":
        return _backup(settings, args.out)
    try:
        cafe = _cafe_config(args, config.cafe if config else None)
    except ValueError as error:
        parser.error(str(error))
    return _run(args, settings, config, cafe, notifier)


def _settings(config: KioskConfig | None, args: argparse.Namespace) -> Settings:
    """The config's [kiosk] settings with the command line's on top."""
    from kiosk.settings import settings as settings_mod

    settings = settings_mod.from_config(config)
    if args.data_dir:
        settings.data_dir = args.data_dir
    if args.lang:
        settings.language = args.lang
    if args.rotate is not None:
        settings.rotate = args.rotate
    if args.demo_after is not None:
        settings.demo_after_s = args.demo_after
    if args.size:
        settings.width, settings.height = args.size
    return settings


def _run(args: argparse.Namespace, settings: Settings, config: KioskConfig | None, cafe: CafeLinkConfig | None,
         notifier: Notifier) -> int:
    """Compose the kiosk and run its loop (or `--frames` steps of it) until it stops; its exit status."""
    headless = _headless_needed(args.kiosk, args.sim, args.headless)
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        logger.info("no screen found — rendering headless (SDL dummy driver); "
                 "use --screenshot FILE or the control socket to see it")
    from kiosk.app.app import DisplayError
    from kiosk.app.compose import compose

    control = (args.control or settings.data_dir / "control.sock") if args.sim else None
    try:
        kiosk = compose(settings, config, cafe, notifier, simulate=args.sim, control=control,
                        kiosk_mode=args.kiosk, headless=headless, camera=args.camera)
    except DisplayError as error:
        logger.critical("%s — check the screen's cable and /dev/dri (groups video, render); "
                     "for a run without a screen: --headless or SDL_VIDEODRIVER=dummy", error)
        notifier.status(str(error))
        return EX_UNAVAILABLE
    app = kiosk.app
    try:
        if not args.frames:
            return app.run()
        for _ in range(args.frames):
            app.loop.step(max_wait_ms=50)
        if args.screenshot:
            app.loop.screenshot(args.screenshot)
            logger.info("screenshot %s", args.screenshot)
        return 0
    finally:
        notifier.stopping()
        kiosk.close()


def _backup(settings: Settings, out: Path) -> int:
    from kiosk.eventlog.export import backup

    if not settings.log_path.exists():
        print(f"referee-kiosk backup: no event log at {settings.log_path}", file=sys.stderr)
        return 1
    print(backup(settings.log_path, out))
    return 0


def _cafe_config(args: argparse.Namespace, configured: CafeLinkConfig | None) -> CafeLinkConfig | None:
    """[cafe] from the config, with --cafe-broker/--cafe/--table on top (a laptop needs no config file)."""
    from dataclasses import replace

    from cafe.config import CafeLinkConfig, parse_broker
    from cafe.contract import check_id

    if not (args.cafe_broker or args.cafe or args.table or args.cafe_user or args.cafe_password_file):
        return configured
    if configured is None and not (args.cafe_broker and args.cafe and args.table):
        raise ValueError("--cafe-broker, --cafe and --table go together (or put [cafe] in the config)")
    result = configured or CafeLinkConfig("", 0, "", "")
    if args.cafe_broker:
        host, port = parse_broker(args.cafe_broker, result.tls)
        result = replace(result, host=host, port=port)
    if args.cafe:
        result = replace(result, cafe=check_id(args.cafe, "--cafe"))
    if args.table:
        result = replace(result, table=check_id(args.table, "--table"))
    if args.cafe_password_file:
        if not args.cafe_password_file.is_file():
            raise ValueError(f"--cafe-password-file {args.cafe_password_file}: no such file")
        result = replace(result, password_file=args.cafe_password_file,
                         username=args.cafe_user or result.username or f"table-{result.table}")
    elif args.cafe_user:
        result = replace(result, username=args.cafe_user)
    return result


def _check_config(path: Path) -> int:
    """Print the verdict on the whole table config (hardware, [kiosk], [cafe]); exit 0 when the kiosk will start."""
    from kiosk.settings.config import check_config, load

    ok, messages = check_config(path)
    for line in messages:
        print(line)
    if ok and load(path).kiosk.admin_pin_hash is None:
        print(f"{path}: warning: [kiosk] admin_pin_hash is not set: the admin PIN is the default 1234 "
              "(make a hash with `referee-kiosk --hash-pin`)")
    print(f"{path}: {'OK' if ok else 'NOT OK'}")
    return 0 if ok else 1


def _hash_pin() -> int:
    """Read a PIN (twice, not echoed on a terminal) and print the line for [kiosk] admin_pin_hash."""
    import getpass

    from kiosk.settings.pin import hash_pin

    ask = getpass.getpass if sys.stdin.isatty() else (lambda prompt: sys.stdin.readline().rstrip("\n"))
    pin = ask("New admin PIN (4-8 digits): ")
    if not (pin.isdigit() and 4 <= len(pin) <= 8):
        print("referee-kiosk: the PIN must be 4 to 8 digits", file=sys.stderr)
        return 2
    if sys.stdin.isatty() and ask("Again: ") != pin:
        print("referee-kiosk: the two PINs differ", file=sys.stderr)
        return 2
    print(f'admin_pin_hash = "{hash_pin(pin)}"')
    return 0


def _size(text: str) -> tuple[int, int]:
    w, sep, h = text.partition("x")
    if not (sep and w.isdigit() and h.isdigit() and 240 <= int(w) <= 8192 and 240 <= int(h) <= 8192):
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT (each 240..8192), e.g. 800x480")
    return int(w), int(h)


def _export(settings: Settings, args: argparse.Namespace, table: str) -> int:
    from kiosk.eventlog.storage import fault_of
    from kiosk.eventlog.store import EventLog

    try:
        event_log = EventLog(settings.log_path)
        event_log.games()
        args.out.mkdir(parents=True, exist_ok=True)
    except Exception as error:  # a damaged or unreadable log: say so, no traceback
        fault = fault_of(error)
        if fault is None:
            raise
        print(f"referee-kiosk export: {settings.log_path}: {fault}", file=sys.stderr)
        return 1
    if args.csv:
        from kiosk.eventlog.export import export

        path, _ = export(event_log, args.out, table)
        print(path)
    count = 0
    for record in event_log.games():
        if args.game is not None and record.id != args.game:
            continue
        path = args.out / f"game-{record.id:05d}-{record.header['game']}.jsonl"
        with open(path, "w", encoding="utf-8") as out:
            event_log.export(record.id, out)
        print(path)
        count += 1
    if args.game is not None and count == 0:
        print(f"referee-kiosk export: no game {args.game} in {settings.log_path}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
