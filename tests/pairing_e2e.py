"""Pairing's end-to-end parts for tests: a café (Debian's mosquitto with TLS and dynamic security, the real hub
process over HTTPS), staff on the hub's pages, and a real kiosk driven through admin → Café as staff would."""

from __future__ import annotations

import html
import re
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from hub.auth import hash_password
from tests.hub_process import HubProcess
from tests.kiosk_process import KioskProcess
from tests.mosquitto import CafeBroker

PASSWORD = "Karten und Kaffee"
PIN = "1234"


class Cafe:
    """A café's broker and hub, started together, stopped together."""

    def __init__(self, folder: Path, cafe: str = "nord"):
        self.broker = CafeBroker(folder, cafe).start()
        config = folder / "hub.toml"
        config.write_text(f'[hub]\nusername = "hub"\npassword_file = "{self.broker.files.passwords["hub"]}"\n'
                          f'staff_password_hash = "{hash_password(PASSWORD)}"\n'
                          f'table_broker = "{self.broker.tls_address}"\ntable_ca_file = "{self.broker.files.ca}"\n')
        self.hub = HubProcess(folder / "hub", self.broker.address, cafe, config=config, https=True,
                              trust_first_key=False).start()  # staff accept every table here
        self.staff = Staff(self.hub)

    @property
    def hub_address(self) -> str:
        return f"127.0.0.1:{self.hub.port}"

    def stop(self) -> None:
        self.hub.stop()
        self.broker.stop()


class Staff:
    """A staff phone on the hub's pages: logged in, posting as the hub's own forms do."""

    def __init__(self, hub: HubProcess):
        self.hub = hub
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(),
                                                  urllib.request.HTTPSHandler(context=context))
        self.opener.addheaders = [("Origin", hub.url)]
        self.post("/staff/login", {"password": PASSWORD})

    def post(self, path: str, fields: dict[str, str]) -> str:
        data = urllib.parse.urlencode(fields).encode()
        with self.opener.open(self.hub.url + path + "?lang=en", data=data, timeout=30) as answer:
            return answer.read().decode()

    def page(self) -> str:
        with self.opener.open(self.hub.url + "/staff?lang=en", timeout=30) as answer:
            return answer.read().decode()

    def waiting(self) -> list[tuple[str, str, str]]:
        """(table, fingerprint, key) of every table the staff page lists as waiting to join."""
        page = self.page()
        if "Waiting to join" not in page:
            return []
        part = page.split("Waiting to join", 1)[1].split("</section>", 1)[0]
        return re.findall(r'Table ([a-z0-9-]+)</b>.*?class="fingerprint">([A-Za-z0-9_-]+)</code>.*?name="key" '
                          r'value="([^"]+)"', part, re.S)

    def decide(self, table: str, key: str, accept: bool = True) -> str:
        """Accept (or refuse) a table's key on the staff page, as its buttons do."""
        action = "/staff/tables/accept" if accept else "/staff/tables/refuse"
        return self.post(action, {"cafe": self.hub.cafe, "table": table, "key": key})

    def accept(self, table: str, key: str) -> str:
        return self.decide(table, key, True)

    def code_for(self, table: str, timeout: float = 20.0) -> str:
        """The one-time code the staff page shows for a table (once the hub made its broker user)."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(rf"<strong>Table {re.escape(table)}</strong>.*?data-code>([0-9 ]+)<", self.page(),
                              re.S)
            if found:
                return found.group(1)
            if time.monotonic() > deadline:
                raise TimeoutError(f"no code for {table} on the staff page")
            time.sleep(0.1)

    def api(self, path: str) -> Any:
        import json

        try:
            with self.opener.open(self.hub.url + path, timeout=30) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as error:
            return json.load(error)


def text_of(page: str) -> str:
    """A page's words without its tags (what a person reads)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def open_cafe_screen(kiosk: KioskProcess) -> dict[str, Any]:
    """Admin corner, PIN, Café."""
    kiosk.cmd("admin")
    for key in PIN:
        kiosk.touch(f"key:{key}")
    kiosk.touch("key:OK")
    return kiosk.touch("admin:cafe")


def type_in(kiosk: KioskProcess, field: str, text: str) -> None:
    kiosk.touch(f"edit:{field}")
    for char in text:
        kiosk.touch(f"key:{char}")
    kiosk.touch("ok")


def ask_to_join(kiosk: KioskProcess, hub: str, table: str) -> dict[str, Any]:
    """Type the hub's address and the table's name, ask; the screen once the hub answered."""
    type_in(kiosk, "hub", hub)
    type_in(kiosk, "table", table)
    kiosk.touch("ask")
    return kiosk.wait(lambda s: s.get("state") not in ("working", "new", "asked") or s.get("problem"), 30)


def enter_code(kiosk: KioskProcess, code: str) -> dict[str, Any]:
    kiosk.touch("code")
    for digit in code.replace(" ", ""):
        kiosk.touch(f"key:{digit}")
    kiosk.touch("key:OK")
    return kiosk.wait(lambda s: s.get("state") != "working", 60)
