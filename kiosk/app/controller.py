"""The table controller: inputs (scans, seat buttons, touches) → transcript events → referee → log.

Every event the referee answers reaches the log: an accepted one is committed
before the screen hears "accepted" (resume replays these), a rejected one with
its error code (the café log holds both). The referee is asked first (`check`),
the log written second, the event applied last: `check` gives the verdict
`apply` will give (decision C15), so a write that fails leaves the referee as it
was and nothing has to be taken back. Questions a scan raises (which numeral, which opponent) are
asked by touch first; the event goes to the referee once answered.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from kiosk import games
from kiosk.eventlog.storage import StorageFault, fault_of
from kiosk.eventlog.store import EventLog, effective_events
from kiosk.games import Choice, Event, Note
from kiosk.i18n import tr
from referee.answers import Answer, Rejection
from referee.hints import Hints
from referee.table import FORMAT, Referee


@dataclass
class Feedback:
    """The answer the screen shows for the last input."""

    ok: bool
    rejection: Rejection | None = None
    note: str = ""  # a kiosk sentence (already translated when made)
    event: Event | None = None
    quiet: bool = False  # a note that needs no sound (e.g. a slap after the race closed)
    at: float = field(default_factory=time.monotonic)  # when it was given: the screen fades it after a while

    def text(self, lang: str) -> str:
        """What the guests read: a rejection's sentence without its rule references (the log keeps the code)."""
        if self.rejection is not None:
            return self.rejection.message(lang, rules=False)
        return self.note


@dataclass
class Logged:
    """One line of the history view."""

    event: Event
    at: float


