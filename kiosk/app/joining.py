"""A table joins a café without a shell: asks the hub, waits for staff, takes its bundle with the one-time code.

The admin menu's Café screen (`kiosk/screens/cafe.py`) drives this; the protocol is `cafe/handover.py`. The work
that waits on the network or on scrypt runs on a thread of its own, one at a time; its outcome comes back to the
display thread as a `JoinNews` through the kiosk's inbox, like the café's other news.

What the table keeps (`DATA_DIR/cafe/`, the kiosk's user only): `asked.json` (the hub's address and the table id
typed), and once joined `joined.json` (café, table, broker, user, hub), `password` (mode 600) and `ca.crt` (the
café's CA, the only one the table trusts for the broker). A table whose config file names a broker (the
file-based way) does not join here: the config wins.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cafe import certs, contract, handover
from cafe.config import CafeLinkConfig, parse_broker, parse_hub
from cafe.signing import fingerprint

logger = logging.getLogger("cafe")

FOLDER = "cafe"
ASKED, JOINED, PASSWORD, CA = "asked.json", "joined.json", "password", "ca.crt"
MAX_FILE = 16 * 1024


@dataclass(frozen=True, slots=True)
class JoinNews:
    """From the joining thread: where the request stands now (and, once joined, the café link's settings)."""

    state: str
    problem: str = ""  # a sentence key of the Café screen (kiosk/screens/cafe.py PROBLEMS)
    values: dict[str, Any] = field(default_factory=dict)
    cafe: str | None = None
    joined: CafeLinkConfig | None = None


def _folder(data_dir: Path) -> Path:
    return Path(data_dir) / FOLDER


def _read_json(path: Path) -> dict[str, Any]:
    """A small JSON object of ours, or {} when it is missing, too large or broken (never a crash at start)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as handle:
            data = handle.read(MAX_FILE + 1)
        value = json.loads(data) if len(data) <= MAX_FILE else {}
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def joined_config(data_dir: Path) -> CafeLinkConfig | None:
    """The café link of a table that joined (None when it has not, or its files are damaged)."""
    folder = _folder(data_dir)
    saved = _read_json(folder / JOINED)
    try:
        host, port = parse_broker(str(saved.get("broker", "")), tls=True)
        cafe, table = contract.check_id(saved.get("cafe"), "café"), contract.check_id(saved.get("table"), "table")
    except (ValueError, contract.ContractError):
        return None
    if not (folder / PASSWORD).is_file() or not (folder / CA).is_file():
        return None
    return CafeLinkConfig(host, port, cafe, table, f"table-{table}", folder / PASSWORD, True, folder / CA)


def save_joined(data_dir: Path, bundle: handover.Bundle, hub: str) -> CafeLinkConfig:
    """Keep what the hub handed over; the café link's settings from it."""
    folder = _folder(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    certs.write_private(folder / PASSWORD, (bundle.password + "\n").encode())
    certs.write_private(folder / CA, bundle.ca.encode("ascii"))
    saved = {"v": 1, "hub": hub, "cafe": bundle.cafe, "table": bundle.table, "broker": bundle.broker,
             "username": bundle.username}
    certs.write_private(folder / JOINED, json.dumps(saved).encode())
    config = joined_config(data_dir)
    if config is None:
        raise handover.HandoverError("the bundle could not be kept")
    return config


def forget_joined(data_dir: Path) -> None:
    """Leave the café: the password and the CA go (asking again needs the staff's acceptance again)."""
    for name in (JOINED, PASSWORD, CA):
        (_folder(data_dir) / name).unlink(missing_ok=True)


class Joining:
    """The Café screen's state and its one worker. Display thread: `ask`, `check`, `enter_code`, `receive`."""

    def __init__(self, data_dir: Path, post: Callable[[object], None], key: str | None,
                 sign: Callable[[bytes], bytes] | None, hub: str = "", table: str = "",
                 configured: CafeLinkConfig | None = None):
        self.data_dir, self.post, self.key, self.sign = Path(data_dir), post, key, sign
        asked = _read_json(_folder(data_dir) / ASKED)
        self.hub = str(asked.get("hub") or hub)[:300]
        self.table = str(asked.get("table") or table)[:32]
        self.configured = configured  # the config file's broker: no joining here
        self.joined = joined_config(data_dir)
        self.state = "file" if configured else "joined" if self.joined else "asked" if asked else "new"
        self.problem = ""
        self.values: dict[str, Any] = {}
        self.cafe: str | None = self.joined.cafe if self.joined else None
        self.salt: str | None = None
        self._busy = threading.Lock()

    @property
    def fingerprint(self) -> str | None:
        return fingerprint(self.key) if self.key else None

    @property
    def busy(self) -> bool:
        return self._busy.locked()

    # --- the display thread

    def set_hub(self, text: str) -> str | None:
        """The hub's address as typed; a sentence key when it is no address."""
        try:
            parse_hub(text)
        except ValueError:
            return "bad-hub"
        self.hub = text.strip()
        self._remember()
        return None

    def set_table(self, text: str) -> str | None:
        if not contract.is_id(text):
            return "bad-table"
        self.table = text
        self._remember()
        return None

    def _remember(self) -> None:
        folder = _folder(self.data_dir)
        folder.mkdir(parents=True, exist_ok=True)
        certs.write_private(folder / ASKED, json.dumps({"hub": self.hub, "table": self.table}).encode())

    def ask(self) -> None:
        """Ask the hub to let this table join (or where the request stands)."""
        if self.key is None:
            self.problem = "no-key"
            return
        if not self.hub or not self.table:
            self.problem = "need-both"
            return
        self._start(self._hello)

    def enter_code(self, code: str) -> None:
        try:
            handover.digits(code)
        except handover.HandoverError:
            self.problem = "code-digits"
            return
        self._start(lambda: self._claim(code))

    def leave(self) -> None:
        forget_joined(self.data_dir)
        self.joined, self.state, self.problem = None, "asked", ""

    def receive(self, news: JoinNews) -> None:
        self.state, self.problem, self.values = news.state, news.problem, news.values
        self.cafe = news.cafe or self.cafe
        if news.joined is not None:
            self.joined = news.joined

    # --- the worker

    def _start(self, work: Callable[[], JoinNews]) -> None:
        if not self._busy.acquire(blocking=False):
            return  # one request at a time: a second touch while the first waits does nothing
        self.problem = ""
        self.state = "working"

        def run() -> None:
            try:
                news = work()
            except Exception as error:  # whatever the network or the hub does: a sentence, never a crash
                logger.warning("café: joining failed: %r", error)
                news = JoinNews("asked", "hub-answer")
            finally:
                self._busy.release()
            self.post(news)

        threading.Thread(target=run, name="cafe-joining", daemon=True).start()

    def _hello(self) -> JoinNews:
        try:
            answer = handover.hello(self.hub, self.table, str(self.key))
        except OSError as error:
            return JoinNews("asked", "unreachable", {"reason": type(error).__name__})
        if answer.status == 429:
            return JoinNews("asked", "too-many")
        if answer.status == 404:
            return JoinNews("asked", "no-pairing")
        if answer.status != 200:
            return JoinNews("asked", "hub-answer")
        cafe, state, salt = handover.check_state(answer.body, self.table, str(self.key))
        self.salt = salt
        return JoinNews(state, "", {"tries_left": answer.body.get("tries_left")}, cafe=cafe)

    def _claim(self, code: str) -> JoinNews:
        news = self._hello()
        if news.state != "accepted" or self.salt is None or news.cafe is None:
            return news if news.problem else JoinNews(news.state, "no-code", cafe=news.cafe)
        instance = handover.Instance(news.cafe, self.table, str(self.key), self.salt)
        keys = handover.derive(code, instance)
        if self.sign is None:
            return JoinNews("asked", "no-key")
        answer = handover.claim(self.hub, instance, keys, self.sign)
        if answer.status == 403 and "tries_left" in answer.body:
            left = answer.body["tries_left"]
            left = left if isinstance(left, int) and 0 <= left <= handover.CODE_TRIES else 0
            return JoinNews("accepted" if left else "expired", "wrong-code", {"n": left}, cafe=news.cafe)
        if answer.status == 410:
            return JoinNews("expired", "no-code", cafe=news.cafe)
        if answer.status != 200:
            return JoinNews("accepted", "hub-answer", cafe=news.cafe)
        try:
            bundle = handover.open_sealed(keys, instance, answer.body)
        except handover.HandoverError as error:
            logger.warning("café: the hub's bundle was refused: %s", error)
            return JoinNews("accepted", "forged", cafe=news.cafe)
        config = save_joined(self.data_dir, bundle, self.hub)
        logger.info("café: joined café %r as table %r (broker %s, CA %s)", bundle.cafe, bundle.table, bundle.broker,
                 certs.fingerprint(certs.load_cert(config.ca_file)) if config.ca_file else "?")
        return JoinNews("joined", "", cafe=bundle.cafe, joined=config)


