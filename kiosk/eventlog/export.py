"""Results off the table without a shell: a safe copy of the event log, and the games as CSV + transcripts.

`backup` uses SQLite's online backup API through its own connection, so it is consistent even while the
kiosk is writing (a plain file copy of a live WAL database is not). `export` writes one CSV row per game
(table, game, times, status, players with score and place) and each game as a transcript. The admin
menu's "Export" writes both to a USB stick when one is mounted, else into the data directory.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from kiosk.eventlog.store import EventLog, GameRecord, effective_events
from kiosk.games.ranking import Place, rank
from referee.table import Referee

if TYPE_CHECKING:
    from hw.camera.taught import TaughtDeck

MAX_PLAYERS = 6
USB_ROOTS = ("/media/", "/run/media/", "/mnt/")
USB_FILESYSTEMS = {"vfat", "exfat", "ntfs", "ntfs3", "fuseblk", "ext4", "ext3", "ext2", "btrfs", "f2fs", "xfs"}


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One logged game as the history list and the CSV show it."""

    record: GameRecord
    players: tuple[str, ...]
    places: tuple[Place, ...]  # the current ranking (final for a finished game)

    @property
    def game(self) -> str:
        return str(self.record.header.get("game", ""))


def summarise(log: EventLog, record: GameRecord) -> GameSummary:
    """Replay a game to know its scores (a game is a few hundred events: milliseconds)."""
    header, events = log.load(record.id)
    players = tuple(header.get("players", ()))
    try:
        referee = Referee(header)
        for event in effective_events(events):
            referee.apply(event)
        state = referee.state()
    except Exception:  # a game whose header no longer loads still gets its row
        state = {}
    places = rank(str(header.get("game", "")), header.get("options", {}) or {}, players, state)
    return GameSummary(record, players, tuple(places))


def summaries(log: EventLog) -> list[GameSummary]:
    return [summarise(log, record) for record in log.games()]


def backup(source: Path, target: Path) -> Path:
    """Copy the live event log with SQLite's backup API; the copy is a complete, consistent database."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(str(source), timeout=30)
    try:
        dst = sqlite3.connect(str(partial))
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    finally:
        src.close()
    with open(partial, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(partial, target)
    return target


CSV_COLUMNS = ["table", "game_no", "game", "started", "finished", "status", "events"] + [
    f"{name}{i}" for i in range(1, MAX_PLAYERS + 1) for name in ("player", "score", "rank")]


def _when(t: float | None) -> str:
    return "" if t is None else time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


def csv_row(table: str, summary: GameSummary) -> dict[str, object]:
    record = summary.record
    row: dict[str, object] = {"table": table, "game_no": record.id, "game": summary.game,
                              "started": _when(record.started),
                              "finished": _when(record.ended) if record.status == "finished" else "",
                              "status": record.status, "events": record.events}
    by_player = {place.player: place for place in summary.places}
    for i, player in enumerate(summary.players[:MAX_PLAYERS], start=1):
        place = by_player.get(player)
        row[f"player{i}"] = player
        row[f"score{i}"] = "" if place is None else place.score
        row[f"rank{i}"] = "" if place is None else place.place
    return row


def _csv(rows: Iterable[dict[str, object]], out: IO[str]) -> None:
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, restval="")
    writer.writeheader()
    writer.writerows(rows)


class ExportRefused(OSError):
    """The export's folder or one of its files is already there (or is not a plain folder): nothing is written
    through it, followed or replaced. `folder` is the name it would have had."""

    def __init__(self, folder: str):
        super().__init__(f"{folder} exists already")
        self.folder = folder


def _open_dir(name: str | Path, dir_fd: int | None = None) -> int:
    """A folder opened without following a symbolic link (its last part)."""
    return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)


def _new_dir(parent: int, name: str) -> int:
    """A fresh folder made in `parent` and opened: ExportRefused when anything of that name is there."""
    try:
        os.mkdir(name, 0o755, dir_fd=parent)
        return _open_dir(name, parent)
    except (FileExistsError, NotADirectoryError):
        raise ExportRefused(name) from None


def _new_file(folder: int, name: str) -> IO[bytes]:
    """A file made exclusively in `folder` (never one that is there, never through a link)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        return os.fdopen(os.open(name, flags, 0o644, dir_fd=folder), "wb")
    except FileExistsError:
        raise ExportRefused(name) from None


def _text_file(folder: int, name: str) -> IO[str]:
    return io.TextIOWrapper(_new_file(folder, name), encoding="utf-8", newline="")


