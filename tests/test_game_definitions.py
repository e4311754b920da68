"""Every registered game has every part a game needs, and the message names what is missing (issue #23).

The games are the union of every registry (definitions, rules, simulators, table screens), so a game that
registered only some of its parts is found, plus the test suite's toy game (`tests/toy_game`), registered
for these tests the way `docs/adding-a-game.md` describes. Parts: its definition (deck prefix, rules file,
score kind), its rules, its deck (every face under the declared prefix), its simulator, its kiosk panel,
its help in German and English, words for every event type and every card in both languages, the referee's
sentences for every message key its rules name.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.games import UIS
from referee import messages, sim, words
from referee.event_words import card_words, describe
from referee.games import GAMES
from referee.registry import DEFINITIONS, SCORE_KINDS, GameDefinition
from referee.table import Referee
from tests.test_messages import used_keys
from tests.toy_game import GAME_ID as TOY
from tests.toy_game import registered

SHARED_RULES = Path(__file__).resolve().parent.parent.parent / "shared" / "rules"
REGISTRIES = (DEFINITIONS, GAMES, sim.SIMS, UIS)
ALL = sorted({*itertools.chain.from_iterable(r.ids() for r in REGISTRIES), TOY})


@pytest.fixture(scope="module", autouse=True)
def toy_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with registered(tmp_path_factory.mktemp("toy-catalogue")) as game_id:
        yield game_id


def untranslated(used: list[str]) -> list[str]:
    return sorted({m for m in used if not words.translated(m, "de")})


def recording(lang: str, used: list[str]):
    def say(message: str) -> str:
        used.append(message)
        return words.tr(message, lang)
    return say


def header_of(game_id: str) -> dict:
    cls = GAMES[game_id]
    players = sim.names(sim.SIMS[game_id].default_players if game_id in sim.SIMS else min(cls.player_counts))
    return {"format": "tabletop-referee/1", "game": game_id, "players": players}


def definition_missing(d: GameDefinition) -> list[str]:
    missing = []
    rules = Path(d.rules) if Path(d.rules).is_absolute() else SHARED_RULES / d.rules
    if not rules.is_file():
        missing.append(f"its rules file {rules}")
    if d.score_kind({}) not in SCORE_KINDS:
        missing.append(f"a score kind (one of {SCORE_KINDS}, not {d.score_kind({})!r})")
    if not d.help:
        missing.append("help pages")
    used = [m for page in d.help for m in (page.title, *page.paragraphs)]
    if untranslated(used):
        missing.append(f"German help: {untranslated(used)}")
    return missing


def deck_missing(d: GameDefinition) -> list[str]:
    deck = Referee(header_of(d.game_id)).deck
    foreign = [f for f in deck.faces() if not f.startswith(f"{d.prefix}:")]
    if foreign:
        return [f"a deck under its prefix {d.prefix!r} (foreign faces {foreign[:3]})"]
    missing, used = [], []
    for face in deck.faces():
        for lang in words.LANGUAGES:
            try:
                d.card_words(face.partition(":")[2], recording(lang, used))
            except ValueError:
                missing.append(f"card words for {face}")
    if untranslated(used):
        missing.append(f"German card words: {untranslated(used)}")
    return missing


def sentences_missing(game_id: str) -> list[str]:
    """The referee's sentences of the keys its rules module names, in both languages (`reasons.po`)."""
    keys, prefixes = used_keys([Path(inspect.getsourcefile(GAMES[game_id]))])
    pairs = {key: messages.text_pair(key) for key in keys}
    lacking = sorted(k for k, pair in pairs.items() if pair is None or not all(pair))
    lacking += sorted(p + "…" for p in prefixes if not any(k.startswith(p) for k in messages.all_keys()))
    return [f"the referee's sentences for {lacking} in both languages"] if lacking else []


def events_missing(d: GameDefinition) -> list[str]:
    types = set(GAMES[d.game_id].event_types) | {"undo"}
    if types - set(d.events):
        return [f"words for the event types {sorted(types - set(d.events))}"]
    if d.game_id not in sim.SIMS:
        return []
    _, events = sim.random_game(d.game_id, seed=7)
    unread: dict[str, str] = {}
    for event in [*events, {"type": "undo"}]:
        de, en = describe(event, "de", d.game_id), describe(event, "en", d.game_id)
        if "referee" in en or "{" in de + en or de == en or event.get("card", "\0") in de:
            unread.setdefault(event["type"], f"{en!r} / {de!r}")
    missing = [f"words for {kind} in both languages ({example})" for kind, example in unread.items()]
    return missing


