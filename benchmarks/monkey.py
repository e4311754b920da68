"""The monkey drill (issue #22): guests who keep playing, tapping and scanning in every state the table can be in.

    python -m benchmarks.monkey [--inputs 20000] [--games alles-klar,…] [--sizes 800x480,1280x720,720x1280]
                                [--langs de,en] [--kill-every 300] [--seed N] [--jobs N]
    scripts/drill.sh monkey [the same options]

For each game, on a real `referee-kiosk --sim` process: whole games are played by the rules simulator
(`referee.sim`) through the simulated table, and between its moves random inputs are thrown at whatever
is on screen — the game's own cards from any seat (mostly the seat that may act, so a game that left the
simulator's plan still reaches its end), other games' cards, garbage codes, a touch of any button the
screen offers (held or not), the admin corner with a right and a wrong PIN (every admin screen but shut
down), seat button taps, holds and slaps, scanner unplug and replug. Every `--kill-every` inputs the kiosk
is SIGKILLed and started again (with another screen rotation every other time): the screen it comes back
to must be the log's replay, with every event it had shown accepted still there.

Every game runs at every screen size and in every language asked for (its own kiosk each, started with
`--size` and `--lang`; the simulator's moves are made in that language). Figures per run: inputs, games finished,
crashes (the process ended without our kill, or the guard exited it), errors logged (ERROR/CRITICAL lines,
tracebacks, errors the display loop's guard caught), texts the renderer cut or drew below their floor (issue #37:
it logs each once), warnings (guest mistakes, allowed), lost accepted events and resume mismatches. Nothing is
asserted here: tests/test_drills.py runs a small size at two sizes and asserts zeros.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from benchmarks.drills import log_replay  # noqa: E402
from kiosk import games  # noqa: E402
from kiosk.app.audio import SLEEP_AFTER_S  # noqa: E402
from referee import sim  # noqa: E402
from referee.table import Referee  # noqa: E402
from tests.kiosk_process import CUT_MARK, KioskProcess  # noqa: E402
from tests.test_kiosk_e2e import SEATS, play_event, set_options  # noqa: E402

PIN = "1234"  # the kiosk's default admin PIN (kiosk/settings/settings.py)
GARBAGE = ["", "XYZ", "AK:", "AK:99.IX", "M7:", "AO:??", "0000000000", "#1", "PS:joker#x", "AC:-1", "ÄÖÜ", "a" * 300]
NEVER = ("admin:shutdown", "admin:quit")  # shut down, and quit (--sim only): the entries the drill leaves alone
BACK = ("back", "no", "cancel", "race-done", "menu")  # ways back to the game a guest finds
ROTATIONS = (0, 90, 180, 270)
FREE_BUDGET = 800  # inputs a game off the plan gets to end by itself before the guests leave it for a new one



def game_state(state: dict) -> dict:
    """The game's public state in a `state` answer: a dict on the table screen; other screens use the key for
    their own word (the café screen's join state is a string), and give none here."""
    shown = state.get("state")
    return shown if isinstance(shown, dict) else {}

class Desync(Exception):
    """The kiosk took a different move than the simulator planned (a monkey's card was a legal one)."""


class Monkey(KioskProcess):
    """A kiosk process whose waits are short: a plan move the kiosk did not take is a desync, not a hang."""

    def wait(self, predicate, timeout: float = 3.0) -> dict[str, Any]:
        try:
            return super().wait(predicate, timeout)
        except TimeoutError as error:
            raise Desync(str(error)) from error

    def wait_events(self, count: int, timeout: float = 3.0) -> dict[str, Any]:
        return self.wait(lambda s: s.get("events") == count, timeout)  # (a race's own timer is waited longer)


@dataclass
class Figures:
    game: str
    size: str = "800x480"
    lang: str = "de"
    inputs: int = 0
    finished: int = 0
    crashes: int = 0
    errors: int = 0
    cuts: int = 0  # texts the renderer cut or drew too small (each logged once per process)
    warnings: int = 0
    lost: int = 0
    mismatches: int = 0
    kills: int = 0
    restarts: int = 0
    plan_moves: int = 0
    seconds: float = 0.0
    samples: list[str] = field(default_factory=list)  # the first lines of what went wrong

    def row(self) -> dict[str, Any]:
        return {"drill": f"monkey {self.game} {self.size} {self.lang}", "runs": self.inputs,
                "ok": self.inputs - self.crashes, "lost": self.lost, "crashes": self.crashes,
                "errors logged": self.errors, "cut texts": self.cuts,
                "resume mismatches": self.mismatches, "games finished": self.finished, "kills": self.kills,
                "restarts": self.restarts, "plan moves": self.plan_moves, "warnings": self.warnings,
                "s": round(self.seconds, 1), **({"first errors": " | ".join(self.samples[:3])} if self.samples else {})}


class Drill:
    def __init__(self, game_id: str, data: Path, seed: int, figures: Figures):
        self.game_id = game_id
        self.size, self.lang = figures.size, figures.lang
        self.data = data
        self.rng = random.Random(seed)
        self.figures = figures
        self.kiosk: Monkey | None = None
        self.rotation = 0
        self.plan: list[dict] = []
        self.done = 0  # plan moves the kiosk took, while in step with the plan
        self.synced = False
        self.names: list[str] = []
        self.seat_of: dict[str, str] = {}
        self.own_cards = _some_cards(game_id, 400)
        self.other_cards = [c for g in sim.ids() if g != game_id for c in _some_cards(g)]
        self.game_seed = seed * 1000
        self.unplugged: set[str] = set()
        self.free = 0  # inputs thrown at the current game since it left the plan

    # --- the kiosk's life

    def start(self) -> None:
        extra = ["--rotate", str(self.rotation)] if self.rotation else []
        self.kiosk = Monkey(self.data, extra=[*extra, "--size", self.size, "--lang", self.lang])
        self.kiosk.sock.settimeout(20)

    def end_of_life(self, killed: bool) -> None:
        """Count what the process left in its log lines; a death we did not cause is a crash."""
        kiosk = self.kiosk
        assert kiosk is not None
        code = kiosk.proc.poll()
        if not killed and code not in (None, 3):  # 3: the admin menu's Restart (systemd starts it again)
            self.figures.crashes += 1
            self.figures.samples.append(f"exit {code}: {kiosk.stderr_text()[-300:]!r}")
        for line in kiosk.stderr_text().splitlines():
            if CUT_MARK in line:
                self.figures.cuts += 1
                if len(self.figures.samples) < 10:
                    self.figures.samples.append(line[:200])
            elif line.startswith(("error:", "critical:")) or line.startswith("Traceback"):
                self.figures.errors += 1
                if len(self.figures.samples) < 10:
                    self.figures.samples.append(line[:200])
            elif line.startswith("warning:"):
                self.figures.warnings += 1
        kiosk.close()
        self.kiosk = None

    def kill_and_resume(self) -> None:
        """SIGKILL; start again (another rotation every other time); the screen must be the log's replay."""
        kiosk = self.kiosk
        assert kiosk is not None
        shown = self._settled_state()
        kiosk.proc.send_signal(signal.SIGKILL)
        kiosk.proc.wait()
        self.figures.kills += 1
        self.end_of_life(killed=True)
        if self.figures.kills % 2 == 0:
            self.rotation = self.rng.choice(ROTATIONS)
        self.start()
        after = self._state()
        replayed, logged = log_replay(self.data)
        if shown.get("screen") == "table" and shown.get("game") == self.game_id:
            self.figures.lost += max(0, shown.get("events", 0) - len(logged))
            if after.get("state") != shown.get("state"):
                self.figures.mismatches += 1
                self.figures.samples.append(f"resume showed {after.get('screen')} not the table shown before")
        if after.get("screen") == "table" and after.get("state") != replayed:
            self.figures.mismatches += 1
            self.figures.samples.append("resume is not the log's replay")

    # --- one input

    def step(self) -> None:
        state = self._state()
        screen = state.get("screen")
        self._note_finish(state)
        playing = screen == "table" and not game_state(state).get("finished")
        r = self.rng.random()
        if screen == "menu" and r < 0.7:
            self.figures.inputs += 1
            self._new_game()
            return
        racing = bool((state.get("race") or {}).get("open"))  # a race runs against the clock: slaps only
        if playing and self.synced and (r < 0.5 or racing):
            self._plan_move(state, racing)
            return
        self.figures.inputs += 1
        if screen != "table" and r < 0.4:
            back = [b for b in self._buttons() if b in BACK]
            if back:
                self._touch(self.rng.choice(back))
                return
        if playing and not self.synced:  # off the plan: guests play on by themselves
            self.free += 1
            if self.free > FREE_BUDGET:
                self._leave()
                return
            if r < 0.5:
                self._guest_move(state)
                return
        self._random_input(state, careful=playing and self.synced)

    def _guest_move(self, state: dict) -> None:
        """A guest at the table playing on: a card from the seat that may act, or a touch of what the screen
        offers for the game (draw, confirm, a choice's answer)."""
        self._replug()
        game = [b for b in self._buttons() if b.startswith(("act:", "choose:"))]
        if game and self.rng.random() < 0.4:
            self._touch(self.rng.choice(game))
        else:
            self._scan_own(state, from_turn=True)

    def _replug(self) -> None:
        """Someone at the table plugs the unplugged scanners back in (before a move that needs them)."""
        for reader in sorted(self.unplugged):
            self.kiosk.send_raw({"cmd": "replug", "reader": reader})
        self.unplugged.clear()

    def _leave(self) -> None:
        """A game that does not end by itself: Menü, held "New game" (the game is paused in the log)."""
        self.free = 0
        self._touch("leave")
        if "yes:1" in self._buttons():
            self._touch("yes:1", 2.2)

    def _random_input(self, state: dict, careful: bool) -> None:
        """Anything a guest may do here. `careful` (a game on the simulator's plan): no card from the seat that
        may act and no game touch, so the plan goes on; the guests' own moves come once it is off the plan."""
        r = self.rng.random()
        kiosk = self.kiosk
        assert kiosk is not None
        if r < 0.30:
            self._scan_own(state, from_turn=False if careful else None)
        elif r < 0.36:
            kiosk.send_raw({"cmd": "scan", "code": self.rng.choice(self.other_cards), "reader": self._any_reader()})
        elif r < 0.41:
            kiosk.send_raw({"cmd": "scan", "code": self.rng.choice(GARBAGE), "reader": self._any_reader()})
        elif r < 0.70:
            buttons = [b for b in self._buttons() if b not in NEVER
                       and not (careful and b.startswith(("act:", "choose:")))]
            if buttons:
                held = self.rng.choice([0.0, 0.0, 0.0, 0.4, 2.2])
                self._touch(self.rng.choice(buttons), held)
        elif r < 0.82:
            if careful and (state.get("race") or {}).get("open"):
                return  # the plan's race: its slaps and their order are the simulator's
            seat = self.rng.choice(SEATS)
            button = self.rng.choice(["confirm", "slap", "slap"])
            if self.rng.random() < 0.25:  # held down a while
                kiosk.send_raw({"cmd": "press", "seat": seat, "button": button})
                time.sleep(self.rng.uniform(0.02, 0.3))
                kiosk.send_raw({"cmd": "release", "seat": seat, "button": button})
            else:
                kiosk.cmd("tap", seat=seat, button=button)
        elif r < 0.86:
            self._admin()
        else:
            reader = self.rng.choice(SEATS)
            if reader in self.unplugged:
                kiosk.send_raw({"cmd": "replug", "reader": reader})
                self.unplugged.discard(reader)
            else:
                kiosk.send_raw({"cmd": "unplug", "reader": reader})
                self.unplugged.add(reader)

    def _scan_own(self, state: dict, from_turn: bool | None) -> None:
        """One of the game's own cards: from the seat that may act (True), from another (False), or mostly the
        former (None)."""
        turn = game_state(state).get("turn")
        acting = self.seat_of.get(turn) if turn else None
        if from_turn is None:
            from_turn = self.rng.random() < 0.75
        # (the shared "table" reader and a seat nobody claimed play for whoever may act)
        others = [self.seat_of[p] for p in self.seat_of if self.seat_of[p] != acting] or SEATS
        reader = acting if from_turn and acting else self.rng.choice(others)
        self.kiosk.send_raw({"cmd": "scan", "code": self.rng.choice(self.own_cards), "reader": reader})

    def _admin_undo(self) -> None:
        """Staff take the last event back: the admin corner, the PIN, "Undo last event", "Take back"."""
        self.kiosk.send_raw({"cmd": "admin"})
        for key in [*PIN, "OK"]:
            self._touch(f"key:{key}")
        self._touch("admin:undo")
        self._touch("yes:0")
        self._touch("back")

    def _admin(self) -> None:
        """The admin corner, then a right PIN (mostly) or a wrong one; the admin menu's own buttons follow as
        random touches."""
        kiosk = self.kiosk
        kiosk.send_raw({"cmd": "admin"})
        pin = PIN if self.rng.random() < 0.75 else self.rng.choice(["0000", "9999", "12345"])
        for digit in pin:
            if f"key:{digit}" not in self._buttons():
                return
            self._touch(f"key:{digit}")
        if "key:OK" in self._buttons():
            self._touch("key:OK")

    # --- the simulator's game

    def _new_game(self) -> None:
        """From the menu: the game's set-up, seats claimed by their buttons, a fresh plan from the simulator."""
        kiosk = self.kiosk
        cls = sim.get(self.game_id)
        players = cls.default_players
        try:
            self._touch(f"game:{self.game_id}")
            if self._state().get("screen") != "setup":
                return
            self._touch(f"count:{players}")
            seed = self.rng.randrange(10**9)
            table = cls(random.Random(seed), sim.names(players))
            set_options(kiosk, table.header.get("options", {}))
            for seat in SEATS[:players]:
                kiosk.cmd("tap", seat=seat, button="confirm")
            kiosk.wait(lambda s: len(s.get("claimed", {})) == players)
            screen = self._touch("start")
        except (Desync, AssertionError, KeyError, ValueError):
            return
        if screen.get("screen") != "table":
            return
        self.names = list(screen["state"]["scores"])
        self.seat_of = dict(zip(self.names, SEATS, strict=False))
        table = cls(random.Random(seed), self.names)
        self.plan = list(sim.play(table))
        self.referee = Referee(table.header)
        self.expected = self.referee.state()
        self.done = 0
        self.synced = True
        self.free = 0

    def _plan_move(self, state: dict, racing: bool = False) -> None:
        """The simulator's next move, made as players would (tests/test_kiosk_e2e.py's drivers). A monkey's card
        the referee took (a legal one) is taken back by staff first: the admin menu's Undo. In a race the slaps
        go at once: the kiosk's race timer runs in real time."""
        if not racing and not self._on_plan():
            self.synced = False
            return
        if self.done >= len(self.plan):
            self.synced = False
            return
        self._replug()
        try:
            play_event(self.kiosk, self.plan[self.done], self.seat_of, self.done + 1)
        except (Desync, AssertionError, KeyError, ValueError, IndexError) as error:
            if os.environ.get("MONKEY_DEBUG"):
                print("off the plan:", self.plan[self.done], repr(error)[-600:], file=sys.stderr)
            self.synced = False
            return
        self.done += 1
        self.referee.apply(self.plan[self.done - 1])
        self.expected = self.referee.state()
        self.figures.plan_moves += 1

    def _on_plan(self) -> bool:
        """Whether the kiosk shows the plan's state (after staff took back up to three monkey moves)."""
        time.sleep(0.04)  # a scan is read by the scanner's thread: let the last one arrive before looking
        state = self._state()
        if state.get("pending"):
            self._touch("cancel")
            state = self._state()
        if self.kiosk.send_raw({"cmd": "view"}).get("buttons", {}).get("lang") == ("English" if self.lang == "en"
                                                                                   else "Deutsch"):
            self._touch("lang")  # back to the run's language: the drivers answer questions in it
        for _ in range(3):  # the monkey's legal cards since the last move, taken back one by one
            if same(state.get("state"), self.expected) or not self.done < (state.get("events") or 0) <= self.done + 3:
                break
            self._admin_undo()
            state = self._state()
        return same(state.get("state"), self.expected) and state.get("screen") == "table"

    def _note_finish(self, state: dict) -> None:
        if state.get("screen") == "table" and game_state(state).get("finished"):
            key = (state.get("game"), state.get("events"), tuple(sorted(game_state(state).get("scores", {}))))
            if key != getattr(self, "_finished_key", None):
                self._finished_key = key
                self.figures.finished += 1

    # --- small helpers

    def _state(self) -> dict:
        reply = self.kiosk.send_raw({"cmd": "state"})
        if reply.get("guarded_errors"):
            self.figures.errors += reply["guarded_errors"] - getattr(self, "_guarded_seen", 0)
            self._guarded_seen = reply["guarded_errors"]
        return reply

    def _settled_state(self) -> dict:
        """What the kiosk shows once the inputs still on their way (a scan in its reader's thread) arrived."""
        shown = self._state()
        for _ in range(20):
            time.sleep(0.1)
            again = self._state()
            if _untimed({**again, "at": 0}) == _untimed({**shown, "at": 0}):
                return again
            shown = again
        return shown

    def _buttons(self) -> list[str]:
        reply = self.kiosk.send_raw({"cmd": "view"})
        return sorted(reply.get("buttons", {}))

    def _touch(self, action: str, held: float = 0.0) -> dict:
        reply = self.kiosk.send_raw({"cmd": "touch", "action": action, **({"held": held} if held else {})})
        return reply.get("screen") or {}

    def _any_reader(self) -> str:
        return self.rng.choice([*SEATS, "table"])


def same(shown: Any, planned: Any) -> bool:
    """The kiosk's state is the plan's, but for when slaps came (the kiosk times real presses, AO-R15b)."""
    return _untimed(shown) == _untimed(planned)


def _untimed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: sorted(v) if k == "pressed" and isinstance(v, dict) else _untimed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def _some_cards(game_id: str, most: int = 40) -> list[str]:
    """Card codes of a game, as its simulated table scans them."""
    table = sim.get(game_id)(random.Random(1), sim.names(sim.get(game_id).default_players))
    return sorted({e["card"] for e in sim.play(table) if "card" in e})[:most]


def monkey_drill(game_id: str, inputs: int, seed: int = 5, kill_every: int = 300, quiet_every: int = 0,
                 size: str = "800x480", lang: str = "de") -> dict:
    """Throw `inputs` random inputs (plus the simulator's moves) at a kiosk of `size` in `lang` playing `game_id`;
    the figures. Every `quiet_every` inputs (0: never) the table is left alone until the sound device has closed,
    so the next input finds it closed (decision A26-1)."""
    figures = Figures(game_id, size, lang)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"drill-monkey-{game_id}-") as tmp:
        drill = Drill(game_id, Path(tmp), seed, figures)
        drill.start()
        next_kill = kill_every
        next_quiet = quiet_every or inputs + 1
        try:
            while figures.inputs < inputs:
                kiosk = drill.kiosk
                if kiosk.proc.poll() is not None:  # it ended by itself: a crash, or the admin menu's Restart
                    code = kiosk.proc.returncode
                    drill.end_of_life(killed=False)
                    figures.restarts += code == 3
                    drill.start()
                    continue
                try:
                    drill.step()
                except (ConnectionError, OSError, ValueError):
                    continue  # the process ended mid-input: the loop's next turn finds out how
                if figures.inputs >= next_quiet:
                    next_quiet += quiet_every
                    time.sleep(SLEEP_AFTER_S + 1)
                if figures.inputs >= next_kill:
                    next_kill += kill_every
                    with contextlib.suppress(ConnectionError, OSError):
                        drill.kill_and_resume()
        finally:
            if drill.kiosk is not None:
                drill.end_of_life(killed=False)
    figures.seconds = time.monotonic() - began
    return figures.row()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="monkey", description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=20_000, help="random inputs per game")
    parser.add_argument("--games", default=",".join(g for g in games.ids() if g in sim.ids()))
    parser.add_argument("--sizes", default="800x480,1280x720,720x1280", help="screen sizes, each a run of its own")
    parser.add_argument("--langs", default="de,en", help="languages, each a run of its own")
    parser.add_argument("--kill-every", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1, help="games drilled at once, each with its own kiosk")
    parser.add_argument("--quiet-every", type=int, default=0,
                        help="leave the table alone every N inputs until the sound device closes (0: never)")
    args = parser.parse_args(argv)
    from concurrent.futures import ProcessPoolExecutor

    from benchmarks.drills import print_table

    runs = [(game_id, size, lang) for game_id in args.games.split(",") for size in args.sizes.split(",")
            for lang in args.langs.split(",")]
    began = time.monotonic()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(monkey_drill, game_id, args.inputs, args.seed + i, args.kill_every, args.quiet_every,
                               size, lang) for i, (game_id, size, lang) in enumerate(runs)]
        rows = []
        for future in futures:
            rows.append(future.result())
            print(f"  done: {rows[-1]}", file=sys.stderr, flush=True)
    print_table(rows)
    print(f"({time.monotonic() - began:.0f} s, {args.jobs} at once)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
