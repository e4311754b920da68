"""One screen per job: menu, seat set-up, the table, history, results, admin, demo."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.view import View

if TYPE_CHECKING:
    from kiosk.app import App


class Screen:
    """A screen builds its View from its state and reacts to touches, seat inputs and time."""

    name = "screen"
    takes_scans = False  # a scan on a screen that cannot take it is answered with the "rejected" cue

    def __init__(self, app: App):
        self.app = app

    def view(self, width: int, height: int) -> View:
        raise NotImplementedError

    def on_action(self, action: str) -> None:
        """A touched button's action."""

    def on_input(self, item: Any) -> None:
        """A hardware input (ButtonPress, CardScan, ReaderError)."""

    def on_tick(self, now: float) -> bool:
        """Time passed; return True when the screen changed."""
        return False

    def next_wakeup(self) -> float | None:
        """Monotonic time at which on_tick must run next, or None."""
        return None

    def model(self) -> dict[str, Any]:
        """What the control socket's `state` command reports for this screen."""
        return {"screen": self.name}
