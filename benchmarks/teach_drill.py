"""The camera's taught decks and teaching screens under attack and in careless hands, figures printed.

    python -m benchmarks.teach_drill [--decks 300] [--inputs 2000] [--seed N]
    scripts/drill.sh teach           (the same, in the project's venv)

- decks: hostile deck folders in a kiosk's data directory (`DATA/faces/GAME/deck-N/`): manifests huge,
  truncated at a random byte, of random JSON types, nested thousands deep, naming files outside the folder;
  deck.json and pictures as links to /dev/zero or to files elsewhere, as FIFOs; pictures of random bytes, of
  the wrong size, with a PNG header that says gigapixels. They are read by the loader in this process, by
  `referee-kiosk camera read --faces` and `camera restore`, and by a real kiosk that starts a game of each kind
  (its taught decks load) and opens the teaching screens. Figures: decks made (sound ones among them), decks
  loaded (a manifest that holds: its bad pictures are dropped), pictures decoded that were not sound ones (must
  be none), loader exceptions, tracebacks, kiosk crashes, guarded errors.
- inputs: a real `referee-kiosk --sim --camera` at the teaching screens, and random fingers and hands: any
  button on screen touched, cards of any game laid anywhere in any design (face down, half over another, with
  or without a label), hands passing, the pile taken, the camera's blur, noise and glare changed, the hands
  resting (at the teaching screen, oftener, after laying one card of its game on the emptied pile: faces are
  taught and written between the kills), the kiosk now and then killed and started again; whenever the fingers
  leave the camera menu they go back to it. Figures:
  inputs, restarts, faces taught, crashes, guarded errors, states that break a rule (more taught than the
  deck holds, a face asked that is not the game's, a manifest on disk that does not load).

Nothing is asserted here: tests/test_drills.py runs a small size of each and asserts no crash.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from hw.camera import taught  # noqa: E402
from hw.camera.outline import PATCH  # noqa: E402
from kiosk.hardware.camera_faces import faces_of  # noqa: E402
from tests.kiosk_process import KioskProcess  # noqa: E402
from tests.test_kiosk_e2e import GAMES, start_game  # noqa: E402

CAMERA = ROOT / "tests" / "data" / "table.camera.toml"
DESIGNS = ("ak-a", "ak-b", "ac-a", "m7-b", "ao-a", "french-paris", None)


# --- hostile deck folders ---------------------------------------------------------------------------------


def png(width: int, height: int, body: bytes = b"\0" * 64) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(body)) + chunk(b"IEND", b""))


def good_look() -> bytes:
    """A look's picture of the right size (grey, plain)."""
    return png(PATCH[0], PATCH[1], bytes(PATCH[0] * PATCH[1] + PATCH[1]))


def random_json(rng: random.Random, depth: int = 0) -> Any:
    kinds = ["int", "float", "str", "null", "bool", "list", "dict"] if depth < 4 else ["int", "str", "null"]
    kind = rng.choice(kinds)
    if kind == "list":
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == "dict":
        return {rng.choice(["format", "game", "deck", "shape", "looks", "x"]): random_json(rng, depth + 1)
                for _ in range(rng.randrange(4))}
    return {"int": lambda: rng.choice([0, 1, -1, 2 ** 63, 10 ** 400]), "float": lambda: rng.choice(
        [float("nan"), float("inf"), 1e308, -0.0, 586.4]), "str": lambda: rng.choice(
        ["", "deck-1", "AK:7", "../../etc/passwd", "000-abcdef.png", "\udcff" * 3, "x" * 10_000]),
        "null": lambda: None, "bool": lambda: rng.random() < 0.5}[kind]()


def manifest(game: str, rng: random.Random) -> dict[str, Any]:
    faces = list(faces_of(game))
    looks = [[rng.choice(faces), f"{i:03d}-{rng.randrange(16 ** 6):06x}.png"] for i in range(rng.randrange(1, 6))]
    return {"format": 1, "game": game, "deck": "deck-1", "shape": [586.4, 0.706], "looks": looks}


