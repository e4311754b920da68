"""`referee-kiosk audit`: every screen of every game at 800×480, 1280×720 and 720×1280 keeps the readability limits,
measured from what the renderer drew; and the audit does catch a screen that breaks them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.drawing import audit
from kiosk.drawing.view import Element


def keep_the_worst(reports: list[dict], pngs: Path, kept: Path) -> Path:
    """Of the audit's pictures keep one per screen (a scene name's first part) and size: the scene with the most
    findings (else the screen's first scene), so a failing run shows what broke; the rest is deleted."""
    findings: dict[tuple[str, str], int] = {}
    for r in reports:
        for f in r["failures"]:
            stem = f"{r['size']}-{f['scene'].replace(':', '_')}"  # the audit's picture of that scene
            findings[stem] = findings.get(stem, 0) + 1
    worst: dict[tuple[str, str], tuple[int, str]] = {}
    for png in sorted(pngs.glob("*.png")):
        size, _, scene = png.stem.partition("-")
        screen = scene.split("_")[0].split("@")[0]
        count = findings.get(png.stem, 0)
        if (size, screen) not in worst or count > worst[(size, screen)][0]:
            worst[(size, screen)] = (count, png.name)
    kept.mkdir(parents=True, exist_ok=True)
    for (size, screen), (count, name) in worst.items():
        shutil.copy(pngs / name, kept / f"{screen}-{size}-{count}-findings-{name}")
    shutil.rmtree(pngs)
    return kept


@pytest.mark.slow
def test_every_screen_keeps_the_limits(tmp_path) -> None:
    pngs = tmp_path / "audit-png"
    proc = subprocess.run([sys.executable, "-m", "kiosk", "audit", "--json", "--png", str(pngs)],
                          capture_output=True, text=True, timeout=900,
                          env={**__import__("os").environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    reports = json.loads(proc.stdout)
    kept = keep_the_worst(reports, pngs, tmp_path / "audit-worst")
    failures = [(r["size"], f["scene"], f["what"], f["value"], f["detail"]) for r in reports for f in r["failures"]]
    assert not failures, (f"the worst picture per screen and size: {kept}", failures[:20])
    assert proc.returncode == 0
    assert [r["size"] for r in reports] == ["800x480", "1280x720", "720x1280"]
    names = set(audit.scenes())
    for game in ("alles-klar", "alcasan", "profi-sort", "magische-7", "annaotto"):
        assert {f"table:{game}:start", f"table:{game}:rejected", f"table:{game}:end", f"setup:{game}"} <= names
    assert {"menu", "keyboard", "history", "admin:menu", "demo", "table:annaotto:race-result"} <= names
    for r in reports:
        assert r["scenes"] == len(names) * len(audit.LANGUAGES)  # every scene in German and in English
        assert r["min_key_cap_px"] >= r["limits"]["key_cap"] - 0.5
        assert r["verdict_grey_difference"] >= audit.GREY_DIFFERENCE


def test_the_audit_catches_small_pale_crowded_screens() -> None:
    from kiosk.drawing.view import View
    from kiosk.screens import Screen

    class Bad(Screen):
        def view(self, width: int, height: int) -> View:
            v = View(width, height)
            v.add(Element("text", (10, 10, 300, 12), "tiny grey words", color=(40, 60, 50)))
            v.add(Element("text", (10, 40, 300, 40), "turn", role="key", size=0.1))
            v.add(Element("text", (10, 200, 120, 30), "a sentence far too long for its small box", lines=1))
            v.add(Element("button", (10, 100, 30, 30), "x", action="a"))
            v.add(Element("button", (44, 100, 60, 60), "y", action="b"))
            return v

    @audit.scene("zz-test:bad")
    def bad(host) -> None:
        host.show(Bad(host))

    try:
        (report,) = audit.audit(sizes=((800, 480),), only="zz-test")
    finally:
        del audit._SCENES["zz-test:bad"]
    kinds = {f.what for f in report.failures}
    assert {"contrast", "touch", "gap"} <= kinds, report.failures
    # Text never drops below the floor: the tiny text and the key text were drawn at 16 / 32 px capitals anyway
    # (3 mm and 6 mm on the 7-inch panel); the sentence that does not fit its one line is cut, which fails.
    assert report.min_cap_px >= 16 and report.min_key_cap_px >= 32
    assert {(f.what, f.scene) for f in report.failures} >= {("cut", "zz-test:bad"), ("cut", "zz-test:bad@en")}


def test_a_long_path_breaks_after_slashes_and_dashes_instead_of_being_cut() -> None:
    """Staff read an export folder off the screen: a word wider than its box wraps at / and -, uncut."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from kiosk.drawing.render import ELLIPSIS, Renderer

    pygame.init()
    renderer = Renderer(pygame.Surface((480, 800)))
    font = renderer.font(20)
    path = "exports/tabletop-referee-table-20261123-235050"
    width = font.size("exports/tabletop-referee-")[0] + 2
    lines = Renderer._wrap(f"Folder {path}", font, width)
    assert "".join(lines[1:]) == path and all(font.size(line)[0] <= width for line in lines)
    assert not any(ELLIPSIS in line for line in lines) and len(lines) > 2
    # a word with no place to break is still cut to its box
    assert Renderer._wrap("x" * 200, font, width)[0].endswith(ELLIPSIS)
