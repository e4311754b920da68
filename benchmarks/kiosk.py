"""How the kiosk performs: frame times per game screen, idle CPU, first frame, resume, memory.

    python benchmarks/kiosk.py [--idle-seconds 10] [--frames 200]

- frame p50/p99: one full redraw (view model + software render + flip) of each game's table
  screen mid-game, SDL dummy driver, at 800×480 and 1280×720
- idle CPU: a real `referee-kiosk` process on the menu (demo off), CPU seconds from /proc over the
  idle window, as % of one core
- first frame: process start until systemd's READY=1 arrives on a NOTIFY_SOCKET (sent after the
  first frame)
- resume: start-up of a kiosk whose log holds a game of 10,000 accepted events (Alles klar? with a
  10,004-card custom deck), until READY=1, and the replay alone in-process
- peak memory: the kiosk process's VmHWM
Nothing is asserted; the figures are printed.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["SDL_VIDEODRIVER"] = "dummy"

from kiosk import games as game_uis  # noqa: E402
from kiosk.app import App  # noqa: E402
from kiosk.controller import TableController  # noqa: E402
from kiosk.screens.table import TableScreen  # noqa: E402
from kiosk.settings import Settings  # noqa: E402
from kiosk.store import EventLog  # noqa: E402
from referee import sim  # noqa: E402
from referee.table import FORMAT, Referee  # noqa: E402


def frame_times(game_id: str, size: tuple[int, int], frames: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=pathlib.Path(tmp), demo_after_s=0, width=size[0], height=size[1])
        app = App(settings, None, headless=True)
        table = sim.new_table(game_id, 11)
        referee = Referee(table.header)
        controller = TableController(referee, None, None)
        for i, event in enumerate(sim.play(table, Referee(table.header))):
            if i >= 12:
                break
            controller.submit(event)
        app.show(TableScreen(app, controller))
        times = []
        for _ in range(frames):
            t0 = time.perf_counter_ns()
            app.draw()
            times.append(time.perf_counter_ns() - t0)
        times.sort()
        return statistics.median(times) / 1e6, times[int(0.99 * (len(times) - 1))] / 1e6


def long_game_log(path: pathlib.Path, events: int = 10_000) -> None:
    """A real single game of `events` accepted plays: Alles klar? with a large custom deck."""
    faces = [f"AK:{v}" for v in range(1, 12)]
    deck = [faces[i % 11] for i in range(events + 4)]
    header = {"format": FORMAT, "game": "alles-klar", "players": ["Anna", "Ben"], "options": {"deck": deck}}
    referee = Referee(header)
    log = EventLog(path)
    row = log.new_game(header)
    rng = random.Random(1)
    log.db.execute("BEGIN")
    for _ in range(events):
        event = {"type": "play", "player": referee.turn, "card": rng.choice(faces)}
        while not referee.apply(event).ok:
            event["card"] = rng.choice(faces)
        log.db.execute("INSERT INTO events (game_id, seq, event, at) VALUES (?, ?, ?, 0)",
                       (row, len(referee.history), __import__("json").dumps(event)))
    log.db.execute("COMMIT")
    log.close()


def start_kiosk(data_dir: pathlib.Path, idle: float) -> dict:
    sock_path = data_dir / "notify.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(sock_path))
    server.settimeout(60)
    env = {**os.environ, "NOTIFY_SOCKET": str(sock_path), "SDL_VIDEODRIVER": "dummy"}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "--data-dir", str(data_dir), "--demo-after", "0"],
                            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not server.recv(4096).startswith(b"READY=1"):
            pass
        ready = time.perf_counter() - t0
        cpu = 0.0
        if idle > 0:
            ticks = os.sysconf("SC_CLK_TCK")

            def cpu_s() -> float:
                fields = pathlib.Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
                return (int(fields[11]) + int(fields[12])) / ticks

            start, c0 = time.perf_counter(), cpu_s()
            time.sleep(idle)
            cpu = (cpu_s() - c0) / (time.perf_counter() - start) * 100
        hwm = [line for line in pathlib.Path(f"/proc/{proc.pid}/status").read_text().splitlines()
               if line.startswith("VmHWM")][0].split()[1]
        return {"ready_s": ready, "idle_cpu_pct": cpu, "peak_mb": int(hwm) / 1024}
    finally:
        proc.kill()
        proc.wait()
        server.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--frames", type=int, default=200)
    args = parser.parse_args(argv)
    print("| screen | size | frame p50 ms | frame p99 ms |\n| --- | --- | --- | --- |")
    for game_id in [g for g in game_uis.available() if g in sim.registered()]:
        for size in [(800, 480), (1280, 720)]:
            p50, p99 = frame_times(game_id, size, args.frames)
            print(f"| {game_id} table | {size[0]}×{size[1]} | {p50:.2f} | {p99:.2f} |", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        fresh = start_kiosk(pathlib.Path(tmp), args.idle_seconds)
    with tempfile.TemporaryDirectory() as tmp:
        data = pathlib.Path(tmp)
        long_game_log(data / "events.sqlite3")
        t0 = time.perf_counter()
        log = EventLog(data / "events.sqlite3")
        TableController.resume(log)
        replay_s = time.perf_counter() - t0
        log.close()
        resumed = start_kiosk(data, 0)
    print()
    print(f"- first frame (process start to READY=1): {fresh['ready_s']:.2f} s")
    print(f"- idle CPU over {args.idle_seconds:g} s on the menu: {fresh['idle_cpu_pct']:.2f} % of one core")
    print(f"- peak memory (VmHWM), idle kiosk: {fresh['peak_mb']:.1f} MB")
    print(f"- resume a 10,000-event game: process start to READY=1 {resumed['ready_s']:.2f} s; "
          f"log read + replay alone {replay_s:.2f} s; peak memory {resumed['peak_mb']:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
