"""Screenshots of every hub page with live tables, at a desk screen's and a phone's size, in German and English.

    .venv/bin/python scripts/hub_screenshots.py OUT_DIR

Starts a private Mosquitto, a hub and four kiosk tables (their event logs and café
publishers) playing at a table's pace, then photographs the pages with chromium.
For looking at what people see; nothing here asserts.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hub.auth import hash_password  # noqa: E402
from tests.hub_browser import browser  # noqa: E402
from tests.hub_process import HubProcess  # noqa: E402
from tests.mosquitto import Broker  # noqa: E402
from tests.test_hub_live import get_json  # noqa: E402

TABLES = [("t1", "magische-7", "0"), ("t2", "alles-klar", "0.4"), ("t3", "annaotto", "0.5"), ("t4", "alcasan", "0.6")]
SIZES = {"desk": (1366, 768), "phone": (360, 740)}
LONG = "Maximiliane-Charlotte von Hohenzollern"


PAGES = [("overview", "/"), ("table", "/table/cafe-1/t3"), ("games", "/games"), ("game", None),
         ("leaderboard", "/leaderboard/magische-7"), ("player", "/players/Ben"), ("evening", "/evening"),
         ("print", "/print"), ("login", "/staff")]  # the game page: a disputed game's (found once they played)


def start_tables(broker: Broker, tmp_path: Path) -> tuple[list[subprocess.Popen], subprocess.Popen]:
    """Four simulated tables that keep playing, and a fifth whose game the hub will dispute."""
    tables = []
    for table, game, pace in TABLES:
        extra = {"t1": ["--rename", "Anna=anna"], "t2": ["--rename", f"Anna={LONG}"]}.get(table, [])
        tables.append(subprocess.Popen(
            [sys.executable, "-m", "tests.hub_table_proc", "--broker", broker.address, "--cafe", "cafe-1",
             "--table", table, "--data-dir", str(tmp_path / table), "--game", game, "--pace", pace,
             "--noise", "4", *extra], cwd=ROOT, stdout=subprocess.DEVNULL))
    disputed = subprocess.Popen(
        [sys.executable, "-m", "tests.hub_table_proc", "--broker", broker.address, "--cafe", "cafe-1",
         "--table", "t5", "--data-dir", str(tmp_path / "t5"), "--game", "magische-7", "--pace", "0",
         "--falsify", "5"], cwd=ROOT, stdout=subprocess.DEVNULL)
    return tables, disputed


def shoot(url: str, finished: str, out: Path) -> None:
    """Every page at both sizes in both languages, then the staff pages after sending an announcement."""
    with browser() as chromium:
        for size, (width, height) in SIZES.items():
            page = chromium.new_page(viewport={"width": width, "height": height})
            for lang in ("de", "en"):
                for name, path in PAGES:
                    page.goto(f"{url}{path or finished}?lang={lang}")
                    time.sleep(0.3)
                    page.screenshot(path=str(out / f"{name}-{size}-{lang}.png"))
            page.fill("input[name=password]", "screens")
            page.click("form.login button")
            page.wait_for_selector("form[action='/staff/announce']")
            page.fill("input[name=de]", "Letzte Runde um 23 Uhr")
            page.fill("input[name=en]", "Last round at 11 pm")
            page.click("button[name=send]")
            page.wait_for_selector(".current:not(.none)")
            page.goto(f"{url}/staff?lang=en")
            page.screenshot(path=str(out / f"staff-{size}-en.png"), full_page=True)
            page.goto(f"{url}/staff/table/cafe-1/t2?lang=de")
            page.screenshot(path=str(out / f"errors-{size}-de.png"))
            page.close()


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        broker = Broker(tmp_path / "broker").start()
        config = tmp_path / "hub.toml"
        config.write_text(f'[hub]\nstaff_password_hash = "{hash_password("screens")}"\n'
                          '[hub.table_names]\nt1 = "Fenster"\nt3 = "Ecke am Kamin"\n')
        hub = HubProcess(tmp_path / "hub", broker.address, "cafe-1", config=config).start()
        tables, disputed = start_tables(broker, tmp_path)
        time.sleep(8)
        disputed.kill()  # t5 goes offline (its last will)
        time.sleep(1)
        games = get_json(f"{hub.url}/api/games")
        finished = next(g["url"] for g in games if g["check"] == "disputed")
        try:
            shoot(hub.url, finished, out)
        finally:
            for proc in tables:
                proc.kill()
            hub.stop()
            broker.stop()
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "hub-screenshots")))
