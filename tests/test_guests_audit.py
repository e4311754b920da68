"""The readability limits of the table-screen issue hold on the guests' and staff's screens too:
`referee-kiosk audit`'s checks (capitals, contrast, touch targets, gaps) on their scenes, landscape and portrait."""

from __future__ import annotations

import pytest

from kiosk.drawing.audit import audit

OURS = ["menu", "setup:", "keyboard", "help:", "leave:", "admin:", "results:", "history", "games", "scanner-test",
        "button-test", "assignment", "camera:", "fault:"]


@pytest.mark.slow
@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (720, 1280)])
def test_guests_and_staff_screens_keep_the_limits(size, tmp_path) -> None:
    failures, scenes_seen = [], 0
    for prefix in OURS:  # every scene's picture stays in the test's output folder, to look at
        [report] = audit(sizes=[size], only=prefix, png_dir=tmp_path)
        scenes_seen += report.scenes
        failures += [f for f in report.failures if f.scene != "verdict"]  # the verdict pair is the table's check
        assert report.min_cap_px >= report.limits["cap"] - 0.5
        assert report.min_contrast >= report.limits["contrast"]
    assert scenes_seen >= 30
    assert not failures, failures
