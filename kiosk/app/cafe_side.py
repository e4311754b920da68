"""The table's side of the café: its link to the café's broker while it is in one, and joining one from the admin
menu. The link can start and stop while the kiosk runs (admin → Café → join or leave), so the parts that use it
(the loop's strip and deadlines, the inputs' café news, the router's assignments) ask this for the link now."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kiosk.eventlog.store import EventLog

if TYPE_CHECKING:
    from cafe.config import CafeLinkConfig
    from kiosk.app.cafe_link import CafeLink
    from kiosk.app.joining import Joining


class CafeSide:
    """The café link (`link`, None outside a café) and the admin menu's joining (`joining`, None without one)."""

    def __init__(self, link: CafeLink | None = None, joining: Joining | None = None,
                 post: Callable[[object], None] | None = None):
        self.link = link
        self.joining = joining
        self.post = post  # where the link's news goes (the inbox)

    def join(self, config: CafeLinkConfig, log: EventLog | None) -> None:
        """The table just joined a café: its link to the broker starts now, no restart needed; the log's records
        are signed for the café from now on, the earlier ones too."""
        from kiosk.app.cafe_link import CafeLink  # paho only for a table in a café

        if self.link is not None:
            self.link.stop()
        if log is not None:
            log.seal_for(config.table)
        self.link = None if log is None or self.post is None else CafeLink(config, log, self.post).start()

    def leave(self) -> None:
        """Admin → Café → Leave: the link stops, the password and the café's CA are forgotten."""
        self.stop()
        if self.joining is not None:
            self.joining.leave()

    def stop(self) -> None:
        if self.link is not None:
            self.link.stop()
            self.link = None