@dataclass
class TableController:
    referee: Referee
    log: EventLog | None
    game_row: int | None
    seat_players: dict[str, str] = field(default_factory=dict)  # config seat id → player name
    feedback: Feedback | None = None
    pending: Choice | None = None
    history: list[Logged] = field(default_factory=list)
    deadlines: list[tuple[float, Event]] = field(default_factory=list)
    storage_fault: StorageFault | None = None  # the last write failed (a full disk heals: the next write tries)
    on_fault: Callable[[StorageFault | None], None] | None = None  # the app: STATUS= and the fault screen

    def __post_init__(self) -> None:
        header = self.referee.header
        self._state = self.referee.state()
        self._hints = self.referee.hints()
        # The game's panel asks this controller what the referee says (`kiosk.games.Ruling`).
        self.ui = games.get(header["game"])(tuple(header["players"]), header.get("options", {}), self)
        self._arm_timers()

    # --- construction

    @classmethod
    def new_game(cls, log: EventLog | None, game_id: str, players: list[str], dealer: str | None = None,
                 options: Mapping[str, Any] | None = None, seat_players: dict[str, str] | None = None,
                 assignment: Mapping[str, Any] | None = None) -> TableController:
        header: dict[str, Any] = {"format": FORMAT, "game": game_id, "players": list(players)}
        if dealer:
            header["dealer"] = dealer
        if options:
            header["options"] = dict(options)
        referee = Referee(header)  # HeaderError for a bad set-up, before anything is logged
        row = log.new_game(header, seat_players, assignment) if log else None
        return cls(referee, log, row, dict(seat_players or {}))

    @classmethod
    def resume(cls, log: EventLog, seat_players: dict[str, str] | None = None) -> TableController | None:
        """The game the log holds in progress, replayed exactly; None when there is none."""
        current = log.current()
        if current is None:
            return None
        row, header, events = current
        return cls._replayed(log, row, header, events, seat_players)

    @classmethod
    def ended(cls, log: EventLog) -> TableController | None:
        """The finished game whose results screen showed when the kiosk stopped, replayed; None when there is
        none (its end is in the log; leaving the results marks it left)."""
        row = log.results_on_screen()
        if row is None:
            return None
        header, events = log.load(row)
        return cls._replayed(log, row, header, events, None)

    @classmethod
    def reopen(cls, log: EventLog, game_row: int) -> TableController:
        """A paused game taken up again (from the history): replayed exactly, marked playing once more."""
        header, events = log.load(game_row)
        controller = cls._replayed(log, game_row, header, events, None)
        if not controller.finished:
            log.set_status(game_row, "playing")
        return controller

    @classmethod
    def _replayed(cls, log: EventLog, row: int, header: dict[str, Any], events: list[dict[str, Any]],
                  seat_players: dict[str, str] | None) -> TableController:
        referee = Referee(header)
        for event in effective_events(events):
            answer = referee.apply(event)
            if not answer.ok:  # a log written by this kiosk never holds a rejected event
                raise RuntimeError(f"the log's event {event} is rejected on resume: {answer.error}")
        seats = log.seats(row) if seat_players is None else dict(seat_players)
        controller = cls(referee, log, row, seats)
        controller.history = [Logged(e, 0.0) for e in events[-50:]]
        if referee.finished:  # a kill between a game's last event and its end (`submit`): end it now
            controller._end_game()
        return controller

    # --- reading

    @property
    def state(self) -> dict[str, Any]:
        return self._state

    @property
    def finished(self) -> bool:
        return bool(self._state.get("finished"))

    # --- what the game's panel may ask (kiosk.games.Ruling)

    @property
    def events(self) -> Sequence[Mapping[str, Any]]:
        """The accepted events so far (read only)."""
        return self.referee.history

    @property
    def hints(self) -> Hints:
        """What the referee says may come next, as of the last accepted event."""
        return self._hints

    def check(self, event: Event) -> Answer:
        """The referee's dry run: the answer `apply` would give, changing nothing."""
        return self.referee.check(event)

    def player_for_seat(self, seat: str | None) -> str | None:
        if seat is None:
            return None
        return self.seat_players.get(seat, seat if seat in self.referee.players else None)

    # --- inputs

    def scan(self, code: str, seat: str | None = None) -> Feedback:
        if self.finished:  # a card scanned twice at the end, on the results screen: said, nothing sent
            self.pending = None
            self.feedback = Feedback(False, note=tr("The game is over."))
            return self.feedback
        if self.pending is not None:
            pending, self.pending = self.pending, None  # a new scan replaces an unanswered question …
            if pending.on_scan is not None:  # … unless the question gathers scans
                return self._dispatch(pending.on_scan(code, self.player_for_seat(seat)))
        made = self.ui.scan(self._state, code, self.player_for_seat(seat))
        return self._dispatch(made)

    def reader_error(self) -> Feedback:
        self.feedback = Feedback(False, note=tr("Could not read — scan again"))
        return self.feedback

    def button(self, seat: str, button: str, t_ns: int) -> Feedback | None:
        player = self.player_for_seat(seat)
        if player is None or self.finished:  # nobody's seat, or a press on the results screen: it means nothing
            return None
        made = self.ui.button(self._state, player, button, t_ns // 1000)
        if made is None:
            return None
        return self._dispatch(made)

    def action(self, key: str) -> Feedback | None:
        for action in self.ui.actions(self._state):
            if action.key == key:
                return self._dispatch(action.make())
        return None

    def choose(self, index: int) -> Feedback | None:
        if self.pending is None or not 0 <= index < len(self.pending.options):
            return None
        choice, self.pending = self.pending, None
        return self._dispatch(choice.complete(choice.options[index][1]))

    def cancel_choice(self) -> None:
        self.pending = None

    def undo(self) -> Feedback:
        return self.submit({"type": "undo"})

    def due_timers(self, now: float | None = None) -> list[Feedback]:
        now = time.monotonic() if now is None else now
        due = [event for at, event in self.deadlines if at <= now]
        self.deadlines = [(at, event) for at, event in self.deadlines if at > now]
        return [self.submit(event) for event in due]

    def next_deadline(self) -> float | None:
        return min((at for at, _ in self.deadlines), default=None)

    # --- the one way to the referee

    def _dispatch(self, made: Event | Choice | Note | None) -> Feedback:
        if made is None:
            self.feedback = Feedback(False, note=tr("Nobody is to act now."))
            return self.feedback
        if isinstance(made, Note):
            self.feedback = Feedback(True, note=made.text, quiet=made.quiet)
            return self.feedback
        if isinstance(made, Choice):
            self.pending = made
            self.feedback = Feedback(True, note=made.prompt)
            return self.feedback
        return self.submit(made)

    def submit(self, event: Event) -> Feedback:
        """Check, log, apply. A rejected event is logged with its code; an accepted one is committed before the
        referee applies it (an undo with the game's reopening, in one transaction), so a failed write changes
        nothing in the game and needs no taking back."""
        answer = self.referee.check(event)
        log, row = self.log, self.game_row
        if not answer.ok:
            if log is not None and row is not None:
                try:
                    log.append_rejected(row, event, answer.error or "rejected")
                except Exception as error:
                    return self._storage_failed(error, event)
            self.feedback = Feedback(False, answer.rejection, event=event)  # type: ignore[arg-type]
            return self.feedback
        if log is not None and row is not None:
            try:
                log.append(row, event, "playing" if event.get("type") == "undo" else None)
            except Exception as error:
                return self._storage_failed(error, event)  # not durable, so not accepted: the referee never heard it
            self._storage_ok()
        applied = self.referee.apply(event)
        if not applied.ok:  # C15 broken: the log now holds an event the referee refuses, which no resume replays
            raise RuntimeError(f"check accepted {event} but apply rejects it: {applied.error}")
        self._accepted(event)
        if self.finished:
            self._end_game()
        self.feedback = Feedback(True, note=tr("Accepted"), event=event)
        return self.feedback

    def _accepted(self, event: Event) -> None:
        """What follows an applied event: the history line, the state, the hints, the game's panel, its timers."""
        self.history.append(Logged(event, time.time()))
        del self.history[:-200]
        self._state = self.referee.state()
        self._hints = self.referee.hints()
        self.ui.accepted(event, self._state)
        self._arm_timers()

    def _end_game(self) -> None:
        """The game is over: its status and outcome to the log (the café's `end` record). A transaction of its own
        after the last event's; if it fails (or the kiosk dies in between), the log still holds every event, and the
        next resume, abandon or new game ends the game as finished from them."""
        if self.log is None or self.game_row is None:
            return
        try:
            self.log.set_status(self.game_row, "finished", self._state.get("scores", {}), self._state.get("winners"))
        except Exception as error:
            fault = fault_of(error)
            if fault is None:
                raise
            self._fault(fault)

    def abandon(self) -> None:
        """Staff end the game: abandoned, or finished if it is (its end may not have reached the log yet)."""
        if self.log is not None and self.game_row is not None:
            try:
                self.log.set_status(self.game_row, "finished" if self.finished else "abandoned",
                                    self._state.get("scores", {}), self._state.get("winners"))
            except Exception as error:
                self._storage_failed(error, None)

    def _storage_failed(self, error: Exception, event: Event | None) -> Feedback:
        """The log refused the write: nothing is accepted, the screen says why, the app hears of the fault."""
        fault = fault_of(error)
        if fault is None:
            raise error
        self._fault(fault)
        self.feedback = Feedback(False, note=fault.sentence(), event=event)
        return self.feedback

    def _fault(self, fault: StorageFault) -> None:
        self.storage_fault = fault
        if self.on_fault is not None:
            self.on_fault(fault)

    def _storage_ok(self) -> None:
        if self.storage_fault is not None:
            self.storage_fault = None
            if self.on_fault is not None:
                self.on_fault(None)

    def pause(self) -> None:
        """Leave the game for later (guests went to the menu, or the table was idle): it stays in the log.
        A finished game's results are left for good: a restart shows the menu, not them again."""
        if self.log is None or self.game_row is None:
            return
        if self.finished:
            self.log.leave_results(self.game_row)
        else:
            self.log.set_status(self.game_row, "paused")

    def _arm_timers(self) -> None:
        now = time.monotonic()
        self.deadlines = [(now + seconds, event) for seconds, event in self.ui.timers(self._state)]


class ShownScreen(Protocol):
    """The screen showing, as the parts under the screens read it (the seat lights, the camera's pile routing, the
    café status): they may not import the screens (the screens import them), so they know its `name`, and read a
    table's `controller`, an overlay's `back` or the assignment screen's `assignment` only where a screen has one."""

    name: str


def controller_on(screen: ShownScreen | None) -> TableController | None:
    """The controller a screen holds itself (a table screen's), or None."""
    return getattr(screen, "controller", None)
