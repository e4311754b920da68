"""The composition root: the event log, the hardware, the café link and the inbox they post to, built once and
handed to the `App` — which opens nothing itself and is never patched up after it is made."""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kiosk.app.app import App
from kiosk.eventlog.storage import open_log
from kiosk.eventlog.store import EventLog
from kiosk.hardware.hardware import Hardware, open_hardware
from kiosk.loop.inbox import Inbox
from kiosk.settings.config import KioskConfig
from kiosk.settings.settings import Settings

if TYPE_CHECKING:
    from cafe.config import CafeLinkConfig
    from kiosk.app.cafe_link import CafeLink
    from kiosk.app.joining import Joining
    from kiosk.service.notify import Notifier

logger = logging.getLogger("referee-kiosk")


@dataclass
class Kiosk:
    """A composed kiosk: the app and the parts it was given, closed together."""

    app: App
    hardware: Hardware
    cafe: CafeLink | None

    def close(self) -> None:
        """Stop the café link, close the hardware, give the display back, close the log (the current one: a
        storage retry may have opened it afresh)."""
        self.app.cafe.stop()  # the link it started with, or the one joined since
        self.hardware.close()
        self.app.close()
        self.app.records.close()


def compose(settings: Settings, config: KioskConfig | None, cafe: CafeLinkConfig | None, notifier: Notifier, *,
            simulate: bool = False, control: Path | None = None, kiosk_mode: bool = False,
            headless: bool = False, camera: bool = False) -> Kiosk:
    """Open the log (a fault is a screen, never a crash), the hardware (real, or simulated with `control` as its
    socket) and the café link, and make the App over them. `kiosk.app.app.DisplayError` when there is no screen
    (everything opened so far is closed again)."""
    from kiosk.app.joining import joined_config

    linked = cafe or joined_config(settings.data_dir)  # the config's broker, or the café joined from the admin menu
    opened = open_log(settings.log_path, table=linked.table if linked is not None else None)
    inbox = Inbox()
    hardware = open_hardware(inbox, config.table if config is not None else None, simulate, control,
                             window=simulate and not kiosk_mode, camera=camera, data_dir=settings.data_dir)
    joining = _joining(settings, config, cafe, opened.log, inbox)
    link = _cafe_link(linked, opened.log, inbox) if linked is not None else None
    try:
        app = App(settings, opened.log, kiosk_mode=kiosk_mode, headless=headless, heartbeat=notifier.beat,
                  fallback_headless=simulate, on_status=notifier.status,
                  inbox=inbox, hardware=hardware, cafe=link, joining=joining)
    except BaseException:
        hardware.close()
        if opened.log is not None:
            with contextlib.suppress(Exception):
                opened.log.close()
        raise
    if opened.fault is not None:
        app.router.storage_fault(opened.fault)
    elif opened.notice:
        from kiosk.screens.fault import FaultScreen

        app.router.show(FaultScreen(app.host, notice=opened.notice))
    logger.info("event log %s", settings.log_path)
    if link is not None and linked is not None:
        link.start()
        logger.info("café %r, table %r, broker %s:%s", linked.cafe, linked.table, linked.host, linked.port)
    if hardware.control is not None:
        logger.info("simulated table; control socket %s", hardware.control)
    return Kiosk(app, hardware, link)


def _joining(settings: Settings, config: KioskConfig | None, configured: CafeLinkConfig | None,
             event_log: EventLog | None, inbox: Inbox) -> Joining:
    """Admin → Café's state: the log's key (what the hub pins), the config's `[cafe] hub` to start from."""
    from kiosk.app.joining import Joining

    signer = event_log.own_signer() if event_log is not None else None
    join = config.join if config is not None else None
    return Joining(settings.data_dir, inbox.post, signer.public if signer else None,
                   signer.key.sign if signer else None, hub=join.hub if join else "",
                   table=(join.table or "") if join else "", configured=configured)


def _cafe_link(config: CafeLinkConfig, event_log: EventLog | None, inbox: Inbox) -> CafeLink | None:
    """The café link over the event log (not started); none while the log cannot be opened."""
    from kiosk.app.cafe_link import CafeLink  # paho only for a table in a café

    if event_log is None:
        logger.error("café %r: no event log to publish from; the table plays on without the café", config.cafe)
        return None
    return CafeLink(config, event_log, inbox.post)
