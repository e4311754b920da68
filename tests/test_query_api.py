"""The query API of issue #12 for Alles klar?, Die magische 7 and ANNAOTTO, and the simulator's use of it.

`check(event)` gives the answer `apply(event)` gives and changes nothing; `hints()` names who may act and
what may come next (checked against the referee's own verdicts); `public()` is the typed state whose JSON
is `state()`. The simulator reads only that public API.
"""

from __future__ import annotations

import ast
import copy
import json
import pathlib
import re

import pytest

from referee import sim
from referee.games.alles_klar import AllesKlarHints
from referee.games.annaotto import AnnaottoHints
from referee.games.magische_7 import Magische7Hints
from referee.hints import FinishedHints, RaceView
from referee.table import FORMAT, Referee

RULES = pathlib.Path(__file__).resolve().parents[2] / "shared" / "rules"
GAMES = [("alles-klar", 3), ("magische-7", 2), ("magische-7", 4), ("annaotto", 2), ("annaotto", 4),
         ("alcasan", 3), ("profi-sort", 2)]


def header(game: str, players: list[str], **options: object) -> dict:
    h: dict = {"format": FORMAT, "game": game, "players": players}
    if options:
        h["options"] = options
    return h


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_check_answers_as_apply_does_and_changes_nothing(game_id: str, players: int) -> None:
    for seed in range(3):
        table = sim.new_table(game_id, seed, players)
        referee = Referee(table.header)
        for event in sim.play(table, Referee(table.header)):
            for probe in (event, {**event, "player": "Zed"}, {"type": "undo"}, {"type": "nope"}):
                before = json.dumps(referee.state(), sort_keys=True)
                history = list(referee.history)
                answer = referee.check(probe)
                assert json.dumps(referee.state(), sort_keys=True) == before and referee.history == history
                twin = Referee(referee.header)
                for past in history:
                    twin.apply(past)
                assert (answer.ok, answer.error) == ((r := twin.apply(probe)).ok, r.error), probe
            assert referee.apply(event).ok


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_public_is_the_typed_state_of_state(game_id: str, players: int) -> None:
    table = sim.new_table(game_id, 5, players)
    referee = Referee(table.header)
    for _event in sim.play(table, referee):
        typed = referee.public()
        assert typed.to_json() == referee.state()
        assert typed.turn == referee.turn and typed.finished == referee.finished


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_hints_name_who_may_act_and_the_sentence_in_both_languages(game_id: str, players: int) -> None:
    table = sim.new_table(game_id, 7, players)
    referee = Referee(table.header)
    for _event in sim.play(table, referee):
        hints = referee.hints()
        assert hints.game == game_id
        if referee.finished:
            assert hints.actors == () and isinstance(hints.detail, FinishedHints)
        else:
            assert hints.actors or hints.events  # an operator event (start, new_round) has no seat
            assert referee.turn is None or referee.turn in hints.actors
        en, de = hints.sentence("en"), hints.sentence("de")
        assert (en == de == "") or en != de


def test_alles_klar_hints_follow_the_ranking_cards() -> None:
    r = Referee(header("alles-klar", ["Anna", "Ben", "Cem"]))
    h = r.hints()
    assert h.actors == ("Anna",) and h.events == ("play",)
    assert h.detail == AllesKlarHints(("I", "II", "III", "IV", "V"), (), None)
    assert h.sentence("en") == "Anna plays. Open ranking cards: I, II, III, IV, V."
    for player, card in (("Anna", "AK:1.I"), ("Ben", "AK:1.II"), ("Cem", "AK:2.V"), ("Anna", "AK:3.III")):
        assert r.apply({"type": "play", "player": player, "card": card}).ok
    h = r.hints()
    assert h.detail == AllesKlarHints(("IV",), (3, 2, 1), 4)  # AK-R7: IV waits for a fourth face-up card
    assert h.sentence("de") == (
        "Ben spielt. Nur IV ist offen: es gewinnt die offene Karte, die nach Wert an 4. Stelle liegt.")


def test_magische_7_hints_name_the_targets_and_the_pair_to_7() -> None:
    r = Referee(header("magische-7", ["Anna", "Ben", "Cem", "Dora"]))
    h = r.hints()
    assert h.actors == ("Anna",) and h.detail == Magische7Hints(None, None, ("Ben", "Dora"), None)
    assert h.sentence("en") == "Anna leads against Ben and Dora."
    assert r.apply({"type": "play", "player": "Anna", "card": "M7:5", "target": "Ben"}).ok
    h = r.hints()
    assert h.actors == ("Ben",) and h.detail == Magische7Hints("M7:5", "Anna", (), 2)
    assert "2" in h.sentence("de")
    assert r.apply({"type": "play", "player": "Ben", "card": "M7:3"}).ok  # Anna wins and leads again
    assert r.hints().detail.targets == ("Dora",)  # not Ben twice in a row (M7-R9)


