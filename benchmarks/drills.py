"""Operations drills: the real world thrown at a real `referee-kiosk --sim` process, figures printed.

    python -m benchmarks.drills [--kills 1000] [--stops 200] [--garbage 100000] [--mutations 1000] [--faults]
                                [--seed N]
    scripts/drill.sh            (the same, in the project's venv)

- kills: a game is driven through the control socket and the kiosk is SIGKILLed at a random moment, again
  and again; after each restart the screen must show exactly the log's replay and every event the screen
  had confirmed must be in the log. Figures: kills survived, events lost, restart time (start until the
  control socket answers) p50/p99.
- stops: the same game, but systemd's SIGTERM (or Ctrl-C's SIGINT) at a random moment: mid-scan, or after
  the kiosk was left idle up to 3 s (its loop asleep). It must end with status 0 at once (before half the idle
  loop's longest sleep) and lose no confirmed event. Figures: stops clean, events lost, signal → exit p50/p99.
- garbage: random bytes through a pseudo-terminal scanner (`raw`), random codes (`scan`) and random
  lines on the control socket, during a game. Figures: inputs sent, bad replies, crashes, RSS before/after.
- faults: the storage faults: a damaged log (truncated, garbage header, garbage pages, random bytes) must
  be moved aside with a notice; with root also a full disk (a 1 MiB tmpfs) that refuses with a verdict and
  heals, and a read-only data directory that shows the fault screen and recovers.
- mutations: random mutations of the example config (values, keys, tables, TOML syntax): each must be
  refused by `--check-config` with a line for every error, or accepted and start headless.

"crashes" counts kiosk processes that died without being killed, and tracebacks. Nothing is asserted
here: tests/test_drills.py runs a small size of each and asserts no loss and no crash.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from benchmarks.stats import percentile  # noqa: E402
from kiosk.eventlog.store import EventLog, effective_events  # noqa: E402
from kiosk.loop.frame_loop import IDLE_WAIT_MS  # noqa: E402
from referee import sim  # noqa: E402
from referee.table import Referee  # noqa: E402
from tests.damage import KINDS, damage  # noqa: E402
from tests.kiosk_process import KioskProcess  # noqa: E402
from tests.test_kiosk_e2e import SEATS, start_game  # noqa: E402

EXAMPLE = ROOT / "config" / "table.example.toml"


def rss_kib(pid: int) -> int:
    """The process's resident memory (VmRSS) in KiB, 0 if gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    m = re.search(r"^VmRSS:\s+(\d+) kB", text, re.M)
    return int(m.group(1)) if m else 0


def pct(values: list[float], q: float) -> float:
    """`q` as a fraction (0.99)."""
    return percentile(values, round(q * 100))


# --- kills -------------------------------------------------------------------------------------


def log_replay(data_dir: Path) -> tuple[dict | None, list[dict]]:
    log = EventLog(data_dir / "events.sqlite3")
    try:
        games = log.games()
        if not games:
            return None, []
        events = log.events(games[-1].id)
        referee = Referee(games[-1].header)
        kept = list(effective_events(events))
        for event in kept:
            referee.apply(event)
        return referee.state(), events
    finally:
        log.close()


def play_until_killed(kiosk: KioskProcess, events: list[dict], seat_of: dict[str, str], confirmed: int) -> int:
    """Scan the plan's events until the kiosk dies; the count of events it confirmed."""
    with contextlib.suppress(ConnectionError, OSError, TimeoutError, AssertionError, ValueError, KeyError):
        for event in events:
            kiosk.cmd("scan", code=event["card"], reader=seat_of[event["player"]])
            state = kiosk.wait(lambda s, n=confirmed + 1: s.get("events") == n or s.get("pending"))
            if state.get("events") != confirmed + 1:
                kiosk.touch(f"choose:{state['pending'].index(event['rank_choice'])}")
                kiosk.wait_events(confirmed + 1)
            confirmed += 1
    return confirmed


def resume_or_start(kiosk: KioskProcess, screen: dict, plan: list[dict], game_seed: int
                    ) -> tuple[int, list[dict], dict[str, str]]:
    """The game the kiosk came back to (`screen`: its events so far, `plan` goes on), or a new Alles klar? game
    with the simulator's plan of `game_seed`: (events done, the plan, each player's seat)."""
    if screen["screen"] == "table":
        done = screen["events"]
    else:
        names = start_game(kiosk, "alles-klar", 3)
        plan = list(sim.play(sim.get("alles-klar")(random.Random(game_seed), names)))
        done = 0
    return done, plan, dict(zip(kiosk.state()["state"]["scores"], SEATS, strict=False))


