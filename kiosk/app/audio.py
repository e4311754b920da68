"""Sound cues for what the table must hear without looking: accepted, rejected, race start, race result, game end.

The cues are synthesised here (sine tones with short fades, no audio files to ship):
a rising two-note chime for accepted, a low double buzz for rejected, three quick high
beeps for the ALLE race, a falling sweep for the race result, a short fanfare for the
game's end. They play through pygame's mixer on its own channels, so a cue never waits
for the screen. A machine without an audio device runs silent: one log line, never a crash.
Tests hear the kiosk through SDL's `disk` audio driver (SDL_AUDIODRIVER=disk writes the
mixed output to SDL_DISKAUDIOFILE).

An open audio device costs CPU even in silence: SDL's audio thread wakes for every buffer (170 times
a second at 6 ms), a quarter of a percent of a core here, most of an idle kiosk's cost. So the
device is closed after `SLEEP_AFTER_S` without a cue and opened again at the next input (a touch,
a scan, a seat button: `wake`). Opening it takes milliseconds (2 ms with SDL's disk driver here, more with
ALSA or a sound server), so it is opened after the frame that answers the input (`settle`, called by the
loop): the verdict is on the glass first, and a cue asked for meanwhile starts as soon as the device is open
(decision A26-1).
"""

from __future__ import annotations

import logging
import math
import os
import time
from array import array
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

import pygame

logger = logging.getLogger(__name__)

Cue = Literal["accepted", "rejected", "race_start", "race_result", "game_end"]
CUES: tuple[Cue, ...] = ("accepted", "rejected", "race_start", "race_result", "game_end")
RATE = 44100
BUFFER = 256  # samples per mixer buffer: 6 ms at 44.1 kHz, so a cue starts within a few ms
SLEEP_AFTER_S = 10.0  # no cue for this long: the audio device is closed until the next input

# (frequency Hz at start, frequency Hz at end, seconds) per note; 0 Hz is a rest.
NOTES: dict[Cue, tuple[tuple[float, float, float], ...]] = {
    "accepted": ((660, 660, 0.07), (990, 990, 0.11)),
    "rejected": ((180, 180, 0.14), (0, 0, 0.05), (160, 160, 0.22)),
    "race_start": ((1320, 1320, 0.07), (0, 0, 0.04), (1320, 1320, 0.07), (0, 0, 0.04), (1760, 1760, 0.12)),
    "race_result": ((880, 330, 0.45),),
    # the winner's fanfare (the results' confetti falls meanwhile): up the chord, a breath, the top held
    "game_end": ((523, 523, 0.11), (659, 659, 0.11), (784, 784, 0.11), (1047, 1047, 0.2), (0, 0, 0.07),
                 (784, 784, 0.1), (1047, 1047, 0.12), (1319, 1319, 0.5)),
}


def samples(cue: Cue, rate: int = RATE) -> list[float]:
    """The cue as samples in -1 … 1: each note a sine sweep with 5 ms fades (no clicks)."""
    out: list[float] = []
    for start, end, seconds in NOTES[cue]:
        n = int(seconds * rate)
        fade = max(1, int(0.005 * rate))
        phase = 0.0
        for i in range(n):
            if not start:
                out.append(0.0)
                continue
            f = start + (end - start) * i / n
            phase += 2 * math.pi * f / rate
            gain = min(1.0, i / fade, (n - 1 - i) / fade)
            out.append(0.6 * gain * math.sin(phase))
    return out


def sound_output_possible(environ: Mapping[str, str] = os.environ, proc: Path = Path("/proc/asound/cards")) -> bool:
    """Could SDL find somewhere to play? An SDL_AUDIODRIVER chosen by hand, a sound server's socket
    (PulseAudio, PipeWire), or a sound card the kernel knows. Asked first because without any of them
    SDL's ALSA probe fills the journal with libasound's errors before it gives up."""
    if environ.get("SDL_AUDIODRIVER"):
        return True
    runtime = environ.get("XDG_RUNTIME_DIR")
    if runtime and any((Path(runtime) / name).exists() for name in ("pulse/native", "pipewire-0")):
        return True
    try:
        cards = proc.read_text(errors="replace")
    except OSError:
        return False
    return bool(cards.strip()) and "no soundcards" not in cards


