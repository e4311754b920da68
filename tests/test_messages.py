"""Every rejection reads as a sentence in English and German, with its values filled in."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

from referee import messages
from referee.answers import Rejection

REFEREE = Path(messages.__file__).resolve().parent


def test_every_message_key_has_both_languages_and_same_placeholders() -> None:
    for key in messages.all_keys():
        en, de = messages.text_pair(key)
        assert en and de, key
        assert en != de, f"{key}: the German sentence is not translated"
        assert set(re.findall(r"{(\w+)", en)) == set(re.findall(r"{(\w+)", de)), key


def test_rejection_renders_in_both_languages() -> None:
    r = Rejection("not-your-turn", turn="Ben", player="Anna")
    assert r.message() == "Ben is to play, not Anna."
    assert r.message("de") == "Ben ist am Zug, nicht Anna."
    assert r.code == "not-your-turn"


def test_unknown_language_falls_back_to_english() -> None:
    assert Rejection("game-over").message("fr") == "The game is over."


def test_a_rejection_names_cards_and_colours_in_words_not_codes() -> None:
    """The sentence a guest reads says "Grün · Wellen", never `AO:GREEN.WAVES` or `RED.DOTS` (issue #23)."""
    from referee.table import Referee

    referee = Referee({"format": "tabletop-referee/1", "game": "annaotto", "players": ["Anna", "Ben"]})
    assert referee.apply({"type": "start", "card": "AO:RED.DOTS"}).ok
    answer = referee.apply({"type": "play", "player": "Anna", "card": "AO:GREEN.WAVES#1"})
    assert answer.message("de").startswith("Grün · Wellen passt zu Rot · Punkte weder")
    assert answer.message("en").startswith("Green · Waves matches Red · Dots neither")
    assert Rejection("no-match", "no-match.wild", colour="BROWN").message("de").startswith(
        "Nach ANNAOTTO darf nur Braun")
    not_a_card = Referee({"format": "tabletop-referee/1", "game": "annaotto", "players": ["Anna", "Ben"]})
    unknown = not_a_card.apply({"type": "start", "card": "AO:XX"})
    assert unknown.error == "unknown-card" and "AO:XX" not in unknown.message("de"), "no code, not even a scanned one"


def used_keys(paths: Iterable[Path] = ()) -> tuple[set[str], set[str]]:
    """Every message key the code names (default: the referee's): `Rejection(code[, key])`, `say(key)`,
    `render(key)`, `HeaderError(what)` (key `bad-header.<what>`); and the prefixes of keys made with an f-string
    (`f"ps.task-not-met.{reason}"`)."""
    keys: set[str] = set()
    prefixes: set[str] = set()
    for path in paths or REFEREE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name == "Rejection":
                arg = node.args[1] if len(node.args) > 1 else node.args[0]
            elif name == "HeaderError" and isinstance(node.args[0], ast.Constant):
                keys.add(f"bad-header.{node.args[0].value}")
                continue
            elif name in ("say", "render"):
                arg = node.args[0]
            else:
                continue
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                keys.add(arg.value)
            elif isinstance(arg, ast.JoinedStr) and isinstance(arg.values[0], ast.Constant):
                prefixes.add(str(arg.values[0].value))
    return keys, prefixes


def test_every_key_the_rules_name_has_its_sentences() -> None:
    """The rules hold keys, the catalogues the words: a key without a sentence would read as the key."""
    keys, prefixes = used_keys()
    assert len(keys) > 100 and prefixes, "the scan found the rules' keys"
    known = set(messages.all_keys())
    assert sorted(keys - known) == []
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in known), prefix
    assert messages.render("no-such-key", {}) == "no-such-key"


def test_a_header_error_holds_a_key_and_values_and_the_catalogue_its_words() -> None:
    """`HeaderError` carries no sentence of its own (issue #23): every raise names a key and values, never a
    literal sentence, and the reasons catalogue says it in both languages."""
    from referee.answers import HeaderError

    for path in REFEREE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "HeaderError":
                assert len(node.args) == 1 and isinstance(node.args[0], ast.Constant), (path.name, node.lineno)
                assert re.fullmatch(r"[a-z-]+", node.args[0].value), (path.name, node.args[0].value)
    error = HeaderError("player-count", title="Die magische 7", counts=(2, 4), count=3)
    assert error.code == "bad-header"
    assert error.message("de") == "Die Kopfzeile ist ungültig: Die magische 7 wird zu 2 oder 4 gespielt, nicht zu 3"
    assert error.message("en") == "The header is not valid: Die magische 7 is played by 2 or 4 players, not 3"
    assert HeaderError("unknown-option", option="x").reason("de") == "unbekannte Option 'x'"