def missing_from_log(data: Path, plan: list[dict], confirmed: int) -> list[dict]:
    """The events of `plan` the screen had confirmed that the log does not hold."""
    _, logged = log_replay(data)
    return [e for e in plan[:confirmed] if e not in logged[:confirmed]]


def kill_drill(kills: int, seed: int = 1) -> dict:
    """SIGKILL the kiosk at random moments of a driven game; count what survives."""
    rng = random.Random(seed)
    restarts: list[float] = []
    lost = mismatched = crashes = survived = 0
    plan: list[dict] = []
    game_seed = seed * 1000
    with tempfile.TemporaryDirectory(prefix="drill-kills-") as tmp:
        data = Path(tmp)
        for _ in range(kills):
            began = time.monotonic()
            kiosk = KioskProcess(data)
            try:
                screen = kiosk.state()
                restarts.append(time.monotonic() - began)
                expected, _ = log_replay(data)
                if screen["screen"] == "table":
                    mismatched += screen["state"] != expected
                else:
                    game_seed += 1
                done, plan, seat_of = resume_or_start(kiosk, screen, plan, game_seed)
                killer = threading.Timer(rng.uniform(0.0, 0.15), kiosk.proc.kill)
                killer.start()
                confirmed = play_until_killed(kiosk, plan[done:], seat_of, done)
                killer.join()
                code = kiosk.proc.wait()
                if code != -signal.SIGKILL:
                    crashes += 1  # it ended by itself (the game ran out before the kill is fine: see below)
                missing = missing_from_log(data, plan, confirmed)
                lost += len(missing)
                survived += not missing
            finally:
                kiosk.close()
    return {"drill": "SIGKILL at random moments", "runs": kills, "ok": survived, "lost": lost,
            "crashes": crashes, "mismatched": mismatched,
            "restart p50 s": pct(restarts, 0.5), "restart p99 s": pct(restarts, 0.99)}


def stop_once(data: Path, rng: random.Random, plan: list[dict], game_seed: int) -> tuple[list[dict], dict]:
    """One run of the stop drill: resume or start a game, scan, then SIGTERM/SIGINT mid-scan or after idling."""
    kiosk = KioskProcess(data)
    try:
        done, plan, seat_of = resume_or_start(kiosk, kiosk.state(), plan, game_seed)
        signum = rng.choice([signal.SIGTERM, signal.SIGINT])
        idle = rng.random() < 0.3
        took: list[float] = []

        def stop() -> None:
            """The signal, then the time until the process is gone (the driver may still wait on its socket)."""
            sent = time.monotonic()
            kiosk.proc.send_signal(signum)
            with contextlib.suppress(subprocess.TimeoutExpired):
                kiosk.proc.wait(timeout=10)
                took.append(time.monotonic() - sent)

        if idle:
            confirmed = play_until_killed(kiosk, plan[done:done + rng.randint(0, 3)], seat_of, done)
            time.sleep(rng.uniform(0.0, 3.0))  # left alone: the loop sleeps until something is due
            stop()
        else:
            stopper = threading.Timer(rng.uniform(0.0, 0.15), stop)
            stopper.start()
            confirmed = play_until_killed(kiosk, plan[done:], seat_of, done)
            stopper.join()
        code = kiosk.proc.poll()
    finally:
        kiosk.close()
    missing = missing_from_log(data, plan, confirmed)
    # At once: well before the idle loop's own wake-up would have noticed (SDL's QUIT came only at a pump).
    stopped_in = took[0] if took else float("inf")
    return plan, {"clean": code == 0 and stopped_in < IDLE_WAIT_MS / 2000, "lost": len(missing),
                  "took": stopped_in, "code": code}


def stop_drill(stops: int, seed: int = 5) -> dict:
    """SIGTERM or SIGINT at random moments of a driven game or of an idle kiosk; it must stop cleanly, at once."""
    rng = random.Random(seed)
    plan: list[dict] = []
    runs: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="drill-stops-") as tmp:
        for i in range(stops):
            plan, run = stop_once(Path(tmp), rng, plan, seed * 1000 + i)
            runs.append(run)
    took = [r["took"] for r in runs if r["code"] is not None]
    return {"drill": "SIGTERM / SIGINT at random moments", "runs": stops, "ok": sum(r["clean"] for r in runs),
            "lost": sum(r["lost"] for r in runs), "crashes": sum(r["code"] not in (0, None) for r in runs),
            "not stopped": sum(r["code"] is None for r in runs),
            "stop p50 s": pct(took, 0.5), "stop p99 s": pct(took, 0.99)}


