"""What each game's table screen shows and how scans, buttons and touches become its events.

One module per game registers a `GameUI` subclass by game id (`alcasan.py`, `annaotto.py`, …). Beside them
live what the kiosk makes of any game's definition (`referee.registry`): its ranking (`ranking.py`), help
pages (`help_texts.py`), events in words (`event_words.py`) and a game's story from the log (`history.py`).
None of them names a game: what differs between games comes from the game's definition or its panel.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from kiosk.i18n import Np_, language, tr, trn
from referee.event_words import card_face
from referee.event_words import describe as describe_event  # (kiosk.games.event_words is a submodule)
from referee.hints import FinishedHints, Hints
from referee.labels.faces import label_text
from referee.registry import CardFace, Registry

Event = dict[str, Any]
State = dict[str, Any]


@dataclass(frozen=True)
class Choice:
    """A question the table must answer by touch before an event can be sent."""

    prompt: str
    options: list[tuple[str, Any]]  # (label, value)
    complete: Callable[[Any], Event | Choice | Note]
    # A question that takes scans as its answers (e.g. gathering several cards for one play): while it is
    # pending, a scan goes here as on_scan(code, seat_player) instead of to GameUI.scan.
    on_scan: Callable[[str, str | None], Event | Choice | Note | None] | None = None


@dataclass(frozen=True)
class Action:
    """A touch button the table screen offers now."""

    label: str
    make: Callable[[], Event | Choice | Note]
    key: str = ""


@dataclass(frozen=True)
class Note:
    """An input the game took without an event (a card collected for a task, a toggle for the next scan):
    nothing goes to the referee; the screen says so."""

    text: str
    quiet: bool = False  # nothing to hear: e.g. a slap after the race closed, ignored


@dataclass
class Shown:
    """A card on the table as the screen shows it."""

    label: str  # the card in words (also where it is drawn: tests and `View.texts()` read them)
    owner: str = ""
    highlight: bool = False
    face: CardFace | None = None  # how it is drawn; None: in words (a game without a drawing)


@dataclass
class Panel:
    """The game-specific part of the table screen."""

    headline: str
    hints: list[str] = field(default_factory=list)
    cards: list[Shown] = field(default_factory=list)
    cards_title: str = ""
    seat_lines: dict[str, str] = field(default_factory=dict)
    extra: list[str] = field(default_factory=list)
    big: str = ""  # a message the whole table must see now (e.g. ANNAOTTO's "ALLE! Everyone slap!")
    lines: list[str] = field(default_factory=list)  # text rows shown in the cards' place (e.g. a task sheet, melds)
    trick: str = ""  # who took the last trick: shown in its own place, never dropped for room
    trick_cards: list[Shown] = field(default_factory=list)  # the last trick's cards, drawn under it where room allows


@dataclass(frozen=True)
class RaceShown:
    """A race as the table screen shows it: open (who has slapped so far) or decided (who lost, by how much)."""

    open: bool
    by: str  # who laid the card that opened it
    called: bool
    slaps: list[tuple[str, int]]  # (player, µs after the first slap), fastest first
    waiting: list[str]  # open race: who has not slapped yet
    losers: list[str]  # decided race: who takes the penalty
    penalty: int  # cards each loser takes
    reason: str  # decided race: why they lost, one plain sentence
    key: tuple = ()  # tells one race from the next (the screen shows each result full-screen once)
    ends_at: float | None = None  # open race: when it closes by itself (monotonic), for the countdown
    card: Shown | None = None  # the card that opened it


class Ruling(Protocol):
    """What a game's panel may ask about the game in progress (the table controller answers): the screens read
    the rules from here, never from the games' internals."""

    @property
    def events(self) -> Sequence[Mapping[str, Any]]:
        """The accepted events so far, for screens that show more than the state keeps (e.g. the cards under
        the top of a pile). Read only."""
        ...

    @property
    def hints(self) -> Hints:
        """What the referee says may come next (`Referee.hints()` as of the last accepted event)."""
        ...

    def check(self, event: Event) -> Any:
        """The referee's dry run (`Referee.check`): a touch is offered only when the referee would take its event."""
        ...


