"""What a game is, declared once by the game, and the registries that collect games by id.

A game is one definition (`GameDefinition`, declared in its deck module `referee/decks/<game>.py`) plus the
classes that register by its id: its rules (`referee.games`), its simulated table (`referee.sim`) and its
kiosk panel (`kiosk.games`). Everything that lists games (menus, the scanners' known prefixes, ranking,
history words, the hub's descriptions, labels, help) reads them from here; nothing else names the games.
A module that fails to import raises: it never silently drops a game.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import referee.decks
from referee.words import N_

T = TypeVar("T")

# How a game's `scores` rank its players (the specs say which): more wins, fewer wins, or the score is
# already the finishing place (0 = not out = last). TASKS: Profi-Sort's beginner game counts tasks done.
MORE_WINS = "points"
FEWER_WINS = "penalty"
PLACES = "places"
TASKS = "tasks"
SCORE_KINDS = (MORE_WINS, FEWER_WINS, PLACES, TASKS)


@dataclass(frozen=True)
class HelpPage:
    """One page of a game's short rules for guests: a title and a few short paragraphs (English msgids)."""

    title: str
    paragraphs: tuple[str, ...]


# What a label prints between a card's words ("Rot · Punkte", "8 · II").
SEP = " · "

# The help pages' two sentences every game ends with.
SCANNING = N_("Scan every card you lay, when you lay it: hold its barcode under your seat's scanner until it beeps.")
# Games that use no seat button in play (the set-up still asks each seat to press its button to sit).
SEAT_ONLY = N_("The seat buttons only take a seat at the start of this game.")
MISTAKE = N_("Something went wrong? Take a rejected card back and follow the screen. Staff can undo the last step.")

# A card face without its prefix (`RED.DOTS`) → its words in one language; `say` translates one English word.
CardWords = Callable[[str, Callable[[str], str]], str]


@dataclass(frozen=True, slots=True)
class CardFace:
    """How a card face is drawn, as data: the kiosk draws the picture (`kiosk/drawing/cards.py`); a game without
    a drawing is shown in its card words.

    - `value`: what the card says large, read from the chairs: a number, a rank, a short sign ("" for none);
    - `symbol`: a sign drawn as a shape, beside the value (a rank's suit) or alone in its place (an element, the
      Joker): one of the kiosk's shapes ("hearts", "water", "joker", … `kiosk.drawing.symbols.SYMBOLS`);
    - `small`: a line of small words under it (Alles klar?'s numerals, the 7's pair, an element's name);
    - `ink`: the colour of the value and the sign by name ("black", "red", "blue", …);
    - `fill`: the card's own colour by name ("" for a white card); `pattern`: a pattern over it ("dots", …).
    Its words are in the language asked for (the game's `card_face` is given a `say`)."""

    value: str = ""
    symbol: str = ""
    small: str = ""
    ink: str = "black"
    fill: str = ""
    pattern: str = ""


# A card face without its prefix → how it is drawn, its words in one language (`say` as for `CardWords`).
CardFaces = Callable[[str, Callable[[str], str]], CardFace]
# An event → its sentence; `w` is a `referee.event_words.Words` (the language and the game's card words).
EventWords = Callable[[Mapping[str, Any], str, Any], str]


@dataclass(frozen=True)
class GameOption:
    """A header option a table may set before a game: the kiosk's set-up offers it as one button cycling through
    `values` (label, value), the labels English msgids marked with N_(); `default` is the value the game plays
    with when the header leaves the option out. The one place the default is written: the rules read it here
    (`GameDefinition.default`), the set-up starts from it and sends only what differs from it."""

    option: str
    label: str
    values: tuple[tuple[str, Any], ...]
    default: Any

    def default_index(self) -> int:
        """The position of the default among the values."""
        return next(i for i, (_, value) in enumerate(self.values) if value == self.default)


