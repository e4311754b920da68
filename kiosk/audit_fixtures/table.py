"""Audit scenes of the table screen: every game at its start, mid-game, with a verdict each way, a question,
the end, at its largest player count with names of 12 characters, with its longest rejection in the table's
language, with the last trick's winner; ANNAOTTO's ALLE race open and decided; a scanner unplugged; every
banner at once (scanner and camera down, café offline, an announcement); demo mode."""

from __future__ import annotations

import ast
import random
import sys
import time
from pathlib import Path

import kiosk.games
from kiosk import i18n
from kiosk.app.controller import Feedback, TableController
from kiosk.app.host import KioskHost
from kiosk.drawing.audit import scene
from kiosk.screens.demo import DemoScreen
from kiosk.screens.table import TableScreen
from referee import games, sim
from referee.answers import Rejection
from referee.event_words import CARD_PARAMS, card_words
from referee.table import Referee

NAMES = ["Annabelle", "Ben", "Cleopatra", "Dev", "Emil", "Friederike"]  # long and short names
LONG_NAMES = ["Bartholomäus", "Konstantinos", "Marie-Louise", "Maximilianus", "Wilhelmine Ö", "Hannelorchen"]  # 12 each


def names(game_id: str, count: int | None = None, pool: list[str] = NAMES) -> list[str]:
    return pool[: count or sim.get(game_id).default_players]


def played(game_id: str, steps: int | None, count: int | None = None, seed: int = 3, pool: list[str] = NAMES
           ) -> TableController:
    """A game the table simulator played `steps` events into (None: to its end)."""
    players = names(game_id, count, pool)
    table = sim.get(game_id)(random.Random(seed), players)
    referee = Referee(table.header)
    controller = TableController(referee, None, None, {})
    for i, event in enumerate(sim.play(table, Referee(table.header))):
        if steps is not None and i >= steps:
            break
        controller.submit(event)
    return controller


def show(app: KioskHost, controller: TableController) -> TableScreen:
    app.scanners_down.clear()
    screen = TableScreen(app, controller)
    app.show(screen)
    return screen


def _register(game_id: str) -> None:
    most = max(games.get(game_id).player_counts)

    @scene(f"table:{game_id}:new")
    def new(app: KioskHost) -> None:  # nothing played yet: the start instructions (ANNAOTTO: deal, turn, start card)
        show(app, played(game_id, 0, count=most, seed=5, pool=LONG_NAMES))

    @scene(f"table:{game_id}:start")
    def start(app: KioskHost) -> None:
        show(app, played(game_id, 1))

    @scene(f"table:{game_id}:mid")
    def mid(app: KioskHost) -> None:
        show(app, played(game_id, 9))

    @scene(f"table:{game_id}:most-players")
    def crowded(app: KioskHost) -> None:
        show(app, played(game_id, 12, count=most, seed=5))

    @scene(f"table:{game_id}:long-names")
    def long_names(app: KioskHost) -> None:  # the largest table, every name 12 characters long
        show(app, played(game_id, 12, count=most, seed=5, pool=LONG_NAMES))

    @scene(f"table:{game_id}:longest-rejection")
    def longest(app: KioskHost) -> None:  # the game's longest rejection in the table's language, in a crowded game
        c = played(game_id, 12, count=most, seed=5, pool=LONG_NAMES)
        rejection = longest_rejection(game_id, i18n.language())
        c.feedback = Feedback(False, rejection, event={"type": "play", "player": c.state.get("turn"),
                                                       "card": _cards(game_id)[0]})
        show(app, c)

    @scene(f"table:{game_id}:rejected")
    def rejected(app: KioskHost) -> None:
        c = played(game_id, 6)
        c.scan("XX:NOT-A-CARD")
        show(app, c)

    @scene(f"table:{game_id}:accepted")
    def accepted(app: KioskHost) -> None:
        show(app, played(game_id, 6))

    @scene(f"table:{game_id}:end")
    def end(app: KioskHost) -> None:
        show(app, played(game_id, None))


for _game in [g for g in kiosk.games.ids() if g in sim.ids()]:
    _register(_game)


