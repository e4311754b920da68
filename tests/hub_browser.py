"""A real browser for the hub's tests: Playwright driving Debian's chromium (never a downloaded browser)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextmanager
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
