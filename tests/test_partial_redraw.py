"""The renderer draws only what changed (`kiosk/drawing/damage.py`, decision D26-1): after every frame of real kiosks
playing all five games at random (rejections, hints, verdicts fading, the café strip, the notice band, help and
history and back), the surface must be, pixel for pixel, the same view drawn whole on a fresh surface by a fresh
renderer. A region too small (an ink that overflows its rect, a group's size that changed) shows up here."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from cafe import contract
from cafe.config import CafeLinkConfig
from kiosk.app.app import post_sdl
from kiosk.app.cafe_link import CafeLink, CafeNews
from kiosk.drawing import damage
from kiosk.drawing.render import Renderer
from kiosk.drawing.view import View
from kiosk.screens.table import VERDICT_S
from referee import registry
from tests.kiosk_helpers import (
    hold,
    make_app,
    play_one_move,
    play_opening,
    press,
    scan,
    start_game,
    start_simulated_game,
)

MOVES = 24  # accepted moves per game and size: every kind of frame comes up, and the test stays short
NOT_A_CARD = "XX:NOT-A-CARD"


class FrameCheck:
    """Wraps the display's `present` (the real one runs): after each frame, the surface against a whole drawing."""

    def __init__(self, app: Any, out: Path):
        self.app, self.out = app, out
        self.frames = 0
        self.regions: list[list[pygame.Rect] | None] = []  # per frame: what was drawn again (None: whole)
        self.failures: list[str] = []
        self.rejections = 0  # rejections drawn in part
        self.moved = 0  # rejections drawn whole: the portrait verdict changed its height, the seats moved
        present = app.display.present

        def checked(view: View) -> None:
            present(view)
            self._check(view)

        app.display.present = checked

    def _check(self, view: View) -> None:
        self.frames += 1
        self.regions.append(self.app.display.renderer.regions)
        surface = self.app.display.surface
        whole = pygame.Surface(surface.get_size())
        Renderer(whole).draw(view)
        if pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(whole, "RGB"):
            return
        rect = differing(surface, whole)
        name = f"{len(self.failures)}-{self.app.router.screen.name}"
        pygame.image.save(surface, str(self.out / f"{name}-drawn.png"))
        pygame.image.save(whole, str(self.out / f"{name}-whole.png"))
        (self.out / f"{name}-rect.txt").write_text(f"{tuple(rect)}\n")
        inside = [f"{e.kind} {e.tag or ''} {e.text[:30]!r} {e.rect}" for e in view.elements
                  if pygame.Rect(e.rect).colliderect(rect)]
        name = self.app.router.screen.name
        self.failures.append(f"screen {name!r}, {surface.get_size()}: pixels differ in {tuple(rect)} "
                             f"(regions {self.app.display.renderer.regions}); elements there: {inside}")

    def ok(self) -> None:
        assert not self.failures, "\n".join(self.failures[:3])


def differing(a: pygame.Surface, b: pygame.Surface) -> pygame.Rect:
    """The smallest rect holding every pixel where `a` and `b` differ."""
    w, h = a.get_size()
    da, db = pygame.image.tobytes(a, "RGB"), pygame.image.tobytes(b, "RGB")
    row = 3 * w
    rows = [y for y in range(h) if da[y * row:(y + 1) * row] != db[y * row:(y + 1) * row]]
    def pixel(data: bytes, x: int, y: int) -> bytes:
        return data[y * row + 3 * x:y * row + 3 * x + 3]

    cols = [x for x in range(w) if any(pixel(da, x, y) != pixel(db, x, y) for y in rows)]
    return pygame.Rect(min(cols), min(rows), max(cols) - min(cols) + 1, max(rows) - min(rows) + 1)


def _frame(app: Any, check: FrameCheck) -> None:
    app.router.dirty = True
    app.loop.step(max_wait_ms=0)
    check.ok()


def _verdict_rect(app: Any) -> tuple[int, int, int, int] | None:
    found = [e.rect for e in app.loop.view.elements if e.tag.startswith("verdict:")]
    return found[0] if found else None


def _cards(app: Any) -> list[tuple[int, int, int, int]]:
    return [e.rect for e in app.loop.view.elements if e.tag == "card"]


def _rejection(app: Any, check: FrameCheck) -> None:
    """A code that is no card, scanned through the loop (as a scanner's thread posts it): the verdict changes,
    drawn again in part, less than half the screen — unless the verdict panel changed its height in portrait,
    where the seats stacked above it move with it, or the cards on the table had to change their size for the
    taller panel on a crowded screen (the table screen's layout: the whole view is drawn)."""
    before, verdict, cards = len(check.regions), _verdict_rect(app), _cards(app)
    scan(app, NOT_A_CARD)
    check.ok()
    frames = check.regions[before:]
    assert frames, "the rejection drew a frame"
    w, h = app.display.surface.get_size()
    grew = verdict is None or verdict[3] != (_verdict_rect(app) or verdict)[3]
    moved = grew and (h > w or cards != _cards(app))
    for regions in frames:
        if regions is None and moved:
            check.moved += 1
            continue
        assert regions is not None and damage.area(regions) < w * h / 2, (app.router.screen.name, regions)
        check.rejections += 1