def test_annaotto_hints_match_the_referees_verdicts() -> None:
    """Every face `playable` names is accepted on the current top, every other face refused (AO-R5, AO-R9)."""
    for seed in range(4):
        table = sim.new_table("annaotto", seed, 3)
        referee = Referee(table.header)
        for n, _event in enumerate(sim.play(table, referee)):
            hints = referee.hints()
            if n % 5 or "draw" not in hints.events:
                continue
            player = referee.turn
            for face in list(referee.deck.faces())[::7]:
                verdict = referee.check({"type": "play", "player": player, "card": face})
                if verdict.error != "card-exhausted":
                    assert verdict.ok == (face in hints.detail.playable), (face, verdict.error)


def test_annaotto_race_hints_and_result() -> None:
    r = Referee(header("annaotto", ["Anna", "Ben", "Cem"]))
    assert r.hints().events == ("start",) and r.hints().sentence("en") == "Scan the start card."
    assert r.apply({"type": "start", "card": "AO:RED.DOTS"}).ok
    h = r.hints()
    assert isinstance(h.detail, AnnaottoHints) and h.detail.colour == "RED" and h.actors == ("Anna",)
    assert h.sentence("de") == "Anna legt auf Rot · Punkte (Farbe, Muster oder Zeichen)."  # plays ON it (#26)
    assert r.apply({"type": "play", "player": "Anna", "card": "AO:RED.DOTS.ALLE"}).ok
    h = r.hints()
    assert h.race == RaceView(True, "Anna", False, ("Anna", "Ben", "Cem"), {}, ("Anna", "Ben", "Cem"), (), 2)
    assert "press:slap" in h.events and h.actors == ("Anna", "Ben", "Cem")
    assert r.apply({"type": "call", "player": "Anna", "word": "ALLE"}).ok
    for player, t_us in (("Ben", 10), ("Anna", 30), ("Cem", 20)):
        assert r.apply({"type": "press", "player": player, "button": "slap", "t_us": t_us}).ok
    race = r.hints().race
    assert race is not None and not race.open and race.losers == ("Anna",)  # AO-R15e: the last hand on top
    assert race.pressed == {"Anna": 30, "Ben": 10, "Cem": 20} and r.public().hands["Anna"] == 9
    assert r.hints().actors == ("Ben",)


def test_annaotto_penalty_hints() -> None:
    r = Referee(header("annaotto", ["Anna", "Ben"]))
    for event in ({"type": "start", "card": "AO:BLUE.DOTS"},
                  {"type": "play", "player": "Anna", "card": "AO:BLUE.DOTS.PLUS"}):
        assert r.apply(event).ok
    h = r.hints()
    assert h.detail.must == "PLUS" and h.detail.penalty == 1 and h.events == ("play", "press:confirm")
    assert all(face.endswith(".PLUS") for face in h.detail.playable)
    assert h.sentence("en") == "Ben lays PLUS or takes 1 card with confirm."


SIM = pathlib.Path(sim.__file__).parent


@pytest.mark.parametrize("path", sorted(SIM.glob("*.py")), ids=lambda p: p.name)
def test_the_simulator_uses_only_the_public_api(path: pathlib.Path) -> None:
    """No private names imported from `referee`, no `referee.game` and no game classes: hints, state, check."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("referee"):
            assert not [a.name for a in node.names if a.name.startswith("_")], node.module
        if isinstance(node, ast.Attribute):
            assert node.attr != "game", f"{path.name}:{node.lineno} reads the referee's game object"


def test_undo_restores_what_check_saw() -> None:
    table = sim.new_table("annaotto", 11, 2)
    referee = Referee(table.header)
    events = list(sim.play(table, copy.deepcopy(referee)))
    for event in events[:30]:
        referee.apply(event)
    before = referee.check(events[30])
    referee.apply(events[30])
    referee.apply({"type": "undo"})
    assert referee.check(events[30]) == before


def test_every_game_has_one_rules_entry_per_event_type_of_its_rules_file() -> None:
    """`event_types` (derived from the `rules` keys) hold the rules file's event types; any other type a
    game knows is one its rules file refuses as not used (alcasan's `draw` and `press`)."""
    from referee import games

    for game_id in games.ids():
        cls = games.get(game_id)
        spec = spec_event_types(game_id) - {"undo"}  # `undo` is the reducer's
        assert spec <= cls.event_types, game_id
        assert set(cls.judges()) == set(cls.checkers()) == cls.event_types, game_id
        table_header = sim.new_table(game_id, 0).header
        for kind in cls.event_types - spec:
            assert Referee(table_header).check({"type": kind, "player": "Anna"}).error == "event-not-used", kind


def spec_event_types(game_id: str) -> set[str]:
    """The event types a rules file's "Events" section lists in its tables (first column, in backticks)."""
    text = (RULES / f"{game_id}.md").read_text(encoding="utf-8")
    section = re.search(r"^## \d+\. Events.*?(?=^## )", text, re.M | re.S)
    assert section, game_id
    return set(re.findall(r"^\| `([a-z_]+)` \|", section.group(0), re.M))
