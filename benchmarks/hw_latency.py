"""Latency and idle cost of the hardware layer, measured on the real adapters.

    python -m benchmarks.hw_latency [--idle SECONDS] [--scans N] [--edges N] [--races N]

1. scan: last byte of a scan written to a pseudo-terminal → `CardScan` taken from the queue
   (the real `SerialScanner` thread, pyserial, blocking reads).
2. edge: a gpiozero mock pin's edge (its own tick) → `ButtonPress` taken from the queue.
   Mock callbacks run in the thread that drives the pin, so this is the cost of the
   hw path itself, not of a GPIO backend.
3. idle: CPU time of the whole process (every hw thread: scanner readers, control
   socket) over an idle period with the simulated table open, as % of one core.
4. races: two seats slap 0.05-3 ms apart; each seat's callbacks are delivered by its
   own thread (as backends do) while another thread keeps the CPU busy. The same
   presses are ranked by the time the callback ran ("naive") and by the edge time
   (`t_ns`); both are compared with the true edge order.
5. races with lights: the same, while four seat lights on the same pin factory blink
   and pulse (gpiozero's background threads writing the pins), as during an ALLE race.
6. lights: CPU time of four seat lights (mock pins) in each animated mode, % of one core.
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import resource
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from benchmarks.stats import percentile
from hw.buttons import ButtonBank, ButtonPin
from hw.inputs import CardScan
from hw.lights import LightPin, Mode, SeatLights
from hw.mockpins import timed_mock_factory
from hw.scanners import Framing, SerialScanner
from hw.sim import SimHardware


def pct(values: list[int], p: float) -> float:
    return percentile(values, p) / 1000  # µs


def report(name: str, lat_ns: list[int]) -> None:
    print(f"{name:<28} n={len(lat_ns):<6} p50={pct(lat_ns, 50):8.1f} µs  p99={pct(lat_ns, 99):8.1f} µs  "
          f"max={max(lat_ns) / 1000:8.1f} µs")


def bench_scans(n: int) -> list[int]:
    master, slave = os.openpty()
    tty.setraw(master)
    q: queue.Queue = queue.Queue()
    scanner = SerialScanner("bench", os.ttyname(slave), q, framing=Framing("CR"), dedupe_ms=0).start()
    assert scanner.connected.wait(10)
    lat = []
    try:
        for i in range(n):
            data = f"AK:{i % 13}.II#{1 + i % 3}\r".encode()
            os.write(master, data)
            t_written = time.monotonic_ns()
            item = q.get(timeout=10)
            t_ready = time.monotonic_ns()
            assert isinstance(item, CardScan), item
            lat.append(t_ready - t_written)
    finally:
        scanner.stop()
        os.close(master)
        os.close(slave)
    return lat


def bench_edges(n: int) -> list[int]:
    q: queue.Queue = queue.Queue()
    bank = ButtonBank([ButtonPin("A", "slap", 17)], q, pin_factory=MockFactory(), debounce_ms=0).open()
    pin = bank.pin("A", "slap")
    lat = []
    try:
        for _ in range(n):
            pin.drive_low()
            press = q.get(timeout=10)
            t_ready = time.monotonic_ns()
            lat.append(t_ready - round(pin._last_change * 1e9))
            assert press.t_ns == round(pin._last_change * 1e9)
            pin.drive_high()
    finally:
        bank.close()
    return lat


def bench_idle(seconds: float) -> float:
    with tempfile.TemporaryDirectory() as tmp, SimHardware(workdir=tmp) as sim:
        sim.serve(Path(tmp) / "ctl.sock")
        time.sleep(0.5)  # let the threads settle into their blocking reads
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        w0 = time.monotonic()
        time.sleep(seconds)
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        wall = time.monotonic() - w0
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return 100 * cpu / wall


def blinking_lights(bank: ButtonBank) -> SeatLights:
    """Four seat lights on the buttons' own pin factory, as on a Pi: two blink fast (the race), two pulse."""
    leds = SeatLights([LightPin(s, p) for s, p in zip("ABCD", (22, 23, 24, 25), strict=True)],
                      pin_factory=bank.pin_factory).open()
    leds.show({"A": Mode.BLINK, "B": Mode.BLINK, "C": Mode.PULSE, "D": Mode.FLASH})
    leds.wait_applied()
    return leds


