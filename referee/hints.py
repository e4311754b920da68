"""What may come next, as data: the answer of `Referee.hints()`, and the typed public state.

The table screen's hint line, the seat lights and the simulator read these instead
of the games' internals. Hints are named tuples: immutable, typed, and cheap enough
to build for every event (the simulator asks before each move). Every game fills the
common `Hints` and adds its own `detail` (a typed value per game, in the game's code);
`Hints.sentence(lang)` is the plain sentence the screen shows, in English or German.

The public state is typed the same way: `PublicState` subclasses, one per game,
whose `to_json()` is exactly the `state` object of the transcript format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from referee import messages

# --- the common parts


class Owed(NamedTuple):
    """Something the table owes before play goes on (a call, a choice, a confirmation).

    - `player`: who owes it;
    - `kind`: `"call"` (a spoken word, `what` the word), `"choice"` (`what`: `"colour"` or
      `"flip"`), `"confirm"` (`what`: why the seat button is wanted, e.g. `"penalty"`),
      `"catchable"` (`what`: the word `player` owes and may be caught for, AO-R17),
      `"reveal"` / `"confirm-task"` (alcasan, Profi-Sort: what that game names).
    """

    player: str
    kind: str
    what: str


class RaceView(NamedTuple):
    """A slap race (ANNAOTTO's ALLE, AO-R15): open now, or the last one's result.

    - `open`: the race is running (slaps and `race_close` expected);
    - `by`: who laid the ALLE; `called`: whether they called ALLE (AO-R15c);
    - `participants`: who takes part, in seat order (AO-R15a);
    - `pressed`: seat → `t_us` of its slap, in seat order (AO-R15b);
    - `waiting`: participants who have not slapped yet, in seat order;
    - `losers`: who took cards when it closed (AO-R15e), `()` while open;
    - `penalty`: how many cards each loser takes (AO-R15e: 2).
    """

    open: bool
    by: str
    called: bool
    participants: tuple[str, ...]
    pressed: Mapping[str, int]
    waiting: tuple[str, ...]
    losers: tuple[str, ...]
    penalty: int


class Hints(NamedTuple):
    """Who may act now and what may come next.

    - `game`: the game id;
    - `actors`: the player(s) who may act now, in seat order (the player on turn, the
      race's waiting participants, whoever owes a call or a choice); `()` when finished;
    - `events`: the event types (and for `press` the button: `"press:confirm"`,
      `"press:slap"`) that may be accepted now from them;
    - `owed`: what is owed before play goes on (calls, choices, confirmations);
    - `race`: the open race, else the last race's result (ANNAOTTO), else None;
    - `detail`: the game's own structured hint (`AllesKlarHints`, `Magische7Hints`,
      `AnnaottoHints`, `AlcasanHints`, `ProfiSortHints`).
    """

    game: str
    actors: tuple[str, ...]
    events: tuple[str, ...]
    detail: Any
    owed: tuple[Owed, ...] = ()
    race: RaceView | None = None

    def sentence(self, lang: str = "en") -> str:
        """The plain sentence the screen shows for this moment ("" when there is nothing to say)."""
        said: str = self.detail.sentence(self, lang)
        return said


class FinishedHints(NamedTuple):
    """The detail once the game is over: the winners, and the game's last detail (`last`)."""

    winners: tuple[str, ...]
    last: Any

    def sentence(self, hints: Hints, lang: str) -> str:
        return say("hint.over", lang, winners=names(self.winners, lang))


def say(key: str, lang: str, **params: Any) -> str:
    """A hint sentence by message key (its sentences are in the catalogues, `referee.messages`) in `lang`."""
    return messages.render(key, params, lang)


def names(players: tuple[str, ...] | list[str], lang: str) -> str:
    """`Anna`, `Anna and Ben`, `Anna, Ben and Cem`; the last joint from the catalogue (German: `und`)."""
    players = list(players)
    if len(players) < 2:
        return "".join(players)
    return f"{', '.join(players[:-1])}{messages.render('names.and', {}, lang)}{players[-1]}"


# --- the typed public state


_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, worked out once per class."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


_PLAIN = frozenset({str, int, bool, type(None)})


def _json(value: Any) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, PublicState | Part):
        return value.to_json()
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


class Part:
    """A nested object of a public state (a dataclass); serialised field by field."""

    def to_json(self) -> dict[str, Any]:
        return {name: _json(getattr(self, name)) for name in _names(type(self))}


@dataclass(slots=True)
class PublicState:
    """The keys every game's state has (transcript format). A snapshot: fresh lists and dicts, so
    changing it changes nothing in the game.

    - `turn`: the player to act, or None (before a start, during a race, when finished …);
    - `finished`: the game is over;
    - `scores`: player → the game's score (its rules file says what it counts);
    - `winners`: the winners in seat order, `[]` until the game is over.
    """

    turn: str | None
    finished: bool
    scores: dict[str, int]
    winners: list[str]

    def to_json(self) -> dict[str, Any]:
        """Exactly the transcript's `state` object (fresh lists and dicts), keys in field order."""
        return {name: _json(getattr(self, name)) for name in _names(type(self))}
