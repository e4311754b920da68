"""Guest words only (issue #26), end to end: a real kiosk process plays every game on the simulated table and the
table makes the mistakes players make – a card out of turn, a card that does not go, the same card scanned again,
a card of another game. After each rejection every text on the screen, in German and in English, is read through
the one detector of developer words (`tests/developer_words.py`): no error id, no rule id, no card code."""

from __future__ import annotations

import random
import sqlite3
import time
from typing import Any

import pytest

from hw.scanners import DEFAULT_DEDUPE_MS
from referee import registry, sim
from referee.table import Referee
from tests.developer_words import developer_words
from tests.kiosk_process import KioskProcess
from tests.test_kiosk_e2e import SEATS, play_event, start_game

PROBES = 16  # rejections made per game (each read in both languages)
PLAYED = 80  # events played at most per game


def _foreign_card(game_id: str) -> str:
    """A card of another game's deck: the scanners know its prefix, the referee says it is no card of this game."""
    other = next(g for g in registry.ids() if g != game_id)
    deck = Referee(sim.new_table(other, 0).header).deck
    return deck.codes(with_copies=False)[0]


def _read_screen(kiosk: KioskProcess, lang: str) -> dict[str, list[str]]:
    """The screen's texts and button labels in `lang` and in the other language (touching the language button)."""
    found = {lang: kiosk.cmd("view")["texts"]}
    kiosk.touch("lang")
    other = "en" if lang == "de" else "de"
    found[other] = kiosk.cmd("view")["texts"]
    kiosk.touch("lang")
    return found


class Table:
    """The simulated game on the kiosk, with a referee beside it that says in advance what the kiosk will reject."""

    def __init__(self, kiosk: KioskProcess, game_id: str):
        self.kiosk = kiosk
        players = sim.get(game_id).default_players
        options = sim.get(game_id)(random.Random(21), sim.names(players)).header.get("options", {})
        self.names = start_game(kiosk, game_id, players, options)
        self.seat_of = dict(zip(self.names, SEATS, strict=False))
        self.sim = sim.get(game_id)(random.Random(21), self.names)
        self.mirror = Referee(self.sim.header)
        self.count = 0
        self.probes = 0
        self.seen: dict[str, set[str]] = {}  # error id → texts read after it
        self.bad: list[tuple[str, str, list[str]]] = []

    def events(self):
        return sim.play(self.sim, Referee(self.sim.header))

    def play(self, event: dict[str, Any]) -> None:
        self.count += 1
        play_event(self.kiosk, event, self.seat_of, self.count)
        assert self.mirror.apply(event).ok

    def rejected(self) -> int:
        """Rejected attempts in the kiosk's event log (the real store, read beside the running kiosk)."""
        with sqlite3.connect(f"file:{self.kiosk.data_dir / 'events.sqlite3'}?mode=ro", uri=True) as db:
            return db.execute("SELECT COUNT(*) FROM records WHERE kind='event' AND ok=0").fetchone()[0]

    def reject(self, code: str, player: str, again: bool = False) -> None:
        """Scan `code` at `player`'s reader when the referee will refuse what the kiosk makes of it; read the screen.
        `again`: the card was just read at that reader, wait until the scanner reads it a second time."""
        state = self.kiosk.state()
        if state.get("pending") or state.get("state", {}).get("finished"):
            return
        made = [{"type": kind, "player": player, "card": code} for kind in ("play", "discard", "reveal")]
        if any(self.mirror.check(event).ok for event in made):  # what a scan makes differs per game and phase
            return
        if again:
            time.sleep(DEFAULT_DEDUPE_MS / 1000 + 0.05)
        before = self.rejected()
        self.probes += 1
        self.kiosk.cmd("scan", code=code, reader=self.seat_of[player])
        self.kiosk.wait(lambda s: s.get("pending") or self.rejected() > before)
        after = self.kiosk.state()
        if after.get("pending"):  # the screen asks first (which numeral, which opponent): the table says no more
            self.kiosk.touch("cancel")
            return
        assert after["events"] == self.count and after["feedback"]["error"], "a rejection changes nothing"
        error = after["feedback"]["error"]
        for lang, texts in _read_screen(self.kiosk, "en").items():
            self.seen.setdefault(error, set()).update(texts)
            self.bad += [(error, text, found) for text in texts if (found := developer_words(text, lang))]
        time.sleep(DEFAULT_DEDUPE_MS / 1000 + 0.05)  # the same card at the same reader is read again after this


def _mistakes(table: Table, last: dict[str, Any], foreign: str) -> None:
    """The mistakes a table makes after `last` was accepted: cards the rules refuse now, the card just laid read
    again (at its player's reader and at another seat's), a card of another game."""
    scans = ("play", "discard", "reveal")
    refused = [c for c in table.sim.candidates(table.mirror)
               if c.get("type") in scans and isinstance(c.get("card"), str) and set(c) == {"type", "player", "card"}
               and not table.mirror.check(c).ok]
    for candidate in refused[:2]:
        table.reject(candidate["card"], candidate["player"])
    card = last.get("card") or (last.get("cards") or [None])[0]
    if isinstance(card, str) and last.get("player") in table.seat_of:
        table.reject(card, last["player"], again=True)  # a double scan
        table.reject(card, next(p for p in table.names if p != last["player"]))  # at another seat
    actors = table.mirror.hints().actors
    if table.count % 5 == 1 and actors:
        table.reject(foreign, actors[0])


@pytest.mark.slow
@pytest.mark.parametrize("game_id", registry.ids())
def test_no_developer_words_after_rejections_on_a_real_kiosk(tmp_path, game_id: str) -> None:
    kiosk = KioskProcess(tmp_path)
    try:
        table = Table(kiosk, game_id)
        foreign = _foreign_card(game_id)
        for event in table.events():
            table.play(event)
            _mistakes(table, event, foreign)  # the simulated table and the referee beside it agree now
            if table.count >= PLAYED or table.probes >= PROBES:
                break
        assert not table.bad, table.bad[:5]
        assert "unknown-card" in table.seen and len(table.seen) >= 3, \
            f"{game_id}: the table made too few kinds of mistakes: {sorted(table.seen)}"
        print(f"{game_id}: {table.probes} rejections, {sum(map(len, table.seen.values()))} distinct texts read "
              f"in German and English: {sorted(table.seen)}")
    finally:
        kiosk.close()
