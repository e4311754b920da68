"""The kiosk's text drawing never raises, whatever the string (issue #34): arbitrary Unicode — controls and NUL,
lone surrogates, right-to-left scripts, combining marks, emoji, huge strings — through the renderer itself and
through every path a text from outside takes to the screen: a café announcement, a club night's assignment (its
title and player names) and the players' names of a game at the table (names as the keyboard or an assignment
can give them: a game's log holds text the contract allows). The contract drops such text at the edge
(tests/test_attack_text.py); these reach the screen past it, as a bug elsewhere might let them."""

from __future__ import annotations

import pygame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cafe import contract
from cafe.config import CafeLinkConfig
from kiosk.app.cafe_link import CafeLink, CafeNews
from kiosk.drawing.render import MAX_DRAWN, Renderer, drawable, measure
from kiosk.drawing.view import BUTTON, CARD, View
from tests import kiosk_helpers
from tests.kiosk_helpers import make_app, settle

SIZES = [(800, 480), (1280, 720), (720, 1280)]
NASTY = ["Happy hour\x00", "Eve\x00", "\ud800", "a\udfffb", "\ud83d\ude00", "\x1b[31mred", "\u202eevil\u202c",
         "שלום עולם", "مرحبا", "e\u0301\u0301\u0301\u0301", "Z̸̢̛͎̼̥̈́͌a̷̛͓l̶̨͎g̸o", "👩‍👩‍👧‍👦🏳️‍🌈",
         "\ufeff\u200b\u2028\u2029", "\x7f\x85\x9f", "", " ", "x" * 200_000, "W" * 5000 + " " + "i" * 5000]
ANY_CHAR = st.characters(exclude_categories=[])  # surrogates and controls too (the default leaves them out)
TEXT = st.one_of(st.sampled_from(NASTY), st.text(ANY_CHAR, max_size=80),
                 st.builds(lambda s, n: s * n, st.text(ANY_CHAR, min_size=1, max_size=5), st.integers(1, 20_000)))
EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_drawable_leaves_no_control_or_lone_surrogate_and_bounds_the_length() -> None:
    for text in NASTY:
        out = drawable(text)
        assert len(out) <= MAX_DRAWN
        assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F or 0xD800 <= ord(c) <= 0xDFFF for c in out), out
    assert drawable("Anna") == "Anna" and drawable("Zoë, Ünal") == "Zoë, Ünal"
    assert drawable("\ud83d\ude00") == "😀"  # a pair as JSON's \u escapes can leave it: joined, not replaced


@EXAMPLES
@given(text=TEXT, size=st.sampled_from(SIZES))
def test_the_renderer_draws_and_measures_any_string(text: str, size: tuple[int, int]) -> None:
    w, h = size
    renderer = Renderer(pygame.Surface(size))
    view = View(w, h)
    view.text((10, 10, w // 2, 40), text, tag="plain")
    view.text((10, 60, w // 3, 30), text, lines=1, tag="one-line")
    view.button((10, 100, 200, 60), text, "act", group="row")
    view.button((220, 100, 200, 60), "OK", "ok", group="row")
    view.text((10, 170, w - 20, h - 180), text, size=1.4, fill=CARD, color=BUTTON, role="key", tag="big")
    renderer.draw(view)
    renderer.record = []  # the audit's path records every text as drawn
    renderer.draw(view)
    assert renderer.record
    for cap in (16.0, 32.0):
        measure.width(text, cap)
        measure.height(text, 300, cap)
        measure.fits(text, 120, cap)


@EXAMPLES
@given(announcement=TEXT, title=TEXT, names=st.lists(TEXT, min_size=2, max_size=2))
def test_announcements_assignments_and_players_names_reach_the_screen_without_a_fault(
        tmp_path_factory, announcement: str, title: str, names: list[str]) -> None:
    names = [f"{i}{name}" for i, name in enumerate(names)]  # two different names
    for size in SIZES:
        app = make_app(tmp_path_factory.mktemp("kiosk"), size=size)
        kiosk_helpers.EXPECT_CUTS.append(app)  # arbitrary strings: a cut is allowed here, a fault is not
        never_started = CafeLink(CafeLinkConfig("127.0.0.1", 1, "nord", "t1"), app.records.log, app.inbox.post)
        app.cafe.link = never_started
        app.inbox.post(CafeNews(online=True, announcement={"v": 1, "text": {"de": announcement, "en": announcement},
                                                     "until": None}, announced=True))
        settle(app)
        assignment = {"v": 1, "evening": "e1", "round": 1, "game": "magische-7", "options": {}, "players": names,
                      "dealer": None, "title": {"de": title, "en": title}, "at": "2026-01-01T20:00:00+01:00"}
        app.inbox.post(CafeNews(assignment=assignment, assigned=True))
        settle(app)
        assert app.router.screen.name == "assignment"
        app.inbox.post(CafeNews(assignment=None, assigned=True))
        settle(app)
        # A game's names are what the keyboard or an assignment can give: text the contract allows, kept in the log.
        app.router.start_game("magische-7", [f"{i}{name[:30]}" if contract.safe_text(name) else f"{i}" for i, name in
                                      enumerate(names)], None, {}, {})
        settle(app)
        assert app.router.screen.name == "table"
        assert app.loop.guard.count == 0, "the display loop's guard caught a fault"
        app.records.log.close()
