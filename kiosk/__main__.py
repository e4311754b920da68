"""`referee-kiosk`: run the table kiosk (or `export`, `--check-config`)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cafe.settings import CafeLinkConfig


def _headless_needed(kiosk_mode: bool) -> bool:
    if os.environ.get("SDL_VIDEODRIVER"):
        return os.environ["SDL_VIDEODRIVER"] in ("dummy", "offscreen")
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return False
    return not (kiosk_mode and Path("/dev/dri").exists())  # a Pi console: SDL's KMSDRM draws fullscreen


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee-kiosk", description="Tabletop Referee: the table kiosk.")
    parser.add_argument("--config", type=Path, help="the table's TOML config")
    parser.add_argument("--check-config", type=Path, metavar="FILE", help="check a config file and exit")
    parser.add_argument("--sim", action="store_true",
                        help="simulated hardware: keys 1-4/q-r are seat buttons, typed codes + Enter are scans")
    parser.add_argument("--control", type=Path, help="with --sim: the control socket (default DATA_DIR/control.sock)")
    parser.add_argument("--kiosk", action="store_true", help="fullscreen, no way out for guests")
    parser.add_argument("--data-dir", type=Path, help="where the event log lives")
    parser.add_argument("--size", default=None, help="window size WxH (default 800x480)")
    parser.add_argument("--lang", choices=("de", "en"), help="start language (default de)")
    parser.add_argument("--rotate", type=int, choices=(0, 90, 180, 270),
                        help="turn the picture clockwise on the display (default: [kiosk] rotate, 0)")
    parser.add_argument("--demo-after", type=float, help="seconds without a touch before demo mode (0: never)")
    parser.add_argument("--frames", type=int, default=0, help="stop after this many loop steps (tests)")
    parser.add_argument("--screenshot", type=Path, help="headless: save a screenshot here before exiting")
    parser.add_argument("--cafe-broker", metavar="HOST:PORT", help="publish to this café MQTT broker (see [cafe])")
    parser.add_argument("--cafe", metavar="ID", help="with --cafe-broker: the café's id")
    parser.add_argument("--table", metavar="ID", help="with --cafe-broker: this table's id in the café")
    sub = parser.add_subparsers(dest="command")
    export = sub.add_parser("export", help="write logged games as transcripts")
    export.add_argument("-o", "--out", type=Path, default=Path("."), help="folder for the transcripts")
    export.add_argument("--game", type=int, help="only this game (its number in the log)")
    export.add_argument("--csv", action="store_true", help="also games.csv: a row per game (players, scores, rank)")
    backup = sub.add_parser("backup", help="a consistent copy of the event log (safe while the kiosk runs)")
    backup.add_argument("-o", "--out", type=Path, required=True, help="the copy's file name")
    sub.add_parser("audit", help="check every screen's readability limits (audit --help)")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["audit"]:  # readability audit of every screen (kiosk/audit.py has its own options)
        from kiosk.audit import main as audit_main

        return audit_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    from kiosk import settings as settings_mod

    settings = settings_mod.load(args.config)
    if args.data_dir:
        settings.data_dir = args.data_dir
    if args.lang:
        settings.language = args.lang
    if args.rotate is not None:
        settings.rotate = args.rotate
    if args.demo_after is not None:
        settings.demo_after_s = args.demo_after
    if args.size:
        w, _, h = args.size.partition("x")
        settings.width, settings.height = int(w), int(h)
    if args.command == "export":
        return _export(settings, args)
    if args.command == "backup":
        from kiosk.export import backup

        if not settings.log_path.exists():
            print(f"referee-kiosk backup: no event log at {settings.log_path}", file=sys.stderr)
            return 1
        print(backup(settings.log_path, args.out))
        return 0
    if args.check_config:
        return _check_config(args.check_config)
    headless = _headless_needed(args.kiosk)
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        print("referee-kiosk: no screen found — rendering headless (SDL dummy driver); "
              "use --screenshot FILE or the control socket to see it", flush=True)
    from kiosk.app import App
    from kiosk.hardware import open_hardware
    from kiosk.notify import Notifier
    from kiosk.store import EventLog

    log = EventLog(settings.log_path)
    notifier = Notifier()
    app = App(settings, log, kiosk_mode=args.kiosk, headless=headless, heartbeat=notifier.beat,
              wake_every_s=notifier.interval)
    print(f"referee-kiosk: event log {settings.log_path}", flush=True)
    control = (args.control or settings.data_dir / "control.sock") if args.sim else None
    hardware = open_hardware(app, args.config, args.sim, control)
    app.reader_seats = hardware.reader_seats
    app.key_handler = hardware.key
    if hardware.config is not None:  # the admin test screens and the CSV export name the config's seats and table
        app.seats = [seat.name for seat in hardware.config.seats]
        app.table_name = hardware.config.name
    try:
        cafe_config = _cafe_config(args, hardware.config.cafe if hardware.config else None)
    except ValueError as error:
        hardware.close()
        parser.error(str(error))
    if cafe_config is not None:
        from kiosk.cafe_link import CafeLink

        app.cafe = CafeLink(app, cafe_config).start()
        print(f"referee-kiosk: café {cafe_config.cafe!r}, table {cafe_config.table!r}, "
              f"broker {cafe_config.host}:{cafe_config.port}", flush=True)
    if control is not None:
        print(f"referee-kiosk: simulated table; control socket {control}", flush=True)
    if args.frames:
        for _ in range(args.frames):
            app.step(max_wait_ms=50)
        if args.screenshot:
            app.screenshot(args.screenshot)
            print(f"referee-kiosk: screenshot {args.screenshot}", flush=True)
        if app.cafe is not None:
            app.cafe.stop()
        return 0
    try:
        return app.run()
    finally:
        notifier.stopping()
        if app.cafe is not None:
            app.cafe.stop()
        hardware.close()


def _cafe_config(args: argparse.Namespace, configured: CafeLinkConfig | None) -> CafeLinkConfig | None:
    """[cafe] from the config, with --cafe-broker/--cafe/--table on top (a laptop needs no config file)."""
    from dataclasses import replace

    from cafe.contract import check_id
    from cafe.settings import CafeLinkConfig, parse_broker

    if not (args.cafe_broker or args.cafe or args.table):
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
    return result


def _check_config(path: Path) -> int:
    """Print the verdict on a table config (hardware and [kiosk] sections); exit 0 when it loads."""
    from hw.config import check_config
    from kiosk import settings as settings_mod

    ok, messages = check_config(path)
    for line in messages:
        print(line)
    try:
        kiosk_settings = settings_mod.load(path)
    except (OSError, ValueError) as error:
        print(f"{path}: [kiosk]: {error}")
        return 1
    if kiosk_settings.pin_hash == settings_mod.DEFAULT_PIN_HASH:
        print(f"{path}: warning: [kiosk] admin_pin_hash is not set: the admin PIN is the default 1234")
    print(f"{path}: {'OK' if ok else 'NOT OK'}")
    return 0 if ok else 1


def _export(settings, args) -> int:
    from kiosk.store import EventLog

    log = EventLog(settings.log_path)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.csv:
        from hw.config import load as load_table
        from kiosk.export import export

        table = load_table(args.config).name if args.config else "table"
        path, _ = export(log, args.out, table)
        print(path)
    count = 0
    for record in log.games():
        if args.game is not None and record.id != args.game:
            continue
        path = args.out / f"game-{record.id:05d}-{record.header['game']}.jsonl"
        with open(path, "w", encoding="utf-8") as out:
            log.export(record.id, out)
        print(path)
        count += 1
    if args.game is not None and count == 0:
        print(f"referee-kiosk export: no game {args.game} in {settings.log_path}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
