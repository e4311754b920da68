"""The one detector of developer words on a guest's screen: error ids, rule ids and raw card codes (issue #26).

Nothing here is a hand-written list. The words it looks for are read from where they are declared:
- error ids: the error-code tables of `../shared/transcript-format.md` and every `../shared/rules/*.md`, plus
  every code the referee's rules raise (`Rejection("code", …)` in `referee/`), plus the scanners' stable reader
  reasons (`hw.inputs.READER_REASONS`);
- rule ids: the families of ids the spec files use (`AO-R15e`, `AC-D11` → `AO-R`, `AC-D`);
- card codes: every game's deck prefix (`AO:…`, from the registry) and its faces without prefix where a face
  is not what its label prints (`GREEN.WAVES`, `11.V`, `WASSER` – but not `ALLE`, which the label prints
  as it is), plus the other codes the games' sentences name (`value_words`: `RED` for "Rot").
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from hw.inputs import READER_REASONS
from referee import registry, sim
from referee.event_words import card_words
from referee.registry import DEFINITIONS, known_prefixes
from referee.table import Referee
from referee.words import tr

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SPEC_FILES = (SHARED / "transcript-format.md", *sorted((SHARED / "rules").glob("*.md")))
RULE_ID = re.compile(r"\b([A-Z][A-Z0-9]*-[A-Z]+)\d+[a-z]?\b")


@cache
def error_codes() -> frozenset[str]:
    """Every error id the referee can answer with, and the scanners' reader reasons (the ids that are
    kebab-case: a one-word reason such as "noise" is also a plain word)."""
    codes: set[str] = set(READER_REASONS)
    for path in SPEC_FILES:
        in_table = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                in_table = "error code" in line.lower()
            elif in_table and (found := re.match(r"\|\s*`([a-z0-9-]+)`", line)):
                codes.add(found.group(1))
    for path in (ROOT / "referee").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and \
                    getattr(node.func, "id", getattr(node.func, "attr", "")) == "Rejection":
                codes.add(str(node.args[0].value))
    return frozenset(code for code in codes if "-" in code)  # "noise" is a word a guest may read, "not-a-card" not


@cache
def rule_families() -> frozenset[str]:
    """The id families of the spec files' rules and decisions (`AO-R`, `AO-D`, `PS-R`, …)."""
    return frozenset(m.group(1) for path in SPEC_FILES for m in RULE_ID.finditer(path.read_text(encoding="utf-8")))


def _faces(game_id: str) -> list[str]:
    """Every face of the game's deck at its default options, without prefix (`GREEN.WAVES`)."""
    deck = Referee(sim.new_table(game_id, 0).header).deck
    return [code.partition(":")[2] for code in deck.codes(with_copies=False)]


def _reads_as_code(code: str) -> bool:
    """A code a guest could not take for a word: not a number, not one letter (the task sheet's "B", "D"), not a
    plain lower-case word ("draw", "play": the phases and event names that are English words too)."""
    return len(code) > 1 and not code.lstrip("-").isdigit() and not re.fullmatch(r"[a-z]+", code)


@cache
def bare_codes(lang: str) -> frozenset[str]:
    """Faces and declared codes that read as codes in `lang`: what the label prints differs from the code."""
    found: set[str] = set()
    for game_id in registry.ids():
        game = DEFINITIONS[game_id]
        found.update(face for face in _faces(game_id) if card_words(f"{game.prefix}:{face}", lang) != face)
        for codes in game.value_words.values():
            found.update(code for code, msgid in codes.items() if tr(msgid, lang) != code)
    return frozenset(code for code in found if _reads_as_code(code))


def _alternatives(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@cache
def detector(lang: str) -> re.Pattern[str]:
    """One pattern for every developer word a guest must not read in `lang`."""
    parts = [
        rf"(?<![\w-])(?:{_alternatives(error_codes())})(?![\w-])",
        rf"\b(?:{_alternatives(rule_families())})\d+[a-z]?\b",
        rf"\b(?:{_alternatives(known_prefixes())}):\S+",
        rf"(?<![\w.:-])(?:{_alternatives(bare_codes(lang))})(?![\w.-])",
    ]
    return re.compile("|".join(f"(?:{p})" for p in parts))


def developer_words(text: str, lang: str) -> list[str]:
    """The error ids, rule ids and card codes in `text` (empty when a guest may read it)."""
    return [m.group(0) for m in detector(lang).finditer(text)]
