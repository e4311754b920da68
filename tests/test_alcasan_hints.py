"""alcasan's query API: `hints()` says what may be laid, `check()` answers like `apply()` without changing anything.

Both are read against the referee's own verdicts in simulated games: every face the hints list is accepted
when scanned, every other face is refused for its legality (AC-R8, AC-R9); `check` gives the answer `apply`
gives, and leaves the state as it was.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee import sim
from referee.decks.alcasan import SHORT_FACES
from referee.games.alcasan import AlcasanHints
from referee.hints import FinishedHints
from referee.table import Referee

HEADER = {"format": "tabletop-referee/1", "game": "alcasan", "players": ["Anna", "Ben", "Cem"]}
LEGALITY = {"too-low", "too-high", "wasser-blocked"}


def play(player: str, face: str) -> dict[str, Any]:
    return {"type": "play", "player": player, "card": f"AC:{face}"}


def test_the_first_hints() -> None:
    hints = Referee(HEADER).hints()
    assert hints.game == "alcasan" and hints.actors == ("Anna",) and hints.events == ("play",)
    detail = hints.detail
    assert isinstance(detail, AlcasanHints)
    assert detail == AlcasanHints(
        source="hand", need="any", lowest=1, highest=10, faces=SHORT_FACES, can_take=False, run=0, burning=None
    )
    assert hints.sentence("en") == "Anna lays from the hand. Any card may be laid."
    assert hints.sentence("de") == "Anna legt aus der Hand. Jede Karte darf gelegt werden."


def test_hints_under_a_number_under_wasser_and_under_luft() -> None:
    r = Referee(HEADER)
    assert r.apply(play("Anna", "3")).ok
    detail = r.hints().detail
    assert (detail.need, detail.lowest, detail.highest) == (">=3", 3, 10)
    assert detail.faces == ("3", "5", "6", "7", "8", "9", "10", "WASSER", "FEUER", "ERDE", "LUFT")
    assert detail.can_take and r.hints().events == ("play", "take_pile")
    assert r.hints().sentence("en") == (
        "Ben lays from the hand. 3 or higher, Water, or Earth, Air, Fire. Or take the pile."
    )
    assert r.apply(play("Ben", "WASSER")).ok and r.apply(play("Cem", "LUFT")).ok
    detail = r.hints().detail
    assert (detail.need, detail.highest) == ("<=4", 4)  # Luft is transparent: Wasser still decides
    assert detail.faces == ("1", "2", "3", "WASSER", "FEUER", "ERDE", "LUFT")
    assert r.hints().sentence("de").startswith("Anna legt aus der Hand. 4 oder niedriger")


def test_hints_name_the_face_a_fourth_of_which_burns() -> None:
    r = Referee(HEADER)
    for player in ("Anna", "Ben", "Cem"):
        assert r.apply(play(player, "7")).ok
    detail = r.hints().detail
    assert detail.run == 3 and detail.burning == "7"
    assert "One more 7 burns the pile." in r.hints().sentence("en")
    assert r.apply(play("Anna", "LUFT")).ok  # Luft breaks the run and starts its own
    for player in ("Ben", "Cem"):
        assert r.apply(play(player, "LUFT")).ok
    assert r.hints().detail.burning == "LUFT"
    assert r.hints().sentence("en").endswith("One more Air burns the pile. Or take the pile.")
    assert "Noch einmal Luft verbrennt den Stapel." in r.hints().sentence("de")


def test_the_face_down_phase_owes_a_reveal() -> None:
    r = Referee(HEADER)
    holder = r.game.holders["Anna"]  # white-box set-up: Anna has only face-down cards left
    holder.hand = holder.up = 0
    r.game.draw_pile = 0
    hints = r.hints()
    assert hints.events == ("reveal",) and hints.detail.source == "down" and not hints.detail.can_take
    assert [(o.player, o.kind) for o in hints.owed] == [("Anna", "reveal")]
    assert hints.sentence("en") == "Anna turns over one face-down card and scans it. Any card may be laid."


@pytest.mark.parametrize("seed", range(6))
def test_hints_and_check_agree_with_apply_in_simulated_games(seed: int) -> None:
    table = sim.new_table("alcasan", seed, 3)
    referee = Referee(table.header)
    for _ in sim.play(table, referee):
        if referee.finished:
            break
        hints = referee.hints()
        player = hints.actors[0]
        for face in SHORT_FACES:
            answer = referee.check(play(player, face))
            if answer.error in ("card-exhausted", "must-reveal"):
                continue
            assert answer.ok == (face in hints.detail.faces), (face, answer.error, hints.detail)
            assert answer.ok or answer.error in LEGALITY
        before = json.dumps(referee.state(), sort_keys=True)
        take = {"type": "take_pile", "player": player}
        assert referee.check(take).ok == ("take_pile" in hints.events)
        assert json.dumps(referee.state(), sort_keys=True) == before, "check changed the state"
        for lang in ("en", "de"):
            assert hints.sentence(lang) and "{" not in hints.sentence(lang)
    final = referee.hints()
    assert final.actors == () and isinstance(final.detail, FinishedHints)
    assert final.sentence("en").startswith("The game is over.")
