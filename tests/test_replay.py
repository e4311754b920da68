"""`referee replay`: the transcript format's answers, bad input, and the readable trace."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.transcript import replay

AK = '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["Anna", "Ben"]}'
M7 = '{"format": "tabletop-referee/1", "game": "magische-7", "players": ["Anna", "Ben"]}'


def answers(text: str) -> list[dict]:
    return [step.to_json() for step in replay(io.StringIO(text))]


def test_every_event_line_gets_one_answer_in_order() -> None:
    text = "\n".join([
        AK,
        "# a comment",
        "",
        '{"type": "play", "player": "Anna", "card": "AK:8.II"}',
        '{"type": "play", "player": "Anna", "card": "AK:9.II"}',
    ])
    got = answers(text)
    assert [a["seq"] for a in got] == [1, 2]
    assert got[0]["ok"] is True and got[0]["error"] is None and got[0]["message"] is None
    assert got[1] == {**got[1], "ok": False, "error": "not-your-turn", "message": "Ben is to play, not Anna."}
    assert got[1]["state"] == got[0]["state"], "a rejected event changes nothing"


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("this is not json", "bad-event"),
        ("[1, 2, 3]", "bad-event"),
        ('"play"', "bad-event"),
        ("{}", "bad-event"),
        ('{"type": 3}', "bad-event"),
        ('{"type": "dance", "player": "Anna"}', "bad-event"),
        ('{"type": "draw", "player": "Anna"}', "bad-event"),
        ('{"type": "press", "player": "Anna", "button": "confirm"}', "bad-event"),
        ('{"type": "play", "player": 1, "card": "AK:8.II"}', "bad-event"),
        ('{"type": "play", "player": "Anna", "card": ["AK:8.II"]}', "bad-event"),
        ('{"type": "play", "player": "Anna", "cards": ["AK:8.II"], "card": "AK:8.II"}', "bad-event"),
        ('{"type": "play", "player": "Anna", "card": "AK:8.II", "rank_choice": null}', "bad-event"),
        ('{"type": "play", "player": "Zoe", "card": "AK:8.II"}', "unknown-player"),
        ('{"type": "play", "player": "Anna", "card": "M7:7"}', "unknown-card"),
        ('{"type": "play", "player": "Anna", "card": "PS:H10"}', "unknown-card"),
        ('{"type": "play", "player": "Anna", "card": "AK:8.ii"}', "unknown-card"),
        ('{"type": "play", "player": "Anna", "card": "AK:8.II#2"}', "unknown-card"),
        ('{"type": "play", "player": "Anna", "card": "AK:8.II#01"}', "unknown-card"),
        ('{"type": "play", "player": "Anna", "card": "AK:8.II#1#1"}', "unknown-card"),
        ('{"type": "play", "player": "Anna", "card": "AK:5.V.I"}', "unknown-card"),
        ('{"type": "play", "player": "Anna", "card": " AK:8.II"}', "unknown-card"),
        ('{"type": "play", "player": "Anna", "card": "AK:1.I.II"}', "rank-choice-needed"),
        ('{"type": "undo"}', "nothing-to-undo"),
        ('{"type": "play", "player": "Anna", "card": "AK:8.II', "bad-event"),  # truncated
    ],
)
def test_bad_lines_get_their_code_and_replay_goes_on(line: str, error: str) -> None:
    good = '{"type": "play", "player": "Anna", "card": "AK:3.III"}'
    got = answers("\n".join([AK, line, good]))
    assert [a["seq"] for a in got] == [1, 2]
    assert got[0]["ok"] is False and got[0]["error"] == error
    assert got[0]["message"]
    assert got[1]["ok"] is True, "replay goes on after a bad line"


def test_truncated_last_line_is_answered() -> None:
    got = answers(AK + '\n{"type": "play", "player": "Anna", "card": "AK:8.II"}\n{"type": "pl')
    assert [(a["seq"], a["ok"], a["error"]) for a in got] == [(1, True, None), (2, False, "bad-event")]


@pytest.mark.parametrize(
    "header",
    [
        "",
        "not json",
        "[]",
        '{"format": "tabletop-referee/2", "game": "alles-klar", "players": ["A", "B"]}',
        '{"format": "tabletop-referee/1", "game": "skat", "players": ["A", "B"]}',
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A"]}',
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A", "B", "C", "D", "E", "F"]}',
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A", "A"]}',
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A", ""]}',
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": "AB"}',
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A", "B"], "dealer": "C"}',
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A", "B"], "dealer": null}',
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A", "B"], "options": null}',
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A", "B"], "options": {"x": 1}}',
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A", "B"], "options": {"deck": ["AK:1"]}}',
        '{"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A", "B"], '
        '"options": {"deck": ["AK:1.V.I", "AK:2", "AK:3", "AK:4", "AK:5", "AK:6", "AK:7", "AK:8"]}}',
        '{"format": "tabletop-referee/1", "game": "magische-7", "players": ["A", "B", "C"]}',
        '{"format": "tabletop-referee/1", "game": "magische-7", "players": ["A", "B"], "options": {"mirror": "x"}}',
        '{"format": "tabletop-referee/1", "game": "magische-7", "players": ["A", "B"], '
        '"options": {"no_repeat_target": 1}}',
    ],
)
def test_bad_header_stops_with_one_answer(header: str) -> None:
    got = answers(header + '\n{"type": "play", "player": "A", "card": "AK:8.II"}\n')
    assert len(got) == 1
    assert got[0]["seq"] == 0 and got[0]["ok"] is False and got[0]["error"] == "bad-header"
    assert got[0]["state"] is None and got[0]["message"]


def test_cli_reads_stdin_and_prints_json_lines(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(M7 + '\n{"type": "play", "player": "Anna", "card": "M7:7"}\n'))
    assert main(["replay", "-"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["state"]["lead"] == {"player": "Anna", "card": "M7:7", "target": "Ben"}


def test_cli_exit_status(tmp_path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{}\n")
    assert main(["replay", str(bad)]) == 1
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2


def test_pretty_trace_in_german(tmp_path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(AK + '\n{"type": "play", "player": "Anna", "card": "AK:8.II"}\n'
                    '{"type": "play", "player": "Anna", "card": "AK:9.I"}\n')
    out = subprocess.run([sys.executable, "-m", "referee", "replay", "--pretty", "--lang", "de", str(path)],
                         capture_output=True, text=True, check=True).stdout
    assert "Anna spielt 8 · II (AK:8.II)" in out
    assert "am Zug: Ben" in out
    assert "✗ Ben ist am Zug, nicht Anna. (" in out and "not-your-turn)" in out


SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"


@pytest.mark.parametrize("path", sorted((SHARED / "transcripts").glob("*/*.jsonl")),
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_pretty_trace_reads_for_people_in_german(path: Path) -> None:
    """Issue #37: `expect` lines read as what was expected and whether it was, never "NO bad-event"; the state's keys
    are in German, rule ids come after the sentence, not in it; no event line is in English."""
    out = subprocess.run([sys.executable, "-m", "referee", "replay", "--pretty", "--lang", "de", str(path)],
                         capture_output=True, text=True, check=False).stdout
    assert "bad-event" not in out or "bad-event" in path.read_text(encoding="utf-8").replace('"type": "expect"', "")
    assert "Unbekannte Ereignisart expect" not in out
    expects = path.read_text(encoding="utf-8").count('"type": "expect"')
    assert out.count("Erwartet: ") == expects and "NICHT wie erwartet" not in out
    header = json.loads(next(line for line in path.read_text(encoding="utf-8").splitlines()
                             if line.strip() and not line.startswith("#")))
    keys = {key for step in replay(path.open(encoding="utf-8")) if step.state for key in step.state}
    for key in keys:
        assert f" {key}:" not in out and f"\n        {key}:" not in out, f"state key {key!r} not in words"
    assert header.get("game") and "[" not in out and " play " not in out, "no event as logged in English"
    assert not re.search(r"\([A-Z]{2}-R\d+[a-z]?\)\.", out), "rule ids after the sentence, not in it"
