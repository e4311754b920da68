"""Results off the table: a backup that is safe while a game is being written, CSV + transcripts, the admin
menu's Export to a USB stick (else the data directory)."""

from __future__ import annotations

import csv
import sqlite3
import threading
import time

from kiosk.__main__ import main
from kiosk.app.controller import TableController
from kiosk.eventlog.export import CSV_COLUMNS, backup, export
from kiosk.eventlog.store import EventLog
from referee import sim
from tests.kiosk_helpers import lay_export_traps, make_app, press
from tests.test_kiosk_staff import open_admin


def play(log: EventLog, game_id: str, seed: int, steps: int | None) -> TableController:
    table = sim.new_table(game_id, seed)
    header = table.header
    controller = TableController.new_game(log, game_id, list(header["players"]), header.get("dealer"),
                                          header.get("options"))
    for i, event in enumerate(sim.play(table, controller.referee.__class__(controller.referee.header))):
        if steps is not None and i >= steps:
            break
        assert controller.submit(event).ok
    return controller


def test_backup_while_a_game_is_being_written(tmp_path) -> None:
    log = EventLog(tmp_path / "events.sqlite3")
    stop = threading.Event()
    written = []

    def writer() -> None:
        writer_log = EventLog(tmp_path / "events.sqlite3")
        game = writer_log.new_game({"format": "tabletop-referee/1", "game": "alles-klar", "players": ["A", "B"]})
        while not stop.is_set():
            n = writer_log.append(game, {"type": "play", "player": "A", "card": f"AK:{len(written) % 11 + 1}"})
            written.append(n)
        writer_log.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while len(written) < 20:
            threading.Event().wait(0.01)
        copies = []
        for i in range(3):
            before = len(written)  # every event committed before the backup began must be in the copy
            copies.append((before, backup(log.path, tmp_path / f"copy-{i}.sqlite3")))
    finally:
        stop.set()
        thread.join()
    for before, path in copies:
        db = sqlite3.connect(path)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        (count,) = db.execute("SELECT COUNT(*) FROM events").fetchone()
        assert before <= count <= len(written)
        seqs = [s for (s,) in db.execute("SELECT seq FROM events ORDER BY seq")]
        assert seqs == list(range(1, count + 1)), "a consistent prefix of the game, nothing torn"
        copy = EventLog(path)
        assert len(copy.events(1)) == count
        copy.close()


def test_csv_has_one_row_per_game_with_players_scores_and_rank(tmp_path) -> None:
    log = EventLog(tmp_path / "events.sqlite3")
    finished = play(log, "alles-klar", 3, None)
    paused = play(log, "magische-7", 4, 6)
    paused.pause()
    path, count = export(log, tmp_path / "out", "Tisch 3")
    assert count == 2
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == CSV_COLUMNS
        rows = list(reader)
    assert CSV_COLUMNS[:7] == ["table", "game_no", "game", "started", "finished", "status", "events"]
    first, second = rows
    assert (first["table"], first["game"], first["status"]) == ("Tisch 3", "alles-klar", "finished")
    assert first["finished"] and not second["finished"] and second["status"] == "paused"
    scores = finished.state["scores"]
    for i, player in enumerate(finished.referee.players, start=1):
        assert first[f"player{i}"] == player and int(first[f"score{i}"]) == scores[player]
    best = max(scores.values())
    ranks = {first[f"player{i}"]: int(first[f"rank{i}"]) for i in range(1, len(scores) + 1)}
    assert all((ranks[p] == 1) == (scores[p] == best) for p in scores)
    assert sorted((tmp_path / "out").glob("game-*.jsonl")) == [tmp_path / "out" / "game-00001-alles-klar.jsonl",
                                                              tmp_path / "out" / "game-00002-magische-7.jsonl"]


def test_the_command_line_backup_and_csv_export(tmp_path, capsys) -> None:
    log = EventLog(tmp_path / "data" / "events.sqlite3")
    play(log, "annaotto", 5, 30)
    log.close()
    assert main(["--data-dir", str(tmp_path / "data"), "backup", "-o", str(tmp_path / "b.sqlite3")]) == 0
    db = sqlite3.connect(tmp_path / "b.sqlite3")
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert db.execute("SELECT COUNT(*) FROM events").fetchone() == (30,)
    assert main(["--data-dir", str(tmp_path / "data"), "export", "--csv", "-o", str(tmp_path / "x")]) == 0
    assert (tmp_path / "x" / "games.csv").exists() and (tmp_path / "x" / "game-00001-annaotto.jsonl").exists()
    assert main(["--data-dir", str(tmp_path / "nothing"), "backup", "-o", str(tmp_path / "c.sqlite3")]) == 1


