"""How the kiosk performs: frame times per game screen, latencies, idle CPU, first frame, resume, memory.

    python -m benchmarks.kiosk [--idle-seconds 20] [--frames 200] [--touches 150] [--games 6] [--quiet-scans 40]
                                [--idle-only]

- frame p50/p99: one full redraw (view model + software render of the whole view + flip) of each
  game's table screen mid-game, SDL dummy driver, at 800×480 and 1280×720 (goal p99 <= 8 ms at 1280×720)
- scan → verdict drawn: a scan handed to the running loop from another thread (as the scanner
  threads do) until the frame showing its verdict is flipped; the scans alternate so that each one
  changes the verdict on screen (the renderer draws only what changed: a repeated verdict would be
  an empty frame), and the run fails if a scan's frame drew nothing
- scan → verdict, accepted: whole simulated Die magische 7 games (3 players) scanned card by card into the
  running loop, no log (the log's fsync is the café benchmark's); every verdict, hint and seat is new
  text, so the renderer fits and renders words it has not cached and most frames are drawn whole
- scan → verdict after a quiet spell: the same rejections, each after the audio device closed (no cue for
  `SLEEP_AFTER_S`), with SDL's disk audio driver, so the device really opens again for the scan's cue
- touch → frame: a touch (SDL mouse events posted from another thread at random moments, waking
  the loop as the touchscreen's evdev device does: `App.post_sdl`) until the frame it changed is
  flipped (goal p99 <= 17 ms, one 60 Hz frame)
- verdict → cue: `App.cue` until the cue's first sample reaches SDL's disk audio driver's file
  (goal <= 50 ms)
- idle CPU: a real `referee-kiosk` process on the menu (demo off), and one on a table screen mid-game
  left alone (a game resumed from its log), CPU seconds from /proc (schedstat) over the idle window (at least 20 s,
  after 12 s left alone, once the audio device has closed), as % of one core (goal <= 0.3 %); run as
  systemd runs it, with the unit's watchdog (`WatchdogSec` → `WATCHDOG_USEC`: the loop wakes to ping it)
- first frame: process start until systemd's READY=1 arrives on a NOTIFY_SOCKET (sent after the
  first frame)
- resume: start-up of a kiosk whose log holds a game of 10,000 accepted events (Alles klar? with a
  10,004-card custom deck), until READY=1, and the replay alone in-process
- peak memory: the kiosk process's VmHWM
Nothing is asserted; the figures are printed.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import pathlib
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

ROOT = pathlib.Path(__file__).resolve().parent.parent
T = TypeVar("T")  # what a run posts into the loop: a scanned code, a touch
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame  # noqa: E402

from benchmarks.stats import percentile  # noqa: E402
from hw.inputs import CardScan  # noqa: E402
from kiosk import games  # noqa: E402
from kiosk.app.app import App, post_sdl  # noqa: E402
from kiosk.app.audio import SLEEP_AFTER_S  # noqa: E402
from kiosk.app.controller import TableController  # noqa: E402
from kiosk.eventlog.store import EventLog  # noqa: E402
from kiosk.screens.table import TableScreen  # noqa: E402
from kiosk.settings.settings import Settings  # noqa: E402
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
        app.router.show(TableScreen(app.host, controller))
        times = []
        for _ in range(frames):
            app.display.renderer.invalidate()  # a whole redraw each time (the same view again would draw nothing)
            t0 = time.perf_counter_ns()
            app.loop.draw()
            times.append(time.perf_counter_ns() - t0)
        times.sort()
        return statistics.median(times) / 1e6, percentile(times, 99) / 1e6


class LoopTimer:
    """Runs the app's real loop on this thread; records when each frame was flipped and whether it drew
    anything (the renderer's regions: None for the whole screen, [] for nothing)."""

    def __init__(self, app: App):
        self.app = app
        self.flips: list[float] = []
        self.drew: list[bool] = []
        draw = app.loop.draw

        def timed_draw() -> None:
            draw()
            self.flips.append(time.perf_counter())
            self.drew.append(app.display.renderer.regions != [])

        app.loop.draw = timed_draw  # type: ignore[method-assign]

    def first_flip_after(self, t: float) -> float | None:
        return next((f for f in self.flips if f >= t), None)

    def latencies_ms(self, times: list[float]) -> list[float]:
        """From each of `times` to the first frame flipped after it, in ms (inputs no frame followed left out)."""
        return [(flip - t) * 1000 for t in times if (flip := self.first_flip_after(t)) is not None]

    def empty_frames_after(self, times: list[float]) -> int:
        """How many of the first frames after `times` drew nothing (the input changed no pixel)."""
        firsts = [next((i for i, f in enumerate(self.flips) if f >= t), None) for t in times]
        return sum(1 for i in firsts if i is not None and not self.drew[i])

    def run_until(self, done: threading.Event) -> None:
        while not done.is_set():
            self.app.loop.step()


def _percentiles(samples_ms: list[float]) -> str:
    samples_ms.sort()
    def p(q: float) -> float:
        return percentile(samples_ms, round(q * 100))

    return f"p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {samples_ms[-1]:.1f} ms (n={len(samples_ms)})"


def touch_and_scan_latency(touches: int) -> tuple[str, str]:
    """Touches (language button on the menu) and scans (rejected codes on a table, each verdict different from the
    one before: `_scan_latency`) into the running loop."""
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=pathlib.Path(tmp), demo_after_s=0, width=1280, height=720)
        app = App(settings, None, headless=True)
        timer = LoopTimer(app)
        app.loop.draw()
        x, y, w, h = app.loop.view.tagged("lang")[0].rect
        rng = random.Random(2)

        def touch(_: object) -> None:
            post_sdl(app.loop, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x + w // 2, y + h // 2), button=1))
            post_sdl(app.loop, pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x + w // 2, y + h // 2), button=1))

        touched = timer.latencies_ms(_post_into_loop(app, timer, range(touches), touch, rng))
        scan = _scan_latency(app, timer, touches, rng)
        app.audio.close()
        return _percentiles(touched), _percentiles(scan)


# Rejections that each change the verdict on screen, in turn: a code that is no card ("not in this game"), then
# the two Alles klar? cards laid before the run scanned again ("already on the table: scanned twice?", each
# naming its card). A card of another game's deck reads as the first ("not in this game"): not in the cycle.
LAID = ("AK:11.V", "AK:1.I")
REJECTED_IN_TURN = ("XX:NOT-A-CARD", *LAID)


def _alles_klar_with_two_cards(app: App) -> None:
    table = sim.new_table("alles-klar", 3)
    app.router.show(TableScreen(app.host, TableController(Referee(table.header), None, None)))
    for code in LAID:
        app.inbox.post(CardScan(code, "keyboard", time.monotonic_ns()))
        app.loop.step(max_wait_ms=0)


def _scan_latency(app: App, timer: LoopTimer, scans_n: int, rng: random.Random) -> list[float]:
    """Scans into the running loop on an Alles klar? table where two cards lie: each scan rejected, each verdict
    different from the one before it; the time from the post to the first frame flipped after it."""
    _alles_klar_with_two_cards(app)
    scans = _scan_into_loop(app, timer, list(itertools.islice(itertools.cycle(REJECTED_IN_TURN), scans_n)), rng)
    empty = timer.empty_frames_after(scans)
    if empty:
        raise RuntimeError(f"{empty} of {len(scans)} scans changed nothing on screen: the figure would time "
                           "empty frames")
    return timer.latencies_ms(scans)


def quiet_scan_latency(samples: int) -> str:
    """Rejected scans into the running loop, each after the audio device was closed for quiet (`Sounds.tick`
    past `SLEEP_AFTER_S`), with SDL's disk driver: the scan's cue needs the device opened again."""
    with tempfile.TemporaryDirectory() as tmp, _disk_audio(pathlib.Path(tmp) / "audio.raw"):
        settings = Settings(data_dir=pathlib.Path(tmp), demo_after_s=0, width=1280, height=720)
        app = App(settings, None, headless=True)
        if not app.audio.available:
            return "no audio (disk driver unavailable)"
        timer = LoopTimer(app)
        _alles_klar_with_two_cards(app)
        rng = random.Random(3)
        latencies: list[float] = []
        for code in itertools.islice(itertools.cycle(REJECTED_IN_TURN), samples):
            while pygame.mixer.get_init() and pygame.mixer.get_busy():  # the last cue ends before the quiet
                time.sleep(0.02)
            app.audio.tick(time.monotonic() + SLEEP_AFTER_S + 1)
            latencies += timer.latencies_ms(_scan_into_loop(app, timer, [code], rng))
        app.audio.close()
        return _percentiles(latencies)


def accepted_scan_latency(games: int) -> str:
    """Each card of `games` simulated Die magische 7 games scanned into the running loop at random moments
    (30–80 ms apart, the game's own order, so every scan is accepted or asks nothing), until the frame showing
    its verdict is flipped."""
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=pathlib.Path(tmp), demo_after_s=0, width=1280, height=720)
        app = App(settings, None, headless=True)
        timer = LoopTimer(app)
        rng = random.Random(7)
        latencies: list[float] = []
        for _ in range(games):
            table = sim.new_table("magische-7", 3)
            cards = [e["card"] for e in sim.play(table, Referee(table.header))]
            referee = Referee(table.header)
            app.router.show(TableScreen(app.host, TableController(referee, None, None)))
            app.loop.step(max_wait_ms=0)
            sent = _scan_into_loop(app, timer, cards, rng)
            if len(referee.history) != len(cards):
                raise RuntimeError(f"{len(cards) - len(referee.history)} of {len(cards)} scans were not accepted")
            latencies += timer.latencies_ms(sent)
        app.audio.close()
        return _percentiles(latencies)


def _scan_into_loop(app: App, timer: LoopTimer, codes: list[str], rng: random.Random) -> list[float]:
    """Scans `codes` as the scanner threads do; returns when each was posted."""
    return _post_into_loop(app, timer, codes,
                           lambda code: app.inbox.post(CardScan(code, "keyboard", time.monotonic_ns())), rng)


def _post_into_loop(app: App, timer: LoopTimer, items: Iterable[T], post: Callable[[T], None], rng: random.Random
                    ) -> list[float]:
    """`post`s each of `items` from another thread, 30–80 ms apart, while the loop runs here; returns when each
    was posted."""
    done = threading.Event()
    sent: list[float] = []

    def poster() -> None:
        for item in items:
            time.sleep(rng.uniform(0.03, 0.08))
            sent.append(time.perf_counter())
            post(item)
        time.sleep(0.1)
        done.set()
        app.loop.waker.wake()  # the loop may sleep until a verdict fades: it sees `done` now

    thread = threading.Thread(target=poster)
    thread.start()
    timer.run_until(done)
    thread.join()
    return sent


@contextlib.contextmanager
def _disk_audio(path: pathlib.Path) -> Iterator[None]:
    """SDL's disk audio driver writing to `path` while inside (a fresh mixer on each side), then the driver set
    before: the kiosk processes started later must not inherit a file in a deleted directory."""
    before = {name: os.environ.get(name) for name in ("SDL_AUDIODRIVER", "SDL_DISKAUDIOFILE")}
    os.environ.update(SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(path))
    pygame.mixer.quit()
    try:
        yield
    finally:
        pygame.mixer.quit()
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def cue_latency(repeats: int = 20) -> str:
    """`App.cue` until its first sample is in the disk audio driver's output file."""
    with tempfile.TemporaryDirectory() as tmp, _disk_audio(pathlib.Path(tmp) / "audio.raw"):
        wav = pathlib.Path(tmp) / "audio.raw"
        settings = Settings(data_dir=pathlib.Path(tmp), demo_after_s=0)
        app = App(settings, None, headless=True)
        if not app.audio.available:
            return "no audio (disk driver unavailable)"
        out = []
        with open(wav, "rb") as handle:
            for _ in range(repeats):
                time.sleep(0.6)  # the last cue has ended
                handle.seek(0, os.SEEK_END)
                t0 = time.perf_counter()
                app.host.cue("accepted")
                while time.perf_counter() - t0 < 1:
                    chunk = handle.read()
                    if chunk and any(chunk[: len(chunk) // 2 * 2]):
                        out.append((time.perf_counter() - t0) * 1000)
                        break
                    time.sleep(0.0005)
        app.audio.close()
        return _percentiles(out)


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


SETTLE_S = 12.0  # an idle kiosk: nobody touched it for this long before the measurement starts


def watchdog_seconds() -> int:
    """The kiosk unit's `WatchdogSec=`, which systemd hands to the kiosk as `WATCHDOG_USEC`."""
    unit = (ROOT / "systemd" / "referee-kiosk.service").read_text()
    return int(next(line.split("=", 1)[1] for line in unit.splitlines() if line.startswith("WatchdogSec=")))


def cpu_seconds(pid: int) -> float:
    """CPU time of all of a process's threads: the scheduler's nanoseconds (`schedstat`), not /proc/stat's 10 ms
    ticks, which an idle kiosk's few wake-ups in 20 s hit or miss by chance."""
    total = 0
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def start_kiosk(data_dir: pathlib.Path, idle: float) -> dict:
    sock_path = data_dir / "notify.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(sock_path))
    server.settimeout(60)
    env = {**os.environ, "NOTIFY_SOCKET": str(sock_path), "SDL_VIDEODRIVER": "dummy",
           "WATCHDOG_USEC": str(watchdog_seconds() * 1_000_000)}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "--data-dir", str(data_dir), "--demo-after", "0"],
                            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while not server.recv(4096).startswith(b"READY=1"):
            pass
        ready = time.perf_counter() - t0
        cpu = 0.0
        if idle > 0:
            def cpu_s() -> float:
                return cpu_seconds(proc.pid)

            time.sleep(SETTLE_S)  # left alone: the audio device has closed (kiosk/app/audio.py SLEEP_AFTER_S)
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


def game_in_progress_log(path: pathlib.Path, events: int = 6) -> None:
    """A log whose game is in progress (`events` accepted): the kiosk resumes to its table screen."""
    table = sim.new_table("magische-7", 2)
    log = EventLog(path)
    row = log.new_game(table.header)
    for event in list(sim.play(table))[:events]:
        log.append(row, event)
    log.close()


def idle_cpu(seconds: float) -> tuple[float, float]:
    """% of one core of an idle kiosk process: on the menu, and on a table screen mid-game left alone."""
    with tempfile.TemporaryDirectory() as tmp:
        menu = start_kiosk(pathlib.Path(tmp), seconds)["idle_cpu_pct"]
    with tempfile.TemporaryDirectory() as tmp:
        game_in_progress_log(pathlib.Path(tmp) / "events.sqlite3")
        table = start_kiosk(pathlib.Path(tmp), seconds)["idle_cpu_pct"]
    return menu, table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--touches", type=int, default=150)
    parser.add_argument("--quiet-scans", type=int, default=40, help="scans each after the audio device closed")
    parser.add_argument("--games", type=int, default=6, help="Die magische 7 games scanned for accepted scans")
    parser.add_argument("--idle-only", action="store_true", help="only the idle CPU figures")
    args = parser.parse_args(argv)
    if args.idle_only:
        menu, table = idle_cpu(args.idle_seconds)
        print(f"- idle CPU over {args.idle_seconds:g} s: menu {menu:.2f} %, table mid-game {table:.2f} % of one core")
        return 0
    print("| screen | size | frame p50 ms | frame p99 ms |\n| --- | --- | --- | --- |")
    for game_id in [g for g in games.ids() if g in sim.ids()]:
        for size in [(800, 480), (1280, 720)]:
            p50, p99 = frame_times(game_id, size, args.frames)
            print(f"| {game_id} table | {size[0]}×{size[1]} | {p50:.2f} | {p99:.2f} |", flush=True)
    touch, scan = touch_and_scan_latency(args.touches)
    print()
    print(f"- touch → frame flipped (1280×720, loop running): {touch}", flush=True)
    print(f"- scan → verdict frame flipped (1280×720): {scan}", flush=True)
    print(f"- scan → verdict, accepted, new words each time (1280×720, {args.games} Die magische 7 games): "
          f"{accepted_scan_latency(args.games)}", flush=True)
    print(f"- verdict → cue's first sample (SDL disk audio driver): {cue_latency()}", flush=True)
    print(f"- scan → verdict after a quiet spell (the audio device closed, SDL disk driver): "
          f"{quiet_scan_latency(args.quiet_scans)}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        fresh = start_kiosk(pathlib.Path(tmp), 0)
    menu, table = idle_cpu(args.idle_seconds)
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
    print(f"- idle CPU over {args.idle_seconds:g} s: on the menu {menu:.2f} %, on a table screen mid-game left "
          f"alone {table:.2f} % of one core")
    print(f"- peak memory (VmHWM), idle kiosk: {fresh['peak_mb']:.1f} MB")
    print(f"- resume a 10,000-event game: process start to READY=1 {resumed['ready_s']:.2f} s; "
          f"log read + replay alone {replay_s:.2f} s; peak memory {resumed['peak_mb']:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
