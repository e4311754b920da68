"""Table screen for Profi-Sort: draws by touch or seat button, scans collected into tasks, melds, aces and hands.

A scan after the draw is the turn's discard. Everything else that needs several
cards is a *collection* the table starts by touch ("Lay a task", "Extend", "Give
an ace", "Show hand", "Redeal"): the scans are gathered here, group by group,
shown on screen, and only "Done" sends the one event to the referee. A rejected
event keeps the collection (fix it or cancel it); an accepted one ends it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from kiosk.games import Action, Choice, Event, GameUI, Note, Panel, Ruling, State, register
from kiosk.i18n import Np_, tr, trn
from referee.decks.profi_sort import REPEAT, TASK_BY_ID, TASK_IDS, TASK_NAMES, TASK_NUMBERS, TASKS

PAGE = 7  # choice buttons per page (with "More" a row of 8 stays >= 48 px wide at 800 px)
NUMBER = {task_id: i + 1 for i, task_id in enumerate(TASK_IDS)}


@dataclass
class Collect:
    """Cards being scanned for one event."""

    kind: str  # "lay_task" | "extend" | "give_ace" | "reveal_hand" | "redeal"
    player: str
    task: str = ""
    as_task: str = ""
    meld: str = ""
    to: str = ""
    at: str = ""
    groups: list[list[str]] = field(default_factory=lambda: [[]])
    sent: Any = None  # the state object the finished event was sent against (same object: it was rejected)

    @property
    def cards(self) -> list[str]:
        return [code for group in self.groups for code in group]


def number_ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 5, 7, 8] → "1–3, 5, 7–8": a task sheet short enough for one line."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


@register
class ProfiSortUI(GameUI):
    game_id = "profi-sort"
    title = "Profi-Sort"
    def __init__(self, players: tuple[str, ...], options: dict[str, Any], ruling: Ruling | None = None):
        super().__init__(players, options, ruling)
        self.collect: Collect | None = None

    # --- the collection in progress

    def _current(self, state: State) -> Collect | None:
        """The collection, dropped once its event was accepted or the table moved on without it."""
        c = self.collect
        if c is None:
            return None
        stale = c.sent is not None and c.sent is not state
        phase = state.get("phase")
        if c.kind in ("reveal_hand",):
            stale = stale or phase != "scoring" or state["round_points"].get(c.player) is not None
        elif c.kind == "redeal":
            stale = stale or phase != "play" or self._started(state)
        else:
            stale = stale or phase != "play" or state.get("turn") != c.player or not state.get("drawn")
        if stale:
            self.collect = None
        return self.collect

    def _start(self, collect: Collect) -> Note:
        self.collect = collect
        return Note(self._doing(collect))

    def _started(self, state: State) -> bool:
        """The round's first draw or skip has happened (PS-R5, as the referee's hints say)."""
        detail = self.detail()
        return detail is None or not detail.may_redeal  # a finished game has started, too

    def _cancel(self) -> Note:
        self.collect = None
        return Note(tr("Cancelled: nothing was sent."))

    def _next_group(self, state: State) -> Note | Choice:
        c = self._current(state)
        if c is None:
            return Note(tr("Nothing is being collected."))
        if not c.groups[-1]:
            return Note(tr("Scan the cards of this group first."))
        c.groups.append([])
        c.sent = None
        return Note(self._doing(c))

    def _done(self, state: State) -> dict[str, Any] | Note:
        c = self._current(state)
        if c is None:
            return Note(tr("Nothing is being collected."))
        groups = [g for g in c.groups if g]
        c.sent = state
        if c.kind == "lay_task":
            event: dict[str, Any] = {"type": "lay_task", "player": c.player, "task": c.task, "groups": groups}
            if c.task == REPEAT:
                event["as"] = c.as_task
            return event
        if c.kind == "extend":
            event = {"type": "extend", "player": c.player, "meld": c.meld, "cards": c.cards}
            if c.at:
                event["at"] = c.at
            return event
        if c.kind == "redeal":
            self.collect = None  # the state after a redeal looks like the state before it
        return {"type": c.kind, "player": c.player, "cards": c.cards}

    def _set_end(self, state: State, at: str) -> Note:
        c = self._current(state)
        if c is None or c.kind != "extend":
            return Note(tr("Nothing is being collected."))
        c.at = "" if c.at == at else at
        c.sent = None
        return Note(self._doing(c))

    # --- inputs → events

    def scan(self, state: State, code: str, seat: str | None) -> dict[str, Any] | Choice | Note | None:
        c = self._current(state)
        if c is None and state.get("phase") == "scoring" and seat and state["round_points"].get(seat) is None:
            c = self.collect = Collect("reveal_hand", seat)  # a seat scanning its hand at the round end
        if c is not None:
            if c.kind == "give_ace":
                self.collect = None
                return {"type": "give_ace", "player": c.player, "to": c.to, "card": code}
            if c.sent is not None:  # the sent event was rejected: a new scan goes on collecting
                c.sent = None
            c.groups[-1].append(code)
            said = tr("Collected {card} ({n} so far).", card=self.face(code), n=len(c.cards))
            return Note(said + " " + self._doing(c))
        player = seat or state.get("turn")
        if player is None or state.get("phase") != "play":
            return None
        # After the draw a scan is the turn's discard (before it the referee answers "draw first").
        return {"type": "discard", "player": player, "card": code}

    def button(self, state: State, seat: str, button: str, t_us: int) -> dict[str, Any] | Note | None:
        if button != "confirm":
            return None
        c = self._current(state)
        if c is not None and c.player == seat and c.kind != "give_ace":
            return self._done(state)
        if state.get("phase") == "play" and state.get("turn") == seat and not state.get("drawn"):
            return {"type": "draw", "player": seat}
        return None

    def actions(self, state: State) -> list[Action]:
        c = self._current(state)
        if c is not None:
            out = []
            if c.kind == "lay_task" and len(c.groups) < len(self._sizes(c)):
                out.append(Action(tr("Next group"), lambda: self._next_group(state), "next"))
            if c.kind == "extend":
                out.append(Action(tr("Low end") + (" *" if c.at == "low" else ""), lambda: self._set_end(state, "low"),
                                  "low"))
                out.append(Action(tr("High end") + (" *" if c.at == "high" else ""),
                                  lambda: self._set_end(state, "high"), "high"))
            if c.kind != "give_ace":
                out.append(Action(tr("Done"), lambda: self._done(state), "done"))
            out.append(Action(tr("Cancel"), self._cancel, "cancel"))
            return out
        phase = state.get("phase")
        if phase == "round-over":
            return [Action(tr("Next round"), lambda: {"type": "new_round"}, "next-round")]
        if phase == "scoring":
            return [Action(tr("Show hand: {player}", player=p), partial(self._start, Collect("reveal_hand", p)),
                           f"reveal:{p}")
                    for p in self.players if state["round_points"].get(p) is None]
        turn = state.get("turn")
        detail = self.detail()
        if phase != "play" or turn is None or detail is None:
            return []
        if not state.get("drawn"):
            out = [Action(tr("Draw"), lambda: {"type": "draw", "player": turn}, "draw")]
            take = {"type": "draw", "player": turn, "from": "discard"}
            if self.options.get("discard_draw") and self.check is not None and self.check(take).ok:
                out.append(Action(tr("Take the discard"), lambda: dict(take), "draw-discard"))
            if detail.may_skip:
                out.append(Action(tr("Skip with ace"), lambda: {"type": "skip_with_ace", "player": turn}, "skip"))
            if not self._started(state):
                out.append(Action(tr("Redeal (3 aces)"), lambda: self._ask_player(
                    tr("Who shows 3 aces?"), self.players, lambda p: self._start(Collect("redeal", p))),
                    "redeal"))
            return out
        out = [Action(tr("Lay a task"), lambda: self._ask_task(state, turn), "lay")]
        if state["melds"] and detail.may_extend:
            out.append(Action(tr("Extend"), lambda: self._ask_meld(state, turn), "extend"))
        if detail.may_give_ace:
            others = [p for p in self.players if p != turn]
            out.append(Action(tr("Give an ace"), lambda: self._ask_player(
                tr("Who gets the ace?"), others, lambda p: self._start(Collect("give_ace", turn, to=p))),
                "give"))
        return out

    # --- touch questions

    def _paged(self, prompt: str, options: list[tuple[str, Any]], complete: Callable[[Any], Event | Choice | Note],
               start: int = 0) -> Choice:
        page = options[start:start + PAGE]
        if len(options) > PAGE:
            nxt = start + PAGE if start + PAGE < len(options) else 0
            page = [*page, (tr("More"), ("__more__", nxt))]

        def chosen(value: Any) -> Event | Choice | Note:
            if isinstance(value, tuple) and value and value[0] == "__more__":
                return self._paged(prompt, options, complete, value[1])
            return complete(value)

        return Choice(prompt, page, chosen)

    def _ask_player(self, prompt: str, players: Iterable[str], then: Callable[[Any], Event | Choice | Note]) -> Choice:
        return self._paged(prompt, [(p, p) for p in players], then)

    def _ask_task(self, state: State, player: str) -> Choice:
        done = set(state["tasks_done"].get(player, ()))
        open_tasks = [t for t in TASK_IDS if t not in done]
        options = [(self._task_label(t), t) for t in open_tasks]

        def chosen(task_id: str) -> Event | Choice | Note:
            if task_id == REPEAT:
                return self._paged(tr("Task 15 repeats which task?"),
                                   [(self._task_label(t.id), t.id) for t in TASKS],
                                   lambda as_id: self._start(Collect("lay_task", player, task=REPEAT, as_task=as_id)))
            return self._start(Collect("lay_task", player, task=task_id))

        return self._paged(tr("Which task does {player} lay?", player=player), options, chosen)

    def _ask_meld(self, state: State, player: str) -> Choice:
        options = [(f"{self.meld_name(mid)} · {meld['player']}", mid) for mid, meld in state["melds"].items()]
        return self._paged(tr("Which meld gets the cards?"), options,
                           lambda mid: self._start(Collect("extend", player, meld=mid)))

    @staticmethod
    def _task_label(task_id: str) -> str:
        """A task as the sheet names it, after its number: "4: 6er Folge einer Farbe" (never two alike)."""
        return f"{NUMBER[task_id]}: {tr(TASK_NAMES[task_id])}"

    @staticmethod
    def _sizes(c: Collect) -> list[int]:
        task = TASK_BY_ID.get(c.as_task if c.task == REPEAT else c.task)
        return [s for s, _ in task.groups] if task else []

    # --- state → screen

    def _doing(self, c: Collect) -> str:
        n = len(c.cards)
        if c.kind == "lay_task":
            task = c.as_task if c.task == REPEAT else c.task
            said = tr("{player} lays task {n}, {name}: scan group {g} of {groups}, then Next group or Done.",
                      player=c.player, n=NUMBER[task], name=tr(TASK_NAMES[task]), g=len(c.groups),
                      groups=len(self._sizes(c)))
            return tr("Task 15: {said}", said=said) if c.task == REPEAT else said
        if c.kind == "extend":
            return trn("{player} extends {meld}: {n} card so far; scan, then Done.",
                       "{player} extends {meld}: {n} cards so far; scan, then Done.", n, player=c.player,
                       meld=self.meld_name(c.meld))
        if c.kind == "give_ace":
            return tr("{player} gives an ace to {to}: scan the ace.", player=c.player, to=c.to)
        if c.kind == "reveal_hand":
            return trn("{player} shows the hand: {n} card so far; scan all, then Done (none: just Done).",
                       "{player} shows the hand: {n} cards so far; scan all, then Done (none: just Done).", n,
                       player=c.player)
        return tr("{player} shows aces for a redeal: {n} so far; then Done.", player=c.player, n=n)

    def _words(self, codes: list[str]) -> str:
        return ", ".join(self.face(code) for code in codes) or "-"

    def _collect_hints(self, c: Collect) -> list[str]:
        hints = [self._doing(c)]
        if c.kind == "lay_task":
            sizes = self._sizes(c)
            parts = []
            for i, group in enumerate(c.groups):  # "Gruppe 1: 2 von 2 – Herz 2, Karo 2"
                part = tr("group {g}: {n} of {need}", g=i + 1, n=len(group), need=sizes[i] if i < len(sizes) else "?")
                parts.append(f"{part} – {self._words(group)}" if group else part)
            hints.append(" · ".join(parts))
        elif c.cards:
            hints.append(tr("Collected: {cards}", cards=self._words(c.cards)))
        if c.kind == "extend" and c.at:
            hints.append(tr("Run end: {end}", end=tr("low") if c.at == "low" else tr("high")))
        if c.sent is not None:
            hints.append(tr("Rejected: scan more, or Cancel."))
        return hints

    def _turn_hints(self, state: State) -> list[str]:
        """The screen's own notes (what may come next is the referee's sentence)."""
        if state["phase"] == "scoring":
            return [tr("Touch the player, scan the cards, Done.")]
        if state["phase"] == "round-over":
            return [tr("Touch Next round.")]
        return []

    def _aces(self, state: State) -> str:
        aces = [f"{p}: {self._words(codes)}" for p, codes in state["received"].items() if codes]
        return tr("Received aces: {aces}", aces="; ".join(aces)) if aces else ""

    def _sheet(self, state: State, player: str) -> str:
        """A player's row of the task sheet under its heading (`SHEET_HEADING`): "Anna: 1–3, 5–15 · 220"."""
        done = set(state["tasks_done"].get(player, ()))
        open_numbers = [n for t, n in NUMBER.items() if t not in done]
        return f"{player}: {number_ranges(open_numbers) or '–'} · {state['bonus_open'][player]}"

    @staticmethod
    def meld_name(mid: str) -> str:
        """A meld as guests read it ("meld 3"), not by its id in the state ("m3")."""
        return tr("meld {n}", n=mid.lstrip("m"))

    def _meld_lines(self, state: State) -> list[str]:
        lines: list[str] = []
        line = ""
        for mid, meld in state["melds"].items():
            text = f"{self.meld_name(mid)}, {meld['player']}: {self._words(meld['cards'])}"
            if line and len(line) + len(text) < 90:
                line += "  |  " + text
            else:
                if line:
                    lines.append(line)
                line = text
        if line:
            lines.append(line)
        return lines

    def panel(self, state: State) -> Panel:
        c = self._current(state)
        headline = self.turn_text(state)
        hints = self._collect_hints(c) if c is not None else self._turn_hints(state)
        lines = [tr("Tasks to do · bonus points still open"), *(self._sheet(state, p) for p in self.players)]
        melds = self._meld_lines(state)
        room = 7 - len(lines)
        if len(melds) > room:
            melds = [*melds[:room - 1], tr("… and {n} more rows of melds", n=len(melds) - room + 1)]
        lines += melds or [tr("No melds on the table yet.")]
        top = state.get("discard_top")
        extra = [tr("Round {round} · Dealer {dealer} · Talon {talon} · Discard {top}", round=state["round"],
                    dealer=state["dealer"], talon=state["talon"], top=self.face(top) if top else "-")]
        points = state["round_points"]
        if any(v is not None for v in points.values()):
            extra.append(tr("Round points: {points}", points=" · ".join(
                f"{p}: {'-' if points[p] is None else points[p]}" for p in self.players)))
        elif state.get("went_out"):
            extra.append(tr("{player} went out.", player=state["went_out"]))
        if self._aces(state):
            extra.insert(0, self._aces(state))
        seat_lines = {}
        for p in self.players:
            rec = len(state["received"].get(p) or [])
            line = trn("{n} task · Hand {hand}", "{n} tasks · Hand {hand}", len(state["tasks_done"][p]),
                       hand=state["hands"][p])
            if rec:
                line += " · " + trn("{n} ace recv.", "{n} aces recv.", rec)
            seat_lines[p] = line
        return Panel(headline, hints, [], tr("Task sheet and melds"), seat_lines, extra, lines=lines)

    def unit_words(self) -> tuple[str, str]:
        """Penalty points (the fewest win), or in a beginner game the tasks done (the most win): as the results
        rank them."""
        if self.options.get("first_to"):
            return Np_("task done", "tasks done")
        return Np_("penalty point", "penalty points")

    def seat_score(self, state: State, player: str) -> str:
        if self.options.get("first_to"):
            return str(len(state["tasks_done"][player]))
        return super().seat_score(state, player)

    def verdict_words(self, event: Event) -> str:
        """A laid task by its number, a shown hand by its count: the verdict is one line (the history lists the
        cards)."""
        player, kind = event.get("player", ""), event.get("type")
        if kind == "lay_task":
            return f"{player}: {tr('task {n}', n=TASK_NUMBERS.get(str(event.get('task')), '?'))}"
        if kind == "reveal_hand":
            shown = trn("{n} card shown", "{n} cards shown", len(event.get("cards") or []))
            return f"{player}: {shown}"
        return super().verdict_words(event)

    def turn_text(self, state: State) -> str:
        phase = state.get("phase")
        if phase == "scoring" and not state.get("finished"):
            return tr("Round {n}: show the hands", n=state["round"])
        if phase == "round-over" and not state.get("finished"):
            return tr("Round {n} is over", n=state["round"])
        return super().turn_text(state)

    def result_lines(self, state: State) -> list[str]:
        scores = state.get("scores", {})
        winners = state.get("winners") or []
        if self.options.get("first_to"):
            out = [trn("Beginner game: first to {n} task.", "Beginner game: first to {n} tasks.",
                       self.options["first_to"])]
            out += [trn("{player}: {n} task done", "{player}: {n} tasks done", len(state["tasks_done"][p]), player=p)
                    + (" – " + tr("winner") if p in winners else "") for p in self.players]
            return out
        out = [tr("Lowest total wins.")]  # the total is on the podium; here how it came about
        for p in sorted(self.players, key=lambda p: scores.get(p, 0)):
            bonus = state["bonus_open"][p]
            out.append(trn("{player}: {cards} card points + {bonus} open bonus, {n} task",
                           "{player}: {cards} card points + {bonus} open bonus, {n} tasks",
                           len(state["tasks_done"][p]), player=p, cards=scores.get(p, 0) - bonus, bonus=bonus))
        return out
