"""Does the café publisher slow the table down? Scan → verdict drawn, publisher off / on (broker up) / on (broker down).

    python -m benchmarks.cafe [--events 600] [--rounds 3]

In-process, as the kiosk runs: a real App (SDL dummy driver, 800×480) on a real
event log (SQLite, synchronous FULL, in a temporary folder), a scan posted as
the scanner thread would, then one loop step: the referee's verdict, the log
commit (and its café record), the redraw and flip. Timed from the post to the
end of the step. "on" runs the real publisher thread against Debian's mosquitto
on a free loopback port; "broker down" is the same with the broker stopped (the
publisher retries in the background, the screen shows "café offline"). Then the
idle CPU of a real kiosk process on the menu without and with the café. The
configurations take turns scan by scan, so the machine's noise hits all alike. Nothing is
asserted; the figures are printed (p50, p99, max in ms).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
os.environ["SDL_VIDEODRIVER"] = "dummy"

from benchmarks.stats import percentile  # noqa: E402
from cafe.config import CafeLinkConfig  # noqa: E402
from cafe.publisher import Publisher  # noqa: E402
from hw.inputs import CardScan  # noqa: E402
from kiosk.app.app import App  # noqa: E402
from kiosk.app.cafe_link import CafeLink  # noqa: E402
from kiosk.eventlog.store import EventLog  # noqa: E402
from kiosk.settings.settings import Settings  # noqa: E402
from referee import sim  # noqa: E402
from tests.mosquitto import Broker  # noqa: E402

GAME = "magische-7"
MODES = ("off", "on, broker up", "on, broker down")


class Bench:
    """One kiosk (App + log + maybe the café link) that plays scans and times each verdict."""

    def __init__(self, data_dir: pathlib.Path, broker: Broker | None):
        settings = Settings(data_dir=data_dir, demo_after_s=0, width=800, height=480)
        # In a café the log seals every record as it writes it: the modes with a broker pay for that too.
        self.app = App(settings, EventLog(settings.log_path, table=data_dir.name if broker else None), headless=True)
        if broker is not None:
            config = CafeLinkConfig(broker.host, broker.port, "bench", data_dir.name)
            self.app.cafe.link = CafeLink(config, self.app.records.log, self.app.inbox.post).start()
        self.seed = 0
        self.plan: list[dict] = []
        self.done = 0

    def _new_game(self) -> None:
        self.seed += 1
        table = sim.new_table(GAME, self.seed)
        players = table.players
        self.app.host.reader_seats = {p: p for p in players}
        self.app.router.start_game(GAME, players, players[-1], table.options, {p: p for p in players})
        self.plan = list(sim.play(table))
        self.done = 0
        self.app.loop.step(max_wait_ms=0)

    def scans(self, count: int) -> list[float]:
        times = []
        while len(times) < count:
            controller = getattr(self.app.router.screen, "controller", None)
            if controller is None or controller.finished or self.done >= len(self.plan):
                self._new_game()
                continue
            event = self.plan[self.done]
            if "card" not in event:  # not a scan (none in this game; kept for safety): apply it untimed
                controller.submit(event)
                self.done += 1
                continue
            t0 = time.perf_counter_ns()
            self.app.inbox.post(CardScan(event["card"], event["player"], time.monotonic_ns()))
            self.app.loop.step(max_wait_ms=0)
            times.append((time.perf_counter_ns() - t0) / 1e6)
            assert controller.feedback is not None and controller.feedback.ok, controller.feedback
            self.done += 1
        return times

    def publisher(self) -> Publisher:
        """This kiosk's café publisher (the link's)."""
        assert self.app.cafe.link is not None, "a bench with the café off has no publisher"
        return self.app.cafe.link.publisher

    def close(self) -> None:
        if self.app.cafe.link is not None:
            self.app.cafe.link.stop()
        self.app.records.log.close()


def idle_cpu(data_dir: pathlib.Path, extra: list[str], seconds: float) -> float:
    """% of one core a real `referee-kiosk` process uses idling on the menu (after 3 s to settle)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    env.pop("NOTIFY_SOCKET", None)
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "--data-dir", str(data_dir), "--demo-after", "0",
                             *extra], env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ticks = os.sysconf("SC_CLK_TCK")

    def cpu_s() -> float:
        fields = pathlib.Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks

    try:
        time.sleep(3)
        start, c0 = time.perf_counter(), cpu_s()
        time.sleep(seconds)
        return (cpu_s() - c0) / (time.perf_counter() - start) * 100
    finally:
        proc.kill()
        proc.wait()


