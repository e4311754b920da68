"""The attack drill's attacks on a table's kiosk (issue #34): text from the café that once ended every kiosk, the
default PIN, a USB stick's links, a config beyond reason. Real kiosk processes where the kiosk meets the
outside (the café's broker, the admin corner), the real app in-process for the stick (no mount without root).
Each says refused / detected / harmless, or FAILED."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.attack_cafe import CAFE, SCREEN_TABLE, Cafe
from benchmarks.attack_hub import publish_as
from cafe import contract
from tests.kiosk_process import E2E_CONFIG, KioskProcess

Verdict = tuple[str, str]
ROOT = Path(__file__).resolve().parents[1]


def _config(cafe: Cafe, folder: Path, pin: bool = True) -> Path:
    """The e2e table's config as a café table over TLS (t2), with or without the tests' configured PIN."""
    text = E2E_CONFIG.read_text(encoding="utf-8")
    if not pin:
        text = "\n".join(line for line in text.splitlines() if not line.startswith("admin_pin_hash"))
    user = f"table-{SCREEN_TABLE}"
    text += (f'\n[cafe]\nbroker = "{cafe.broker.tls_address}"\ncafe = "{CAFE}"\ntable = "{SCREEN_TABLE}"\n'
             f'username = "{user}"\npassword_file = "{cafe.broker.files.passwords[user]}"\ntls = true\n'
             f'ca_file = "{cafe.broker.files.ca}"\n')
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _raw(payload: dict) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


def nul_on_the_screen(cafe: Cafe) -> Verdict:
    """The issue's fourth High item: a NUL in the retained announcement and `Eve\\x00` in the table's retained
    assignment, published with the hub's own password (worse than the staff form can do); the kiosk started,
    then started again."""
    announcement = {"v": 1, "text": {"de": "Happy hour\x00", "en": "Happy hour\x00"}, "until": None}
    assignment = {"v": 1, "evening": "e1", "round": 1, "game": "alles-klar", "options": {},
                  "players": ["Eve\x00", "Bob", "Cleo"], "dealer": None, "title": {"de": "Runde", "en": "Round"},
                  "at": contract.now_iso()}
    publish_as(cafe, "hub", [(contract.announce_topic(CAFE), _raw(announcement)),
                             (contract.assign_topic(CAFE, SCREEN_TABLE), _raw(assignment))], retain=True)
    data = cafe.work / "kiosk-nul"
    config = _config(cafe, data)
    alive = 0
    for _ in range(2):
        kiosk = KioskProcess(data, ["--config", str(config)])
        try:
            time.sleep(3.0)  # connected, heard both retained messages, drew its frames
            up = kiosk.proc.poll() is None and kiosk.state()["screen"] == "menu"
            alive += up
            cafe.kiosk_exits += not up
        finally:
            kiosk.close()
    publish_as(cafe, "hub", [(contract.announce_topic(CAFE), b""), (contract.assign_topic(CAFE, SCREEN_TABLE), b"")],
               retain=True)
    return ("harmless" if alive == 2 else "FAILED"), f"the kiosk ran on, started twice: {alive} of 2"


def default_pin(cafe: Cafe) -> Verdict:
    """A guest at a table with no configured PIN types 1234 in the admin corner."""
    data = cafe.work / "kiosk-pin"
    kiosk = KioskProcess(data, ["--config", str(_config(cafe, data, pin=False))])
    try:
        kiosk.cmd("admin")
        for key in "1234":
            kiosk.touch(f"key:{key}")
        mode = kiosk.touch("key:OK").get("mode")
        after = kiosk.touch("back").get("screen")
        cafe.kiosk_exits += kiosk.proc.poll() is not None
    finally:
        kiosk.close()
    ok = mode == "new" and after != "admin"
    return ("refused" if ok else "FAILED"), f"1234 opened {mode!r} (the change of PIN); Back led to {after!r}"


def stick_links(cafe: Cafe) -> Verdict:
    """A stick with the next minutes' export folders made in advance: links to the log and to the data folder."""
    from tests.kiosk_helpers import lay_export_traps, make_app, press
    from tests.test_kiosk_export import play
    from tests.test_kiosk_staff import open_admin

    data = cafe.work / "kiosk-stick"
    app = make_app(data)
    play(app.records.log, "alcasan", 2, 10)
    stick = cafe.work / "media" / "usb"
    stick.mkdir(parents=True)
    mounts = cafe.work / "mounts"
    mounts.write_text(f"/dev/sda1 {stick} vfat rw 0 0\n")
    app.host.mounts, app.host.usb_roots = mounts, (str(cafe.work / "media") + "/",)
    lay_export_traps(stick, data, app.records.log.path, 10)
    before = hashlib.sha256(app.records.log.path.read_bytes()).hexdigest()
    open_admin(app)
    press(app, "admin:export")
    said = app.loop.view.tagged("message")[0].text
    same = hashlib.sha256(app.records.log.path.read_bytes()).hexdigest() == before
    app.records.log.close()
    ok = same and said.startswith("Not exported")
    return ("refused" if ok else "FAILED"), f"the screen said {said[:60]!r}…; the live log unchanged: {same}"


def config_beyond_reason(cafe: Cafe) -> Verdict:
    """`--check-config` on a hash of 99,999,999 iterations, an 8192 × 8192 screen, a 300 MB password file."""
    folder = Path(tempfile.mkdtemp(dir=cafe.work))
    huge = folder / "password"
    with open(huge, "wb") as handle:
        handle.truncate(300 * 1024 * 1024)
    base = E2E_CONFIG.read_text(encoding="utf-8")
    slow = 'admin_pin_hash = "pbkdf2_sha256$99999999$'
    bad = {"iterations": base.replace('admin_pin_hash = "pbkdf2_sha256$1000$', slow),
           "screen": base.replace("[kiosk]\n", "[kiosk]\nscreen_size = [8192, 8192]\n", 1),
           "password file": base + f'\n[cafe]\nbroker = "127.0.0.1:1883"\ncafe = "{CAFE}"\ntable = "t9"\n'
                                   f'username = "table-t9"\npassword_file = "{huge}"\n'}
    codes = {}
    for what, text in bad.items():
        path = folder / f"{what.replace(' ', '-')}.toml"
        path.write_text(text, encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "kiosk", "--check-config", str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120, env=os.environ | {"PYTHONPATH": str(ROOT)})
        codes[what] = done.returncode
    ok = set(codes.values()) == {1}
    return ("refused" if ok else "FAILED"), f"--check-config exit codes {codes}"
