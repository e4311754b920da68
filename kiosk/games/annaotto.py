"""The ANNAOTTO table screen (`../shared/rules/annaotto.md`): matching, chains, PLUS, calls, catches, the ALLE race.

Scans: before the start the operator scans the start card (AO-R2); after it every
scan is a play by the player on turn, out of another player's hand when the
"From" toggle names that player (AO-R6). Seat buttons: `confirm` accepts a pending
penalty or keeps the drawn card, `slap` is a race press stamped with its edge
time. Everything else (draw, calls, catches, the ANNAOTTO choices) is a touch.

Which touches are offered, what a confirm costs, who is next and how a race ended
all come from `Referee.hints()` (events, owed, detail, race): the screen re-derives
no rule. It keeps only what is its own: the "From" toggle, the race's timer, and the
last cards laid (for the card row).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial
from typing import Any

from kiosk.games import Action, Choice, Event, GameUI, Note, Panel, RaceShown, Ruling, State, register
from kiosk.i18n import Np_, tr, trn
from referee.decks.annaotto import COLOUR_NAMES, COLOURS
from referee.hints import RaceView

DEFAULT_RACE_TIMEOUT_MS = 3000


@dataclass
class RaceClock:
    """When the screen first saw a race open: its timeout counts from there (AO-R15d)."""

    by: str
    opened: float


def _call(player: str, word: str) -> Event:
    """A player's call (ANNA, OTTO, ALLE) as the event the table sends."""
    return {"type": "call", "player": player, "word": word}


