"""The kiosk's sound cues, heard through SDL's `disk` audio driver (it writes the mixed output to a file).

Each cue is told apart by the frequency of its first note, measured from the samples the
mixer wrote; a machine without an audio device runs silent with one log line.
"""

from __future__ import annotations

import itertools
import logging
import os
import random
import subprocess
import sys
import time
from array import array

import pygame
import pytest

from hw.inputs import ButtonPress, CardScan
from kiosk.app.audio import NOTES, SLEEP_AFTER_S
from referee import sim
from referee.table import Referee
from tests.kiosk_helpers import make_app, press, settle

RATE = 44100
FRAME = 4  # 16-bit stereo


class Ear:
    """Reads what the disk audio driver wrote since the last look."""

    def __init__(self, path):
        self.path = path
        self.offset = 0

    def skip(self) -> None:
        time.sleep(0.5)  # what is still playing ends
        self.offset = os.path.getsize(self.path) // FRAME * FRAME

    def _read(self) -> list[int]:
        with open(self.path, "rb") as handle:
            handle.seek(self.offset)
            data = handle.read()
        data = data[: len(data) // FRAME * FRAME]
        self.offset += len(data)
        samples = array("h")
        samples.frombytes(data)
        return list(samples[::2])  # left channel

    def listen(self, seconds: float = 0.9) -> list[int]:
        """What was written in the next `seconds`; on a busy machine (the driver falling behind the clock) it
        waits up to 5 s more for a sound to begin and 0.3 s of its samples to follow."""
        time.sleep(seconds)
        heard = self._read()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            start = next((i for i, v in enumerate(heard) if abs(v) > 500), None)
            if start is not None and len(heard) - start >= 0.3 * RATE:
                break
            time.sleep(0.05)
            heard += self._read()
        return heard


def first_note_hz(samples: list[int]) -> float:
    """Frequency of the first 40 ms of sound, by counting zero crossings."""
    start = next((i for i, v in enumerate(samples) if abs(v) > 500), None)
    assert start is not None, "nothing was heard"
    window = samples[start + 200: start + 200 + int(0.04 * RATE)]
    crossings = sum(1 for a, b in itertools.pairwise(window) if (a < 0) != (b < 0))
    return crossings / 2 / (len(window) / RATE)


@pytest.fixture
def disk_audio(tmp_path, monkeypatch):
    path = tmp_path / "audio.raw"
    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "disk")
    monkeypatch.setenv("SDL_DISKAUDIOFILE", str(path))
    yield path
    pygame.mixer.quit()


def expect(ear: Ear, cue: str) -> None:
    heard = first_note_hz(ear.listen())
    want = NOTES[cue][0][0]
    assert abs(heard - want) < want * 0.08, f"{cue}: heard {heard:.0f} Hz, its first note is {want} Hz"


def test_every_cue_plays_when_its_moment_comes(tmp_path, disk_audio) -> None:
    app = make_app(tmp_path / "a")
    assert app.audio.available
    ear = Ear(disk_audio)
    ear.skip()
    app.inbox.post(CardScan("AK:8.II", "keyboard", 0))  # the menu cannot take a card
    settle(app)
    expect(ear, "rejected")

    press(app, "game:annaotto")
    press(app, "count:3")
    press(app, "start")
    players = list(app.router.screen.controller.referee.players)
    ear.skip()
    app.inbox.post(CardScan("AO:RED.DOTS", "keyboard", 0))  # the start card
    settle(app)
    expect(ear, "accepted")
    app.inbox.post(CardScan("AO:RED.DOTS.ALLE", "keyboard", 0))
    settle(app)
    expect(ear, "race_start")
    controller = app.router.screen.controller
    controller.seat_players = {p: p for p in players}
    press(app, f"act:call:{players[0]}:ALLE")
    ear.skip()
    for i, player in enumerate(players):
        app.inbox.post(ButtonPress(player, "slap", 1_000_000_000 + i * 40_000_000))
    settle(app)
    expect(ear, "race_result")
    app.inbox.post(CardScan("XX:NOPE", "keyboard", 0))
    settle(app)
    expect(ear, "rejected")


def test_the_cue_after_a_quiet_spell_is_heard_once_the_device_is_open_again(tmp_path, disk_audio) -> None:
    """The device closed for quiet; the next scan's verdict is drawn first (A26-1) and its cue is not lost."""
    app = make_app(tmp_path / "a")
    app.audio.tick(time.monotonic() + SLEEP_AFTER_S + 1)
    assert app.audio.asleep and not pygame.mixer.get_init()
    ear = Ear(disk_audio)  # the disk driver writes its file afresh when the device opens again
    app.inbox.post(CardScan("AK:8.II", "keyboard", 0))  # the menu cannot take a card
    settle(app)
    expect(ear, "rejected")
    assert not app.audio.asleep


