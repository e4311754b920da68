"""The kiosk's side of the café link: the screen's status to the publisher, the café's news onto the screen.

`cafe.publisher.Publisher` runs on its own thread; everything here runs on the
display thread, called by `App` at four points (item, tick, draw, stop). What
the café says (online or not, an announcement) arrives as a `CafeNews` item
through `App.post`; the table screen then shows a small "café offline" mark and
the announcement as a one-line banner at the bottom edge, over any screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cafe import contract
from cafe.publisher import Publisher
from cafe.settings import CafeLinkConfig
from kiosk.i18n import language, tr
from kiosk.view import ACCENT, BAD, DARK_INK, INK, Grid, View

# Screens the contract does not name show as the one they belong to.
SCREEN_OF = {"history": "table", "keyboard": "setup"}


@dataclass(frozen=True, slots=True)
class CafeNews:
    """From the publisher's thread: the link came up or went down, or the café's announcement changed."""

    online: bool | None = None
    announcement: dict[str, Any] | None = None
    announced: bool = False  # True: `announcement` is news (None = cleared)


class CafeLink:
    def __init__(self, app: Any, config: CafeLinkConfig, **publisher_options: Any):
        self.app = app
        self.config = config
        self.online = False
        self.announcement: dict[str, Any] | None = None
        self._uids: dict[int, str | None] = {}
        self.publisher = Publisher(config, app.log.path, on_online=self._heard_online,
                                   on_announce=self._heard_announce, **publisher_options)
        app.log.on_record(self.publisher.notify)

    def start(self) -> CafeLink:
        self.publisher.start()
        return self

    def stop(self) -> None:
        self.publisher.stop()

    # --- the publisher's thread: only post

    def _heard_online(self, online: bool) -> None:
        self.app.post(CafeNews(online=online))

    def _heard_announce(self, payload: dict[str, Any] | None) -> None:
        self.app.post(CafeNews(announcement=payload, announced=True))

    # --- the display thread

    def receive(self, item: object) -> bool:
        """Take a CafeNews item (True), or leave the item to the screen (False)."""
        if not isinstance(item, CafeNews):
            return False
        if item.online is not None:
            self.online = item.online
        if item.announced:
            self.announcement = item.announcement
        return True

    def tick(self) -> bool:
        """True when the announcement just ran out (the screen must be drawn again)."""
        if self.announcement is not None and contract.announce_expired(self.announcement):
            self.announcement = None
            return True
        return False

    def decorate(self, view: View) -> None:
        """Add the offline mark and the announcement banner on top of a screen's view."""
        g = Grid(view.width, view.height)
        if self.announcement is not None:
            text = contract.announce_text(self.announcement, language())
            if text:
                view.text(g.r(0.0, 0.925, 1.0, 0.075), text, color=DARK_INK, fill=ACCENT, size=0.75,
                          align="center", tag="cafe-announce")
        if not self.online:
            view.text(g.r(0.79, 0.925 if self.announcement is None else 0.85, 0.2, 0.06), tr("Café offline"),
                      color=INK, fill=BAD, size=0.55, align="center", tag="cafe-offline")

    def publish_status(self, screen: Any) -> None:
        """Hand what the screen shows to the publisher (it sends only changes, at most 10 a second)."""
        self.publisher.set_status(self.status(screen))

    def status(self, screen: Any) -> dict[str, Any]:
        name = getattr(screen, "name", "menu")
        name = SCREEN_OF.get(name, name)
        fields: dict[str, Any] = {"screen": name if name in contract.SCREENS else "menu"}
        controller = None if name == "demo" else _controller_of(screen)
        if controller is None:
            return fields
        header, state = controller.referee.header, controller.state
        fields.update(game=header["game"], players=list(header["players"]), turn=state.get("turn"),
                      scores={k: int(v) for k, v in state.get("scores", {}).items()},
                      finished=bool(state.get("finished")))
        row = controller.game_row
        if row is not None:
            if row not in self._uids:
                self._uids[row] = self.app.log.game_uid(row)
            fields["game_uid"] = self._uids[row]
        return fields


def _controller_of(screen: Any) -> Any:
    """The table controller behind a screen (the table itself, or the admin/history screen over it)."""
    for _ in range(4):
        if screen is None:
            return None
        controller = getattr(screen, "controller", None)
        if controller is not None:
            return controller
        screen = getattr(screen, "back", None)
    return None