class GameUI:
    game_id: ClassVar[str]
    title: ClassVar[str]
    players: tuple[str, ...]
    seat_unit: ClassVar[tuple[str, str]] = Np_("point", "points")  # what the seat tile's big number counts
    # (`seat_score`), a word and its plural

    def __init__(self, players: tuple[str, ...], options: dict[str, Any], ruling: Ruling | None = None):
        """`ruling`: the game in progress; None for a panel that only names things (card words, history)."""
        self.players = players
        self.options = options
        self.ruling = ruling
        self._faces: dict[tuple[str, str], str] = {}  # (face, language) → its words: asked on every frame
        self._pictures: dict[tuple[str, str], CardFace | None] = {}  # (face, language) → how it is drawn

    @property
    def events(self) -> Sequence[Mapping[str, Any]]:
        return self.ruling.events if self.ruling is not None else ()

    @property
    def hints(self) -> Hints | None:
        return self.ruling.hints if self.ruling is not None else None

    @property
    def check(self) -> Callable[[Event], Any] | None:
        return self.ruling.check if self.ruling is not None else None

    def detail(self) -> Any | None:
        """The referee's game detail while play goes on; None before its first answer and once the game is over.

        `hints()` answers with one of these kinds, and each is handled here by type: no answer yet (None),
        the end (`FinishedHints`, which has none of the game's fields: the issue #22 crash), or the game's
        own detail (`Magische7Hints` …, from `referee.hints`' list; the panels read its fields, and only
        through here). Hints of another game are a bug between controller and panel, said as such (the
        display loop's guard logs it and goes on from the log)."""
        match self.hints:
            case None:
                return None
            case Hints(detail=FinishedHints()):
                return None
            case Hints(game=game, detail=detail) if game == self.game_id:
                return detail
            case Hints(game=game):
                raise TypeError(f"hints() of {game!r} on the {self.game_id!r} panel")
        return None

    # --- inputs → events

    def scan(self, state: State, code: str, seat: str | None) -> Event | Choice | Note | None:
        """A scanned card: its event (or a question first). `seat` is the scanner's seat, if it has one."""
        player = seat or state.get("turn")
        if player is None:
            return None
        return {"type": "play", "player": player, "card": code}

    def button(self, state: State, seat: str, button: str, t_us: int) -> Event | Note | None:
        """A seat button: the event it means now, a note when it means nothing now (a slap after the race
        closed), or None when it means nothing in this game."""
        return None

    def actions(self, state: State) -> list[Action]:
        return []

    def accepted(self, event: Event, state: State) -> None:
        """Called after every accepted event (undo included) with the new state: for what the state drops."""

    def timers(self, state: State) -> list[tuple[float, Event]]:
        """(seconds from now, event) the kiosk must send by itself, e.g. a race timeout."""
        return []

    # --- state → screen

    def panel(self, state: State) -> Panel:
        raise NotImplementedError

    def face(self, code: str) -> str:
        """A card face in plain words (the same words its label prints), in the screen's language."""
        key = (code.partition("#")[0], language())
        words = self._faces.get(key)
        if words is None:
            words = self._faces[key] = label_text(*key)
        return words

    def picture(self, code: str) -> CardFace | None:
        """How the card is drawn (its game's definition, `CardFace`), in the screen's language; None: in words."""
        key = (code.partition("#")[0], language())
        if key not in self._pictures:
            self._pictures[key] = card_face(*key)
        return self._pictures[key]

    def shown(self, code: str, owner: str = "", highlight: bool = False) -> Shown:
        """A card on the table: its words and, where its game draws faces, its picture."""
        return Shown(self.face(code), owner, highlight, self.picture(code))

    def turn_text(self, state: State) -> str:
        if state.get("finished"):
            return tr("The game is over.")
        turn = state.get("turn")
        return tr("{player} to play", player=turn) if turn else tr("Waiting…")

    def result_lines(self, state: State) -> list[str]:
        scores = state.get("scores", {})
        return [f"{p}: {scores.get(p, 0)}" for p in self.players]

    def unit(self, n: int | None = None) -> str:
        """What the seat tile's big number counts, in the screen's language, agreeing with the number `n` ("1 Punkt",
        "3 Punkte"); None: said once over several numbers (the plural). The results say the same."""
        singular, plural = self.unit_words()
        return trn(singular, plural, 2 if n is None else n)

    def unit_words(self) -> tuple[str, str]:
        """The unit's word and its plural (`Np_`): the game's `seat_unit`, unless its options change what counts."""
        return self.seat_unit

    def seat_score(self, state: State, player: str) -> str:
        """The seat tile's big number (the score, or what counts in this game)."""
        return str(state.get("scores", {}).get(player, 0))

    def race(self, state: State) -> RaceShown | None:
        """An open or just decided race (ANNAOTTO's ALLE), or None."""
        return None

    def verdict_player(self, event: Event) -> str:
        """Whose the accepted event is, where the verdict draws its card beside it ("Anna" and the card)."""
        return event.get("player") or tr("Start card")

    def verdict_words(self, event: Event) -> str:
        """An accepted event in a few words for the verdict ("Ben: Rot · Punkte · 7")."""
        player = event.get("player", "")
        cards = event.get("cards") or ([event["card"]] if "card" in event else [])
        if cards:
            faces = ", ".join(self.face(code) for code in cards)
            return f"{player}: {faces}" if player else faces
        kind = event.get("type", "")
        words = {"draw": tr("draws"), "press": tr("confirms") if event.get("button") == "confirm" else tr("slaps"),
                 "take_pile": tr("takes the pile"), "undo": tr("Undone"), "race_close": tr("Race closed")}
        if kind == "call":
            words[kind] = f"{event.get('word', '')}!"
        if kind not in words:  # the game's own events in the shared words (the history's), never the event type
            return describe_event(event, language(), self.game_id, self.face)
        return f"{player}: {words[kind]}" if player else words[kind]


UIS: Registry[type[GameUI]] = Registry(__name__, __path__, "game_id")
register = UIS.register


def get(game_id: str) -> type[GameUI]:
    """The game's table panel; KeyError for a game that has none (`UIS.get` for None instead)."""
    return UIS[game_id]


def ids() -> list[str]:
    """Every game with a table panel, in menu order."""
    return UIS.ids()