def _visits(app: Any, check: FrameCheck, rng: random.Random) -> None:
    """Help (a page on) and the history, and back to the table: each screen drawn over the one before it."""
    for action, more in (("help", "next"), ("history", "up")):
        press(app, action)
        if more in app.loop.view.buttons() and rng.random() < 0.5:
            press(app, more)
        check.ok()
        press(app, "back")
        check.ok()


def _extras(app: Any, check: FrameCheck, rng: random.Random, cafe: CafeLink, turn: int) -> None:
    """What comes and goes around the table screen: the café's strip, the notice band, a verdict fading."""
    controller = app.router.screen.controller
    if turn % 7 == 3:
        app.cafe.link = cafe if app.cafe.link is None else None  # not connected: the "café offline" mark shows
        _frame(app, check)
    if turn % 9 == 5 and app.cafe.link is not None:
        until = time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(time.time() + 60))
        words = {"de": "Gleich Pause", "en": "Break soon"}
        app.inbox.post(CafeNews(announcement=contract.announce_payload(words, until=until), announced=True))
        _frame(app, check)
    if turn % 11 == 4:
        app.loop.guard.notice_until = time.monotonic() + 6  # as after an error the guard caught: the band shows
        _frame(app, check)
    elif turn % 11 == 6:
        app.loop.guard.notice_until = time.monotonic()  # the band's time ran out
        _frame(app, check)
    if controller.feedback is not None and rng.random() < 0.3:  # the verdict as it is five seconds later
        controller.feedback = replace(controller.feedback, at=controller.feedback.at - VERDICT_S)
        _frame(app, check)
    if rng.random() < 0.15:
        _visits(app, check, rng)


def _play(app: Any, check: FrameCheck, game_id: str, seed: int, cafe: CafeLink) -> None:
    """One game played by the simulator's table on the kiosk, with its mistakes (the referee's rejections)."""
    rng = random.Random(seed)
    controller, table = start_simulated_game(app, game_id, seed)
    referee = controller.referee

    def submit(event: dict[str, Any]) -> None:
        controller.submit(event)
        _frame(app, check)

    play_opening(table, referee, submit)
    for turn in range(MOVES):
        if referee.finished:
            break
        play_one_move(table, referee, submit, mistakes=2)
        if rng.random() < 0.3:
            _rejection(app, check)
        _extras(app, check, rng, cafe, turn)
    app.cafe.link = None
    app.loop.guard.notice_until = 0.0
    if "leave" in app.loop.view.buttons():
        press(app, "leave")
        hold(app, "yes:0", 2.5)  # "Menu", held: the game is paused in the log
    else:
        app.router.go_menu()  # the results: back to the menu
        _frame(app, check)
    check.ok()
    assert app.router.screen.name == "menu"


@pytest.mark.slow
@pytest.mark.parametrize("size, lang", [((800, 480), "de"), ((1280, 720), "en"), ((720, 1280), "de")])
def test_every_frame_is_the_view_drawn_whole(tmp_path, mosquitto, size: tuple[int, int], lang: str) -> None:
    app = make_app(tmp_path / "kiosk", lang=lang, size=size)
    check = FrameCheck(app, tmp_path)
    config = CafeLinkConfig(mosquitto.host, mosquitto.port, "cafe-test", "table-test")
    cafe = CafeLink(config, app.records.log, app.inbox.post)
    for i, game_id in enumerate(registry.ids()):
        _play(app, check, game_id, 7 + i, cafe)
    partial = [r for r in check.regions if r is not None]
    print(f"{size}: {check.frames} frames compared, {len(partial)} drawn in part ({partial.count([])} empty), "
          f"{check.rejections} rejections drawn in part, {check.moved} whole (the verdict grew or shrank and moved "
          "the seats or the cards)")
    assert check.rejections >= 10 and len([r for r in partial if r]) >= 50  # the partial draws were tried


def test_a_view_with_a_picture_is_drawn_whole() -> None:
    """A picture element (the camera's calibration view) holds a PIL image, which cannot be compared: whole."""
    from PIL import Image

    renderer = Renderer(pygame.Surface((800, 480)))
    view = View(800, 480)
    view.text((10, 10, 300, 40), "Kamera")
    view.picture((10, 60, 320, 240), Image.new("L", (64, 48), 128))
    for _ in range(2):
        assert renderer.draw(view) is None
    view.elements.pop()
    renderer.draw(view)
    assert renderer.draw(view) == [], "without the picture the same view again draws nothing"