@dataclass(frozen=True)
class GameDefinition:
    """Everything about a game that is not its rules, declared in one place by the game.

    - `game_id`: the game id of the transcript header; `order`: its place in menus and listings;
    - `prefix`: the deck prefix of its card codes (`AO` in `AO:RED.DOTS`);
    - `rules`: its rules file in `../shared/rules/`;
    - `card_words`: a face in words as its label prints it (`RED.DOTS` → "Rot · Punkte"); raises ValueError
      for a face that is not in the deck's syntax;
    - `events`: event type → its words (`referee.event_words`);
    - `score`: how `scores` rank (one of `SCORE_KINDS`), or a function of the options that says it;
    - `help`: the guests' short rules;
    - `value_words`: the words of other codes the rules' sentences name (ANNAOTTO's colours and signs);
    - `card_face`: how a face is drawn (`CardFace`; raises ValueError like `card_words`), or None: in words;
    - `state_words`: its public state's keys (and the keys of the parts it nests) in words, for the pretty trace;
    - `options`: the header options a table may set at the set-up, with their defaults (`GameOption`).
    The words themselves are English msgids of the shared catalogue (`referee.words`).
    """

    game_id: str
    order: int
    prefix: str
    rules: str
    card_words: CardWords
    events: Mapping[str, EventWords]
    score: str | Callable[[Mapping[str, Any]], str]
    help: tuple[HelpPage, ...]
    # Codes a rejection's sentence may name beside cards, by parameter: {"colour": {"RED": N_("Red")}}.
    value_words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    card_face: CardFaces | None = None
    # Its state's keys in words for `referee replay --pretty` (English msgids; the keys every game has are there).
    state_words: Mapping[str, str] = field(default_factory=dict)
    options: tuple[GameOption, ...] = ()

    def default(self, option: str) -> Any:
        """The value the game plays `option` with when the header leaves it out (KeyError: no such option)."""
        return next(o.default for o in self.options if o.option == option)

    def score_kind(self, options: Mapping[str, Any]) -> str:
        return self.score(options) if callable(self.score) else self.score


class Registry(Generic[T]):
    def __init__(self, package: str, path: list[str], key: str):
        self.package = package
        self.path = path
        self.key = key
        self._items: dict[str, T] = {}
        self._loaded = False
        self._loading = False
        self._lock = threading.RLock()
        self.changes = 0  # counts registrations, for what is derived from the registry and kept

    def register(self, cls: T) -> T:
        ident = getattr(cls, self.key)
        if self._items.get(ident, cls) is not cls:
            raise ValueError(f"{ident!r} registered twice in {self.package}")
        self._items[ident] = cls
        self.changes += 1
        return cls

    def unregister(self, ident: str) -> None:
        """Take a game out again (the test suite's toy game, after its tests)."""
        self._items.pop(ident, None)
        self.changes += 1

    def _load(self) -> None:
        """Import every module of the package once. Another thread (the café publisher checking a payload's
        players) waits until all have registered instead of seeing half a registry; the loading thread itself,
        asked again while a module imports, goes on with what has registered so far."""
        if self._loaded:
            return
        with self._lock:
            if self._loaded or self._loading:
                return
            self._loading = True
            try:
                for module in pkgutil.iter_modules(self.path):
                    importlib.import_module(f"{self.package}.{module.name}")
                self._loaded = True
            finally:
                self._loading = False

    def get(self, ident: str) -> T | None:
        self._load()
        return self._items.get(ident)

    def __getitem__(self, ident: str) -> T:
        self._load()
        return self._items[ident]

    def __contains__(self, ident: object) -> bool:
        self._load()
        return ident in self._items

    def ids(self) -> list[str]:
        """Every registered id, in the games' order (`GameDefinition.order`; undeclared ids last)."""
        self._load()
        return sorted(self._items, key=_order)


DEFINITIONS: Registry[GameDefinition] = Registry(referee.decks.__name__, referee.decks.__path__, "game_id")
define = DEFINITIONS.register


def _order(game_id: str) -> tuple[int, str]:
    found = DEFINITIONS.get(game_id)
    return (found.order if found is not None else 1 << 30, game_id)


def ids() -> list[str]:
    """Every declared game, in menu order."""
    return DEFINITIONS.ids()


def get(game_id: str) -> GameDefinition:
    """The game's definition; KeyError for a game that declares none (`DEFINITIONS.get` for None instead)."""
    return DEFINITIONS[game_id]


def by_prefix(prefix: str) -> GameDefinition | None:
    """The game whose deck prefix this is."""
    for game_id in DEFINITIONS.ids():
        found = DEFINITIONS[game_id]
        if found.prefix == prefix:
            return found
    return None


_prefixes: tuple[int, frozenset[str]] = (-1, frozenset())


def known_prefixes() -> frozenset[str]:
    """The deck prefixes of every declared game (the scanners' first filter, on every scan: kept until a
    game registers or leaves)."""
    global _prefixes
    DEFINITIONS._load()
    if _prefixes[0] != DEFINITIONS.changes:
        _prefixes = (DEFINITIONS.changes, frozenset(DEFINITIONS[g].prefix for g in DEFINITIONS.ids()))
    return _prefixes[1]