def hostile_deck(folder: Path, game: str, rng: random.Random) -> str:
    """One deck folder, wrong in one random way (or sound: the loader must load those); its kind."""
    folder.mkdir(parents=True)
    base = manifest(game, rng)
    for _, name in base["looks"]:
        (folder / name).write_bytes(good_look())
    text = json.dumps(base)
    kind = rng.choice(["sound", "huge", "truncated", "types", "nested", "outside", "zero-link", "fifo",
                       "picture-bytes", "picture-size", "picture-bomb", "picture-link", "folder-link"])
    target = folder / "deck.json"
    first = folder / base["looks"][0][1]
    if kind == "huge":
        target.write_bytes(b"[" + b" " * (taught.MAX_MANIFEST + rng.randrange(1, 10 ** 6)))
    elif kind == "truncated":
        target.write_text(text[: rng.randrange(len(text))])
    elif kind == "types":
        mutated = dict(base)
        mutated[rng.choice(list(base))] = random_json(rng)
        target.write_text(json.dumps(mutated, allow_nan=True))
    elif kind == "nested":
        n = rng.randrange(1_000, 300_000)
        target.write_text("[" * n + "]" * n)
    elif kind == "outside":
        base["looks"] = [[face, "../" * rng.randrange(1, 6) + "etc/passwd"] for face, _ in base["looks"]]
        target.write_text(json.dumps(base))
    elif kind == "zero-link":
        os.symlink("/dev/zero", target)
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        target.write_text(text)
    if kind == "picture-bytes":
        first.write_bytes(rng.randbytes(rng.randrange(1, 5000)))
    elif kind == "picture-size":
        first.write_bytes(png(rng.randrange(1, 400), rng.randrange(1, 400)))
    elif kind == "picture-bomb":
        first.write_bytes(png(rng.choice([100_000, 65_535, 2 ** 31 - 1]), rng.choice([100_000, 65_535])))
    elif kind == "picture-link":
        first.unlink()
        os.symlink(rng.choice(["/dev/zero", "/etc/passwd", "/proc/self/environ"]), first)
    elif kind == "folder-link":
        outside = folder.parent.parent / f"outside-{folder.name}"
        folder.rename(outside)
        os.symlink(outside, folder)
    return kind


def hostile_data(data: Path, count: int, rng: random.Random) -> dict[str, int]:
    kinds: dict[str, int] = {}
    for n in range(count):
        game = rng.choice(GAMES)
        kind = hostile_deck(data / "faces" / game / f"deck-{n % taught.MAX_DECKS + 1}-{n}", game, rng)
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def loader_pass(data: Path) -> tuple[int, int, int]:
    """Every game's decks through the loader, pictures and book; (decks loaded, pictures decoded that are not the
    sound look every sound file holds, exceptions)."""
    loaded = bad = errors = 0
    for game in GAMES:
        try:
            decks = taught.decks(data, game, set(faces_of(game)))
            loaded += len(decks)
            bad += sum(bool(y.any()) for deck in decks for _, y, _ in deck.pictures())
            if decks:
                taught.book(decks)
        except Exception as error:  # the drill counts what a hostile deck can do
            print(f"loader: {game}: {type(error).__name__}: {error}", file=sys.stderr)
            errors += 1
    return loaded, bad, errors


def cli_pass(data: Path, scratch: Path) -> int:
    """`camera read --faces` and `camera restore` over the hostile folder; tracebacks seen."""
    tracebacks = 0
    still = scratch / "still.png"
    still.write_bytes(png(64, 64))
    runs = [["restore", str(data), "--data-dir", str(scratch / "restored")]]
    runs += [["read", "--faces", game, str(still), "--data-dir", str(data)] for game in GAMES]
    for args in runs:
        out = subprocess.run([sys.executable, "-m", "kiosk", "camera", *args], capture_output=True, text=True,
                             timeout=600)
        tracebacks += "Traceback" in out.stderr
    return tracebacks