def _same_as_whole(renderer: Renderer, view: View) -> None:
    whole = pygame.Surface(renderer.surface.get_size())
    Renderer(whole).draw(view)
    drawn = pygame.image.tobytes(renderer.surface, "RGB")
    assert drawn == pygame.image.tobytes(whole, "RGB"), f"differ in {tuple(differing(renderer.surface, whole))}"


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_what_is_drawn_beyond_a_rect_goes_with_it(size: tuple[int, int]) -> None:
    """A text taller than its box overflows it above and below (centred), a wrapped text more; icons' strokes
    reach past their points: taking them away, or changing them, leaves nothing of them behind."""
    from kiosk.drawing.view import ACCENT, BAD, BUTTON, PANEL

    def scene(shown: int) -> View:
        view = View(*size)
        view.box((0, 0, 300, 200), PANEL)
        view.button((320, 10, 200, 60), "Weiter", "next", fill=BUTTON, group="row")
        texts = [((20, 100, 260, 4), "Zu hoch für die Box", "center"),
                 ((20, 150, 120, 10), "Ein Satz, der umbrochen werden muss, weil er lang ist", "left"),
                 ((560, 300, 80, 6), "Rechts", "right")]
        for i, (rect, text, align) in enumerate(texts):
            view.text(rect, text if shown != i else text + "!", align=align, size=1.4)  # type: ignore[arg-type]
        for i, (icon, rect) in enumerate([("ok", (40, 300, 60, 30)), ("no", (120, 300, 20, 60)),
                                          ("turn", (200, 300, 30, 30)), ("warn", (260, 300, 30, 40))]):
            if shown != 10 + i:
                view.icon(rect, icon, ACCENT if i % 2 else BAD)  # type: ignore[arg-type]
        return view

    for shown in (0, 1, 2, 10, 11, 12, 13):
        renderer = Renderer(pygame.Surface(size))
        assert renderer.draw(scene(-1)) is None, "the first view is drawn whole"
        changed = scene(shown)
        assert renderer.draw(changed), "a part was drawn again"
        _same_as_whole(renderer, changed)
        assert renderer.draw(scene(-1)), "and back"
        _same_as_whole(renderer, scene(-1))


def test_what_makes_a_frame_whole() -> None:
    """The order of what stayed, a new surface size, the audit's record, invalidate(), and regions over half the
    screen: the whole view is drawn."""
    from kiosk.drawing.view import BUTTON, PANEL

    surface = pygame.Surface((800, 480))
    renderer = Renderer(surface)
    view = View(800, 480)
    view.box((0, 0, 400, 200), PANEL)
    view.box((100, 100, 400, 200), BUTTON)
    view.text((10, 300, 200, 40), "Eins")
    renderer.draw(view)
    assert renderer.draw(view) == []
    swapped = View(800, 480, [view.elements[1], view.elements[0], view.elements[2]])
    assert renderer.draw(swapped) is None, "the two boxes swapped which one is on top"
    renderer.invalidate()
    assert renderer.draw(swapped) is None
    renderer.record = []
    assert renderer.draw(swapped) is None and renderer.draw(swapped) is None
    renderer.record = None
    renderer.draw(swapped)
    big = View(800, 480, [*swapped.elements])
    big.box((0, 0, 800, 300), PANEL)
    assert renderer.draw(big) is None, "more than half the screen changed"
    renderer.resize(pygame.Surface((480, 800)))
    assert renderer.draw(View(480, 800, [*big.elements])) is None
    twice = View(480, 800, [*big.elements, big.elements[-1]])  # the same element drawn twice is two
    assert renderer.draw(twice) == [pygame.Rect(0, 0, 480, 300)]
    _same_as_whole(renderer, twice)


def test_the_loop_draws_whole_after_an_exposed_window_and_nothing_when_nothing_changed(tmp_path) -> None:
    """A frame with no change counts as a frame and draws nothing; after the window was exposed (its picture
    lost) or resized, the next frame is drawn and flipped whole."""
    app = make_app(tmp_path)
    app.loop.draw()
    frames = app.loop.frames
    app.loop.draw()
    assert app.loop.frames == frames + 1 and app.display.renderer.regions == []
    for kind in (pygame.WINDOWEXPOSED, pygame.VIDEORESIZE):
        event = pygame.event.Event(kind, w=800, h=480, size=(800, 480)) if kind == pygame.VIDEORESIZE else \
            pygame.event.Event(kind)
        post_sdl(app.loop, event)
        app.loop.step(max_wait_ms=50)
        assert app.loop.frames == frames + 2 and app.display.renderer.regions is None, pygame.event.event_name(kind)
        frames += 1


def test_a_rotated_display_shows_the_partly_drawn_canvas_turned_whole(tmp_path) -> None:
    """Mounted rotated, the canvas is drawn in part but turned onto the window whole: the window shows the view
    as drawn whole, turned."""
    app = make_app(tmp_path, size=(480, 800), rotate=90)
    check = FrameCheck(app, tmp_path)
    start_game(app, "alles-klar", 3)
    _rejection(app, check)
    whole = pygame.Surface(app.display.surface.get_size())
    Renderer(whole).draw(app.loop.view)
    turned = pygame.transform.rotate(whole, -90)
    assert pygame.image.tobytes(app.display.window, "RGB") == pygame.image.tobytes(turned, "RGB")
