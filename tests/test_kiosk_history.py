"""History for disputes: every event type of every game in plain words in the table's language, accepted and
rejected (greyed, with the referee's reason), scrolling through the whole game; earlier games in a list."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kiosk.app.controller import TableController
from kiosk.games import history as game_history
from kiosk.games.event_words import describe, rejection_words
from kiosk.i18n import set_language
from kiosk.screens.history import GamesScreen, HistoryScreen
from kiosk.screens.menu import MenuScreen
from referee.registry import DEFINITIONS
from referee.table import Referee
from tests.developer_words import developer_words
from tests.kiosk_helpers import make_app, press, scan, start_game, texts

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"
TRANSCRIPTS = sorted((SHARED / "transcripts").glob("*/*.jsonl"))


def spec_event_types(game_id: str) -> set[str]:
    """The event types a spec's "Events" section lists in its tables (first column, in backticks)."""
    text = (SHARED / "rules" / f"{game_id}.md").read_text(encoding="utf-8")
    section = re.search(r"^## \d+\. Events.*?(?=^## )", text, re.M | re.S)
    assert section, game_id
    return set(re.findall(r"^\| `([a-z_]+)` \|", section.group(0), re.M))


def transcript(path: Path) -> tuple[dict, list]:
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    header = json.loads(lines[0])
    events = []
    for line in lines[1:]:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("type") == "expect":
            continue
        if isinstance(event, dict):
            events.append(event)
    return header, events


@pytest.mark.parametrize("game_id", ["alles-klar", "magische-7", "alcasan", "profi-sort", "annaotto"])
def test_every_event_type_of_the_spec_has_words(game_id) -> None:
    types = spec_event_types(game_id) | {"undo"}
    assert types, game_id
    declared = set(DEFINITIONS[game_id].events)
    assert types <= declared, types - declared
    seen = {e.get("type") for path in TRANSCRIPTS if path.parent.name == game_id for e in transcript(path)[1]}
    # The public transcripts exercise every type (their words are checked below), except these two, checked here.
    assert types - seen <= {"redeal", "undo"}, types - seen


def test_words_for_the_types_no_transcript_shows() -> None:
    set_language("de")
    face = lambda code: {"PS:CA": "Kreuz Ass", "PS:SA": "Pik Ass", "PS:HA": "Herz Ass"}.get(code, code)  # noqa: E731
    assert describe({"type": "redeal", "player": "Ben", "cards": ["PS:CA", "PS:SA", "PS:HA"]}, face) == \
        "Ben zeigt Kreuz Ass, Pik Ass, Herz Ass: Die Runde wird neu gegeben"
    assert describe({"type": "undo"}, face) == "Das Personal hat den letzten Schritt zurückgenommen"
    assert describe({"type": "teleport", "player": "Ben"}, face) == \
        "Eine Eingabe, die der Schiedsrichter nicht kennt (teleport)"
    assert describe([1, 2], face) == "Eine unlesbare Eingabe"
    assert describe({"type": "lay_task", "player": "Ben", "task": "run8", "groups": 5}, face).startswith("Ben legt")
    set_language("en")


def history_lines(app) -> list:
    """Every line of the history, scrolling from the end to the start with the screen's own buttons."""
    app.loop.draw()
    pages = []
    while True:
        pages.append([e for e in app.loop.view.elements if e.tag.startswith("line:")])
        if not app.loop.view.tagged("up"):
            break
        press(app, "up")
    lines: dict[str, object] = {}
    for page in reversed(pages):
        for element in page:
            number = element.text.lstrip("✗ ").split(".", 1)[0]
            lines[number] = element
    return [lines[k] for k in sorted(lines, key=int)]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_history_tells_a_whole_game_in_plain_words(tmp_path, path, lang) -> None:
    header, events = transcript(path)
    app = make_app(tmp_path, lang=lang)
    row = app.records.log.new_game(header)
    controller = TableController(Referee(header), app.records.log, row)
    answers = [controller.submit(event) for event in events]
    app.router.show(HistoryScreen(app.host, MenuScreen(app.host), row))
    lines = history_lines(app)
    assert len(lines) == len(events)
    details = [line.detail for line in game_history.lines(app.records.log, row) if not line.ok]
    expected = [a.rejection.detail() + (f" · {e['card']}" if a.rejection.code == "unknown-card" else "")
                for e, a in zip(events, answers, strict=True) if not a.ok]
    assert details == expected and all(details), "staff's detail (and the code of a card the game does not know)"
    assert app.router.screen.model()["details"] == details
    referee = Referee(header)
    for event, answer, line in zip(events, answers, lines, strict=True):
        judged = referee.apply(event)
        assert judged.ok == answer.ok
        assert line.tag == ("line:ok" if answer.ok else "line:rejected")
        if not answer.ok:
            reason = rejection_words(judged.rejection, lang, header["game"])  # a foreign card named by its game
            assert reason in line.text, "a rejection says why, in the table's language"
            assert not developer_words(line.text, lang), "guest words only: ids stay in the detail for staff"
            assert line.color != app.loop.view.tagged("title")[0].color
        words = line.text.split(" – ")[0]
        # a card the game does not know is never written as a move (issue #37): who scanned, the reason says more
        if not answer.ok and answer.rejection is not None and answer.rejection.code == "unknown-card":
            assert "scan" in words and event.get("card", "?") not in words, words
        assert "{" not in words and "type" not in words and "=" not in words, words
        assert "An input the referee does not know" not in words or \
            event.get("type") not in DEFINITIONS[header["game"]].events
    set_language("en")