# --- garbage -----------------------------------------------------------------------------------


def _garbage_line(rng: random.Random) -> bytes:
    kind = rng.randrange(5)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b" ")
    if kind == 1:
        return b"[" * rng.randrange(1, 200_000)
    if kind == 2:  # (screenshot paths: relative ones are refused; "/nonexistent/…" cannot be written)
        return json.dumps({"cmd": rng.choice(["touch", "screenshot", "tap", "press", "scan", "raw", "type", "x"]),
                           rng.choice(["action", "path", "seat", "code", "hex", "t_ns"]):
                           rng.choice([None, 1e308, -1, "choose:x", "/nonexistent/x.png", [], {}, "zz", 2**70])
                           }).encode()
    if kind == 3:
        return json.dumps([rng.random() for _ in range(rng.randrange(5))]).encode()
    return b'{"cmd": "touch", "action": "' + os.urandom(6).hex().encode() + b'"}'


def garbage_drill(count: int, seed: int = 2) -> dict:
    """Random scanner bytes, random codes and random control lines during a game."""
    rng = random.Random(seed)
    sent = bad_replies = crashes = 0
    with tempfile.TemporaryDirectory(prefix="drill-garbage-") as tmp:
        kiosk = KioskProcess(Path(tmp))
        try:
            names = start_game(kiosk, "alles-klar", 3)
            seat_of = dict(zip(names, SEATS, strict=False))
            before = rss_kib(kiosk.proc.pid)
            readers = [*seat_of.values(), "table"]
            for i in range(count):
                if kiosk.proc.poll() is not None:
                    crashes += 1
                    break
                kind = i % 3
                try:
                    if kind == 0:
                        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
                        reply = kiosk.send_raw({"cmd": "raw", "reader": rng.choice(readers), "hex": data.hex()})
                        bad_replies += not reply.get("ok")
                    elif kind == 1:
                        code = "".join(rng.choice("AKCMOPS0123456789:.#-_ XZ") for _ in range(rng.randrange(1, 30)))
                        reply = kiosk.send_raw({"cmd": "scan", "reader": rng.choice(readers), "code": code})
                        bad_replies += not reply.get("ok")
                    else:
                        reply = kiosk.send_line(_garbage_line(rng))
                        bad_replies += reply is None or "ok" not in reply
                    sent += 1
                except (ConnectionError, OSError):
                    crashes += 1
                    break
            alive = kiosk.proc.poll() is None and bool(kiosk.state().get("ok"))
            after = rss_kib(kiosk.proc.pid)
        except (ConnectionError, OSError):
            alive, after = False, 0
        finally:
            kiosk.close()
            last_log = kiosk.stderr_text()[-1500:] if crashes or not alive else ""
    row = {"drill": "garbage scans and control lines", "runs": count, "ok": sent, "lost": 0,
           "crashes": crashes + (not alive and not crashes), "bad replies": bad_replies, "RSS before KiB": before,
           "RSS after KiB": after}
    if last_log:
        row["kiosk's last words"] = last_log
    return row


# --- storage faults ----------------------------------------------------------------------------


def fault_drill(seed: int = 3) -> dict:
    """Every storage fault once: the kiosk must stay up and say what is wrong (root adds full and read-only)."""
    rng = random.Random(seed)
    results: dict[str, bool] = {}
    for kind in KINDS:
        with tempfile.TemporaryDirectory(prefix="drill-fault-") as tmp:
            data = Path(tmp)
            kiosk = KioskProcess(data)
            start_game(kiosk, "alles-klar", 3)
            kiosk.close()
            damage(data / "events.sqlite3", kind, rng)
            kiosk = KioskProcess(data)
            try:
                state = kiosk.state()
                ok = state["screen"] == "storage-fault" and state["fault"] is None and \
                    kiosk.touch("ok")["screen"] == "menu" and any(data.glob("events.sqlite3.corrupt-*"))
            except (AssertionError, KeyError, ConnectionError, OSError):
                ok = False
            finally:
                kiosk.close()
            results[f"damaged log ({kind})"] = ok
    if os.geteuid() == 0 and shutil.which("mount"):
        results["full disk"] = _full_disk()
        results["read-only data dir"] = _read_only()
    ok = sum(results.values())
    return {"drill": "storage faults", "runs": len(results), "ok": ok, "lost": 0, "crashes": len(results) - ok,
            "faults": ", ".join(f"{k}: {'ok' if v else 'FAILED'}" for k, v in results.items())}