@register
class AnnaottoUI(GameUI):
    game_id = "annaotto"
    title = "ANNAOTTO"
    seat_unit = Np_("card", "cards")  # the seat tile's big number

    def __init__(self, players: tuple[str, ...], options: dict[str, Any], ruling: Ruling | None = None):
        super().__init__(players, options, ruling)
        self.race_timeout_ms = int(options.get("race_timeout_ms", DEFAULT_RACE_TIMEOUT_MS))
        self.source: tuple[str, str] | None = None  # (actor, other player): the next scan comes from that hand
        self.clock: RaceClock | None = None
        self.recent: list[tuple[int, str, str]] = []  # (pile size after, face, who laid it) for the card row
        self.scanned_at: str | None = None  # the last scan came from another player's scanner: that player

    def _race_view(self) -> RaceView | None:
        return self.hints.race if self.hints is not None else None

    # --- inputs → events

    def scan(self, state: State, code: str, seat: str | None) -> Event | Choice | None:
        if state["top"] is None and not state["finished"]:
            return {"type": "start", "card": code}  # AO-R2: the operator scans the start card
        player = state.get("turn") or seat
        if player is None:
            return None
        self.scanned_at = seat if seat not in (None, player) else None  # said in the verdict (K1: never silently)
        event: Event = {"type": "play", "player": player, "card": code}
        if self.source is not None and self.source[0] == player:
            event["from"] = self.source[1]
        return event

    def button(self, state: State, seat: str, button: str, t_us: int) -> Event | Note | None:
        if button == "slap":
            race = self._race_view()
            if race is not None and not race.open:  # after the race closed: ignored, quietly
                return Note(tr("{player}'s slap came after the race closed: ignored.", player=seat), quiet=True)
            return {"type": "press", "player": seat, "button": "slap", "t_us": t_us}
        if button == "confirm" and state["top"] is not None:
            return {"type": "press", "player": seat, "button": "confirm"}
        return None

    def actions(self, state: State) -> list[Action]:
        """The touches the referee would take now (`hints().events` and `owed`)."""
        hints, detail = self.hints, self.detail()
        if hints is None or detail is None or state["top"] is None:
            return []  # before the referee's first answer, or the game is over
        events, turn = hints.events, state["turn"]
        owed = {(o.kind, o.what): o.player for o in hints.owed}
        out: list[Action] = []
        chooser = owed.get(("choice", "colour")) or owed.get(("choice", "flip"))
        if chooser is not None:
            if "choose_colour" in events and ("choice", "colour") in owed:
                out.append(Action(tr("Colour"), lambda: self._colour_choice(chooser), "colour"))
            if "flip_choice" in events and ("choice", "flip") in owed:
                out.append(Action(tr("Who flips"), lambda: self._flip_choice(chooser), "flip"))
        elif turn is not None:
            if "press:confirm" in events:
                out.append(Action(self._confirm_label(), lambda: self._press(turn), "confirm"))
            if "draw" in events:
                out.append(Action(tr("Draw"), lambda: {"type": "draw", "player": turn}, "draw"))
            if "play" in events and not detail.drawn:
                out.append(Action(self._source_label(turn), lambda: self._source_choice(state, turn), "from"))
        for (kind, word), who in owed.items():
            if kind == "call" and "call" in events:
                out.append(Action(f"{who}: {word}!", partial(_call, who, word), f"call:{who}:{word}"))
        for (kind, _), who in owed.items():
            if kind == "catchable" and "catch" in events:
                out.append(Action(tr("Catch {player}", player=who), partial(self._catch_choice, who), "catch"))
        return out

    def _press(self, player: str) -> Event:
        return {"type": "press", "player": player, "button": "confirm"}

    def _confirm_label(self) -> str:
        detail = self.detail()
        if detail is None:
            return tr("Confirm")
        if detail.penalty:
            return tr("Confirm: take {n}", n=detail.penalty)
        if detail.flips:
            return tr("Confirm: flip {n}", n=detail.flips)
        return tr("Confirm: keep it")

    def _source_label(self, actor: str) -> str:
        if self.source is not None and self.source[0] == actor:
            return tr("From {player}'s hand", player=self.source[1])
        return tr("From another hand")

    def _source_choice(self, state: State, actor: str) -> Choice:
        others = [(p, p) for p in self.players if p != actor and state["hands"][p] >= 2]

        def complete(value: str | None) -> Note:
            self.source = None if value is None else (actor, value)
            if value is None:
                return Note(tr("The next scan is a card from {player}'s own hand.", player=actor))
            return Note(tr("The next scan is a card from {player}'s hand.", player=value))

        return Choice(tr("Lay a card from whose hand?"), [*others, (tr("Own hand"), None)], complete)

    def _colour_choice(self, player: str) -> Choice:
        return Choice(tr("Which colour?"), [(tr(COLOUR_NAMES[c]), c) for c in COLOURS],
                      lambda colour: {"type": "choose_colour", "player": player, "colour": colour})

    def _flip_choice(self, player: str) -> Choice:
        detail = self.detail()
        following = (detail.next_player if detail is not None else None) or player  # AO-R8, as the referee says
        options = [(tr("{player} (self)", player=player), "self"), (tr("{player} (next)", player=following), "next")]
        return Choice(tr("Who turns all hand cards over?"), options,
                      lambda who: {"type": "flip_choice", "player": player, "who": who})

    def _catch_choice(self, target: str) -> Choice:
        options = [(p, p) for p in self.players if p != target]
        return Choice(tr("Who caught {player}'s missed call?", player=target), options,
                      lambda catcher: {"type": "catch", "player": catcher, "target": target})

    def timers(self, state: State) -> list[tuple[float, Event]]:
        """The race's timeout (AO-R15d), counted from when the screen first saw it open."""
        race = self._race_view()
        if race is None or not race.open:
            self.clock = None
            return []
        if self.clock is None or self.clock.by != race.by:
            self.clock = RaceClock(race.by, time.monotonic())
        left = self.clock.opened + self.race_timeout_ms / 1000 - time.monotonic()
        return [(max(0.0, left), {"type": "race_close"})]

    def verdict_words(self, event: Event) -> str:
        """A card from another seat's scanner is the player on turn's (decision "who plays a scanned card?"): the
        verdict says whose scanner read it, so nothing is re-assigned silently (K1)."""
        words = super().verdict_words(event)
        return self._scanner_note(event, words)

    def verdict_player(self, event: Event) -> str:
        return self._scanner_note(event, super().verdict_player(event))

    def _scanner_note(self, event: Event, words: str) -> str:
        if self.scanned_at is None or event.get("type") != "play" or event.get("player") == self.scanned_at:
            return words
        return tr("{words} (read by {player}'s scanner)", words=words, player=self.scanned_at)

    # --- what the state forgets

    def accepted(self, event: Event, state: State) -> None:
        if event.get("type") not in ("call", "catch"):
            self.source = None
        self._follow_pile(event, state)

    def _follow_pile(self, event: Event, state: State) -> None:
        """The last cards laid, for the card row: each with who laid it (and from whose hand)."""
        pile, top = state["pile"], state["top"]
        if top is None:
            self.recent = []
            return
        if event.get("type") == "play":
            who = event["player"] if "from" not in event else f"{event['player']} < {event['from']}"
            self.recent.append((pile, top, who))
        self.recent = [r for r in self.recent if r[0] <= pile][-5:]
        if not self.recent or self.recent[-1][:2] != (pile, top):  # a reshuffle, an undo, or the start card
            self.recent = [(pile, top, tr("start") if event.get("type") == "start" else "")]

    # --- state → screen

    def panel(self, state: State) -> Panel:
        if state["top"] is None:
            return Panel(tr("Scan the start card"), [
                tr("Deal {n} cards each; turn the top card of the draw pile to its plain side.",
                   n=state["hands"][self.players[0]]),
                tr("Then scan it: it starts the discard pile and has no effect."),
            ], [], tr("Discard pile"), self._seat_lines(state), self._extra(state))
        notes = [self._flip_text(state["flip"])] if state["flip"] is not None else []
        if self.source is not None and self.source[0] == state["turn"]:
            notes.append(tr("Next scan: a card from {player}'s hand.", player=self.source[1]))
        cards = [self.shown("AO:" + face, who, highlight=i == len(self.recent) - 1)
                 for i, (_, face, who) in enumerate(self.recent)]
        race = self._race_view()
        big = ""
        if race is not None and not race.open:
            big = trn("ALLE race: {players} +{n} card", "ALLE race: {players} +{n} cards", race.penalty,
                      players=", ".join(race.losers) or "–")
        return Panel(self._headline(state), notes, cards, tr("Discard pile (top on the right)"),
                     self._seat_lines(state), self._extra(state), big)

    def race(self, state: State) -> RaceShown | None:
        """The open race (slaps so far) or the one just decided (losers), from `hints().race`."""
        race = self._race_view()
        if race is None:
            return None
        seat = {p: i for i, p in enumerate(self.players)}
        order = sorted(race.pressed.items(), key=lambda item: (item[1], seat[item[0]]))
        first = order[0][1] if order else 0
        slaps = [(p, t - first) for p, t in order]
        key = (race.by, tuple(order), race.open, self.clock.opened if race.open and self.clock else 0.0)
        card = self.shown("AO:" + state["top"]) if state.get("top") else None
        if race.open:
            ends = self.clock.opened + self.race_timeout_ms / 1000 if self.clock is not None else None
            return RaceShown(True, race.by, race.called, slaps, list(race.waiting), [], race.penalty, "", key, ends,
                             card)
        if not race.called:
            reason = tr("{player} did not call ALLE", player=race.by)
        elif any(p not in race.pressed for p in race.losers):
            reason = tr("Time up: no slap from them")
        else:
            reason = tr("Last hand on top")
        return RaceShown(False, race.by, race.called, slaps, [], list(race.losers), race.penalty, reason, key,
                         card=card)

    @staticmethod
    def _flip_text(flip: dict[str, Any]) -> str:
        """The public state's `flip`: who turns whose cards over now."""
        if flip["cards"] == "all":
            if flip["by"] == flip["target"]:
                return tr("{player} turns all own hand cards over now.", player=flip["target"])
            return tr("{player} turns all hand cards over now.", player=flip["target"])
        return tr("{by} turns over {n} of {target}'s cards now.", by=flip["by"], n=flip["cards"],
                  target=flip["target"])

    def _headline(self, state: State) -> str:
        race = self._race_view()
        if race is not None and race.open:
            return tr("ALLE race")
        if state["turn"] is None and state["due"] is not None and not state["finished"]:
            return tr("{player} calls OTTO to win", player=state["due"]["player"])
        return self.turn_text(state)

    def _seat_lines(self, state: State) -> dict[str, str]:
        lines = {}
        out = state["out"]
        race = state["race"]
        for p in self.players:
            parts = []  # what the number counts is the seat tile's unit (`seat_unit`)
            if p in out:
                parts.append(tr("Place {n}", n=out.index(p) + 1))
            if race is not None and p in race["pressed"]:
                parts.append(tr("Slapped"))
            if state["due"] is not None and state["due"]["player"] == p:
                parts.append(tr("Owes {word}", word=state["due"]["word"]))
            lines[p] = " · ".join(parts)
        return lines

    def _extra(self, state: State) -> list[str]:
        return [tr("Draw pile {draw} · discard pile {pile}", draw=state["draw_pile"], pile=state["pile"])]

    def seat_score(self, state: State, player: str) -> str:
        """Cards in hand: the fewer, the better."""
        return str(state["hands"][player])

    def result_lines(self, state: State) -> list[str]:
        places = state["scores"]
        order = sorted(self.players, key=lambda p: places.get(p) or len(self.players))
        return [tr("{place}. {player}", place=places.get(p, 0), player=p) for p in order]
