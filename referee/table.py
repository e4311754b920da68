"""The shared reducer: the header, the event's type, undo and game over, once for every game.

Checks run in the order all rules files share (boardgame.io's reducer habit):
the event is an object with a known type → `undo` → `game-over` where the rules file
checks it before the fields → the game's judge for the type (the fields, `game-over`
where it comes after them, then its rules). A
rejection leaves the state untouched, because games check before they mutate.

Undo rebuilds the state by replaying the accepted events before the last one:
the event log is the truth, and a fold over it is exact by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from referee import games
from referee.answers import ACCEPTED, Answer, HeaderError, Rejection
from referee.cards import Deck
from referee.hints import Hints, PublicState
from referee.protocol import Game
from referee.rules import Judge

S = TypeVar("S", bound=PublicState)

FORMAT = "tabletop-referee/1"


def parse_header(header: Any) -> tuple[type[Game], tuple[str, ...], str, Any]:
    """Validate the header (transcript format, then the game's player counts and options)."""
    if not isinstance(header, dict):
        raise HeaderError("first-line")
    if header.get("format") != FORMAT:
        raise HeaderError("format", expected=FORMAT)
    game_id = header.get("game")
    cls = games.GAMES.get(game_id) if isinstance(game_id, str) else None
    if cls is None:
        raise HeaderError("unknown-game", game=game_id)
    players = header.get("players")
    if (
        not isinstance(players, list)
        or any(not isinstance(p, str) or not p for p in players)
        or len(set(players)) != len(players)
    ):
        raise HeaderError("players")
    if len(players) not in cls.player_counts:
        raise HeaderError("player-count", title=cls.title, counts=tuple(cls.player_counts), count=len(players))
    if "dealer" in header:
        dealer = header["dealer"]
        if not isinstance(dealer, str) or dealer not in players:
            raise HeaderError("dealer", dealer=dealer)
    else:
        dealer = players[-1]
    options = header.get("options", {})
    if not isinstance(options, dict):
        raise HeaderError("not-an-object", option="options")
    return cls, tuple(players), dealer, cls.parse_options(options, tuple(players), dealer)


class Referee:
    """One game in progress: apply events, ask what an event would get, undo, read the public state."""

    __slots__ = ("_args", "_checkers", "_cls", "_judges", "_shape_first", "game", "header", "history")

    def __init__(self, header: Mapping[str, Any]):
        cls, players, dealer, options = parse_header(header)
        self.header = dict(header)
        self._cls = cls
        self._args = (players, dealer, options)
        self._judges = cls.judges()
        self._checkers = cls.checkers()
        self._shape_first = cls.shape_first
        self.game: Game = cls(players, dealer, options)
        self.history: list[Mapping[str, Any]] = []

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    def apply(self, event: Any) -> Answer:
        """Judge one event; on acceptance the state moves on, on rejection nothing changes."""
        try:
            if self._kind(event) == "undo":
                self._undo()
                return ACCEPTED
            self._judge(self._judges, event)
        except Rejection as rejection:
            return Answer(False, rejection)
        self.history.append(event)
        return ACCEPTED

    def check(self, event: Any) -> Answer:
        """The answer `apply` would give this event now, changing nothing (a dry run of the checks)."""
        try:
            if self._kind(event) == "undo":
                if not self.history:
                    raise Rejection("nothing-to-undo")
            else:
                self._judge(self._checkers, event)
        except Rejection as rejection:
            return Answer(False, rejection)
        return ACCEPTED

    def _kind(self, event: Any) -> str:
        """The event's type, if it is one this game (or the reducer: `undo`) knows; else `bad-event`."""
        if type(event) is not dict:
            raise Rejection("bad-event", "bad-event.object")
        kind = event.get("type")
        if type(kind) is not str:
            raise Rejection("bad-event", "bad-event.no-type")
        if kind != "undo" and kind not in self._judges:
            raise Rejection("bad-event", "bad-event.type", type=kind)
        return kind

    def _judge(self, judges: Mapping[str, Judge], event: Mapping[str, Any]) -> None:
        """`game-over` where the rules file checks it before the fields, then the game's judge for the type."""
        game = self.game
        if not self._shape_first and game.finished:
            raise Rejection("game-over")
        judges[event["type"]](game, event)

    def _undo(self) -> None:
        if not self.history:
            raise Rejection("nothing-to-undo")
        keep = self.history[:-1]
        self.game = self._replay(keep)
        self.history = keep

    def _replay(self, events: Sequence[Mapping[str, Any]]) -> Game:
        game = self._cls(*self._args)
        judges = self._judges
        for event in events:
            judges[event["type"]](game, event)  # accepted once, so accepted again: the fold is deterministic
        return game

    def state(self) -> dict[str, Any]:
        """The public state as the transcript format writes it (a fresh dict)."""
        return self.game.public()

    def public(self) -> PublicState:
        """The public state, typed (the game's `PublicState` dataclass; `.to_json()` is `state()`)."""
        return self.game.public_state()

    def public_as(self, kind: type[S]) -> S:
        """The public state as the game's own dataclass (`AnnaottoState` …), for code written for one game;
        TypeError when the game is another."""
        state = self.game.public_state()
        if not isinstance(state, kind):
            raise TypeError(f"{type(state).__name__} is not {kind.__name__}")
        return state

    def hints(self) -> Hints:
        """Who may act now and what may come next (structured, plus the sentence the screen shows)."""
        return self.game.hints()

    @property
    def deck(self) -> Deck[Any]:
        """The deck in use (its faces, copies and what each face means): public, the cards are on the table."""
        return self.game.deck

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def turn(self) -> str | None:
        return self.game.turn


def start(header: Mapping[str, Any]) -> Referee:
    """A new game from a transcript header (raises HeaderError)."""
    return Referee(header)