def summary(times: list[float]) -> tuple[float, float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), percentile(ordered, 99), ordered[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=600, help="timed scans per configuration and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--idle-seconds", type=float, default=10.0, help="idle CPU window (0: skip)")
    parser.add_argument("--tmp", type=pathlib.Path, default=None,
                        help="where the logs live (e.g. /dev/shm: no fsync cost, only the CPU's share shows)")
    args = parser.parse_args(argv)
    random.seed(1)
    results: dict[str, list[float]] = {mode: [] for mode in MODES}
    published = 0
    idle: dict[str, float] = {}
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        root = pathlib.Path(tmp)
        broker = Broker(root / "mosquitto").start()
        benches = {MODES[0]: Bench(root / "off", None), MODES[1]: Bench(root / "up", broker)}
        down_broker = Broker(root / "mosquitto-down")  # never started: the publisher finds nobody there
        benches[MODES[2]] = Bench(root / "down", down_broker)
        try:
            for bench in benches.values():
                bench.scans(50)  # warm up: fonts, caches, the first connection
            for _ in range(args.rounds):
                for _ in range(args.events):  # scan by scan in turn, so machine noise hits all alike
                    for mode in MODES:
                        results[mode] += benches[mode].scans(1)
            if args.idle_seconds > 0:
                idle["off"] = idle_cpu(root / "idle-off", [], args.idle_seconds)
                idle["on"] = idle_cpu(root / "idle-on", ["--cafe-broker", broker.address, "--cafe", "bench",
                                                         "--table", "idle"], args.idle_seconds)
            up = benches[MODES[1]].publisher()
            deadline = time.monotonic() + 30
            while up.acked < benches[MODES[1]].app.records.log.last_n() and time.monotonic() < deadline:
                time.sleep(0.05)
            published = up.acked
            last_n = benches[MODES[1]].app.records.log.last_n()
            down = benches[MODES[2]].publisher()
            print(f"{GAME}, 800×480, logs in {args.tmp or tempfile.gettempdir()}, "
                  f"{args.rounds} rounds × {args.events} scans per configuration; "
                  f"broker up: {published}/{last_n} records acknowledged, online={up.online}; "
                  f"broker down: online={down.online}, acknowledged {down.acked}")
        finally:
            for bench in benches.values():
                bench.close()
            broker.stop()
    print_results(results, idle, args.idle_seconds)
    return 0


def print_results(results: dict[str, list[float]], idle: dict[str, float], idle_seconds: float) -> None:
    """The latency table per publisher mode, the p99 differences and the idle CPU."""
    print()
    print("| publisher | scans | p50 ms | p99 ms | max ms |\n| --- | --- | --- | --- | --- |")
    for mode in MODES:
        p50, p99, worst = summary(results[mode])
        print(f"| {mode} | {len(results[mode])} | {p50:.2f} | {p99:.2f} | {worst:.2f} |")
    base = summary(results[MODES[0]])[1]
    print()
    for mode in MODES[1:]:
        print(f"- p99 {mode} − off: {summary(results[mode])[1] - base:+.2f} ms")
    if idle:
        print(f"- idle kiosk on the menu over {idle_seconds:g} s: {idle['off']:.2f} % of one core without "
              f"the café, {idle['on']:.2f} % publishing to a broker")


if __name__ == "__main__":
    sys.exit(main())
