"""A small size of every operations drill (benchmarks/drills.py): nothing lost, nothing crashed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def drills():
    spec = importlib.util.spec_from_file_location("drills", ROOT / "benchmarks" / "drills.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pytestmark = [pytest.mark.usefixtures("restore_logging"),  # the kiosk's main() sets up logging
              pytest.mark.slow]  # real processes for seconds to minutes


def test_sigkills_lose_nothing(drills):
    row = drills.kill_drill(4, seed=7)
    assert (row["ok"], row["lost"], row["crashes"], row["mismatched"]) == (4, 0, 0, 0), row


def test_sigterm_and_sigint_stop_the_kiosk_at_once_and_lose_nothing(drills):
    row = drills.stop_drill(5, seed=11)
    assert (row["ok"], row["lost"], row["crashes"], row["not stopped"]) == (5, 0, 0, 0), row


def test_garbage_never_kills_the_kiosk(drills):
    row = drills.garbage_drill(600, seed=8)
    assert (row["ok"], row["crashes"], row["bad replies"]) == (600, 0, 0), row


def test_every_storage_fault_keeps_the_kiosk_up(drills):
    row = drills.fault_drill(seed=9)
    assert row["runs"] >= 4 and row["ok"] == row["runs"], row


def test_config_mutations_are_refused_with_lines_or_start(drills):
    row = drills.mutation_drill(40, seed=10)
    assert (row["ok"], row["crashes"], row["errors without a line"]) == (40, 0, 0), row


def test_the_table_prints_every_drill(drills, capsys):
    drills.print_table([{"drill": "x", "runs": 1, "ok": 1, "lost": 0, "crashes": 0, "restart p99 s": 0.5}])
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:5] == ["drill", "runs", "ok", "lost", "crashes"] and "restart p99 s 0.500" in out[1]


@pytest.fixture(scope="module")
def monkey():
    spec = importlib.util.spec_from_file_location("monkey", ROOT / "benchmarks" / "monkey.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["monkey"] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("size", "lang"), [("800x480", "de"), ("720x1280", "en")])
@pytest.mark.parametrize("game_id", ["alles-klar", "alcasan", "profi-sort", "magische-7", "annaotto"])
def test_the_monkey_finds_no_crash_no_error_no_cut_and_no_loss(monkey, game_id, size, lang):
    """A small size of `scripts/drill.sh monkey` at two screen sizes in both languages: random guest inputs on every
    screen, two SIGKILLs and resumes; in ANNAOTTO (every cue: verdicts, races, game end) once a quiet spell that
    closes the sound device. No text the renderer cut (issue #37)."""
    row = monkey.monkey_drill(game_id, 80, seed=11, kill_every=40, quiet_every=50 if game_id == "annaotto" else 0,
                              size=size, lang=lang)
    assert row["kills"] == 2 and row["runs"] >= 80 and row["plan moves"] > 0, row
    assert (row["crashes"], row["errors logged"], row["cut texts"], row["lost"], row["resume mismatches"]) == \
        (0, 0, 0, 0, 0), row


def test_hostile_taught_decks_and_random_hands_at_the_teaching_screens_crash_nothing():
    spec = importlib.util.spec_from_file_location("teach_drill", ROOT / "benchmarks" / "teach_drill.py")
    teach = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(teach)
    decks = teach.deck_drill(30, seed=5)
    assert (decks["bad pictures decoded"], decks["loader errors"], decks["tracebacks"], decks["crashes"],
            decks["guarded errors"]) == (0, 0, 0, 0, 0), decks
    assert decks["loaded"] >= decks["sound"] > 0, decks
    config = ROOT / "tests" / "data" / "table.camera.toml"
    before = config.read_bytes()
    hands = teach.monkey_drill(150, seed=6)
    assert (hands["crashes"], hands["guarded errors"], hands["broken states"]) == (0, 0, 0), hands
    assert config.read_bytes() == before, "the drill's random hands saved zones into the repository's config"