def test_admin_export_goes_to_a_usb_stick_when_one_is_mounted(tmp_path) -> None:
    app = make_app(tmp_path / "data")
    play(app.records.log, "alcasan", 2, 10)
    stick = tmp_path / "media" / "USB STICK"
    stick.mkdir(parents=True)
    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/root / ext4 rw 0 0\n"
                      f"/dev/sda1 {str(stick).replace(' ', chr(92) + '040')} vfat rw,nosuid 0 0\n")
    app.host.mounts, app.host.usb_roots = mounts, (str(tmp_path / "media") + "/",)
    open_admin(app)
    press(app, "admin:export")
    message = app.loop.view.tagged("message")[0].text
    folder = next(stick.iterdir())
    assert message == f"Exported 1 game to the USB stick {stick}, folder {folder.name}"
    assert {p.name for p in folder.iterdir()} == {"games.csv", "events.sqlite3", "game-00001-alcasan.jsonl"}
    mounts.write_text("/dev/root / ext4 rw 0 0\n")
    press(app, "admin:export")
    message = app.loop.view.tagged("message")[0].text
    assert message.startswith("No USB stick found. Exported 1 game into the data directory, folder exports/")
    assert (tmp_path / "data" / "exports" / message.rsplit("/", 1)[1] / "games.csv").exists()
    play(app.records.log, "alcasan", 3, 10)
    time.sleep(1.05 - time.time() % 1.0)  # the next second: a new folder's name (the same name is refused)
    press(app, "admin:export")
    assert app.loop.view.tagged("message")[0].text.startswith("No USB stick found. Exported 2 games into")


def test_counted_sentences_say_one_and_many_in_both_languages() -> None:
    from kiosk import i18n

    texts = {}
    try:
        for lang in ("de", "en"):
            i18n.set_language(lang)
            texts[lang] = [i18n.trn("Exported {n} game to the USB stick {stick}, folder {folder}",
                                    "Exported {n} games to the USB stick {stick}, folder {folder}", n,
                                    stick="/media/usb", folder="x") for n in (1, 2)]
    finally:
        i18n.set_language("de")
    assert texts["en"] == ["Exported 1 game to the USB stick /media/usb, folder x",
                           "Exported 2 games to the USB stick /media/usb, folder x"]
    assert texts["de"] == ["1 Spiel auf den USB-Stick /media/usb exportiert, Ordner x",
                           "2 Spiele auf den USB-Stick /media/usb exportiert, Ordner x"]


def test_a_stick_cannot_turn_the_export_onto_the_live_log(tmp_path) -> None:
    """The issue's attack: folders on the stick named like the export's target (the name is the time, so an
    attacker makes the next minutes' names), one holding `games.csv` → the live log, another a link to the
    data directory. The export refuses, says so in both languages, and the log and the data directory are
    as they were."""
    import hashlib

    from kiosk import i18n

    data = tmp_path / "data"
    app = make_app(data)
    play(app.records.log, "alcasan", 2, 10)
    stick = tmp_path / "media" / "usb"
    stick.mkdir(parents=True)
    (tmp_path / "mounts").write_text(f"/dev/sda1 {stick} vfat rw 0 0\n")
    app.host.mounts, app.host.usb_roots = tmp_path / "mounts", (str(tmp_path / "media") + "/",)
    lay_export_traps(stick, data, app.records.log.path, 8)
    before = hashlib.sha256(app.records.log.path.read_bytes()).hexdigest()
    open_admin(app)
    listing = sorted(p.name for p in data.iterdir())
    for lang in ("en", "de"):
        i18n.set_language(lang)
        press(app, "admin:export")
        message = app.loop.view.tagged("message")[0].text
        expected = {"en": "Not exported: a folder or file named tabletop-referee-table-",
                    "de": "Nicht exportiert: Ein Ordner oder eine Datei namens tabletop-referee-table-"}[lang]
        assert message.startswith(expected), message
    i18n.set_language("en")
    assert hashlib.sha256(app.records.log.path.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in data.iterdir()) == listing
    assert all([q.name for q in p.iterdir()] == ["games.csv"] for p in stick.iterdir() if not p.is_symlink())
