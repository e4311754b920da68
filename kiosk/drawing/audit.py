"""`referee-kiosk audit`: draw every screen of every game at three sizes and check what was drawn.

Scenes (a screen in one state) come from a registry filled by the modules of
`kiosk/audit_fixtures/`: a module there registers functions with `@scene("name")`, each
putting a headless app onto one screen in one state. For every scene and size the
renderer records each text's capital height and colours and each touch target as
drawn (`Renderer.record`); the audit reports per size the smallest capital height
per role (any text; `lead`: the verdict's first line and the hint; `key`: whose
turn, scores), in pixels and in millimetres of the real panel, the lowest
contrast, the smallest touch target and gap, every text cut with "…", and
whether accepted and rejected verdicts differ in greyscale, and whether the texts of one group (a row of
buttons) share one size. Any limit broken or
any text cut: exit status 1.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.drawing.view import Limits, pitch

if TYPE_CHECKING:
    from kiosk.app.app import App
    from kiosk.app.host import KioskHost

SIZES: tuple[tuple[int, int], ...] = ((800, 480), (1280, 720), (720, 1280))
Scene = Callable[["KioskHost"], None]  # (the screens' host) -> None: shows one screen in one state
_SCENES: dict[str, Scene] = {}
_loaded = False
GREY_DIFFERENCE = 12.0  # mean grey-level difference (0-255) that tells two verdict panels apart


def scene(name: str) -> Callable[[Scene], Scene]:
    """Register a scene for the audit under a unique name."""
    def register(fn: Scene) -> Scene:
        if name in _SCENES and _SCENES[name] is not fn:
            raise ValueError(f"audit scene {name!r} registered twice")
        _SCENES[name] = fn
        return fn

    return register


def scenes() -> dict[str, Scene]:
    """Every registered scene (the modules of kiosk/audit_fixtures are imported on first use)."""
    global _loaded
    if not _loaded:
        _loaded = True
        import kiosk.audit_fixtures as package

        for module in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"kiosk.audit_fixtures.{module.name}")
    return dict(_SCENES)


@dataclass
class Finding:
    scene: str
    what: str  # cap | lead-cap | key-cap | cut | uneven | contrast | touch | gap | greyscale | error
    value: float
    limit: float
    detail: str


@dataclass
class SizeReport:
    size: str
    scenes: int = 0
    min_cap_px: float = 1e9
    min_lead_cap_px: float = 1e9
    min_key_cap_px: float = 1e9
    mm_per_px: float = 0.0
    min_contrast: float = 1e9
    min_touch_px: float = 1e9
    min_gap_px: float = 1e9
    verdict_grey_difference: float = 0.0
    cut_texts: int = 0
    limits: dict[str, float] = field(default_factory=dict)
    failures: list[Finding] = field(default_factory=list)


def _gap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> int:
    """Space between two rectangles (negative: they overlap)."""
    dx = max(b[0] - (a[0] + a[2]), a[0] - (b[0] + b[2]))
    dy = max(b[1] - (a[1] + a[3]), a[1] - (b[1] + b[3]))
    return max(dx, dy)


def check_drawn(name: str, drawn: list[Any], limits: Limits, report: SizeReport) -> None:
    """Compare what the renderer drew in one scene with the limits."""
    from kiosk.drawing.render import DrawnTarget, DrawnText, contrast

    texts = [d for d in drawn if isinstance(d, DrawnText) and d.text.strip()]
    targets = [d for d in drawn if isinstance(d, DrawnTarget)]
    for t in texts:
        report.min_cap_px = min(report.min_cap_px, t.cap_px)
        if t.cap_px < limits.cap - 0.5:
            report.failures.append(Finding(name, "cap", t.cap_px, limits.cap, t.source))
        if t.role == "lead":
            report.min_lead_cap_px = min(report.min_lead_cap_px, t.cap_px)
            if t.cap_px < limits.lead_cap - 0.5:
                report.failures.append(Finding(name, "lead-cap", t.cap_px, limits.lead_cap, t.source))
        if t.role == "key":
            report.min_key_cap_px = min(report.min_key_cap_px, t.cap_px)
            if t.cap_px < limits.key_cap - 0.5:
                report.failures.append(Finding(name, "key-cap", t.cap_px, limits.key_cap, t.source))
        if t.cut:
            report.failures.append(Finding(name, "cut", 1, 0, f"{t.source!r} drawn as {t.text!r}"))
        ratio = contrast(t.fg, t.bg)
        report.min_contrast = min(report.min_contrast, ratio)
        if ratio < limits.contrast:
            report.failures.append(Finding(name, "contrast", round(ratio, 2), limits.contrast,
                                           f"{t.source!r} {t.fg} on {t.bg}"))
        report.cut_texts += t.cut
    _check_groups(name, texts, report)
    for i, a in enumerate(targets):
        side = min(a.rect[2], a.rect[3])
        report.min_touch_px = min(report.min_touch_px, side)
        if side < limits.touch - 0.5:
            report.failures.append(Finding(name, "touch", side, limits.touch, a.action))
        for b in targets[i + 1:]:
            gap = _gap(a.rect, b.rect)
            report.min_gap_px = min(report.min_gap_px, gap)
            if gap < limits.gap - 0.5:
                report.failures.append(Finding(name, "gap", gap, limits.gap, f"{a.action} / {b.action}"))


def _check_groups(name: str, texts: list[Any], report: SizeReport) -> None:
    """One row, one text size (issue #26): the texts of a group drawn at more than one capital height fail."""
    sizes: dict[str, set[int]] = {}
    for t in texts:
        if t.group:
            sizes.setdefault(t.group, set()).add(t.cap_px)
    for group, caps in sizes.items():
        if len(caps) > 1:
            report.failures.append(Finding(name, "uneven", max(caps), min(caps), f"group {group!r}: {sorted(caps)}"))


def grey_difference(app: App, ok_scene: Scene, no_scene: Scene) -> float:
    """Mean grey-level difference of the accepted and the rejected verdict panel (as a greyscale print shows)."""
    import pygame

    crops = []
    for fn, tag in ((ok_scene, "verdict:ok"), (no_scene, "verdict:no")):
        fn(app.host)
        app.loop.draw()
        element = app.loop.view.tagged(tag) if app.loop.view is not None else []
        if not element:
            return 0.0
        surface = app.display.surface
        crop = surface.subsurface(pygame.Rect(element[0].rect).clip(surface.get_rect())).copy()
        crops.append(pygame.transform.grayscale(crop))
    a, b = crops
    w, h = min(a.get_width(), b.get_width()), min(a.get_height(), b.get_height())
    total, n = 0, 0
    for x in range(0, w, 3):
        for y in range(0, h, 3):
            total += abs(a.get_at((x, y))[0] - b.get_at((x, y))[0])
            n += 1
    return total / max(n, 1)


LANGUAGES = ("de", "en")


def _runs(registered: dict[str, Scene]) -> list[tuple[str, Scene, str]]:
    """Every scene in German (its plain name) and in English (`name@en`): both languages must fit."""
    return [(name if language == "de" else f"{name}@{language}", fn, language)
            for language in LANGUAGES for name, fn in registered.items()]


def _check_verdict_greys(app: App, registered: dict[str, Scene], report: SizeReport) -> None:
    """Accepted and rejected verdicts must differ in greyscale too (for colour-blind guests)."""
    if "verdict:accepted" in registered and "verdict:rejected" in registered:
        diff = grey_difference(app, registered["verdict:accepted"], registered["verdict:rejected"])
        report.verdict_grey_difference = round(diff, 1)
        if diff < GREY_DIFFERENCE:
            report.failures.append(Finding("verdict", "greyscale", round(diff, 1), GREY_DIFFERENCE,
                                           "accepted and rejected look alike in greyscale"))
    else:
        report.failures.append(Finding("verdict", "greyscale", 0, GREY_DIFFERENCE, "no verdict scenes"))


def _drawn(app: App, fn: Scene, language: str) -> list[Any]:
    """One scene in one language, drawn: what the renderer recorded."""
    from kiosk import i18n

    i18n.set_language(language)
    app.cafe.link = None  # a scene may link a café (its strip); the next one starts without
    app.host.camera = None  # … or give the table a camera (the camera menu's scenes)
    fn(app.host)
    renderer = app.display.renderer
    renderer.record = []
    app.loop.draw()
    drawn, renderer.record = renderer.record, None
    return drawn


def audit(sizes: tuple[tuple[int, int], ...] = SIZES, png_dir: Path | None = None, only: str | None = None
          ) -> list[SizeReport]:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from kiosk import i18n
    from kiosk.app.app import App
    from kiosk.settings.settings import Settings

    registered = scenes()
    reports = []
    for width, height in sizes:
        report = SizeReport(f"{width}x{height}")
        limits = Limits.for_size(width, height)
        report.mm_per_px = pitch(width, height)[0]
        report.limits = asdict(limits)
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(data_dir=Path(tmp), language="de", demo_after_s=0, width=width, height=height)
            app = App(settings, None, headless=True)
            for name, fn, language in _runs(registered):
                if only and only not in name:
                    continue
                try:
                    drawn = _drawn(app, fn, language)
                except Exception as error:  # a scene that cannot be drawn is a failure, not a crash of the audit
                    report.failures.append(Finding(name, "error", 0, 0, f"{type(error).__name__}: {error}"))
                    continue
                report.scenes += 1
                check_drawn(name, drawn, limits, report)
                if png_dir is not None:
                    png_dir.mkdir(parents=True, exist_ok=True)
                    png = png_dir / f"{width}x{height}-{name.replace(':', '_')}.png"
                    pygame.image.save(app.display.window, str(png))
            _check_verdict_greys(app, registered, report)
            i18n.set_language("de")
            app.audio.close()
            pygame.display.quit()
        reports.append(report)
    return reports


def format_text(reports: list[SizeReport]) -> str:
    lines = ["| size | scenes | min capital px = mm (limit) | min lead capital px = mm (limit) | "
             "min key capital px = mm (limit) | min contrast | "
             "min touch px (limit) | min gap px (limit) | verdicts grey diff | cut texts | failures |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]

    def mm(px: float, r: SizeReport) -> str:
        return f"{px:g} = {px * r.mm_per_px:.1f} mm" if px < 1e9 else "none"

    for r in reports:
        lim = r.limits
        lines.append(f"| {r.size} | {r.scenes} | {mm(r.min_cap_px, r)} ({lim['cap']:g}) | "
                     f"{mm(r.min_lead_cap_px, r)} ({lim['lead_cap']:g}) | {mm(r.min_key_cap_px, r)} "
                     f"({lim['key_cap']:g}) | {r.min_contrast:.2f} ({lim['contrast']:g}) | {r.min_touch_px:g} "
                     f"({lim['touch']:g}) | {r.min_gap_px:g} ({lim['gap']:g}) | {r.verdict_grey_difference:g} | "
                     f"{r.cut_texts} | {len(r.failures)} |")
    for r in reports:
        for f in r.failures:
            if f.what == "cut":
                lines.append(f"FAIL {r.size} {f.scene}: cut: {f.detail}")
            else:
                lines.append(f"FAIL {r.size} {f.scene}: {f.what} {f.value:g} < {f.limit:g}: {f.detail}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="referee-kiosk audit", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--png", type=Path, help="also save every scene as a PNG into this folder")
    parser.add_argument("--only", help="only scenes whose name contains this")
    args = parser.parse_args(argv)
    reports = audit(png_dir=args.png, only=args.only)
    if args.json:
        print(json.dumps([asdict(r) for r in reports], indent=1))
    else:
        print(format_text(reports))
    return 1 if any(r.failures for r in reports) else 0


if __name__ == "__main__":  # `python -m kiosk.drawing.audit`: run the registry's own module, not a second copy
    from kiosk.drawing.audit import main as audit_main

    sys.exit(audit_main(sys.argv[1:]))
