"""The hub's web app in-process for tests of its pages and forms (Starlette's TestClient over the real app, a
real store, no broker): what the staff and guests' browsers get, without starting a process."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from hub.auth import hash_password
from hub.ingest import Ingest
from hub.live import Broadcaster
from hub.queries import Reader
from hub.quota import DAILY_BYTES
from hub.store import Store
from hub.web import Hub, create_app

PASSWORD = "Kaffee und Karten"
OWN = {"Origin": "http://testserver"}  # a POST from the hub's own pages


@contextmanager
def hub_client(data: Path, sent: list[tuple[str, Any]] | None = None, unlock_file: Path | None = None,
               daily_quota: int = DAILY_BYTES) -> Iterator[tuple[TestClient, Hub]]:
    """A client of a hub over a store in `data`; what the hub announces is appended to `sent`; `unlock_file`
    as the running hub has it (`referee-hub unlock`)."""
    store = Store(data / "hub.sqlite")
    ingest = Ingest(store, lambda cafe, table, n: None, daily_quota=daily_quota)
    out = sent if sent is not None else []
    hub = Hub(Reader(data / "hub.sqlite"), ingest, Broadcaster(), lambda cafe, payload: out.append((cafe, payload)),
              "c1", hash_password(PASSWORD), unlock_file=unlock_file)
    try:
        with TestClient(create_app(hub)) as client:
            yield client, hub
    finally:
        store.close()


def log_in(client: TestClient) -> None:
    response = client.post("/staff/login", data={"password": PASSWORD}, headers=OWN, follow_redirects=False)
    assert response.status_code == 303, response.text
