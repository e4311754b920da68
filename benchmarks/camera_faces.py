"""The face reader on rendered frames (`benchmarks/camera.py --faces`), per game and design:

    nice -n 10 python -m benchmarks.camera --faces [--designs first|all|held-out|NAME,…] [--games G,…]
        [--frames N] [--laid N] [--false-frames N] [--cards N] [--seed S]

1. teaching: every face of the game's deck laid on the pile in turn, as staff would (a card held back as looking
   like another is taken anyway; one not taken in 6 frames is laid again, up to 3 times): faces taught, cards
   held back, cards laid again, seconds per card at 10 fps (or the processing's time when that is longer);
2. stills, by blur σ: a pile of 1–4 cards, is the top card read (`CameraReader.process`, faces only)? codes read
   that are not on the table (wrong reads); the frame's time (cold: every frame a new table);
3. stream, by blur σ: a card laid on a pile of 0–3, the still table seen in up to 10 frames with fresh sensor
   noise: counted (a `CardScan`, 2-frame confirmation) within 10 frames (1 s)? scans of cards not on the table;
   the frame's time (warm: frames of one table);
4. wrong codes in N frames of 40 tables (an empty mat, face-down cards, a hand over a pile, piles; fresh noise
   every frame): every code read that is not a card on that table;
5. laid → CardScan at 10 fps through picamera2's twin (`sim_source`) and the reader's own threads.

Frames: the pile zone at 0.15 mm per pixel (1400 × 1000), random angles, slightly out of plane, glare and sensor
noise, in colour (YUV420 as the Pi's). `hw.camera.printed.HELD_OUT` are the designs the reader was never tuned
on; every other one it was tuned on (docs/figures.md). Every figure on a game other than Profi-Sort rests on our
own art (`hw.camera.artwork*`).
"""

from __future__ import annotations

import queue
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.stats import percentile
from hw.camera.printed import HELD_OUT, designs
from hw.camera.reader import CameraReader
from hw.camera.sim import SIM_CAMERA, TableScene, sim_source
from hw.camera.taught import book, decks, new_deck
from hw.camera.teach import Teacher
from hw.inputs import CardScan
from referee.labels import game_deck
from tests.test_hw_faces import CROP, SIZE, as_frame, frame_of

GAMES = {"alles-klar": "AK", "alcasan": "AC", "profi-sort": "PS", "magische-7": "M7", "annaotto": "AO"}
SIGMAS = (0.0, 0.8, 1.6)
KINDS = ("empty mat", "face-down cards", "hand over a pile", "pile")


@dataclass
class Taught:
    per_card_s: float
    taught: int
    asked: int
    held: int
    laid_again: int


def teach_deck(data: Path, game: str, design: str, rng: random.Random) -> Taught:
    """Part 1 (see the module's docstring)."""
    faces = list(game_deck(game)[1].faces())
    teacher = Teacher(new_deck(data, game), faces)
    scene = TableScene(SIM_CAMERA, seed=rng.randrange(1 << 30), colour=True, blur=0.8)
    started, frames, held, again = time.perf_counter(), 0, 0, 0
    for face in faces:
        teacher.ask(face)
        for attempt in range(3):
            again += attempt > 0
            scene.take("pile")
            scene.lay(face + "#1", "pile", design=design, sticker=False)
            for _ in range(6):
                crop = frame_of(scene)
                frames += 1
                teacher.frame(np.asarray(crop.image), crop.chroma)
                if teacher.state().held:
                    held += 1
                    teacher.take_anyway()
                if face in teacher.deck.faces():
                    break
            if face in teacher.deck.faces():
                break
    elapsed = time.perf_counter() - started
    return Taught(max(elapsed, frames / 10) / len(faces), len(teacher.deck.faces()), len(faces), held, again)


def pile(game: str, design: str, rng: random.Random, under: int, sigma: float) -> tuple[TableScene, list[str]]:
    codes = game_deck(game)[1].codes()
    scene = TableScene(SIM_CAMERA, seed=rng.randrange(1 << 30), colour=True, blur=sigma)
    chosen = rng.sample(codes, under + 1)
    for code in chosen:
        scene.lay(code, "pile", design=design, sticker=False)
    return scene, [c.partition("#")[0] for c in chosen]


def faces_reader(faces: object) -> CameraReader:
    reader = CameraReader(SIM_CAMERA, None, lambda item: None)  # process() only: no threads, no source
    reader.labels = False
    reader.set_faces(faces)
    return reader


def stills(faces: object, game: str, design: str, n: int, rng: random.Random) -> None:
    """Part 2."""
    reader = faces_reader(faces)
    for sigma in SIGMAS:
        read = wrong = 0
        times = []
        for _ in range(n):
            scene, on_table = pile(game, design, rng, rng.randrange(4), sigma)
            frame = frame_of(scene)
            reader.set_faces(faces)
            started = time.perf_counter()
            reader.process(frame)
            times.append((time.perf_counter() - started) * 1000)
            seen = {s.code for _, s in reader.live().seen}
            read += on_table[-1] in seen
            wrong += len(seen - set(on_table))
        print(f"   stills σ {sigma:.1f}: top card read {100 * read / n:5.1f}% ({read}/{n}), wrong {wrong}; frame "
              f"p50 {percentile(times, 50):.0f} ms, p99 {percentile(times, 99):.0f} ms (cold)", flush=True)