def test_game_end_cue(tmp_path, disk_audio) -> None:
    app = make_app(tmp_path / "b")
    press(app, "game:magische-7")
    press(app, "count:2")
    press(app, "start")
    controller = app.router.screen.controller
    table = sim.get("magische-7")(random.Random(4), list(controller.referee.players))
    events = list(sim.play(table, Referee(controller.referee.header)))
    for event in events[:-1]:
        assert controller.submit(event).ok
    last = events[-1]
    assert last["type"] == "play" and set(last) == {"type", "player", "card"}
    ear = Ear(disk_audio)
    ear.skip()
    app.inbox.post(CardScan(last["card"], "keyboard", 0))
    settle(app)
    assert controller.finished
    expect(ear, "game_end")


def test_mute_and_volume_from_the_config(tmp_path, disk_audio) -> None:
    app = make_app(tmp_path / "c", mute=True)
    ear = Ear(disk_audio)
    ear.skip()
    app.host.cue("accepted")
    time.sleep(0.5)
    assert max(map(abs, ear._read()), default=0) == 0, "muted: silence"
    app.audio.muted = False
    app.audio.set_volume(0.25)
    app.host.cue("accepted")
    quiet = max(map(abs, ear.listen(0.5)))
    app.audio.set_volume(1.0)
    app.host.cue("accepted")
    loud = max(map(abs, ear.listen(0.5)))
    assert 0 < quiet < loud * 0.5


def test_no_audio_device_is_survived_with_one_log_line(tmp_path, monkeypatch, caplog) -> None:
    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-audio-driver")
    with caplog.at_level(logging.INFO, logger="kiosk.app.audio"):
        app = make_app(tmp_path)
        assert not app.audio.available
        app.inbox.post(CardScan("AK:8.II", "keyboard", 0))  # a cue that cannot play
        press(app, "game:alles-klar")
        press(app, "start")
        app.inbox.post(CardScan("AK:8.II", "keyboard", 0))
        settle(app)
    assert app.router.screen.controller.referee.history, "the scan was refereed"
    lines = [r for r in caplog.records if r.name == "kiosk.app.audio"]
    assert len(lines) == 1 and "silent" in lines[0].getMessage()


def test_where_sound_can_go_is_asked_before_the_mixer(tmp_path) -> None:
    from kiosk.app.audio import sound_output_possible

    cards = tmp_path / "cards"
    nowhere = tmp_path / "absent"
    assert not sound_output_possible({}, nowhere)
    cards.write_text("--- no soundcards ---\n")
    assert not sound_output_possible({}, cards)
    cards.write_text(" 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n")
    assert sound_output_possible({}, cards)
    assert sound_output_possible({"SDL_AUDIODRIVER": "disk"}, nowhere)
    (tmp_path / "run" / "pulse").mkdir(parents=True)
    (tmp_path / "run" / "pulse" / "native").touch()
    assert sound_output_possible({"XDG_RUNTIME_DIR": str(tmp_path / "run")}, nowhere)


def test_a_machine_without_sound_starts_without_the_alsa_probe_noise(tmp_path) -> None:
    """No sound server, no driver chosen: no libasound errors, and without a card one line in the log."""
    from kiosk.app.audio import sound_output_possible

    env = {k: v for k, v in os.environ.items() if k not in ("SDL_AUDIODRIVER", "XDG_RUNTIME_DIR")}
    env["SDL_VIDEODRIVER"] = "dummy"
    shot = tmp_path / "shot.png"
    command = [sys.executable, "-m", "kiosk", "--sim", "--headless", "--frames", "30",
               "--data-dir", str(tmp_path / "data"), "--screenshot", str(shot)]
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "ALSA lib" not in proc.stderr
    assert ("runs silent" in proc.stderr) == (not sound_output_possible(env))
    assert shot.exists()


def test_admin_menu_sets_the_sound(tmp_path) -> None:
    from kiosk.screens.admin import AdminScreen

    app = make_app(tmp_path, volume=70)
    admin = AdminScreen(app.host, app.router.screen)
    admin.mode = "menu"  # unlocked
    app.router.show(admin)
    seen = []
    for action in ["volume:up", "volume:down", "volume:down"] + ["volume:down"] * 7:
        app.loop.draw()
        seen.append(app.loop.view.tagged("volume-level")[0].text)
        press(app, action)
    assert seen == ["Volume: 70 %", "Volume: 80 %", "Volume: 70 %", "Volume: 60 %", "Volume: 50 %", "Volume: 40 %",
                    "Volume: 30 %", "Volume: 20 %", "Volume: 10 %", "Volume: mute"]
    assert app.audio.muted
    press(app, "volume:up")
    assert not app.audio.muted and app.audio.volume == 10
