"""Every kind of `hints()` detail reaches every screen: scans, touches and seat presses in each (issue #22).

The referee answers `hints()` with the game's own detail while play goes on and `FinishedHints` once the
game is over; around that the kiosk has its own moments (a paused game, a resumed one, a race open, a
question pending). A guest may scan, touch and press in any of them: the kiosk answers, it never falls over.
"""

from __future__ import annotations

from tests.kiosk_helpers import make_app, scan, settle
from tests.test_kiosk_screens import drive


def test_a_card_scanned_on_the_results_screen_of_magische_7_is_answered_not_a_crash(tmp_path) -> None:
    """The issue's crash: Die magische 7, two players, played to the end, one more card scanned."""
    app = make_app(tmp_path)
    controller = drive(app, "magische-7", steps=None)
    assert controller.finished and len(controller.referee.players) == 2
    last_card = controller.referee.history[-1]["card"]
    scan(app, last_card)
    settle(app)
    assert app.screen.name == "table" and app.screen.controller is controller
    assert "rematch" in app.current_view.buttons(), "the results screen still shows"
    assert len(controller.referee.history) == len(app.log.events(controller.game_row))