def missing_parts(game_id: str) -> list[str]:
    d = DEFINITIONS.get(game_id)
    missing = [] if d is not None else ["its definition (referee/decks/<game>.py: define(GameDefinition(...)))"]
    for registry, part in ((GAMES, "its rules (referee/games)"), (sim.SIMS, "its simulator (referee/sim)"),
                           (UIS, "its kiosk panel (kiosk/games)")):
        if game_id not in registry:
            missing.append(part)
    if d is None or game_id not in GAMES:
        return missing
    return missing + definition_missing(d) + deck_missing(d) + events_missing(d) + sentences_missing(game_id)


@pytest.mark.parametrize("game_id", ALL)
def test_every_registered_game_has_every_part(game_id: str) -> None:
    missing = missing_parts(game_id)
    assert not missing, f"{game_id} lacks: " + "; ".join(missing)


def test_the_contract_names_what_a_half_added_game_lacks() -> None:
    """A game whose definition is declared but nothing else registered: the test says what to add."""
    from tests.toy_game.deck import DEFINITION

    half = GameDefinition(**{**vars(DEFINITION), "game_id": "half-a-game", "prefix": "HX", "help": ()})
    DEFINITIONS.register(half)
    try:
        assert "half-a-game" in DEFINITIONS.ids()
        missing = missing_parts("half-a-game")
    finally:
        DEFINITIONS.unregister("half-a-game")
    assert missing == ["its rules (referee/games)", "its simulator (referee/sim)", "its kiosk panel (kiosk/games)"]


def test_the_toy_game_is_known_everywhere_while_registered(toy_game: str) -> None:
    from referee.cards import plausible_code
    from referee.labels.faces import label_text

    assert plausible_code("HI:4#2") and label_text("HI:4") == "4"
    assert toy_game in UIS.ids() and UIS.ids()[-1] == toy_game, "menus list it, in its declared order"
    assert card_words("HI:4#1", "de") == "4"


def test_the_toy_game_replays_through_the_cli(toy_game: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """`referee replay` takes a transcript of the toy game; the pretty trace words it in German."""
    import json

    from referee.cli import main

    header, events = sim.random_game(toy_game, seed=11)
    path = tmp_path / "higher.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in [header, *events]) + "\n")
    assert main(["replay", str(path)]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(answers) == len(events) and all(a["ok"] for a in answers)
    assert answers[-1]["state"]["finished"] is True
    assert main(["replay", "--pretty", "--lang", "de", str(path)]) == 0
    assert "klopft" in capsys.readouterr().out


def test_the_toy_game_plays_on_the_kiosk(toy_game: str, tmp_path: Path) -> None:
    """The menu offers it, its help reads in German, a scan lands on its table screen and a touch knocks."""
    from kiosk.i18n import set_language
    from tests.kiosk_helpers import make_app, press, scan, start_game, texts

    app = make_app(tmp_path, lang="de")
    try:
        start_game(app, toy_game, 2)
        scan(app, "HI:3#1")
        assert app.router.screen.controller.referee.state()["pile"] == ["HI:3"]
        press(app, "act:knock")
        first, second = app.router.screen.controller.referee.players
        assert app.router.screen.controller.referee.state()["scores"] == {first: 1, second: 0}, "the second knocked"
        assert "Stapel" in texts(app), "its panel speaks German from the game's own catalogue entries"
    finally:
        set_language("en")


def test_a_sixth_game_s_option_defaults_come_from_its_definition_alone(toy_game: str, tmp_path: Path) -> None:
    """Higher declares its one option, `strict`, and its default in its definition and nowhere else: the rules
    play the default when the header leaves the option out, the kiosk's set-up starts from it and sends only a
    change. With another default in the definition, the rules and the set-up both follow it."""
    from dataclasses import replace

    from kiosk.screens.setup import SetupScreen
    from referee.table import Referee
    from tests.kiosk_helpers import make_app

    def equal_card_refused() -> bool:
        referee = Referee(header_of(toy_game))  # no options in the header
        first = referee.turn
        second = next(p for p in referee.players if p != first)
        assert referee.apply({"type": "play", "player": first, "card": "HI:3#1"}).ok
        return not referee.apply({"type": "play", "player": second, "card": "HI:3#2"}).ok

    app = make_app(tmp_path)
    definition = DEFINITIONS[toy_game]
    try:
        setup = SetupScreen(app.host, toy_game)
        assert setup.model()["options"] == {} and not equal_card_refused(), "default: an equal card is laid"
        press = next(o for o in definition.options if o.option == "strict")
        setup.on_action("opt:strict")
        assert setup.model()["options"] == {"strict": True}, "a change is sent"
        DEFINITIONS.unregister(toy_game)
        DEFINITIONS.register(replace(definition, options=(replace(press, default=True),)))
        setup = SetupScreen(app.host, toy_game)
        assert setup.model()["options"] == {} and equal_card_refused(), "the new default, in the rules and set-up"
        setup.on_action("opt:strict")
        assert setup.model()["options"] == {"strict": False}
    finally:
        DEFINITIONS.unregister(toy_game)
        DEFINITIONS.register(definition)
