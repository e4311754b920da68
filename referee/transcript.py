"""Read and write `tabletop-referee/1` transcripts; replay is a fold of events over a Referee.

Parsers take streams, not paths. A line that is not JSON is still an event line
(it gets its `seq` and a `bad-event` answer), so a truncated last line or a
garbage line never stops a replay; only a bad header does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import IO, Any

from referee.answers import Answer, HeaderError, Rejection
from referee.table import Referee


class NotJSON:
    """Stands for an event line that is not valid JSON."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def content_lines(stream: Iterable[str]) -> Iterator[str]:
    """The lines that carry JSON: blank lines and `#` comments are skipped."""
    for raw in stream:
        text = raw.strip()
        if text and not text.startswith("#"):
            yield text


class _NotJSONConstant(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise _NotJSONConstant(f"{name} is not JSON")


def _int(text: str) -> int:
    """A JSON integer of any length (int() refuses more than 4300 digits; Decimal does not)."""
    return int(text) if len(text) <= 4000 else int(Decimal(text))


def parse(text: str) -> Any:
    """One line's JSON value, or NotJSON: strict JSON (RFC 8259), so no NaN/Infinity and only UTF-8 text.

    Streams are decoded with `surrogateescape`; bytes that are not UTF-8 show up as lone
    surrogates, which no real UTF-8 text decodes to, and make the line not JSON.
    """
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return NotJSON(text)
    try:
        try:
            return json.loads(text, parse_constant=_no_constant)
        except (json.JSONDecodeError, _NotJSONConstant):
            raise
        except ValueError:  # an integer of more than 4300 digits: rare, so only then the slower path
            return json.loads(text, parse_constant=_no_constant, parse_int=_int)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        return NotJSON(text)


@dataclass(frozen=True, slots=True)
class Step:
    """One answered event line."""

    seq: int
    event: Any
    answer: Answer
    state: dict[str, Any] | None

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "seq": self.seq,
            "ok": self.answer.ok,
            "error": self.answer.error,
            "message": self.answer.message(lang),
            "state": self.state,
        }


def judge(referee: Referee, event: Any) -> Answer:
    if isinstance(event, NotJSON):
        return Answer(False, Rejection("bad-event", "bad-event.json"))
    return referee.apply(event)


def replay(stream: Iterable[str]) -> Iterator[Step]:
    """Answer every event line of a transcript; a bad header gives one step with seq 0 and stops."""
    lines = content_lines(stream)
    first = next(lines, None)
    try:
        if first is None:
            raise HeaderError("missing")
        header = parse(first)
        referee = Referee(header if not isinstance(header, NotJSON) else None)  # type: ignore[arg-type]
    except HeaderError as error:
        yield Step(0, None, Answer(False, error), None)
        return
    for seq, text in enumerate(lines, 1):
        event = parse(text)
        answer = judge(referee, event)
        yield Step(seq, event, answer, referee.state())


def write_transcript(header: Mapping[str, Any], events: Iterable[Mapping[str, Any]], out: IO[str]) -> None:
    """Write a header and events as a transcript any referee can replay."""
    out.write(json.dumps(header, ensure_ascii=False) + "\n")
    for event in events:
        out.write(json.dumps(event, ensure_ascii=False) + "\n")