def race(rng: random.Random, pins: dict, inbox: dict, q: queue.Queue, called_at: dict) -> tuple[bool, bool]:
    """Two seats pressed 0.05–3 ms apart: (wrong order by callback time, wrong order by edge time)."""
    first, second = rng.sample("AB", 2)
    gap_ns = rng.randint(50_000, 3_000_000)
    e1 = pins[first].drive_low(deliver=False)
    inbox[first].put(e1)
    t_end = time.monotonic_ns() + gap_ns
    while time.monotonic_ns() < t_end:
        pass
    e2 = pins[second].drive_low(deliver=False)
    inbox[second].put(e2)
    truth = [s for _, s in sorted([(e1[0], first), (e2[0], second)])]
    got = [q.get(timeout=10), q.get(timeout=10)]
    by_edge = [p.seat for p in sorted(got, key=lambda p: (p.t_ns, p.seat))]
    by_call = [p.seat for p in sorted(got, key=lambda p: called_at[p.seat, p.t_ns])]
    for s in "AB":
        inbox[s].put(pins[s].drive_high(deliver=False))
    time.sleep(0.01)  # released for longer than the debounce before the next race
    return by_call != truth, by_edge != truth


def bench_races(n: int, seed: int = 1, lights: bool = False) -> tuple[int, int]:
    """Returns (wrong orders by callback time, wrong orders by edge time); `lights`: with seat lights blinking."""
    rng = random.Random(seed)
    q: queue.Queue = queue.Queue()
    called_at: dict[tuple[str, int], int] = {}

    def sink(press):  # records when the callback ran, beside the press's own edge time
        called_at[press.seat, press.t_ns] = time.monotonic_ns()
        q.put(press)

    bank = ButtonBank([ButtonPin("A", "slap", 17), ButtonPin("B", "slap", 18)], sink,
                      pin_factory=timed_mock_factory(), debounce_ms=5).open()
    pins = {s: bank.pin(s, "slap") for s in "AB"}
    leds = blinking_lights(bank) if lights else None
    inbox = {s: queue.SimpleQueue() for s in "AB"}

    def alert_thread(seat):  # a backend's callback thread: gets the edge, runs the callback when it can
        pin = pins[seat]
        while (event := inbox[seat].get()) is not None:
            pin.deliver(event)

    stop = threading.Event()

    def hog():
        x = 0
        while not stop.is_set():
            x += 1

    threads = [threading.Thread(target=alert_thread, args=(s,), daemon=True) for s in "AB"]
    threads.append(threading.Thread(target=hog, daemon=True))
    for th in threads:
        th.start()
    wrong_naive = wrong_edge = 0
    try:
        for _ in range(n):
            naive, edge = race(rng, pins, inbox, q, called_at)
            wrong_naive += naive
            wrong_edge += edge
    finally:
        stop.set()
        for s in "AB":
            inbox[s].put(None)
        for th in threads:
            th.join(10)
        if leds is not None:
            leds.close()
        bank.close()
    return wrong_naive, wrong_edge


def bench_lights_cpu(seconds: float) -> dict[str, float]:
    """% of one core the process spends while four lights show each animated mode."""
    out = {}
    with SeatLights([LightPin(s, p) for s, p in zip("ABCD", (22, 23, 24, 25), strict=True)],
                    pin_factory=timed_mock_factory()) as leds:
        for mode in (Mode.BLINK, Mode.FLASH, Mode.PULSE, Mode.WAVE):
            leds.show(dict.fromkeys("ABCD", mode))
            leds.wait_applied()
            r0 = resource.getrusage(resource.RUSAGE_SELF)
            time.sleep(seconds)
            r1 = resource.getrusage(resource.RUSAGE_SELF)
            out[mode.value] = 100 * ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) / seconds
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=10.0, help="idle seconds for the CPU measurement (default 10)")
    parser.add_argument("--scans", type=int, default=1000)
    parser.add_argument("--edges", type=int, default=5000)
    parser.add_argument("--races", type=int, default=300)
    args = parser.parse_args(argv)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus")
    scans = bench_scans(args.scans)
    report("scan: pty byte -> CardScan", scans)
    edges = bench_edges(args.edges)
    report("edge: mock edge -> press", edges)
    naive, edge = bench_races(args.races)
    print(f"races with a busy thread      n={args.races}: wrong order by callback time {naive} "
          f"({100 * naive / args.races:.1f} %), by edge time {edge} ({100 * edge / args.races:.1f} %)")
    naive_lit, edge_lit = bench_races(args.races, lights=True)
    print(f"races, lights blinking      n={args.races}: wrong order by callback time {naive_lit} "
          f"({100 * naive_lit / args.races:.1f} %), by edge time {edge_lit} ({100 * edge_lit / args.races:.1f} %)")
    lit = bench_lights_cpu(max(1.0, args.idle / 4))
    print("lights (4, mock pins), CPU % of one core: " + ", ".join(f"{m} {v:.2f}" for m, v in lit.items()))
    idle = bench_idle(args.idle)
    print(f"idle CPU over {args.idle:g} s            {idle:.3f} % of one core (simulated table: 4 seats, "
          f"5 pty scanners, control socket)")
    ok = pct(scans, 99) < 2000 and edge == 0 and edge_lit == 0 and idle < 0.5
    print("aims (scan p99 < 2 ms, no wrong order from edge times, idle < 0.5 %):", "met" if ok else "NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