def own_config(data: Path) -> Path:
    """The camera table's config, copied beside the drill's data: random hands reach the zones screen and save
    there, and the drill must not rewrite the repository's test config (it once did, moving the pile zone)."""
    config = data / "table.camera.toml"
    if not config.exists():
        config.write_text(CAMERA.read_text())
    return config


def kiosk_pass(data: Path) -> tuple[int, int]:
    """A kiosk over the hostile data: a game of each kind (its decks load), and the teaching screens;
    (crashes, guarded errors)."""
    kiosk = KioskProcess(data, extra=["--config", str(own_config(data))])
    crashes = 0
    try:
        for game in GAMES:
            start_game(kiosk, game, 2)
            kiosk.wait(lambda s, game=game: s["camera"]["faces"]["game"] == game and s["camera"]["faces"]["ready"],
                       timeout=120)
            kiosk.admin_menu()
            kiosk.touch("admin:abandon")
            kiosk.touch("yes:0")
        kiosk.admin_menu()
        kiosk.touch("admin:camera")
        kiosk.touch("teach")
        for game in GAMES:
            kiosk.touch(f"game:{game}")
            kiosk.touch("back")
        guarded = kiosk.state()["guarded_errors"]
    except (ConnectionError, RuntimeError, TimeoutError, AssertionError) as error:
        print(f"kiosk: {type(error).__name__}: {error}", file=sys.stderr)
        crashes, guarded = 1, 0
    finally:
        crashes += kiosk.proc.poll() is not None
        kiosk.close()
    return crashes, guarded


def deck_drill(count: int, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="teach-drill-") as tmp:
        data = Path(tmp) / "data"
        kinds = hostile_data(data, count, rng)
        loaded, bad, errors = loader_pass(data)
        tracebacks = cli_pass(data, Path(tmp))
        crashes, guarded = kiosk_pass(data)
    return {"drill": "hostile decks", "decks": count, "sound": kinds.get("sound", 0), "loaded": loaded,
            "bad pictures decoded": bad, "loader errors": errors, "tracebacks": tracebacks, "crashes": crashes,
            "guarded errors": guarded}


# --- fingers and hands at the teaching screens -------------------------------------------------------------