def test_the_history_from_the_table_shows_a_rejected_scan_greyed_and_scrolls(tmp_path) -> None:
    app = make_app(tmp_path)
    start_game(app, "alles-klar", 2)
    scan(app, "AK:8.II")
    scan(app, "AK:8.II")  # a double scan: rejected
    for code in ["AK:3.I", "AK:4.IV", "AK:5.V", "AK:6.I", "AK:9.III", "AK:10.IV", "AK:11.V", "AK:1.II", "AK:2.I"]:
        scan(app, code)
    press(app, "history")
    assert app.router.screen.name == "history"
    assert app.router.screen.model()["lines"] == 11 and app.router.screen.model()["rejected"] == 1
    lines = history_lines(app)
    assert lines[0].text.startswith("1. ") and "Player 1 plays 8 · II" in lines[0].text
    assert lines[1].tag == "line:rejected" and "double scan" in lines[1].text
    pages = 0
    while app.loop.view.tagged("down"):
        press(app, "down")
        pages += 1
    assert pages >= 1 and app.loop.view.tagged("line")[-1].text.startswith("11. "), "scrolls back to the end"
    press(app, "back")
    assert app.router.screen.name == "table"


def test_the_list_of_earlier_games_names_players_scores_status(tmp_path) -> None:
    app = make_app(tmp_path)
    start_game(app, "alles-klar", 2)
    scan(app, "AK:8.II")
    app.router.screen.controller.abandon()
    app.router.go_menu()
    start_game(app, "magische-7", 2)
    press(app, "leave")
    app.router.screen.answers[0].run()
    press(app, "games")
    assert isinstance(app.router.screen, GamesScreen)
    labels = [e.text for e in app.loop.view.elements if e.tag.startswith("game:")]
    assert labels[0].startswith("Die magische 7 · paused · ") and "Player\u00a01, Player\u00a02" in labels[0]
    assert labels[1].startswith("Alles klar? · abandoned · ")
    assert "Player\u00a01:\u00a00 · Player\u00a02:\u00a00" in labels[1], "name and score apart, each kept on one line"
    assert "History" not in texts(app)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_long_games_page_position_is_said_shorter_not_cut(tmp_path, lang) -> None:
    """The monkey drill found "242–248 / 248" cut to "242–248 /…" between the pager's buttons on a screen turned
    to 480 px wide: with three-digit numbers there the position says only where the page ends ("255 / 260")."""
    app = make_app(tmp_path, lang=lang, size=(480, 800))
    start_game(app, "alles-klar", 2)
    scan(app, "AK:8.II")
    for _ in range(259):
        scan(app, "AK:8.II")  # a double scan: rejected, a line of the history each time
    press(app, "history")
    press(app, "up")
    position = app.loop.view.tagged("position")[0].text
    assert re.fullmatch(r"\d+ / 260", position), position
    assert app.display.cut_texts()["count"] == 0, app.display.cut_texts()


def test_a_header_error_is_said_in_words_without_rule_ids() -> None:
    """A rejection may be a header's (`HeaderError`, no rule sentence of its own): it is said in its words, not
    raised from the history (it has no `rules=` to leave out)."""
    from referee.answers import HeaderError

    said = rejection_words(HeaderError("unknown-option", option="turbo"), "en", "alcasan")
    assert "turbo" in said and not re.search(r"\bR\d", said)
    assert rejection_words(None, "en", "alcasan") == ""
