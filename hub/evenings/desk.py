"""A club night's desk: what staff do (create, edit, delete, check in, drop out and back, start, redraw and close
rounds, accept or enter a result, end), kept as a log of actions in the hub's data folder; the evening's state
is folded from that log (`hub.evenings.model`).

Every refusal is a `DeskError` whose sentence says why and what to do (English msgid of the hub's catalogue,
with its values), so staff read the reason in their language. The results come from the hub's own store: a
game counts for a round when its `start` record names the evening and round (`assignment`), it was played by
the assigned players, and it is verified (or staff accepted it, or entered the result themselves). A
restarted hub folds the same log again: nothing is lost, the round goes on.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from cafe import contract
from hub.evenings.model import Evening, TableOutcome, apply, created
from hub.evenings.seating import Draw, draw_round, encounters
from hub.identities import canonical_entry, is_guest_name
from referee import games as referee_games

SCHEMA = """
CREATE TABLE IF NOT EXISTS actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, evening TEXT NOT NULL, what TEXT NOT NULL,
    detail TEXT NOT NULL, at REAL NOT NULL, undone INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS actions_evening ON actions (evening, id);
"""
SEATINGS = ("mixing", "standings", "random")
SCORINGS = ("places", "score")
MAX_ROUNDS = 20
MAX_NAME = contract.MAX_NAME  # characters of a player's name (a table's seat shows it)
MAX_TITLE = 80
MAX_NOTE = 200
MAX_ENTRANTS = 120  # an evening's players: 40 is a big night; the cap stops a flood of check-ins
GUESTS_PER_ADDRESS = 3  # guest check-ins one address (an IPv6 /64) may make per evening

Publish = Callable[[str, str, dict[str, Any] | None], None]  # (café, table, assignment or None to clear)
Known = Callable[[str], list[str]]  # café → the tables the hub knows there
Aliases = Callable[[], Mapping[str, str]]  # the staff's merges (alias → name)


class DeskError(ValueError):
    """A staff action that does not fit the evening's state. `message` is the English sentence (a msgid of the
    hub's catalogue) saying why and what to do, `values` fill its {names}."""

    def __init__(self, message: str, **values: object):
        super().__init__(message.format(**values) if values else message)
        self.message = message
        self.values = values


def clean_text(value: object, limit: int) -> str:
    """A name, title or note from a form: whitespace collapsed, at most `limit` characters, no control
    characters (the contract refuses them: a table's screen cannot draw them)."""
    text = " ".join(str(value or "").split())
    if not contract.safe_text(text):  # the contract's one text rule (`cafe.contract.check_texts`)
        raise DeskError("Leave out control characters: type only letters, digits and punctuation.")
    if len(text) > limit:
        raise DeskError("At most {limit} characters, please.", limit=limit)
    return text


def address_key(address: str) -> str:
    """What the guests' limit counts by: an IPv4 address, or an IPv6 address's /64 (one device can take any
    address of its network's /64, so counting whole addresses would let it check in without end)."""
    if ":" not in address:
        return address
    import ipaddress

    try:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    except ValueError:
        return address


def slug(title: str, at: float) -> str:
    """An evening id from its title ("Freitag 27.11." → "freitag-27-11"), or from the date."""
    text = unicodedata.normalize("NFKD", title.lower().replace("ß", "ss"))
    text = re.sub(r"[^a-z0-9]+", "-", text.encode("ascii", "ignore").decode()).strip("-")[:32].strip("-")
    return text or time.strftime("abend-%Y-%m-%d", time.localtime(at))


