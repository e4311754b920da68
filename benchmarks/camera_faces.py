"""The face reader on rendered frames (`benchmarks/camera.py --faces`): per game and design, a deck taught on the
simulated camera (time per card), then the top card read in still frames by blur σ, wrong reads, and the time of
`CameraReader.process` on a 1400 × 1000 frame.

    nice -n 10 python -m benchmarks.camera --faces [--frames N] [--designs all|first] [--seed S]

Frames: the pile zone at 0.15 mm per pixel, 0–3 cards under the top one, random angles, slightly out of plane,
glare and sensor noise, in colour (YUV420 as the Pi's). The reader's thresholds were set on `french-paris` and
our style `a` of each game; every other design is one it was not tuned on.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

import numpy as np

from hw.camera.printed import designs
from hw.camera.reader import CameraReader
from hw.camera.sim import SIM_CAMERA, TableScene
from hw.camera.taught import book, decks, new_deck
from hw.camera.teach import Teacher
from referee.labels import game_deck
from tests.test_hw_faces import frame_of

GAMES = {"alles-klar": "AK", "alcasan": "AC", "profi-sort": "PS", "magische-7": "M7", "annaotto": "AO"}
SIGMAS = (0.0, 0.8, 1.6)


def teach_deck(data: Path, game: str, design: str, seed: int) -> tuple[float, int, int]:
    """Teach every face of the game's deck as staff would (one card at a time on the pile); (s per card,
    faces taught, faces asked)."""
    _, deck = game_deck(game)
    faces = list(deck.faces())
    teacher = Teacher(new_deck(data, game), faces)
    scene = TableScene(SIM_CAMERA, seed=seed, colour=True, blur=0.8)
    started = time.perf_counter()
    frames = 0
    for face in faces:
        scene.take("pile")
        scene.lay(face + "#1", "pile", design=design, sticker=False)
        for _ in range(8):
            crop = frame_of(scene)
            frames += 1
            teacher.frame(np.asarray(crop.image), crop.chroma)
            if teacher.state().face != face:
                break
    elapsed = time.perf_counter() - started
    # at 10 fps a card takes its frames' time, or the processing's when that is longer
    per_card = max(elapsed, frames / 10) / len(faces)
    return per_card, teacher.state().index, len(faces)


def stills(reader: CameraReader, game: str, design: str, n: int, rng: random.Random) -> None:
    _, deck = game_deck(game)
    codes = deck.codes()
    for sigma in SIGMAS:
        read = wrong = 0
        times = []
        for _ in range(n):
            scene = TableScene(SIM_CAMERA, seed=rng.randrange(1 << 30), colour=True, blur=sigma)
            chosen = rng.sample(codes, 1 + rng.randrange(4))
            for code in chosen:
                scene.lay(code, "pile", design=design, sticker=False)
            frame = frame_of(scene)
            started = time.perf_counter()
            reader.process(frame)
            times.append((time.perf_counter() - started) * 1000)
            seen = {s.code for _, s in reader.live().seen}
            read += chosen[-1].partition("#")[0] in seen
            wrong += len(seen - {c.partition("#")[0] for c in chosen})
        print(f"   {game:<11} {design:<22} σ {sigma:.1f}: top card read {100 * read / n:5.1f}% ({read}/{n}), "
              f"wrong {wrong}, frame p50 {np.percentile(times, 50):.0f} ms p99 {np.percentile(times, 99):.0f} ms")


def main(frames: int, seed: int, which: str) -> int:
    rng = random.Random(seed)
    print(f"faces: {frames} still frames per design and σ")
    for game, prefix in GAMES.items():
        for design in designs(prefix)[: 2 if which == "first" else None]:
            with tempfile.TemporaryDirectory() as data:
                per_card, taught, asked = teach_deck(Path(data), game, design, rng.randrange(1 << 30))
                print(f"   {game:<11} {design:<22} taught {taught}/{asked} faces, {per_card:.2f} s per card")
                _, deck = game_deck(game)
                reader = CameraReader(SIM_CAMERA, None, lambda item: None)
                reader.labels = False
                reader.set_faces(book(decks(Path(data), game, set(deck.faces()))))
                stills(reader, game, design, frames, rng)
    return 0
