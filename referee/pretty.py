"""A trace a person reads at the table: one line per event, who did what, the verdict, the key state.

The event reads in the words the kiosk and the hub use (`referee.event_words`), then, in brackets, as
logged (codes included, for whoever debugs a transcript).
"""

from __future__ import annotations

from typing import Any

from referee.event_words import describe
from referee.transcript import NotJSON, Step

_COMMON = ("turn", "finished", "scores", "winners")
_SKIP_FIELDS = {"type", "player"}


def describe_event(event: Any, lang: str = "en") -> str:
    """The event's sentence, then the event as logged: `Anna spielt 8 · II [Anna play AK:8.II]`."""
    if isinstance(event, dict):
        return f"{describe(event, lang)} [{logged(event)}]"
    return logged(event)


def logged(event: Any) -> str:
    """The event as logged, in one line: who, type, fields."""
    if isinstance(event, NotJSON):
        return f"(not JSON) {event.text[:40]}"
    if not isinstance(event, dict):
        return f"(not an object) {str(event)[:40]}"
    who = event.get("player")
    parts = [str(who)] if isinstance(who, str) else []
    parts.append(str(event.get("type", "?")))
    for key, value in event.items():
        if key in _SKIP_FIELDS:
            continue
        if key in ("card", "cards"):
            parts.append(" ".join(value) if isinstance(value, list) else str(value))
        else:
            parts.append(f"{key}={value}")
    return " ".join(parts)


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_short(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_short(v) for v in value) + "]"
    return "–" if value is None else str(value)


def describe_state(state: dict[str, Any] | None, previous: dict[str, Any] | None) -> str:
    """The turn and scores always; any other key only when it changed, so the line stays short."""
    if state is None:
        return ""
    shown = [f"turn {_short(state.get('turn'))}", f"scores {_short(state.get('scores'))}"]
    if state.get("finished"):
        shown.append(f"FINISHED, winners {_short(state.get('winners'))}")
    for key, value in state.items():
        if key in _COMMON:
            continue
        if previous is None or previous.get(key) != value:
            shown.append(f"{key} {_short(value)}")
    return " · ".join(shown)


def format_step(step: Step, previous: dict[str, Any] | None, lang: str = "en") -> str:
    if step.seq == 0:
        return f"  0  HEADER REJECTED  {step.answer.error}: {step.answer.message(lang)}"
    verdict = "ok " if step.answer.ok else f"NO  {step.answer.error}: {step.answer.message(lang)}"
    line = f"{step.seq:4d}  {describe_event(step.event, lang):<44} {verdict}"
    if step.answer.ok:
        line += "\n        " + describe_state(step.state, previous)
    return line
