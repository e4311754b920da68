"""A trace a person reads at the table: one line per event, who did what, the verdict, the key state, all in the
language asked for.

The event reads in the words the kiosk and the hub use (`referee.event_words`), with the codes of its cards in
brackets (for whoever debugs a transcript); a rejection reads as the guests read it, its rule ids and error code
after it; the state names its keys in words (each game declares its own, `GameDefinition.state_words`). An
acceptance line (`expect`, for the checker: `../shared/transcript-format.md`) is not an event: it reads as what
was expected of the answer before it and whether the answer was that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.answers import Rejection
from referee.event_words import card_words, describe
from referee.registry import DEFINITIONS, GameDefinition
from referee.transcript import NotJSON, Step
from referee.words import N_, tr

_COMMON = ("turn", "finished", "scores", "winners")
# The state keys every game has, and the keys of the parts some states nest (the last trick's winner …).
COMMON_WORDS = {
    "turn": N_("to play"), "scores": N_("scores"), "finished": N_("finished"), "winners": N_("winners"),
    "hands": N_("hands"), "cards": N_("cards"), "card": N_("card"), "player": N_("player"), "winner": N_("won by"),
    "points": N_("points"), "target": N_("against"), "by": N_("by"), "last_trick": N_("last trick"),
    "stock": N_("stock"), "tricks_played": N_("tricks played"), "draw_pile": N_("draw pile"), "pile": N_("pile"),
    "top": N_("top card"), "out": N_("out"), "drawn": N_("drawn"),
}


def is_expect(event: Any) -> bool:
    return isinstance(event, dict) and event.get("type") == "expect"


def codes(event: Any) -> str:
    """The codes of the event's cards, in brackets ("(M7:13)"), for whoever debugs a transcript; "" without."""
    if not isinstance(event, dict):
        return f" ({str(event.text)[:40]})" if isinstance(event, NotJSON) else ""
    cards = event.get("cards")
    found: list[Any] = cards if isinstance(cards, list) else [event.get("card")]
    shown = [str(c) for c in found if isinstance(c, str)]
    return f" ({' '.join(shown)})" if shown else ""


def describe_event(event: Any, lang: str = "en") -> str:
    """The event's sentence, then its cards' codes: `Anna spielt 8 · II (AK:8.II)`."""
    return describe(event, lang) + codes(event)


class StateWords:
    """A state in words of one language: its keys as the game declares them, its cards as their labels print."""

    def __init__(self, lang: str, game: GameDefinition | None):
        self.lang = lang
        self.game = game

    def key(self, name: str) -> str:
        declared = self.game.state_words if self.game is not None else {}
        word = declared.get(name) or COMMON_WORDS.get(name)
        return tr(word, self.lang) if word else name

    def value(self, value: Any, key: str = "") -> str:
        if value is None:
            return "–"
        if isinstance(value, bool):
            return tr("yes", self.lang) if value else tr("no", self.lang)
        if isinstance(value, str):
            return self._word(value, key)
        if isinstance(value, Mapping):
            return ", ".join(f"{self.key(str(k))} {self.value(v, str(k))}" for k, v in value.items()) or "–"
        if isinstance(value, list | tuple):
            return ", ".join(self.value(v, key) for v in value) or "–"
        return str(value)

    def _word(self, text: str, key: str) -> str:
        """A card code, or a face the state keeps without its prefix (the top card), in its label's words; a value
        the game declares words for (a colour, a pattern, a phase) in them; anything else (a name) as it is."""
        if ":" in text:
            return card_words(text, self.lang)
        if self.game is None:
            return text
        declared = self.game.value_words.get(key, {})
        if text in declared:
            return tr(declared[text], self.lang)
        try:
            return self.game.card_words(text, lambda word: tr(word, self.lang))
        except ValueError:
            return text


def describe_state(state: dict[str, Any] | None, previous: dict[str, Any] | None, lang: str = "en",
                   game: str | None = None) -> str:
    """Whose turn and the scores always; any other key only when it changed, so the line stays short."""
    if state is None:
        return ""
    words = StateWords(lang, DEFINITIONS.get(game) if game else None)
    shown = [f"{words.key('turn')}: {words.value(state.get('turn'))}",
             f"{words.key('scores')}: {words.value(state.get('scores'))}"]
    if state.get("finished"):
        shown.append(tr("finished, won by {winners}", lang, winners=words.value(state.get("winners"))))
    for key, value in state.items():
        if key in _COMMON:
            continue
        if previous is None or previous.get(key) != value:
            shown.append(f"{words.key(key)}: {words.value(value, key)}")
    return " · ".join(shown)


def verdict(step: Step, lang: str) -> str:
    """✓, or ✗ with the sentence guests read and, in brackets, its rule ids and code for whoever checks."""
    if step.answer.ok:
        return "✓"
    rejection = step.answer.rejection
    detail = rejection.detail() if isinstance(rejection, Rejection) else str(step.answer.error)
    return f"✗ {step.answer.message(lang, rules=False)} ({detail})"


def format_step(step: Step, previous: dict[str, Any] | None, lang: str = "en", game: str | None = None) -> str:
    if step.seq == 0:
        return f"   0  ✗ {step.answer.message(lang)} ({step.answer.error})"
    line = f"{step.seq:4d}  {describe_event(step.event, lang):<44} {verdict(step, lang)}"
    if step.answer.ok:
        line += "\n        " + describe_state(step.state, previous, lang, game)
    return line


def format_expect(expect: dict[str, Any], answered: Step | None, lang: str = "en") -> str:
    """An acceptance line as a person reads it: what was expected of the answer before it, and whether it was."""
    wanted = []
    if "ok" in expect:
        wanted.append(tr("accepted", lang) if expect["ok"] else tr("rejected", lang))
    if "error" in expect:
        wanted.append(f"({expect['error']})")
    if "state" in expect:
        wanted.append(tr("with the state given", lang))
    met = answered is not None and _met(expect, answered)
    verdict_words = tr("as expected", lang) if met else tr("NOT as expected", lang)
    return "        " + tr("Expected: {what} – {verdict}", lang, what=" ".join(wanted) or "–", verdict=verdict_words)


def _met(expect: dict[str, Any], answered: Step) -> bool:
    if "ok" in expect and expect["ok"] != answered.answer.ok:
        return False
    if "error" in expect and expect["error"] != answered.answer.error:
        return False
    return "state" not in expect or _subset(expect["state"], answered.state)


def _subset(expected: Any, actual: Any) -> bool:
    """The transcript format's comparison: dicts key by key, recursively; anything else exactly."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _subset(v, actual[k]) for k, v in expected.items())
    return bool(expected == actual)
