"""Audit scenes of the table screen: every game at its start, mid-game, with a verdict each way, a question,
the end; ANNAOTTO's ALLE race open and decided; a scanner unplugged; demo mode."""

from __future__ import annotations

import random
import time

import kiosk.games
from kiosk.app.controller import TableController
from kiosk.drawing.audit import scene
from kiosk.screens.demo import DemoScreen
from kiosk.screens.table import TableScreen
from referee import games, sim
from referee.table import Referee

NAMES = ["Annabelle", "Ben", "Cleopatra", "Dev", "Emil", "Friederike"]  # long and short names


def names(game_id: str, count: int | None = None) -> list[str]:
    return NAMES[: count or sim.get(game_id).default_players]


def played(game_id: str, steps: int | None, count: int | None = None, seed: int = 3) -> TableController:
    """A game the table simulator played `steps` events into (None: to its end)."""
    players = names(game_id, count)
    table = sim.get(game_id)(random.Random(seed), players)
    referee = Referee(table.header)
    controller = TableController(referee, None, None, {})
    for i, event in enumerate(sim.play(table, Referee(table.header))):
        if steps is not None and i >= steps:
            break
        controller.submit(event)
    return controller


def show(app, controller: TableController) -> TableScreen:
    app.scanners_down.clear()
    screen = TableScreen(app, controller)
    app.show(screen)
    return screen


def _register(game_id: str) -> None:
    most = max(games.get(game_id).player_counts)

    @scene(f"table:{game_id}:start")
    def start(app) -> None:
        show(app, played(game_id, 1))

    @scene(f"table:{game_id}:mid")
    def mid(app) -> None:
        show(app, played(game_id, 9))

    @scene(f"table:{game_id}:most-players")
    def crowded(app) -> None:
        show(app, played(game_id, 12, count=most, seed=5))

    @scene(f"table:{game_id}:rejected")
    def rejected(app) -> None:
        c = played(game_id, 6)
        c.scan("XX:NOT-A-CARD")
        show(app, c)

    @scene(f"table:{game_id}:accepted")
    def accepted(app) -> None:
        show(app, played(game_id, 6))

    @scene(f"table:{game_id}:end")
    def end(app) -> None:
        show(app, played(game_id, None))


for _game in [g for g in kiosk.games.available() if g in sim.registered()]:
    _register(_game)


@scene("verdict:accepted")
def verdict_accepted(app) -> None:
    c = TableController.new_game(None, "alles-klar", ["Annabelle", "Ben"])
    c.scan("AK:8.II")
    show(app, c)


@scene("verdict:rejected")
def verdict_rejected(app) -> None:
    c = TableController.new_game(None, "alles-klar", ["Annabelle", "Ben"])
    c.scan("AK:8.II")
    c.scan("AK:8.II")  # a double scan
    show(app, c)


@scene("table:alles-klar:question")
def question(app) -> None:
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
def race_open(app) -> None:
    show(app, _race(False))


@scene("table:annaotto:race-result")
def race_result(app) -> None:
    show(app, _race(True))


@scene("table:annaotto:race-late-slap")
def race_late(app) -> None:
    c = _race(True)
    c.button(NAMES[1], "slap", time.monotonic_ns())
    screen = show(app, c)
    screen._race_until = 0.0
    screen._race_key = c.ui.race(c.state).key


@scene("table:scanner-unplugged")
def unplugged(app) -> None:
    c = played("alles-klar", 4)
    show(app, c)
    app.scanners_down["/dev/ttyACM1"] = "Cleopatra"


@scene("table:english")
def english(app) -> None:
    from kiosk import i18n

    i18n.set_language("en")  # the audit sets German again before the next scene
    show(app, played("annaotto", 9))


@scene("demo")
def demo(app) -> None:
    screen = DemoScreen(app, seed=5)
    app.show(screen)
    for _ in range(6):
        screen.next_at = 0
        screen.on_tick(time.monotonic())