def _rejections(game_id: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(code, message key, value names) of every `Rejection(...)` the game's rules module (or package) and
    the referee's common checks raise, read from their source."""
    module = Path(sys.modules[games.get(game_id).__module__].__file__ or "")
    files = sorted(module.parent.glob("*.py")) if module.parent.name != "games" else [module]
    found: set[tuple[str, str, tuple[str, ...]]] = set()
    for path in [*files, Path(sys.modules[Referee.__module__].__file__ or "")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Rejection" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                continue
            code = str(node.args[0].value)
            key = str(node.args[1].value) if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) else code
            found.add((code, key, tuple(sorted(k.arg for k in node.keywords if k.arg))))
    return sorted(found)


def _cards(game_id: str) -> list[str]:
    """The cards a simulated game played, the longest in words first."""
    table = sim.get(game_id)(random.Random(3), names(game_id))
    codes = {c for e in sim.play(table, Referee(table.header)) for c in [*e.get("cards", []), e.get("card")]
             if isinstance(c, str)}
    return sorted(codes, key=lambda code: (-len(card_words(code, "de")), code))


def longest_rejection(game_id: str, lang: str) -> Rejection:
    """The rejection of this game whose sentence is the longest in `lang`, its values filled with the longest
    a table can have (12-character names, the longest card in words, two-digit numbers)."""
    card = _cards(game_id)[0]
    best: tuple[int, Rejection] | None = None
    for code, key, params in _rejections(game_id):
        values = {p: card if p in CARD_PARAMS else LONG_NAMES[0] if p in ("player", "source", "target", "owner",
                                                                           "by", "winner") else "12"
                  for p in params}
        rejection = Rejection(code, key, **values)
        sentence = rejection.message(lang, rules=False)  # what the guests read
        if "{" not in sentence and (best is None or len(sentence) > best[0]):
            best = (len(sentence), rejection)
    assert best is not None, game_id
    return best[1]


@scene("verdict:accepted")
def verdict_accepted(app: KioskHost) -> None:
    c = TableController.new_game(None, "alles-klar", ["Annabelle", "Ben"])
    c.scan("AK:8.II")
    show(app, c)


@scene("verdict:rejected")
def verdict_rejected(app: KioskHost) -> None:
    c = TableController.new_game(None, "alles-klar", ["Annabelle", "Ben"])
    c.scan("AK:8.II")
    c.scan("AK:8.II")  # a double scan
    show(app, c)


@scene("table:alles-klar:question")
def question(app: KioskHost) -> None:
    c = TableController.new_game(None, "alles-klar", ["Annabelle", "Ben", "Cleopatra"])
    c.scan("AK:5.I.V")
    show(app, c)


def _race(closed: bool) -> TableController:
    players = NAMES[:4]
    c = TableController.new_game(None, "annaotto", players, players[-1])
    c.scan("AO:RED.DOTS")
    c.scan("AO:RED.DOTS.ALLE")
    c.action(f"call:{players[0]}:ALLE")
    base = time.monotonic_ns()
    slaps = [(players[1], 0), (players[0], 212_400_000), (players[3], 278_336_000)]
    if closed:
        slaps.append((players[2], 1_034_000_000))
    for player, t in slaps:
        c.button(player, "slap", base + t)
    return c


@scene("table:annaotto:race-open")
def race_open(app: KioskHost) -> None:
    show(app, _race(False))


@scene("table:annaotto:race-result")
def race_result(app: KioskHost) -> None:
    show(app, _race(True))


@scene("table:annaotto:race-late-slap")
def race_late(app: KioskHost) -> None:
    c = _race(True)
    c.button(NAMES[1], "slap", time.monotonic_ns())
    screen = show(app, c)
    screen._race_until = 0.0
    race = c.ui.race(c.state)
    screen._race_key = race.key if race is not None else ()


@scene("table:scanner-unplugged")
def unplugged(app: KioskHost) -> None:
    c = played("alles-klar", 4)
    show(app, c)
    app.scanners_down["/dev/ttyACM1"] = "Cleopatra"


@scene("table:every-banner")
def every_banner(app: KioskHost) -> None:
    """Scanner and camera down, the café offline and an announcement, all at once."""
    from cafe.config import CafeLinkConfig
    from hw.camera.zones import READER as CAMERA
    from kiosk.app.cafe_link import CafeLink
    from kiosk.eventlog.store import EventLog

    show(app, played("annaotto", 9, seed=5, pool=LONG_NAMES))
    app.scanners_down["/dev/ttyACM1"] = LONG_NAMES[2]
    app.scanners_down[CAMERA] = None
    # a café link that never connects (not started): offline, with the café's announcement showing
    log = EventLog(Path(app.settings.data_dir) / "audit-cafe.sqlite")
    link = CafeLink(CafeLinkConfig("127.0.0.1", 9, "audit-cafe", "table-1"), log, lambda news: None)  # not started
    app.cafe_side.link = link
    link.announcement = {"text": {"de": "Das Turnier beginnt um 20 Uhr an Tisch 3 – bitte Karten bereithalten",
                                      "en": "The tournament starts at 8 pm at table 3 – please have your cards ready"}}

@scene("demo")
def demo(app: KioskHost) -> None:
    app.scanners_down.clear()
    screen = DemoScreen(app, seed=5)
    app.show(screen)
    for _ in range(6):
        screen.next_at = 0
        screen.on_tick(time.monotonic())