class Desk:
    """The club nights of one hub: actions in `evenings.sqlite`, games read from the hub's store (read-only)."""

    def __init__(self, data_dir: Path, hub_db: Path, publish: Publish, clock: Callable[[], float] = time.time,
                 known_tables: Known | None = None, aliases: Aliases | None = None):
        self.path = Path(data_dir) / "evenings.sqlite"
        self.hub_db = hub_db
        self.publish = publish
        self.clock = clock
        self.known_tables = known_tables
        self.aliases = aliases or dict
        self.lock = threading.RLock()
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)

    # ------------------------------------------------------------------ reading

    def ids(self) -> list[str]:
        """The evenings not deleted, newest first."""
        with self.lock:
            rows = self.db.execute("SELECT evening FROM actions WHERE what='create' AND undone=0 ORDER BY id DESC")
            gone = {r[0] for r in self.db.execute("SELECT evening FROM actions WHERE what='delete' AND undone=0")}
            return [r[0] for r in rows if r[0] not in gone]

    def evening(self, evening_id: str) -> Evening:
        """The evening folded from its actions, with each table's game looked up in the hub's store."""
        with self.lock:
            rows = self.db.execute("SELECT id, what, detail, at, undone FROM actions WHERE evening=? ORDER BY id",
                                   (evening_id,)).fetchall()
        live = [(i, what, json.loads(detail), at) for i, what, detail, at, undone in rows if not undone]
        if not live or live[0][1] != "create":
            raise KeyError(evening_id)
        evening = created(evening_id, live[0][2], live[0][3])
        evening.actions.append({"id": live[0][0], "what": "create", "detail": live[0][2], "at": live[0][3]})
        for action_id, what, detail, at in live[1:]:
            apply(evening, what, detail)
            evening.actions.append({"id": action_id, "what": what, "detail": detail, "at": at})
        if evening.deleted:
            raise KeyError(evening_id)
        self._games(evening)
        return evening

    def _games(self, evening: Evening) -> None:
        """Fill each table's state from the games whose start record names this evening and round."""
        if not self.hub_db.exists() or not evening.played:
            return
        db = sqlite3.connect(f"file:{self.hub_db}?mode=ro", uri=True)
        try:
            rows = db.execute(
                "SELECT g.tbl, g.uid, g.players, g.status, g.checked, g.scores, g.winners, g.end_n, g.kind, g.ranked, "
                "r.body "
                "FROM games g JOIN records r ON r.cafe=g.cafe AND r.tbl=g.tbl AND r.chain=g.chain AND r.n=g.start_n "
                "WHERE g.cafe=? AND r.body LIKE ? ORDER BY g.start_n", (evening.cafe, f'%"{evening.id}"%')).fetchall()
        finally:
            db.close()
        for tbl, uid, players, status, checked, scores, winners, end_n, kind, ranked, body in rows:
            ref = json.loads(body).get("assignment") or {}
            if ref.get("evening") != evening.id or not 1 <= int(ref.get("round", 0)) <= len(evening.played):
                continue
            table = next((t for t in evening.played[int(ref["round"]) - 1].tables if t.table == tbl), None)
            if table is None or table.state == "entered" or uid in table.void:
                continue
            if tuple(json.loads(players)) != table.players:
                continue  # not the assigned seats: not this round's game
            table.game_uid, table.ended = uid, end_n is not None
            table.scores = json.loads(scores) if scores else None
            table.winners = json.loads(winners) if winners else []
            table.kind, table.ranked = kind, json.loads(ranked) if ranked else None
            table.state = _state(uid, status, checked, table.accepted)

    # ------------------------------------------------------------------ the evening itself

    def _act(self, evening_id: str, what: str, detail: dict[str, Any]) -> int:
        with self.lock:
            cur = self.db.execute("INSERT INTO actions (evening, what, detail, at) VALUES (?, ?, ?, ?)",
                                  (evening_id, what, json.dumps(detail, ensure_ascii=False), self.clock()))
            if cur.lastrowid is None:
                raise sqlite3.DatabaseError("the INSERT made no row")
            return cur.lastrowid

    def _settings(self, cafe: str, *, game: str, rounds: int, tables: list[str], seating: str, scoring: str,
                  options: dict[str, Any] | None, title: dict[str, str] | None) -> dict[str, Any]:
        """An evening's settings, each checked with the sentence staff need to put it right."""
        cls = referee_games.GAMES.get(game)
        if cls is None:
            raise DeskError("Choose a game from the list.")
        if seating not in SEATINGS or scoring not in SCORINGS:
            raise DeskError("Choose the seating and the scoring from the lists.")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise DeskError("An evening has {low} to {high} rounds.", low=1, high=MAX_ROUNDS)
        tables = list(dict.fromkeys(tables))
        if not tables:
            raise DeskError("Tick at least one table.")
        known = self.known_tables(cafe) if self.known_tables is not None else tables
        unknown = [t for t in tables if t not in known]
        if unknown:
            raise DeskError("Table {table} is not one of this café's tables ({known}).", table=unknown[0],
                            known=", ".join(known) or "–")
        most = max(cls.player_counts)
        title = {lang: clean_text((title or {}).get(lang, ""), MAX_TITLE) for lang in contract.LANGUAGES}
        return {"game": game, "options": dict(options or {}), "rounds": rounds, "tables": tables,
                "seating": seating, "scoring": scoring, "title": title, "seats": most}

    def create(self, evening_id: str | None, *, cafe: str, game: str, rounds: int, tables: list[str],
               seating: str = "mixing", scoring: str = "places", options: dict[str, Any] | None = None,
               title: dict[str, str] | None = None) -> Evening:
        """A new evening; without an id one is made from the title (or the date)."""
        settings = self._settings(cafe, game=game, rounds=rounds, tables=tables, seating=seating, scoring=scoring,
                                  options=options, title=title)
        settings.pop("seats")
        evening_id = (evening_id or "").strip().lower() or slug(settings["title"]["de"] or settings["title"]["en"],
                                                                self.clock())
        if not contract.is_id(evening_id):
            raise DeskError("An evening's short name uses only a-z, 0-9 and '-' (at most 32), e.g. friday-27-11.")
        if not contract.is_id(cafe):
            raise DeskError("This hub serves several cafés: open the desk of one café.")
        with self.lock:
            exists = self.db.execute("SELECT 1 FROM actions WHERE evening=? LIMIT 1", (evening_id,)).fetchone()
            if exists:
                raise DeskError("An evening named {evening} exists already: choose another short name.",
                                evening=evening_id)
            self._act(evening_id, "create", {"cafe": cafe, **settings})
        return self.evening(evening_id)

    def edit(self, evening_id: str, *, game: str, rounds: int, tables: list[str], seating: str, scoring: str,
             options: dict[str, Any] | None = None, title: dict[str, str] | None = None) -> Evening:
        """Change the settings until the first round starts (then its tables and game are fixed)."""
        with self.lock:
            evening = self._open(evening_id)
            if evening.played:
                raise DeskError("The first round has started: the settings stay as they are.")
            settings = self._settings(evening.cafe, game=game, rounds=rounds, tables=tables, seating=seating,
                                      scoring=scoring, options=options, title=title)
            settings.pop("seats")
            self._act(evening_id, "edit", settings)
        return self.evening(evening_id)

    def delete(self, evening_id: str) -> None:
        """Take a stray evening off every list, until its first result."""
        with self.lock:
            evening = self.evening(evening_id)
            if evening.any_result():
                raise DeskError("A game of this evening has a result: end the evening instead of deleting it.")
            self._act(evening_id, "delete", {})
            for table in evening.tables:
                if evening.round_open:
                    self.publish(evening.cafe, table, None)

    # ------------------------------------------------------------------ players

    def check_in(self, evening_id: str, name: str, via: str = "staff", address: str = "") -> Evening:
        with self.lock:
            evening = self._open(evening_id)
            name = self._entry_name(evening, name)
            if via == "guest":
                self._guest_may(evening, address)
            if len(evening.entrants) >= MAX_ENTRANTS:
                raise DeskError("The evening is full ({most} players).", most=MAX_ENTRANTS)
            joined = len(evening.played) + 1  # a late arrival plays from the next round
            self._act(evening_id, "check_in", {"name": name, "joined": joined, "via": via,
                                               "address": address_key(address)})
        return self.evening(evening_id)

    def _entry_name(self, evening: Evening, typed: str) -> str:
        """The name a check-in enters: cleaned, through the staff's merges, not a table's guest name, not a
        second spelling of someone already in."""
        name = clean_text(typed, MAX_NAME)
        if not name:
            raise DeskError("Type the player's name.")
        if is_guest_name(name):
            raise DeskError("{name} is what a table calls a guest: type the player's own name.", name=name)
        counted = canonical_entry(name, self.aliases())
        for other in evening.entrants:
            if other.casefold() == counted.casefold():
                if counted != name:
                    raise DeskError("{name} counts as {other}, who is checked in already.", name=name, other=other)
                raise DeskError("{name} is checked in already.", name=other)
        return counted

    def _guest_may(self, evening: Evening, address: str) -> None:
        if not evening.checkin_open:
            raise DeskError("Check-in is closed: ask the staff.")
        key = address_key(address)
        if sum(1 for e in evening.entrants.values() if e.address == key) >= GUESTS_PER_ADDRESS:
            raise DeskError("This device has checked in {most} names already: ask the staff for more.",
                            most=GUESTS_PER_ADDRESS)

    def remove(self, evening_id: str, name: str) -> Evening:
        with self.lock:
            evening = self._open(evening_id)
            self._entrant(evening, name)
            if evening.has_played(name):
                raise DeskError("{name} has played a round: let them drop out instead.", name=name)
            self._act(evening_id, "remove", {"name": name})
        return self.evening(evening_id)

    def drop(self, evening_id: str, name: str) -> Evening:
        with self.lock:
            evening = self._open(evening_id)
            if self._entrant(evening, name).dropped is not None:
                raise DeskError("{name} has dropped out already.", name=name)
            self._act(evening_id, "drop", {"name": name, "from": len(evening.played) + 1})
        return self.evening(evening_id)

    def back(self, evening_id: str, name: str) -> Evening:
        """A dropped-out player comes back: seated again from the next round drawn."""
        with self.lock:
            evening = self._open(evening_id)
            if self._entrant(evening, name).dropped is None:
                raise DeskError("{name} has not dropped out.", name=name)
            self._act(evening_id, "back", {"name": name, "from": len(evening.played) + 1})
        return self.evening(evening_id)

    @staticmethod
    def _entrant(evening: Evening, name: str) -> Any:
        if name not in evening.entrants:
            raise DeskError("{name} is not checked in.", name=name)
        return evening.entrants[name]

    def set_checkin(self, evening_id: str, open_: bool) -> Evening:
        with self.lock:
            self._open(evening_id)
            self._act(evening_id, "checkin", {"open": bool(open_)})
        return self.evening(evening_id)

    # ------------------------------------------------------------------ rounds

    def start_round(self, evening_id: str, seed: int | None = None) -> Evening:
        with self.lock:
            evening = self._open(evening_id)
            number = len(evening.played) + 1
            if evening.round_open:
                raise DeskError("Round {round} is still on: close it first.", round=number - 1)
            if number > evening.rounds:
                raise DeskError("All {rounds} rounds have been played: end the evening.", rounds=evening.rounds)
            self._act(evening_id, "start_round", self._drawn(evening, number, evening.active(number), seed))
            evening = self.evening(evening_id)
            self.sync(evening)
        return evening

    def redraw(self, evening_id: str, seed: int | None = None) -> Evening:
        """Draw the current round's seats again (a late arrival, a drop-out), until its first game starts."""
        with self.lock:
            evening = self._open(evening_id)
            current = evening.current
            if current is None or current.closed:
                raise DeskError("No round is on: start one.")
            if current.started:
                raise DeskError("A game of round {round} has started: its seats stay as drawn.", round=current.number)
            number = current.number
            players = [e.name for e in evening.playing() if e.joined <= number + 1]
            self._act(evening_id, "redraw", self._drawn(evening, number, players, seed))
            evening = self.evening(evening_id)
            self.sync(evening)
        return evening

    def _drawn(self, evening: Evening, number: int, players: list[str], seed: int | None) -> dict[str, Any]:
        seed = random.SystemRandom().randrange(2**32) if seed is None else seed
        draw = self._draw(evening, number, players, random.Random(seed))
        if not draw.tables:
            raise DeskError("Too few players for a table of {game}: check more players in.",
                            game=getattr(referee_games.GAMES.get(evening.game), "title", evening.game))
        tables = [{"table": table, "players": list(seat.players), "dealer": seat.dealer}
                  for table, seat in zip(evening.tables, draw.tables, strict=False)]
        return {"number": number, "seed": seed, "tables": tables, "byes": list(draw.byes), "at": contract.now_iso()}

    def _draw(self, evening: Evening, number: int, players: list[str], rng: random.Random) -> Draw:
        counts = referee_games.get(evening.game).player_counts
        earlier = evening.played[:number - 1]
        points = {line.player: float(line.points) for line in evening.standings()}
        met = encounters([[t.players for t in r.tables] for r in earlier])
        byes_had: dict[str, int] = {}
        for r in earlier:
            for name in r.byes:
                byes_had[name] = byes_had.get(name, 0) + 1
        method = "random" if number == 1 else evening.seating
        return draw_round(players, counts, method=method, rng=rng, points=points, met=met,
                          byes_had=byes_had, max_tables=len(evening.tables))

    def assignment(self, evening: Evening, number: int, table: TableOutcome) -> dict[str, Any]:
        title = {lang: evening.title_in(lang) for lang in contract.LANGUAGES}
        return contract.assign_payload(evening.id, number, evening.game, list(table.players),
                                       options=evening.options, dealer=table.dealer, title=title,
                                       at=table.assigned_at or None)

    def sync(self, evening: Evening) -> None:
        """Every table of the evening shows what the desk says now: the open round's assignment where its game
        has not ended, nothing elsewhere (retained on the broker, so sending it again changes nothing)."""
        current = evening.current
        seated = {t.table: t for t in current.tables} if current is not None and evening.round_open else {}
        for table in evening.tables:
            outcome = seated.get(table)
            wanted = None if outcome is None or outcome.ended or outcome.counts else \
                self.assignment(evening, current.number, outcome)  # type: ignore[union-attr]
            self.publish(evening.cafe, table, wanted)

    def close_round(self, evening_id: str) -> Evening:
        with self.lock:
            evening = self._open(evening_id)
            if not evening.round_open:
                raise DeskError("No round is on: start one.")
            self._act(evening_id, "close_round", {"number": evening.current.number})  # type: ignore[union-attr]
            evening = self.evening(evening_id)
            self.sync(evening)
        return evening

    def table_of(self, evening: Evening, number: int, table: str) -> TableOutcome:
        if not 1 <= number <= len(evening.played):
            raise DeskError("There is no round {round}: choose a table of a round played.", round=number)
        found = next((t for t in evening.played[number - 1].tables if t.table == table), None)
        if found is None:
            raise DeskError("Table {table} has no seats in round {round}.", table=table, round=number)
        return found

    def accept(self, evening_id: str, number: int, table: str, note: str = "") -> Evening:
        """A disputed or abandoned game counts as it was played (its end record's scores)."""
        with self.lock:
            evening = self._open(evening_id)
            outcome = self.table_of(evening, number, table)
            if outcome.state not in ("disputed", "abandoned") or outcome.game_uid is None:
                raise DeskError("Only a disputed or abandoned game can be accepted; enter the result instead.")
            self._act(evening_id, "accept", {"round": number, "table": table, "game_uid": outcome.game_uid,
                                             "note": clean_text(note, MAX_NOTE)})
        return self.evening(evening_id)

    def enter(self, evening_id: str, number: int, table: str, places: dict[str, int], note: str) -> Evening:
        """Staff enter a table's result themselves, as places (1 the best; ties allowed), kept with the note and
        shown as entered by staff. The game's score for tie-breaks is then the number of players beaten."""
        with self.lock:
            evening = self._open(evening_id)
            outcome = self.table_of(evening, number, table)
            size = len(outcome.players)
            note = clean_text(note, MAX_NOTE)
            if set(places) != set(outcome.players) or not all(1 <= v <= size for v in places.values()):
                raise DeskError("Give every player of table {table} a place from 1 to {size}.", table=table,
                                size=size)
            if not note:
                raise DeskError("Write a note saying why the result is entered by hand.")
            scores = {p: sum(1 for q in places.values() if q > v) for p, v in places.items()}
            winners = [p for p, v in places.items() if v == min(places.values())]
            self._act(evening_id, "enter", {"round": number, "table": table, "scores": scores, "winners": winners,
                                            "places": places, "note": note})
            evening = self.evening(evening_id)
            self.sync(evening)
        return evening

    def replay(self, evening_id: str, number: int, table: str, note: str = "") -> Evening:
        """The table plays its game of the round again: the old game no longer counts, the assignment goes out
        anew (a new `at`, so the table offers it again)."""
        with self.lock:
            evening = self._open(evening_id)
            outcome = self.table_of(evening, number, table)
            if not evening.round_open or number != len(evening.played):
                raise DeskError("Only a table of the round that is on can play again.")
            self._act(evening_id, "replay", {"round": number, "table": table, "game_uid": outcome.game_uid,
                                             "at": contract.now_iso(), "note": clean_text(note, MAX_NOTE)})
            evening = self.evening(evening_id)
            self.sync(evening)
        return evening

    def end(self, evening_id: str) -> Evening:
        with self.lock:
            evening = self._open(evening_id)
            if evening.round_open:
                self._act(evening_id, "close_round", {"number": evening.current.number})  # type: ignore[union-attr]
            self._act(evening_id, "end", {})
            evening = self.evening(evening_id)
            self.sync(evening)
        return evening

    def undo(self, evening_id: str) -> dict[str, Any]:
        """Take back the last action; a round's start or redraw only while none of its games has started."""
        with self.lock:
            evening = self.evening(evening_id)
            last = evening.actions[-1]
            if last["what"] == "create":
                raise DeskError("Nothing to take back: delete the evening instead.")
            if last["what"] in ("start_round", "redraw") and evening.current is not None and evening.current.started:
                raise DeskError("A game of round {round} has started: its start cannot be taken back.",
                                round=evening.current.number)
            self.db.execute("UPDATE actions SET undone=1 WHERE id=?", (last["id"],))
            self.sync(self.evening(evening_id))
        return last

    def _open(self, evening_id: str) -> Evening:
        evening = self.evening(evening_id)
        if evening.ended:
            raise DeskError("The evening has ended: undo its end to change it.")
        return evening

    # ------------------------------------------------------------------ news from the tables

    def on_news(self, news: dict[str, Any]) -> None:
        """The writer thread's news: a game of the current round ended at a table, so its assignment is cleared."""
        if news.get("type") != "record" or news.get("kind") != "end":
            return
        for evening_id in self._open_ids():
            try:
                evening = self.evening(evening_id)
            except KeyError:
                continue
            if not evening.round_open or news.get("cafe") != evening.cafe:
                continue
            for table in evening.current.tables:  # type: ignore[union-attr]
                if table.table == news.get("table") and table.game_uid == news.get("game_uid"):
                    self.publish(evening.cafe, table.table, None)

    def voided(self) -> set[tuple[str, str, str]]:
        """(café, table, game uid) of every game a club night had played again (`replay`): it counts nowhere."""
        with self.lock:
            rows = self.db.execute(
                "SELECT c.detail, a.detail FROM actions a JOIN actions c ON c.evening=a.evening AND c.what='create' "
                "AND c.undone=0 WHERE a.what='replay' AND a.undone=0").fetchall()
        out = set()
        for created_detail, detail in rows:
            d = json.loads(detail)
            if d.get("game_uid"):
                out.add((json.loads(created_detail)["cafe"], d["table"], d["game_uid"]))
        return out

    def _open_ids(self) -> list[str]:
        """Months of evenings: only those not ended."""
        with self.lock:
            ended = {row[0] for row in self.db.execute("SELECT evening FROM actions WHERE what='end' AND undone=0")}
        return [i for i in self.ids() if i not in ended]


def _state(uid: str, status: str, checked: str, accepted: list[str]) -> str:
    if status == "playing":
        return "playing"
    if uid in accepted:
        return "accepted"
    if status == "abandoned":
        return "abandoned"
    return {"verified": "verified", "disputed": "disputed"}.get(checked, "playing")
