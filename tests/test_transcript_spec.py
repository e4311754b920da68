"""Spec review of the common parts (../shared/transcript-format.md): strict JSON lines, answers, copy numbers."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from referee.cards import Card, CardCodeError
from referee.transcript import replay

AK = '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["Anna", "Ben"]}'
PLAY = '{"type": "play", "player": "Anna", "card": "AK:8.II"}'


def answers(text: str) -> list[dict]:
    return [step.to_json() for step in replay(io.StringIO(text))]


@pytest.mark.parametrize(
    "line",
    [
        '{"type": "undo", "x": NaN}',  # Python's json would take these; JSON has no NaN/Infinity
        '{"type": "play", "player": "Anna", "card": "AK:8.II", "t": Infinity}',
        '{"type": "play", "player": "Anna", "card": "AK:8.II", "t": -Infinity}',
        '{"type": "play", "player": "Anna", "card": "AK:8.II"} x',
        "{'type': 'undo'}",
        '{"type": "undo",}',
    ],
)
def test_lines_that_are_not_strict_json_are_bad_events(line: str) -> None:
    got = answers(AK + "\n" + PLAY + "\n" + line + "\n")
    assert [(a["seq"], a["ok"], a["error"]) for a in got] == [(1, True, None), (2, False, "bad-event")]
    assert got[1]["state"] == got[0]["state"]


@pytest.mark.parametrize(
    "header",
    [
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["Anna", "Ben"], "x": NaN}',
        '{"format": "tabletop-referee/1", "game": "magische-7", "players": ["A", "B"], "options": {"m": Infinity}}',
    ],
)
def test_header_that_is_not_strict_json_is_bad_header(header: str) -> None:
    got = answers(header + "\n" + PLAY + "\n")
    assert len(got) == 1 and got[0]["error"] == "bad-header" and got[0]["state"] is None


@pytest.mark.parametrize("copy", ["1" * 10, "9" * 5000, "1" + "0" * 4400])
def test_huge_copy_numbers_are_unknown_cards_not_crashes(copy: str) -> None:
    with pytest.raises(CardCodeError):
        Card.from_code("AK:8.II#" + copy)
    got = answers(AK + "\n" + f'{{"type": "play", "player": "Anna", "card": "AK:8.II#{copy}"}}\n')
    assert got[0]["error"] == "unknown-card"


def _cli(tmp_path, data: bytes, *args: str) -> list[str]:
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    done = subprocess.run([sys.executable, "-m", "referee", "replay", *args, str(path)], capture_output=True)
    assert done.returncode in (0, 1), done.stderr.decode()
    return done.stdout.decode("utf-8").splitlines()


def test_a_line_that_is_not_utf8_is_a_bad_event(tmp_path) -> None:
    data = (AK + "\n").encode() + b'{"type": "play", "player": "Anna\xff", "card": "AK:8.II"}\n' + PLAY.encode()
    lines = [json.loads(line) for line in _cli(tmp_path, data)]
    assert [(a["seq"], a["error"]) for a in lines] == [(1, "bad-event"), (2, None)]


def test_a_header_that_is_not_utf8_is_a_bad_header(tmp_path) -> None:
    data = AK.replace("Anna", "Ann\xe4").encode("latin-1") + b"\n" + PLAY.encode()
    lines = [json.loads(line) for line in _cli(tmp_path, data)]
    assert len(lines) == 1 and lines[0]["error"] == "bad-header"


def test_not_utf8_on_stdin_is_a_bad_event_too() -> None:
    data = (AK + "\n").encode() + b'{"type": "play", "player": "\xffAnna", "card": "AK:8.II"}\n'
    done = subprocess.run([sys.executable, "-m", "referee", "replay", "-"], input=data, capture_output=True)
    assert json.loads(done.stdout.decode("utf-8"))["error"] == "bad-event"


def test_escaped_lone_surrogates_are_answered_not_a_crash(tmp_path) -> None:
    header = AK.replace('"Ben"', '"Ben\\ud800"')
    data = (header + '\n{"type": "play", "player": "Anna\\udc00", "card": "AK:8.II"}\n' + PLAY + "\n").encode()
    lines = [json.loads(line) for line in _cli(tmp_path, data)]
    assert [(a["seq"], a["error"]) for a in lines] == [(1, "unknown-player"), (2, None)]
    assert "Ben\ud800" in lines[1]["state"]["hands"]
    assert len(_cli(tmp_path, data, "--pretty")) >= 2


def test_a_huge_integer_is_still_json() -> None:
    got = answers(AK + "\n" + PLAY + "\n" + '{"type": "undo", "x": ' + "7" * 5000 + "}\n")
    assert [(a["seq"], a["ok"]) for a in got] == [(1, True), (2, True)]
