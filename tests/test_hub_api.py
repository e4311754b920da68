"""The hub's JSON API and downloads, on the ASGI app with its store filled by simulated tables: filters, a
game's records and verification, the transcript replays through `referee replay` to the answers the table
gave, the CSV of all games, read-only for guests; and every sentence the pages use has its German."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from hub.describe import SHORT, verdict
from hub.ingest import Incoming, Ingest
from hub.live import Broadcaster
from hub.queries import Reader
from hub.store import Store
from hub.texts import german_known
from hub.web import Hub, create_app
from referee import words
from tests.hub_tables import LoggedTable, paired, random_records, status

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def client(tmp_path):
    store = Store(tmp_path / "hub.sqlite")
    ingest = Ingest(store, lambda cafe, table, n: None)
    announced: list = []
    t1, t2 = LoggedTable("t1"), LoggedTable("t2")
    batches = [("t1", random_records(t1, "magische-7", 1)), ("t1", random_records(t1, "alles-klar", 2)),
               ("t2", random_records(t2, "annaotto", 3, falsify=6))]
    paired(ingest, "cafe-1", t1, t2)
    keys = {"t1": t1.key, "t2": t2.key}
    for table, records in batches:
        ingest.process([Incoming("log", "cafe-1", table, r, time.time()) for r in records])
        ingest.process([Incoming("status", "cafe-1", table, status(table, records[-1]["n"], key=keys[table]),
                                 time.time())])
    hub = Hub(Reader(tmp_path / "hub.sqlite"), ingest, Broadcaster(), lambda c, p: announced.append((c, p)),
              "cafe-1", None)
    with TestClient(create_app(hub)) as client:
        client.announced = announced  # type: ignore[attr-defined]
        yield client
    store.close()


def test_tables_and_games_with_filters(client):
    tables = client.get("/api/tables").json()
    assert [(t["cafe"], t["table"], t["online"]) for t in tables] == [("cafe-1", "t1", True), ("cafe-1", "t2", True)]
    assert len(client.get("/api/games").json()) == 3
    assert {g["game"] for g in client.get("/api/games?table=t1").json()} == {"magische-7", "alles-klar"}
    assert [g["game"] for g in client.get("/api/games?game=annaotto").json()] == ["annaotto"]
    assert [g["table"] for g in client.get("/api/games?status=disputed").json()] == ["t2"]
    assert len(client.get("/api/games?status=verified").json()) == 2
    assert client.get("/api/games?status=nonsense").status_code == 400


def test_a_game_with_its_records_and_verification(client):
    (game,) = client.get("/api/games?status=disputed").json()
    detail = client.get(f"/api/games/{game['game_uid']}").json()
    assert detail["verification"]["status"] == "disputed"
    assert detail["verification"]["dispute"]["seq"] == 6
    assert [r["kind"] for r in detail["records"]][0] == "start" and detail["records"][-1]["kind"] == "end"
    assert client.get("/api/games/nope").status_code == 404


def test_the_transcript_download_replays_to_the_tables_answers(client, tmp_path):
    (game,) = [g for g in client.get("/api/games?table=t1").json() if g["game"] == "alles-klar"]
    response = client.get(f"/games/{game['game_uid']}.jsonl")
    assert response.headers["content-type"].startswith("application/x-ndjson")
    path = tmp_path / "game.jsonl"
    path.write_text(response.text)
    replay = subprocess.run([sys.executable, "-m", "referee", "replay", str(path)], capture_output=True, text=True,
                            cwd=ROOT, check=True)
    answers = [json.loads(line) for line in replay.stdout.splitlines()]
    said = [r["answer"] for r in client.get(f"/api/games/{game['game_uid']}").json()["records"]
            if r["kind"] == "event"]
    assert [(a["seq"], a["ok"], a["error"]) for a in answers] == [(s["seq"], s["ok"], s["error"]) for s in said]


def test_all_games_as_csv(client):
    response = client.get("/games.csv")
    rows = list(csv.DictReader(io.StringIO(response.text.removeprefix("\ufeff")), delimiter=";"))
    assert len(rows) == 3 and {r["check"] for r in rows} == {"verified", "disputed"}
    assert response.headers["content-disposition"] == 'attachment; filename="games.csv"'


def test_leaderboard_per_game(client):
    board = client.get("/api/leaderboard/magische-7").json()
    assert board["game"] == "magische-7" and sum(p["played"] for p in board["players"]) == 2
    assert client.get("/api/leaderboard/annaotto").json()["players"] == []  # its only game is disputed
    assert client.get("/api/leaderboard/chess").status_code == 404


def test_guests_only_read(client):
    for path in ("/api/tables", "/api/games"):
        assert client.post(path).status_code == 405
    response = client.post("/staff/announce", data={"de": "x", "en": "y"}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/staff"
    assert client.announced == []
    assert "Die Anmeldung ist nicht eingerichtet" in client.get("/staff?lang=de").text


def test_pages_render_in_both_languages(client):
    (game,) = client.get("/api/games?status=disputed").json()
    for lang in ("de", "en"):
        for path in ("/", "/table/cafe-1/t1", "/games", f"/games/{game['game_uid']}", "/leaderboard/alles-klar"):
            response = client.get(f"{path}?lang={lang}")
            assert response.status_code == 200 and f'<html lang="{lang}">' in response.text
    assert "widerspricht bei Zug 6" in client.get(f"/games/{game['game_uid']}?lang=de").text
    assert "disagrees at move 6" in client.get(f"/games/{game['game_uid']}?lang=en").text


def test_every_sentence_of_the_templates_has_its_german():
    pattern = re.compile(r"""\bt\(\s*"((?:[^"\\]|\\.)*)"|\btr\(\s*"((?:[^"\\]|\\.)*)\"""")
    # hub/describe.py words moves and verdicts from the shared catalogue (tests/test_i18n.py checks that one)
    sources = [*(ROOT / "hub/templates").glob("*.html"),
               *(p for p in (ROOT / "hub").glob("*.py") if p.name != "describe.py")]
    used = {a or b for path in sources for a, b in pattern.findall(path.read_text())}
    assert len(used) > 40
    assert sorted(s for s in used if not german_known(s)) == []
    assert all(words.translated(text, "de") for text in SHORT.values())


def test_a_rejection_reads_as_the_referees_sentence_or_a_few_words():
    event = {"type": "play", "player": "Anna", "card": "AK:8.II"}
    de = verdict({"ok": False, "error": "card-exhausted"}, "de", event)
    assert de == "abgelehnt: 8 · II liegt schon auf dem Tisch: doppelt gescannt?"
    assert verdict({"ok": False, "error": "not-your-turn"}, "en", event) == "rejected: not their turn"
    assert verdict({"ok": False, "error": "no-such-rule"}, "en", event) == "rejected: no-such-rule"
    assert verdict({"ok": True, "error": None}, "de") == "angenommen"


@pytest.mark.parametrize("path", sorted((ROOT.parent / "shared" / "transcripts").glob("*/*.jsonl")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_move_of_the_acceptance_transcripts_reads_as_a_sentence(path):
    from hub.describe import describe
    from tests.hub_tables import transcript

    _, events = transcript(path)
    for event in events:
        if not isinstance(event, dict):
            continue
        for lang in ("de", "en"):
            text = describe(event, lang)
            assert text and not text.startswith(":") and "=" not in text, (event, text)
