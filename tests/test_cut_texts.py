"""Nothing cut, ever (issue #37): the renderer counts every text it cut or drew below its role's floor in every
run, not only under the audit; the control socket's `state` says how many and the last few; the log says each
once. Real play drew cuts the audit's scenes never did: the history's title, an export's folder, a rejection's
sentence measured with the English default names and drawn with the German ones."""

from __future__ import annotations

from kiosk.drawing.render import CUT_MARK, Cuts
from kiosk.drawing.view import Element, View
from kiosk.screens import Screen
from tests import kiosk_helpers
from tests.kiosk_helpers import make_app, press, scan, start_game


class Crowded(Screen):
    """A screen that asks for the impossible: a sentence on one short line."""

    def view(self, width: int, height: int) -> View:
        v = View(width, height)
        v.add(Element("text", (10, 10, 120, 30), "a sentence far too long for its small box", lines=1))
        return v


def test_the_renderer_counts_cuts_in_every_run_and_state_reports_them(tmp_path, caplog) -> None:
    app = make_app(tmp_path)
    kiosk_helpers.EXPECT_CUTS.append(app)  # this test cuts on purpose
    app.router.show(Crowded(app.host))
    app.loop.draw()
    app.router.dirty = True
    app.display.renderer.invalidate()
    app.loop.draw()  # the same cut again, in a second frame
    report = app.commands.state()["cut_texts"]
    assert report["count"] == 2 and len(report["last"]) == 1, report
    assert "a sentence far too long" in report["last"][0] and "(cut)" in report["last"][0]
    assert sum(CUT_MARK in r.getMessage() for r in caplog.records) == 1, "logged once, counted every frame"


def test_a_cut_is_noted_once_per_frame_and_the_report_keeps_the_last_five() -> None:
    cuts = Cuts()
    for i in range(8):
        cuts.note(f"text {i}", "text…", (0, 0, 10, 10), "cut")
    assert cuts.report() == {"count": 8, "last": [f"'text {i}' drawn as 'text…' (cut)" for i in range(3, 8)]}


def test_the_history_title_a_german_rejection_and_an_admin_message_are_whole(tmp_path) -> None:
    """The issue's cuts: "Verlauf: Die magis…" beside free space, "Spieler 1 ist am Zug, nicht Spieler…" (measured
    with "Player 1", drawn with "Spieler 1"). The conftest fails any test whose app cut a text; this one checks."""
    for size in ((800, 480), (1280, 720), (720, 1280)):
        app = make_app(tmp_path / f"{size[0]}", lang="en", size=size)
        start_game(app, "alles-klar", 5)  # English default names in the log …
        press(app, "lang")  # … a German table, five seats beside the verdict
        scan(app, "AK:8.II")  # Player 1 plays; Player 2 is to play
        app.router.screen.controller.scan("AK:5.V", "Player 5")  # Player 5's scanner: not their turn
        app.loop.draw()
        assert "Spieler 2 ist am Zug, nicht Spieler 5." in app.loop.view.texts()
        press(app, "history")
        assert app.loop.view.tagged("title")[0].text == "Verlauf: Alles klar?"
        assert app.display.renderer.cuts.count == 0, app.display.renderer.cuts.last


def test_a_text_is_measured_as_it_will_be_shown() -> None:
    """A sentence with default names is measured with the names the screen shows ("Spieler 1" in German, wider than
    "Player 1"): measured with the log's English names it was given one line and drawn cut."""
    from kiosk.drawing.render import measure
    from kiosk.i18n import set_language

    text = "Player 1 ist am Zug, nicht Player 2."
    set_language("de")
    try:
        assert measure.width(text, 16) == measure.width("Spieler 1 ist am Zug, nicht Spieler 2.", 16)
        narrow = measure.width("Player\u00a01 ist am Zug, nicht Player\u00a02.", 16) + 8  # fits the English names
        assert measure.lines(text, narrow, 16) == 2, "the German names need a second line"
    finally:
        set_language("en")