class Sounds:
    """The kiosk's cues. `play` never raises: without an audio device (or muted) it does nothing."""

    def __init__(self, volume: int = 70, muted: bool = False):
        self.volume = max(0, min(100, int(volume)))
        self.muted = muted
        self.available = False
        self.asleep = False  # the device is closed for now (`SLEEP_AFTER_S` without a cue)
        self._stirred = False  # someone is at the table: `settle` opens the device
        self._waiting: list[Cue] = []  # cues asked for while the device was closed, started by `settle`
        self.last_used = time.monotonic()
        self._sounds: dict[Cue, pygame.mixer.Sound] = {}
        self._buffers: dict[Cue, bytes] = {}
        self._ours = not pygame.mixer.get_init()  # a mixer opened elsewhere is not ours to close for a while
        if self._ours and not sound_output_possible():
            logger.warning("no audio device (no sound card, no sound server): the kiosk runs silent")
            return
        try:
            self._open()
            self.available = True
        except (pygame.error, ValueError, OSError) as error:
            logger.warning("no audio device (%s): the kiosk runs silent", error)

    def _open(self) -> None:
        if not pygame.mixer.get_init():
            pygame.mixer.init(frequency=RATE, size=-16, channels=2, buffer=BUFFER)
        opened = pygame.mixer.get_init()
        if opened is None:
            raise pygame.error("the mixer did not open")
        freq, size, channels = opened
        for cue in CUES:
            if cue not in self._buffers:  # synthesised once (tens of ms), kept while the device sleeps
                data: array[float] | array[int]
                if size == 32:  # a mixer opened elsewhere in float format
                    data = array("f")
                    for value in samples(cue, freq):
                        data.extend([value] * channels)
                else:
                    data = array("h")
                    for value in samples(cue, freq):
                        data.extend([int(value * 32767)] * channels)
                self._buffers[cue] = data.tobytes()
            self._sounds[cue] = pygame.mixer.Sound(buffer=self._buffers[cue])

    def sleep_due(self) -> float | None:
        """When the device is closed for quiet (monotonic), or None (closed already, or not ours)."""
        return self.last_used + SLEEP_AFTER_S if self.available and self._ours and not self.asleep else None

    def tick(self, now: float) -> None:
        """Close the device once no cue played for `SLEEP_AFTER_S`."""
        due = self.sleep_due()
        if due is not None and now >= due and not pygame.mixer.get_busy():
            self._sounds.clear()
            pygame.mixer.quit()
            self.asleep = True

    def wake(self) -> None:
        """Someone is at the table: a cue may follow, so the device opens at the next `settle`."""
        self.last_used = time.monotonic()
        self._stirred = self._stirred or self.asleep

    def play(self, cue: Cue) -> None:
        """The cue now, or, while the device is closed, once `settle` has opened it."""
        if not self.available or self.muted or not self.volume:
            return
        self.wake()
        if self.asleep:
            self._waiting.append(cue)
            return
        self._start(cue)

    def settle(self) -> None:
        """After the loop's frame: open the device if someone stirred, start the cues that waited for it."""
        waiting, self._waiting = self._waiting, []
        if not self._stirred:
            return
        self._stirred = False
        self.asleep = False
        try:
            self._open()
        except (pygame.error, ValueError, OSError) as error:
            logger.warning("audio failed (%s): the kiosk runs silent", error)
            self.available = False
            return
        for cue in waiting:
            self._start(cue)

    def _start(self, cue: Cue) -> None:
        sound = self._sounds[cue]
        try:
            sound.set_volume(self.volume / 100)
            sound.play()
        except pygame.error as error:  # the device went away mid-game: go silent, keep refereeing
            logger.warning("audio failed (%s): the kiosk runs silent", error)
            self.available = False

    def set_volume(self, fraction: float) -> None:
        """Volume as a fraction 0 … 1 (the admin menu's slider); stored in percent like the config."""
        self.volume = max(0, min(100, round(fraction * 100)))

    def close(self) -> None:
        if self.available:
            if not self.asleep:
                pygame.mixer.quit()
            self.available = False