def stream(faces: object, game: str, design: str, n: int, rng: random.Random) -> None:
    """Part 3."""
    reader = faces_reader(faces)
    for sigma in SIGMAS:
        counted = wrong = 0
        times = []
        for _ in range(n):
            scene, on_table = pile(game, design, rng, rng.randrange(4), sigma)
            still = scene.render(CROP, SIZE, noise=False)
            reader.set_faces(faces)
            for i in range(10):  # the noise differs in every frame, as from a sensor
                frame = as_frame(scene.noisy(still), i * 100_000_000)
                started = time.perf_counter()
                scans = reader.process(frame)
                times.append((time.perf_counter() - started) * 1000)
                wrong += sum(s.code not in on_table for s in scans)
                if any(s.code == on_table[-1] for s in scans):
                    counted += 1
                    break
        print(f"   stream σ {sigma:.1f}: counted within 10 frames {100 * counted / n:5.1f}% ({counted}/{n}), "
              f"wrong scans {wrong}; frame p50 {percentile(times, 50):.0f} ms, p99 {percentile(times, 99):.0f} ms "
              "(warm)", flush=True)


def wrong_codes(faces: object, game: str, design: str, frames: int, rng: random.Random) -> None:
    """Part 4."""
    tables = []
    for i in range(40):
        kind = KINDS[i % 4]
        scene, on_table = pile(game, design, rng, rng.randrange(6), rng.choice(SIGMAS))
        if kind in ("empty mat", "face-down cards"):
            scene.take("pile")
            on_table = []
            for code in rng.sample(game_deck(game)[1].codes(), 4 if kind == "face-down cards" else 0):
                scene.lay(code, "pile", design=design, sticker=False, face_up=False)
        if kind == "hand over a pile":
            scene.cover("pile")
        tables.append((kind, scene, scene.render(CROP, SIZE, noise=False), set(on_table)))
    reader = faces_reader(faces)
    wrong = dict.fromkeys(KINDS, 0)
    counts = dict.fromkeys(KINDS, 0)
    for n in range(frames):
        kind, scene, still, on_table = tables[n % len(tables)]
        counts[kind] += 1
        reader.process(as_frame(scene.noisy(still), n * 100_000_000))
        wrong[kind] += sum(s.code not in on_table for _, s in reader.live().seen)
    print(f"   wrong codes in {frames} frames: " + ", ".join(f"{k} {wrong[k]} of {counts[k]}" for k in KINDS)
          + f" → {sum(wrong.values())}", flush=True)


def latency(faces: object, game: str, design: str, cards: int, rng: random.Random) -> None:
    """Part 5: laid → CardScan, and the confirming frame's arrival → CardScan, in ms."""
    scene = TableScene(SIM_CAMERA, blur=1.0, seed=rng.randrange(1 << 30), colour=True)
    inputs: queue.Queue = queue.Queue()
    reader = CameraReader(SIM_CAMERA, sim_source(scene), inputs)
    reader.labels = False
    reader.set_faces(faces)
    reader.start()
    lat, after, missed = [], [], 0
    try:
        assert reader.connected.wait(20), "the simulated camera did not start"
        for code in rng.sample(game_deck(game)[1].codes(), cards):
            scene.take("pile")
            time.sleep(0.5 + rng.uniform(0.3, 0.6))  # the pile empty for a few frames, then a card laid
            laid = time.monotonic_ns()
            scene.lay(code, "pile", design=design, sticker=False)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                try:
                    item = inputs.get(timeout=0.2)
                except queue.Empty:
                    continue
                if isinstance(item, CardScan) and item.code == code.partition("#")[0]:
                    now = time.monotonic_ns()
                    lat.append((now - laid) / 1e6)
                    after.append((now - item.t_ns) / 1e6)
                    break
            else:
                missed += 1
    finally:
        reader.stop()
    print(f"   laid → CardScan at 10 fps ({len(lat)} of {cards} cards; {missed} not counted in 5 s): p50 "
          f"{percentile(lat, 50):.0f} ms, p99 {percentile(lat, 99):.0f} ms; confirming frame → CardScan p50 "
          f"{percentile(after, 50):.0f} ms, p99 {percentile(after, 99):.0f} ms", flush=True)


def chosen_designs(prefix: str, which: str) -> list[str]:
    every = list(designs(prefix))
    if which == "first":
        return every[:2]
    if which == "held-out":
        return [d for d in every if d in HELD_OUT]
    if which == "all":
        return every
    return [d for d in which.split(",") if d in every]


def main(frames: int, seed: int, which: str, laid: int = 100, false_frames: int = 0, cards: int = 0,
         games: str = "") -> int:
    rng = random.Random(seed)
    runs = [(game, design) for game, prefix in GAMES.items() if not games or game in games.split(",")
            for design in chosen_designs(prefix, which)]
    per_design_false = false_frames // max(1, len(runs))  # the wrong-code frames shared out among the designs
    for game, design in runs:
        with tempfile.TemporaryDirectory() as data:
            taught = teach_deck(Path(data), game, design, rng)
            note = "held out" if design in HELD_OUT else "tuned on"
            print(f"{game} {design} ({note}): taught {taught.taught}/{taught.asked} faces, {taught.held} held "
                  f"back, {taught.laid_again} laid again, {taught.per_card_s:.2f} s per card", flush=True)
            faces = book(decks(Path(data), game, set(game_deck(game)[1].faces())))
            if frames:
                stills(faces, game, design, frames, rng)
            if laid:
                stream(faces, game, design, laid, rng)
            if per_design_false:
                wrong_codes(faces, game, design, per_design_false, rng)
            if cards:
                latency(faces, game, design, cards, rng)
    return 0