def export(log: EventLog, out_dir: Path, table: str) -> tuple[Path, int]:
    """games.csv plus one transcript per game in `out_dir` (made if missing); returns the CSV's path and the
    number of games. Every file is made exclusively and no link is followed: ExportRefused if one exists."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    folder = _open_dir(out_dir)
    try:
        count = _write_games(log, folder, table)
    finally:
        os.close(folder)
    return out_dir / "games.csv", count


def _write_games(log: EventLog, folder: int, table: str) -> int:
    items = summaries(log)
    for summary in items:
        with _text_file(folder, transcript_name(summary.record)) as out:
            log.export(summary.record.id, out)
    with _text_file(folder, "games.csv") as out:
        _csv((csv_row(table, s) for s in items), out)
    return len(items)


def transcript_name(record: GameRecord) -> str:
    return f"game-{record.id:05d}-{_safe(str(record.header.get('game', 'unknown')))}.jsonl"


def usb_stick(mounts: Path = Path("/proc/mounts"), roots: tuple[str, ...] = USB_ROOTS) -> Path | None:
    """The first writable removable-looking mount (under /media, /run/media or /mnt), or None."""
    try:
        lines = mounts.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) < 3:
            continue
        where = fields[1].replace("\\040", " ")
        if fields[2] in USB_FILESYSTEMS and where.startswith(roots) and os.access(where, os.W_OK):
            return Path(where)
    return None


def export_everything(log: EventLog, data_dir: Path, table: str, mounts: Path = Path("/proc/mounts"),
                      roots: tuple[str, ...] = USB_ROOTS) -> tuple[Path, bool]:
    """The admin menu's Export: CSV, transcripts and a backup into one new folder; returns it and "on a USB
    stick". Whatever the stick holds cannot turn the export elsewhere: the folder is made exclusively in the
    stick's top folder and every file in it exclusively, none through a symbolic link (the issue: a stick's
    `games.csv` → the live log turned the log into CSV text). ExportRefused when the folder is there already."""
    stick = usb_stick(mounts, roots)
    if stick is not None:
        base = _open_dir(stick)
    else:
        exports = Path(data_dir) / "exports"
        exports.mkdir(exist_ok=True)
        base = _open_dir(exports)
    name = f"tabletop-referee-{_safe(table)}-{time.strftime('%Y%m%d-%H%M%S')}"
    try:
        folder = _new_dir(base, name)
        try:
            _write_games(log, folder, table)
            _write_backup(log.path, Path(data_dir), folder)
            _write_faces(Path(data_dir), folder)
        finally:
            os.close(folder)
    finally:
        os.close(base)
    return (stick if stick is not None else Path(data_dir) / "exports") / name, stick is not None


def _write_backup(source: Path, data_dir: Path, folder: int) -> None:
    """The log's consistent copy (`backup`) made in the data directory, then written into the export folder."""
    private = backup(source, data_dir / ".export-backup.sqlite3")
    try:
        with open(private, "rb") as copy, _new_file(folder, "events.sqlite3") as out:
            shutil.copyfileobj(copy, out, 1024 * 1024)
            out.flush()
            os.fsync(out.fileno())
    finally:
        private.unlink(missing_ok=True)


def _write_faces(data_dir: Path, folder: int) -> int:
    """The decks taught to the camera (`DATA/faces/GAME/deck-N/`) into the export's `faces/`, laid out as in the
    data directory (`referee-kiosk camera restore` takes them back). Only what the kiosk itself would load goes:
    each deck's manifest and the pictures it names, every file read as the kiosk reads it (never through a link,
    never beyond its size) and written as every export file is. Returns how many decks were copied."""
    if not (data_dir / "faces").is_dir():
        return 0
    import kiosk.games
    from hw.camera import taught
    from kiosk.hardware.camera_faces import faces_of

    found = {game: taught.decks(data_dir, game, set(faces_of(game))) for game in kiosk.games.ids()}
    found = {game: decks for game, decks in found.items() if decks}
    if not found:
        return 0
    faces = _new_dir(folder, "faces")
    try:
        for game, decks in found.items():
            games = _new_dir(faces, game)
            try:
                for deck in decks:
                    _copy_deck(deck, games)
            finally:
                os.close(games)
    finally:
        os.close(faces)
    return sum(len(decks) for decks in found.values())


def _copy_deck(deck: TaughtDeck, parent: int) -> None:
    """One taught deck's manifest and named pictures into a new folder of its name in `parent`."""
    from hw.camera import taught

    names = list(dict.fromkeys(name for _, name in deck.looks))  # a manifest naming a file twice: copied once
    files = [("deck.json", taught.MAX_MANIFEST)] + [(n, taught.MAX_PICTURE) for n in names] + [
        (n.replace(".png", "-uv.png"), taught.MAX_PICTURE) for n in names]
    target = _new_dir(parent, deck.name)
    try:
        for name, limit in files:
            data = taught.read_plain(deck.path / name, limit)
            if data is not None:
                with _new_file(target, name) as out:
                    out.write(data)
    finally:
        os.close(target)


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name) or "table"