@contextlib.contextmanager
def _tmpfs(path: Path, options: str):
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def _fill(directory: Path) -> None:
    for name, chunk in (("filler", b"\0" * 4096), ("filler-tail", b"\0")):
        with contextlib.suppress(OSError), open(directory / name, "wb", buffering=0) as out:
            while True:
                out.write(chunk)


def _full_disk() -> bool:
    verdict = "Storage full – call staff"
    with tempfile.TemporaryDirectory(prefix="drill-full-") as tmp, _tmpfs(Path(tmp) / "d", "size=1m") as data:
        kiosk = KioskProcess(data)
        try:
            names = start_game(kiosk, "alles-klar", 3)
            plan = list(sim.play(sim.get("alles-klar")(random.Random(5), names)))
            seat_of = dict(zip(names, SEATS, strict=False))
            _fill(data)
            done, refused = 0, False
            for event in plan:
                kiosk.cmd("scan", code=event["card"], reader=seat_of[event["player"]])
                state = kiosk.wait(lambda s, n=done + 1: s.get("events") == n or s.get("pending")
                                   or (s.get("feedback") or {}).get("text") == verdict)
                if state.get("pending"):
                    kiosk.touch(f"choose:{state['pending'].index(event['rank_choice'])}")
                    state = kiosk.wait(lambda s, n=done + 1: s.get("events") == n
                                       or (s.get("feedback") or {}).get("text") == verdict)
                if state["events"] == done:
                    refused = True
                    break
                done += 1
            for name in ("filler", "filler-tail"):
                (data / name).unlink()
            time.sleep(0.8)  # the scanner's dedupe window
            event = plan[done]
            kiosk.cmd("scan", code=event["card"], reader=seat_of[event["player"]])
            state = kiosk.wait(lambda s: s.get("events") == done + 1 or s.get("pending"))
            if state.get("pending"):
                kiosk.touch(f"choose:{state['pending'].index(event['rank_choice'])}")
            kiosk.wait_events(done + 1)
            return refused and kiosk.proc.poll() is None
        except (AssertionError, TimeoutError, ConnectionError, OSError, KeyError, IndexError):
            return False
        finally:
            kiosk.close()


def _read_only() -> bool:
    with tempfile.TemporaryDirectory(prefix="drill-ro-") as tmp, _tmpfs(Path(tmp) / "d", "size=1m,ro") as data:
        control = Path(tmp) / "c.sock"
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
        env.pop("NOTIFY_SOCKET", None)
        proc = subprocess.Popen([sys.executable, "-m", "kiosk", "--sim", "--data-dir", str(data), "--control",
                                 str(control), "--demo-after", "0"], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, cwd=ROOT)
        try:
            def state() -> dict:
                import socket

                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                    sock.settimeout(10)
                    sock.connect(str(control))
                    sock.sendall(b'{"cmd": "state"}\n')
                    return json.loads(sock.makefile("rb").readline())

            shown = _until(lambda: state().get("screen") == "storage-fault")
            subprocess.run(["mount", "-o", "remount,rw", str(data)], check=True)
            back = _until(lambda: state().get("screen") == "menu")
            return shown and back and proc.poll() is None
        finally:
            proc.terminate()
            proc.wait(30)


def _until(predicate: Callable[[], bool], timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, ValueError):
            if predicate():
                return True
        time.sleep(0.1)
    return False


# --- config mutations --------------------------------------------------------------------------

VALUES = ['"de"', '"en"', '"klingon"', "5", "-1", "0", "27", "28", "nan", "inf", "1e308", "true", '""', '"/dev/x"',
          '"rel/port"', "[1, 2]", "[800, 480]", "[]", "{}", '{ confirm = "x" }', "1979-05-27", '"up"', '"none"',
          '"high"', '"sim"', '"wedge"', '"CRLF"', "9600", "115200", "0.5", '"pbkdf2_sha256$1000$s$' + "0" * 64 + '"']
