"""The kiosk's side of the café link: the screen's status to the publisher, the café's news onto the screen.

`cafe.publisher.Publisher` runs on its own thread; everything here runs on the
display thread, called by `App` at four points (item, tick, draw, stop). What
the café says (online or not, an announcement) arrives as a `CafeNews` item
through the kiosk's inbox; the table screen then shows a small "café offline" mark and
the announcement as a one-line banner, in a strip at the bottom edge that every
screen leaves free while there is something to show.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cafe import contract
from cafe.config import CafeLinkConfig
from cafe.publisher import Publisher
from kiosk.app.controller import ShownScreen, TableController, controller_on
from kiosk.drawing.render import measure
from kiosk.drawing.view import ACCENT, BAD_FILL, DARK_INK, INK, Limits, View, ui_scale
from kiosk.eventlog.store import EventLog, outbox
from kiosk.i18n import language, tr

logger = logging.getLogger("cafe")

STRIP = 0.08  # of the screen's height: the café's strip at the bottom edge
# Screens the contract does not name show as the one they belong to.
# The contract knows six screens; every other screen is reported as the one guests would say they see.
SCREEN_OF = {"history": "table", "keyboard": "setup", "games": "menu", "scanner-test": "admin", "cafe": "admin",
             "button-test": "admin", "storage-fault": "error", "assignment": "setup"}
OVERLAYS = ("help", "confirm")  # drawn over another screen: reported as the screen underneath


@dataclass(frozen=True, slots=True)
class CafeNews:
    """From the publisher's thread: the link came up or went down, or the café's announcement changed."""

    online: bool | None = None
    announcement: dict[str, Any] | None = None
    announced: bool = False  # True: `announcement` is news (None = cleared)
    assignment: dict[str, Any] | None = None
    assigned: bool = False  # True: `assignment` (club nights) is news (None = cleared)
    problem: str | None = None
    troubled: bool = False  # True: `problem` is news (why the broker cannot be used: cafe.publisher.PROBLEMS)


class CafeLink:
    """The publisher over the kiosk's event log, its news posted to the display thread (`post`)."""

    def __init__(self, config: CafeLinkConfig, log: EventLog, post: Callable[[object], None],
                 **publisher_options: Any):
        self.post = post
        self.config = config
        self.online = False
        self.announcement: dict[str, Any] | None = None
        self.assignment: dict[str, Any] | None = None  # club nights: who plays here next (kiosk/screens/assignment.py)
        self.problem: str | None = None  # why the broker cannot be used (admin → Café says it)
        self._uids: dict[int, str | None] = {}
        self._options = publisher_options
        self.publisher = self._publisher(log)

    def _publisher(self, log: EventLog) -> Publisher:
        publisher = Publisher(self.config, outbox(log.path), on_online=self._heard_online,
                              on_announce=self._heard_announce, on_assign=self._heard_assign,
                              on_problem=self._heard_problem,
                              key=log.signer.public if log.signer is not None else None, **self._options)
        log.on_record(publisher.notify)
        return publisher

    def start(self) -> CafeLink:
        self.publisher.start()
        return self

    def adopt(self, log: EventLog) -> None:
        """The kiosk opened its log afresh (a storage fault's retry). The same log: its commits wake the publisher
        again. A fresh one (a damaged log set aside) is another file with its own key: the publisher starts
        again over it, so its records go out and its status names its key."""
        key = log.signer.public if log.signer is not None else None
        if key == self.publisher.key:
            log.on_record(self.publisher.notify)
            return
        self.publisher.stop()
        self._uids.clear()
        self.publisher = self._publisher(log)
        self.publisher.start()

    def stop(self) -> None:
        self.publisher.stop()

    # --- the publisher's thread: only post

    def _heard_online(self, online: bool) -> None:
        self.post(CafeNews(online=online))

    def _heard_announce(self, payload: dict[str, Any] | None) -> None:
        self.post(CafeNews(announcement=payload, announced=True))

    def _heard_assign(self, payload: dict[str, Any] | None) -> None:
        self.post(CafeNews(assignment=payload, assigned=True))

    def _heard_problem(self, problem: str | None) -> None:
        self.post(CafeNews(problem=problem, troubled=True))

    # --- the display thread

    def receive(self, item: object) -> bool:
        """Take a CafeNews item (True), or leave the item to the screen (False)."""
        if not isinstance(item, CafeNews):
            return False
        if item.online is not None:
            self.online = item.online
        if item.announced:
            self.announcement = item.announcement
        if item.assigned:
            self.assignment = item.assignment
        if item.troubled:
            self.problem = item.problem
        return True

    def next_wakeup(self) -> float | None:
        """When the announcement runs out (monotonic): the display loop wakes then to take it off the strip."""
        until = self.announcement.get("until") if self.announcement is not None else None
        if until is None:
            return None
        left = (contract.parse_time(until, "until") - datetime.now().astimezone()).total_seconds()
        return time.monotonic() + max(0.0, left)

    def tick(self) -> bool:
        """True when the announcement just ran out (the screen must be drawn again)."""
        if self.announcement is not None and contract.announce_expired(self.announcement):
            self.announcement = None
            return True
        return False

    def strip_height(self, width: int, height: int) -> int:
        """Pixels the café needs at the bottom edge (0 while online with nothing announced): screens lay out
        above it, so the banner and the mark never cover a button. Portrait stacks the two, landscape puts
        the mark at the banner's right end; each as high as its words need wrapped, none cut."""
        return sum(self._rows(width, height)[:2])

    def _rows(self, width: int, height: int) -> tuple[int, int, int]:
        """(announcement row, offline row under it (stacked) or 0, the offline mark's width) in pixels."""
        text = self._text()
        if self.online and text == "":
            return 0, 0, 0
        cap = Limits.for_size(width, height).cap
        pad = max(4, round(6 * ui_scale(width, height)))
        least = max(28, round(height * STRIP))
        mark_w = 0 if self.online else measure.width(tr("Café offline"), cap) + 2 * pad + 16
        mark_h = measure.line(cap) + 8
        stacked = width < height and mark_w > 0 and text != ""
        banner_w = width if stacked or not mark_w else width - mark_w
        banner_h = max(least, measure.height(text, banner_w, cap, pad) + 8) if text else 0
        if stacked:
            return banner_h, max(least, mark_h), width
        return max(banner_h, least, mark_h if mark_w else 0), 0, mark_w

    def decorate(self, view: View, height: int) -> None:
        """Draw the strip under a screen's view: the announcement and the offline mark."""
        width = view.width
        row, under, mark = self._rows(width, height)
        if not row:
            return
        text = self._text()
        strip = row + under
        if text:
            view.text((0, height - strip, width if under or not mark else width - mark, row), text, color=DARK_INK,
                      fill=ACCENT, size=0.8, align="center", tag="cafe-announce")
        if mark:
            view.text((width - mark, height - (under or row), mark, under or row), tr("Café offline"), color=INK,
                      fill=BAD_FILL, size=0.6, align="center", tag="cafe-offline")
        view.height = height

    def _text(self) -> str:
        return "" if self.announcement is None else contract.announce_text(self.announcement, language())

    def publish_status(self, screen: ShownScreen) -> None:
        """Hand what the screen shows to the publisher (it sends only changes, at most 10 a second).
        A screen this cannot describe costs the café its status, never the table its game."""
        try:
            self.publisher.set_status(self.status(screen))
        except Exception:
            logger.exception("café: no status for screen %r", getattr(screen, "name", screen))

    def status(self, screen: ShownScreen) -> dict[str, Any]:
        name = screen_name(screen)
        fields: dict[str, Any] = {"screen": name}
        shown = getattr(screen, "assignment", None) if getattr(screen, "name", "") == "assignment" else None
        if shown is not None:  # club nights: the hub's desk says "shows the assignment" (cafe-protocol.md, Status)
            fields["assignment"] = contract.assignment_ref(shown)
        controller = None if name == "demo" else _controller_of(screen)
        if controller is None:
            return fields
        header, state = controller.referee.header, controller.state
        fields.update(game=header["game"], players=list(header["players"]), turn=state.get("turn"),
                      scores={k: int(v) for k, v in state.get("scores", {}).items()
                              if isinstance(v, int | float) and not isinstance(v, bool)},
                      finished=bool(state.get("finished")))
        row = controller.game_row
        if row is not None and controller.log is not None:
            if row not in self._uids:
                self._uids[row] = controller.log.game_uid(row)
            fields["game_uid"] = self._uids[row]
        return fields


def screen_name(screen: ShownScreen) -> str:
    """The contract's name (`menu`, `setup`, `table`, `admin`, `demo`, `error`) of what a screen shows."""
    for _ in range(4):
        name = getattr(screen, "name", "menu")
        back = getattr(screen, "back", None)
        if name not in OVERLAYS or back is None:
            break
        screen = back
    name = SCREEN_OF.get(name, name)
    return name if name in contract.SCREENS else "menu"


def _controller_of(screen: ShownScreen | None) -> TableController | None:
    """The table controller behind a screen (the table itself, or the admin/history screen over it)."""
    for _ in range(4):
        if screen is None:
            return None
        controller = controller_on(screen)
        if controller is not None:
            return controller
        screen = getattr(screen, "back", None)
    return None
