"""Guest words only (issue #26), over random play: every text the table screen shows while the simulators play
every game in German and in English – accepted moves, the referee's rejections of the moves a table proposes, the
same card read again – is read through the one detector of developer words. The issue's probe found 258 of 6,967
texts with an error id, a rule id or a card code."""

from __future__ import annotations

from typing import Any

import pytest

from referee import registry
from tests.developer_words import bare_codes, developer_words, error_codes, rule_families
from tests.kiosk_helpers import make_app, play_one_move, play_opening, start_simulated_game

SEEDS = (3,)
STEPS = 400  # moves per game at most (a Profi-Sort match is longer; its first rounds show every kind of text)


def test_the_detector_finds_ids_and_codes_and_leaves_card_words() -> None:
    assert {"not-your-turn", "card-exhausted", "no-match", "not-a-card"} <= error_codes()
    assert {"AO-R", "AK-R", "AC-D", "PS-R", "M7-R"} <= rule_families()
    assert {"GREEN.WAVES", "11.V", "WASSER", "RED"} <= bare_codes("de") and "ALLE" not in bare_codes("de")
    for text, found in [
        ("AO:RED.DOTS passt zu GREEN.WAVES weder in Farbe", ["AO:RED.DOTS", "GREEN.WAVES"]),
        ("AK:11.V liegt schon auf dem Tisch", ["AK:11.V"]),
        ("Letzte Hand unten (AO-R15e)", ["AO-R15e"]), ("(AO-R1, AO-R2)", ["AO-R1", "AO-R2"]),
        ("AO-R5 · no-match", ["AO-R5", "no-match"]), ("Leser-Problem: not-a-card", ["not-a-card"]),
        ("card-exhausted", ["card-exhausted"]), ("11.V", ["11.V"]),
    ]:
        assert developer_words(text, "de") == found, text
    for text in ["Rot · Punkte passt zu Grün · Wellen", "11 · V", "Spieler 1: ALLE!", "Wasser",
                 "3, 5, 9, B (4, 6, 10, D)", "Noise on the line", "Ziehen geht jetzt nicht: die Runde läuft."]:
        assert developer_words(text, "de") == [], text


def _play(game_id: str, lang: str, seed: int, tmp_path) -> tuple[int, list[tuple[str, list[str]]]]:
    """Play one simulated game on a headless kiosk; (texts read, the texts with developer words)."""
    app = make_app(tmp_path / f"{game_id}-{lang}-{seed}", lang=lang)
    controller, table = start_simulated_game(app, game_id, seed)
    names = list(controller.state["scores"])
    referee = controller.referee
    read, bad = 0, []

    def look() -> None:
        nonlocal read
        for size in ((800, 480), (720, 1280)):
            for text in app.router.screen.view(*size).texts():
                read += 1
                if found := developer_words(text, lang):
                    bad.append((text, found))

    def submit(event: dict[str, Any]) -> None:
        controller.submit(event)
        look()

    play_opening(table, referee, submit)
    for _ in range(STEPS):
        if referee.finished:
            break
        event = play_one_move(table, referee, submit, mistakes=4)  # with the table's mistakes, as answered
        if event is None:
            continue
        if not referee.check(event).ok:  # the same card read again
            submit(event)
        others = [p for p in names if p != event.get("player")]
        if "player" in event and others and not referee.check({**event, "player": others[0]}).ok:
            submit({**event, "player": others[0]})  # by another seat
    assert referee.finished or game_id == "profi-sort", f"{game_id}: the simulated game did not end"
    return read, bad


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["de", "en"])
def test_random_play_shows_no_developer_words(tmp_path, lang: str) -> None:
    read, bad = 0, []
    for game_id in registry.ids():
        for seed in SEEDS:
            n, found = _play(game_id, lang, seed, tmp_path)
            read += n
            bad += found
    print(f"guest-words probe ({lang}): {read} table-screen texts read over {len(registry.ids()) * len(SEEDS)} games, "
          f"{len(bad)} with an error id, rule id or card code")
    assert read > 10_000
    assert not bad, sorted({text for text, _ in bad})[:10]