KEY = re.compile(r"^(\s*)([A-Za-z_]+)(\s*=\s*)(.*)$")


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        keyed = [i for i, line in enumerate(lines) if KEY.match(line)] or [0]
        kind = rng.randrange(7)
        i = rng.choice(keyed)
        m = KEY.match(lines[i]) if lines else None
        if kind in (0, 1) and m:
            lines[i] = f"{m.group(1)}{m.group(2)}{m.group(3)}{rng.choice(VALUES)}"
        elif kind == 2 and lines:
            del lines[rng.randrange(len(lines))]
        elif kind == 3:
            lines.insert(rng.randrange(len(lines) + 1), f"{rng.choice(['x', 'admin_pin', 'port', 'seat'])} = "
                                                        f"{rng.choice(VALUES)}")
        elif kind == 4 and m:
            lines[i] = f"{m.group(1)}{rng.choice(['baud', 'language', 'slap', 'pull', 'typo'])}{m.group(3)}" \
                       f"{m.group(4)}"
        elif kind == 5 and lines:
            j = rng.randrange(len(lines))
            k = rng.randrange(len(lines[j]) + 1)
            lines[j] = lines[j][:k] + rng.choice("[]{}=\"'#,.\\ \t\n" + chr(rng.randrange(32, 0x3000))) + lines[j][k:]
        elif lines:
            headers = [n for n, line in enumerate(lines) if line.startswith("[")] or [0]
            lines[rng.choice(headers)] = rng.choice(["[kiosk]", "[seats.x]", "[[seats]]", "[cafe]", "[table]"])
    return "\n".join(lines) + "\n"


def mutation_drill(count: int, seed: int = 4) -> dict:
    """Random config mutations: refused with lines, or accepted and started — never a traceback."""
    from kiosk.__main__ import EX_CONFIG, main

    rng = random.Random(seed)
    example = EXAMPLE.read_text()
    accepted = refused = crashes = unlined = 0
    root = logging.getLogger()
    handlers, level, hook = list(root.handlers), root.level, sys.excepthook
    try:
        for _ in range(count):
            text = mutate(example, rng)
            with tempfile.TemporaryDirectory(prefix="drill-config-") as tmp:
                path = Path(tmp) / "table.toml"
                path.write_text(text, encoding="utf-8", errors="surrogatepass")
                out = io.StringIO()
                try:
                    with redirect_stdout(out):
                        code = main(["--check-config", str(path), "--log-level", "critical"])
                    start = ["--config", str(path), "--data-dir", str(Path(tmp) / "d"), "--log-level", "critical",
                             "--frames", "2"]
                    if code == 0:
                        started = main(["--sim", "--control", str(Path(tmp) / "c.sock"), *start]) == 0
                        accepted += started
                        crashes += not started
                    else:
                        lines = [ln for ln in out.getvalue().splitlines()[:-1] if ": warning: " not in ln]
                        unlined += not lines or not all(re.match(rf"{re.escape(str(path))}:\d+: ", ln)
                                                        for ln in lines)
                        refused += main(start) == EX_CONFIG
                except Exception:
                    crashes += 1
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        sys.excepthook = hook
    return {"drill": "config mutations", "runs": count, "ok": accepted + refused - unlined, "lost": 0,
            "crashes": crashes, "accepted+started": accepted, "refused with lines": refused - unlined,
            "errors without a line": unlined}


# --- the table ---------------------------------------------------------------------------------


def print_table(rows: list[dict]) -> None:
    head = ["drill", "runs", "ok", "lost", "crashes"]
    print(f"{'drill':34} {'runs':>8} {'ok':>8} {'lost':>6} {'crashes':>8}  figures")
    for row in rows:
        extra = "; ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}"
                          for k, v in row.items() if k not in head)
        print(f"{row['drill']:34} {row['runs']:>8} {row['ok']:>8} {row['lost']:>6} {row['crashes']:>8}  {extra}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="drills", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--stops", type=int, default=200)
    parser.add_argument("--garbage", type=int, default=100_000)
    parser.add_argument("--mutations", type=int, default=1000)
    parser.add_argument("--no-faults", action="store_true", help="skip the storage faults")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = []
    started = time.monotonic()
    drills = [(args.kills, lambda: kill_drill(args.kills, args.seed)),
              (args.stops, lambda: stop_drill(args.stops, args.seed + 4)),
              (args.garbage, lambda: garbage_drill(args.garbage, args.seed + 1)),
              (not args.no_faults, lambda: fault_drill(args.seed + 2)),
              (args.mutations, lambda: mutation_drill(args.mutations, args.seed + 3))]
    for wanted, drill in drills:
        if wanted:
            rows.append(drill())
            print(f"  done: {rows[-1]}", file=sys.stderr, flush=True)  # a long run keeps what it measured
    print_table(rows)
    print(f"({time.monotonic() - started:.0f} s; medians and p99 over the runs; RSS of the kiosk process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