class Monkey:
    """Random inputs at a real kiosk's teaching screens (see the module's docstring)."""

    def __init__(self, data: Path, rng: random.Random):
        self.data, self.rng = data, rng
        self.kiosk = self._start()
        self.restarts = self.crashes = self.guarded = self.broken = 0
        self.teaching = False  # the teaching screen shows (as the last look found)
        self.codes = [f"{face}#1" for game in GAMES for face in faces_of(game)]

    def _start(self) -> KioskProcess:
        kiosk = KioskProcess(self.data, extra=["--config", str(own_config(self.data))])
        kiosk.expect_guarded_errors = False
        return kiosk

    def to_teaching(self) -> None:
        """Back into the camera menu from wherever the fingers went (they leave it only through its Back)."""
        state = self.kiosk.state()
        self.teaching = state["screen"] == "teach"
        if state["screen"] in ("camera-menu", "teach-games", "teach-decks", "teach", "camera", "confirm"):
            return
        if state["screen"] != "admin" or state["mode"] != "menu":
            self.kiosk.admin_menu()
        self.kiosk.touch("admin:camera")

    def step(self) -> None:
        rng, kiosk = self.rng, self.kiosk
        roll = rng.random()
        if self.teaching and rng.random() < 0.3:  # at the teaching screen the hands rest more often: cards taught
            self.rest()
        elif roll < 0.44:
            buttons = list(kiosk.cmd("view")["buttons"])
            kiosk.send_raw({"cmd": "touch", "action": rng.choice(buttons)})
        elif roll < 0.76:
            request = {"cmd": "lay", "code": rng.choice(self.codes), "zone": "pile",
                       "design": rng.choice(DESIGNS), "sticker": rng.random() < 0.3,
                       "face_down": rng.random() < 0.1, "at": [rng.random(), rng.random()]}
            kiosk.send_raw({k: v for k, v in request.items() if v is not None})
        elif roll < 0.84:
            kiosk.send_raw({"cmd": "take", "zone": "pile"})
        elif roll < 0.89:
            kiosk.send_raw({"cmd": "cover", "zone": "pile", "seconds": rng.uniform(0.1, 1.5)})
        elif roll < 0.94:
            self.rest()
        elif roll < 0.97:
            kiosk.send_raw({"cmd": "scene", "blur": rng.uniform(0, 1.6), "noise": rng.uniform(0, 8),
                            "glare": rng.random() < 0.5})
        else:
            self.restart()

    def rest(self) -> None:
        """The hands rest a moment. At the teaching screen they first lay one card of its game printed on the
        emptied pile, as staff do, so faces are taught and written between the random inputs and the kills."""
        state = self.kiosk.state()
        if state["screen"] == "teach":
            self.kiosk.send_raw({"cmd": "take", "zone": "pile"})
            self.kiosk.send_raw({"cmd": "lay", "code": self.rng.choice(faces_of(state["game"])) + "#1",
                                 "zone": "pile", "sticker": False})
        time.sleep(self.rng.uniform(0.8, 2.0))

    def restart(self) -> None:
        self.guarded += self.kiosk.state()["guarded_errors"]
        self.kiosk.kill()
        self.restarts += 1
        self.kiosk = self._start()

    def check(self) -> None:
        """The rules a state must keep: taught within the deck, a face of the game asked, decks on disk loading."""
        state = self.kiosk.state()
        if state["screen"] == "teach":
            faces = faces_of(state["game"])
            if not 0 <= state["taught"] <= state["total"] == len(faces) or state["face"] not in (*faces, None):
                self.broken += 1
        for game in GAMES:  # a deck the kiosk wrote that does not load back
            root = self.data / "faces" / game
            written = {p.parent.name for p in root.glob("*/deck.json")} if root.is_dir() else set()
            self.broken += len(written - {d.name for d in taught.decks(self.data, game, set(faces_of(game)))})

    def close(self) -> int:
        taught_faces = 0
        try:
            self.guarded += self.kiosk.state()["guarded_errors"]
        finally:
            self.crashes += self.kiosk.proc.poll() is not None
            self.kiosk.close()
        for game in GAMES:
            for deck in taught.decks(self.data, game, set(faces_of(game))):
                taught_faces += len(deck.faces())
        return taught_faces


def monkey_drill(inputs: int, seed: int = 2) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="teach-monkey-") as tmp:
        monkey = Monkey(Path(tmp), rng)
        for n in range(inputs):
            try:
                monkey.to_teaching()
                monkey.step()
                if n % 25 == 0:
                    monkey.check()
            except (ConnectionError, RuntimeError, TimeoutError) as error:  # the kiosk died under the fingers
                print(f"monkey: input {n}: {type(error).__name__}: {error}", file=sys.stderr)
                monkey.crashes += 1
                monkey.kiosk.close()
                monkey.kiosk = monkey._start()
        monkey.check()
        taught_faces = monkey.close()
    return {"drill": "teaching monkey", "inputs": inputs, "restarts": monkey.restarts, "faces taught": taught_faces,
            "crashes": monkey.crashes, "guarded errors": monkey.guarded, "broken states": monkey.broken}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="teach_drill", description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", type=int, default=300, help="hostile deck folders")
    parser.add_argument("--inputs", type=int, default=2000, help="random inputs at the teaching screens")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = [deck_drill(args.decks, args.seed), monkey_drill(args.inputs, args.seed + 1)]
    for row in rows:
        print("  ".join(f"{key}: {value}" for key, value in row.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
