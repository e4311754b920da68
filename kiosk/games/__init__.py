"""What each game's table screen shows and how scans, buttons and touches become its events.

One module per game registers a `GameUI` subclass by game id; the kiosk never
asks "which game is this?" outside this registry.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kiosk.i18n import tr
from referee.labels.faces import label_text

Event = dict[str, Any]
State = dict[str, Any]


@dataclass(frozen=True)
class Choice:
    """A question the table must answer by touch before an event can be sent."""

    prompt: str
    options: list[tuple[str, Any]]  # (label, value)
    complete: Callable[[Any], Event | Choice]
    # A question that takes scans as its answers (e.g. gathering several cards for one play): while it is
    # pending, a scan goes here as on_scan(code, seat_player) instead of to GameUI.scan.
    on_scan: Callable[[str, str | None], Event | Choice | None] | None = None


@dataclass(frozen=True)
class Action:
    """A touch button the table screen offers now."""

    label: str
    make: Callable[[], Event | Choice]
    key: str = ""


@dataclass
class Shown:
    """A card on the table as the screen shows it."""

    label: str
    owner: str = ""
    highlight: bool = False


@dataclass
class Panel:
    """The game-specific part of the table screen."""

    headline: str
    hints: list[str] = field(default_factory=list)
    cards: list[Shown] = field(default_factory=list)
    cards_title: str = ""
    seat_lines: dict[str, str] = field(default_factory=dict)
    extra: list[str] = field(default_factory=list)


class GameUI:
    game_id: ClassVar[str]
    title: ClassVar[str]
    players: tuple[str, ...]
    # The accepted events so far (set by the controller), for screens that show more than the state keeps,
    # e.g. the cards under the top of a pile. Read only.
    events: Sequence[Event] = ()

    def __init__(self, players: tuple[str, ...], options: dict[str, Any]):
        self.players = players
        self.options = options

    # --- inputs → events

    def scan(self, state: State, code: str, seat: str | None) -> Event | Choice | None:
        """A scanned card: its event (or a question first). `seat` is the scanner's seat, if it has one."""
        player = seat or state.get("turn")
        if player is None:
            return None
        return {"type": "play", "player": player, "card": code}

    def button(self, state: State, seat: str, button: str, t_us: int) -> Event | None:
        """A seat button: the event it means now, or None when it means nothing in this game."""
        return None

    def actions(self, state: State) -> list[Action]:
        return []

    def timers(self, state: State) -> list[tuple[float, Event]]:
        """(seconds from now, event) the kiosk must send by itself, e.g. a race timeout."""
        return []

    # --- state → screen

    def panel(self, state: State) -> Panel:
        raise NotImplementedError

    def face(self, code: str) -> str:
        """A card face in plain words (the same words its label prints)."""
        return label_text(code.partition("#")[0])

    def turn_text(self, state: State) -> str:
        if state.get("finished"):
            return tr("The game is over.")
        turn = state.get("turn")
        return tr("{player} to play", player=turn) if turn else tr("Waiting…")

    def result_lines(self, state: State) -> list[str]:
        scores = state.get("scores", {})
        return [f"{p}: {scores.get(p, 0)}" for p in self.players]


_UIS: dict[str, type[GameUI]] = {}
_loaded = False


def register(cls: type[GameUI]) -> type[GameUI]:
    _UIS[cls.game_id] = cls
    return cls


def _load() -> None:
    global _loaded
    if not _loaded:
        for module in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{module.name}")
        _loaded = True


def get(game_id: str) -> type[GameUI]:
    _load()
    return _UIS[game_id]


def available() -> list[str]:
    """Game ids with a table screen, in the menu's order."""
    _load()
    order = ["alles-klar", "alcasan", "profi-sort", "magische-7", "annaotto"]
    return sorted(_UIS, key=lambda g: order.index(g) if g in order else 99)
