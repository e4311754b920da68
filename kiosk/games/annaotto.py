"""The ANNAOTTO table screen (`../shared/rules/annaotto.md`): matching, chains, PLUS, calls, catches, the ALLE race.

Scans: before the start the operator scans the start card (AO-R2); after it every
scan is a play by the player on turn, out of another player's hand when the
"From" toggle names that player (AO-R6). Seat buttons: `confirm` accepts a pending
penalty or keeps the drawn card, `slap` is a race press stamped with its edge
time. Everything else (draw, calls, catches, the ANNAOTTO choices) is a touch.

The state drops the race when it closes, and the closing slap is in no state at
all; the screen keeps the race's slaps itself (`accepted`) to show who was last
and by how many milliseconds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from kiosk.games import Action, Choice, Event, GameUI, Note, Panel, RaceShown, Shown, State, register
from kiosk.i18n import language, tr
from referee.decks.annaotto import COLOURS
from referee.labels.faces import ao_colour, ao_pattern, ao_sign

DEFAULT_RACE_TIMEOUT_MS = 3000
RACE_PENALTY = 2  # AO-R15e: each loser takes 2 cards
_SIGNED = ("ALLE", "PLUS", "RETOUR", "HUERDEN")  # signs that also match by sign (AO-R5)


def whole_ms(us: int) -> int:
    """Microseconds as whole milliseconds (rounded): 278336 → 278."""
    return (us + 500) // 1000


@dataclass
class OpenRace:
    by: str
    participants: list[str]
    opened: float  # time.monotonic() when the screen first saw it open
    called: bool = False
    pressed: dict[str, int] = field(default_factory=dict)


@dataclass
class RaceResult:
    by: str
    called: bool
    order: list[tuple[str, int]]  # slaps by t_us (ties by seat order)
    losers: list[str]
    timed_out: bool

    def from_first(self) -> list[tuple[str, int]]:
        """Each slap with its time after the first slap, in whole ms (a later slapper never looks faster)."""
        first = self.order[0][1] if self.order else 0
        return [(player, whole_ms(t - first)) for player, t in self.order]


@register
class AnnaottoUI(GameUI):
    game_id = "annaotto"
    title = "ANNAOTTO"

    def __init__(self, players: tuple[str, ...], options: dict[str, Any]):
        super().__init__(players, options)
        self.race_timeout_ms = int(options.get("race_timeout_ms", DEFAULT_RACE_TIMEOUT_MS))
        self.source: tuple[str, str] | None = None  # (actor, other player): the next scan comes from that hand
        self.open_race: OpenRace | None = None
        self.last_race: RaceResult | None = None
        self.recent: list[tuple[int, str, str]] = []  # (pile size after, face, who laid it) for the card row

    # --- inputs → events

    def scan(self, state: State, code: str, seat: str | None) -> Event | Choice | None:
        if state["top"] is None and not state["finished"]:
            return {"type": "start", "card": code}  # AO-R2: the operator scans the start card
        player = state.get("turn") or seat
        if player is None:
            return None
        event: Event = {"type": "play", "player": player, "card": code}
        if self.source is not None and self.source[0] == player:
            event["from"] = self.source[1]
        return event

    def button(self, state: State, seat: str, button: str, t_us: int) -> Event | Note | None:
        if button == "slap":
            if state["race"] is None and self.last_race is not None:  # after the race closed: ignored, quietly
                return Note(tr("{player}'s slap came after the race closed: ignored.", player=seat), quiet=True)
            return {"type": "press", "player": seat, "button": "slap", "t_us": t_us}
        if button == "confirm" and state["top"] is not None:
            return {"type": "press", "player": seat, "button": "confirm"}
        return None

    def actions(self, state: State) -> list[Action]:
        if state["finished"] or state["top"] is None:
            return []
        out: list[Action] = []
        turn = state["turn"]
        race = state["race"]
        if turn is not None and race is None:
            if state["choices"]:
                if "colour" in state["choices"]:
                    out.append(Action(tr("Colour"), lambda: self._colour_choice(turn), "colour"))
                if "flip" in state["choices"]:
                    out.append(Action(tr("Who flips"), lambda: self._flip_choice(state, turn), "flip"))
            else:
                pending = state["chain"] is not None or state["plus"] > 0
                if pending or state["drawn"]:
                    out.append(Action(self._confirm_label(state), lambda: self._press(turn), "confirm"))
                if not pending and not state["drawn"]:
                    out.append(Action(tr("Draw"), lambda: {"type": "draw", "player": turn}, "draw"))
                if not state["drawn"]:
                    out.append(Action(self._source_label(turn), lambda: self._source_choice(state, turn), "from"))
        due = state["due"]
        if due is not None:
            who, word = due["player"], due["word"]
            out.append(Action(f"{who}: {word}!", lambda: {"type": "call", "player": who, "word": word},
                              f"call:{who}:{word}"))
        if race is not None and not race["called"]:
            by = race["by"]
            out.append(Action(f"{by}: ALLE!", lambda: {"type": "call", "player": by, "word": "ALLE"},
                              f"call:{by}:ALLE"))
        if due is not None:
            target = due["player"]
            out.append(Action(tr("Catch {player}", player=target), lambda: self._catch_choice(target), "catch"))
        return out

    def _press(self, player: str) -> Event:
        return {"type": "press", "player": player, "button": "confirm"}

    def _confirm_label(self, state: State) -> str:
        chain = state["chain"]
        if chain is not None:
            if chain["otto"]:
                return tr("Confirm: take {n}", n=2 * chain["otto"])
            return tr("Confirm: flip {n}", n=2 * chain["anna"])
        if state["plus"]:
            return tr("Confirm: take {n}", n=state["plus"])
        return tr("Confirm: keep it")

    def _source_label(self, actor: str) -> str:
        if self.source is not None and self.source[0] == actor:
            return tr("From: {player}", player=self.source[1])
        return tr("From...")

    def _source_choice(self, state: State, actor: str) -> Choice:
        others = [(p, p) for p in self.players if p != actor and state["hands"][p] >= 2]

        def complete(value: str | None) -> Note:
            self.source = None if value is None else (actor, value)
            if value is None:
                return Note(tr("The next scan is a card from {player}'s own hand.", player=actor))
            return Note(tr("The next scan is a card from {player}'s hand (AO-R6).", player=value))

        return Choice(tr("Lay a card from whose hand? (AO-R6)"), [*others, (tr("Own hand"), None)], complete)

    def _colour_choice(self, player: str) -> Choice:
        return Choice(tr("Which colour? (AO-R14)"), [(ao_colour(c, language()), c) for c in COLOURS],
                      lambda colour: {"type": "choose_colour", "player": player, "colour": colour})

    def _flip_choice(self, state: State, player: str) -> Choice:
        following = self._next_holder(state, player)
        options = [(tr("{player} (self)", player=player), "self"), (tr("{player} (next)", player=following), "next")]
        return Choice(tr("Who turns all hand cards over? (AO-R14)"), options,
                      lambda who: {"type": "flip_choice", "player": player, "who": who})

    def _catch_choice(self, target: str) -> Choice:
        options = [(p, p) for p in self.players if p != target]
        return Choice(tr("Who caught {player}'s missed call? (AO-R17)", player=target), options,
                      lambda catcher: {"type": "catch", "player": catcher, "target": target})

    def timers(self, state: State) -> list[tuple[float, Event]]:
        self._follow_race(state)
        if state["race"] is None or self.open_race is None:
            return []
        left = self.open_race.opened + self.race_timeout_ms / 1000 - time.monotonic()
        return [(max(0.0, left), {"type": "race_close"})]

    # --- what the state forgets

    def accepted(self, event: Event, state: State) -> None:
        kind = event.get("type")
        if kind not in ("call", "catch"):
            self.source = None
        if kind in ("play", "draw", "undo", "start") or (kind == "press" and event.get("button") == "confirm"):
            self.last_race = None
        was = self.open_race
        self._follow_race(state)
        if was is not None and state["race"] is None and kind in ("press", "race_close"):
            pressed = dict(was.pressed)
            if kind == "press":
                pressed[event["player"]] = event["t_us"]
            self.last_race = self._result(was, pressed, timed_out=kind == "race_close")
        self._follow_pile(event, state)

    def _follow_race(self, state: State) -> None:
        race = state["race"]
        if race is None:
            self.open_race = None
            return
        if self.open_race is None or self.open_race.by != race["by"]:
            holders = [p for p in self.players if state["hands"][p] > 0]
            self.open_race = OpenRace(race["by"], holders, time.monotonic())
            self.last_race = None
        self.open_race.called = race["called"]
        self.open_race.pressed = dict(race["pressed"])

    def _result(self, race: OpenRace, pressed: dict[str, int], timed_out: bool) -> RaceResult:
        """AO-R15e, from the slaps the screen kept."""
        seat = {p: i for i, p in enumerate(self.players)}
        order = sorted(pressed.items(), key=lambda item: (item[1], seat[item[0]]))
        if not race.called:
            losers = [race.by]
        elif timed_out:
            losers = [p for p in race.participants if p not in pressed]
        else:
            slowest = max(pressed.values())
            losers = [p for p in self.players if pressed.get(p) == slowest]
        return RaceResult(race.by, race.called, order, losers, timed_out)

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
                tr("Deal {n} cards each; turn the top card of the draw pile to its plain side (AO-R1, AO-R2).",
                   n=state["hands"][self.players[0]]),
                tr("Then scan it: it starts the discard pile and has no effect (AO-R2)."),
            ], [], tr("Discard pile"), self._seat_lines(state), self._extra(state))
        hints = self._hints(state)
        big = ""
        cards = [Shown(self.face("AO:" + face), who, highlight=i == len(self.recent) - 1)
                 for i, (_, face, who) in enumerate(self.recent)]
        title = tr("Discard pile (top on the right)")
        if state["race"] is None and self.last_race is not None:
            result = self.last_race
            big = self._race_verdict(result)
        return Panel(self._headline(state), hints, cards, title, self._seat_lines(state), self._extra(state), big)

    def race(self, state: State) -> RaceShown | None:
        """The open race (slaps so far) or the one just decided (losers, penalty), for the table screen."""
        race = state["race"]
        if race is not None:
            seat = {p: i for i, p in enumerate(self.players)}
            order = sorted(race["pressed"].items(), key=lambda item: (item[1], seat[item[0]]))
            first = order[0][1] if order else 0
            participants = self.open_race.participants if self.open_race else list(self.players)
            waiting = [p for p in participants if p not in race["pressed"]]
            opened = self.open_race.opened if self.open_race else 0.0
            return RaceShown(True, race["by"], race["called"], [(p, whole_ms(t - first)) for p, t in order],
                             waiting, [], RACE_PENALTY, "", ("open", race["by"], opened))
        result = self.last_race
        if result is None:
            return None
        return RaceShown(False, result.by, result.called, result.from_first(), [], result.losers, RACE_PENALTY,
                         self._race_reason(result), ("done", result.by, tuple(result.order), result.timed_out))

    def _headline(self, state: State) -> str:
        if state["race"] is not None:
            return tr("ALLE race")
        if state["turn"] is None and state["due"] is not None and not state["finished"]:
            return tr("{player} calls OTTO to win", player=state["due"]["player"])
        return self.turn_text(state)

    def _race_verdict(self, result: RaceResult) -> str:
        """The decided race in one line, once its full-screen result has gone."""
        losers = ", ".join(result.losers) or "–"
        return tr("ALLE race: {players} +{n} cards", players=losers, n=RACE_PENALTY)

    def _race_reason(self, result: RaceResult) -> str:
        if not result.called:
            return tr("{player} did not call ALLE (AO-R15e)", player=result.by)
        if result.timed_out:
            return tr("Time up: no slap from them (AO-R15e)")
        return tr("Last hand down (AO-R15e)")

    def _hints(self, state: State) -> list[str]:
        hints: list[str] = []
        turn, race, due, flip = state["turn"], state["race"], state["due"], state["flip"]
        if race is not None:
            waiting = [p for p in (self.open_race.participants if self.open_race else self.players)
                       if p not in race["pressed"]]
            if not race["called"]:
                hints.append(tr("{player} must call ALLE (AO-R15c), or takes 2 alone.", player=race["by"]))
            hints.append(tr("Waiting for: {players}. The last hand down takes 2 (AO-R15e).",
                            players=", ".join(waiting) or "–"))
        elif due is not None and turn is None:
            hints.append(tr("Everyone else may catch a missing OTTO: {player} then takes 1 and plays on (AO-R18).",
                            player=due["player"]))
        elif turn is not None:
            hints.extend(self._turn_hints(state, turn))
        if due is not None and turn is not None:
            hints.insert(0, tr("{player} must call {word}! Others may catch until the next move (AO-R16, AO-R17).",
                               player=due["player"], word=due["word"]))
        if flip is not None:
            hints.insert(0, self._flip_text(flip))
        if self.source is not None and self.source[0] == turn:
            hints.insert(0, tr("Next scan: a card from {player}'s hand (AO-R6).", player=self.source[1]))
        return hints[:3]

    def _turn_hints(self, state: State, turn: str) -> list[str]:
        out: list[str] = []
        chain, plus = state["chain"], state["plus"]
        if state["choices"]:
            owed = [tr("the colour") if c == "colour" else tr("who flips") for c in state["choices"]]
            out.append(tr("{player} laid ANNAOTTO and must choose {what} (AO-R14).", player=turn,
                          what=tr(" and ").join(owed)))
            return out
        if chain is not None:
            sign = "OTTO" if state["top"].endswith(".ANNA") else "ANNA"
            out.append(tr("{player}: lay {sign} in any colour, or confirm (AO-R10).", player=turn, sign=sign))
            out.append(tr("Chain {anna} ANNA, {otto} OTTO: confirm = take {take}, get {flip} flipped (AO-R10).",
                          anna=chain["anna"], otto=chain["otto"], take=2 * chain["otto"], flip=2 * chain["anna"]))
            return out
        if plus:
            out.append(tr("{player}: lay another PLUS, or confirm and take {n} cards (AO-R11).", player=turn, n=plus))
            return out
        out.append(self._match_text(state))
        if state["drawn"]:
            out.append(tr("{player} drew: play that card now if it matches, or keep it with confirm (AO-R7).",
                          player=turn))
        else:
            direction = tr("seat order") if state["direction"] == 1 else tr("reverse order")
            out.append(tr("Direction: {direction}; after {player} comes {next} (AO-R8).", direction=direction,
                          player=turn, next=self._next_holder(state, turn)))
        return out

    def _match_text(self, state: State) -> str:
        top = state["top"]
        if top == "ANNAOTTO":
            colour = state["colour"]
            return tr("After ANNAOTTO: {colour} (any pattern) or another ANNAOTTO (AO-R5).",
                      colour=ao_colour(colour, language()) if colour else "–")
        colour, pattern = ao_colour(state["colour"], language()), ao_pattern(state["pattern"], language())
        sign = top.split(".")[2] if top.count(".") == 2 else None
        if sign in ("ANNA", "OTTO"):
            other = "OTTO" if sign == "ANNA" else "ANNA"
            return tr("Lay {colour} or {pattern}, or {other} in any colour; never {sign} on {sign} (AO-R5, AO-R9).",
                      colour=colour, pattern=pattern, other=other, sign=sign)
        if sign in _SIGNED:
            return tr("Lay {colour} or {pattern}, any {sign}, or ANNAOTTO (AO-R5).", colour=colour, pattern=pattern,
                      sign=ao_sign(sign, language()))
        return tr("Lay {colour} or {pattern}, or ANNAOTTO (AO-R5).", colour=colour, pattern=pattern)

    def _flip_text(self, flip: dict[str, Any]) -> str:
        if flip["cards"] == "all":
            if flip["by"] == flip["target"]:
                return tr("{player} turns all own hand cards over now (AO-R14).", player=flip["target"])
            return tr("{player} turns all hand cards over now (AO-R14).", player=flip["target"])
        return tr("{by} turns over {n} of {target}'s cards now (AO-R10).", by=flip["by"], n=flip["cards"],
                  target=flip["target"])

    def _next_holder(self, state: State, player: str) -> str:
        """AO-R8: the next player in `direction` who holds cards."""
        n = len(self.players)
        i = self.players.index(player)
        for step in range(1, n):
            candidate = self.players[(i + step * state["direction"]) % n]
            if state["hands"][candidate] > 0:
                return candidate
        return player

    def _seat_lines(self, state: State) -> dict[str, str]:
        lines = {}
        out = state["out"]
        race = state["race"]
        for p in self.players:
            parts = [tr("cards")]
            if p in out:
                parts.append(tr("place {n}", n=out.index(p) + 1))
            if race is not None and p in race["pressed"]:
                parts.append(tr("slapped"))
            if state["due"] is not None and state["due"]["player"] == p:
                parts.append(tr("owes {word}", word=state["due"]["word"]))
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
