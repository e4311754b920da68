import logging
import os
import sys

import pytest
from hypothesis import HealthCheck, settings

# Tests never assert timings: hypothesis's per-example deadline and its "too slow" health check would, and on a
# loaded machine (parallel workers, other jobs) they fail a correct test. A test's own @settings still decide
# everything else.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


@pytest.fixture(scope="session", autouse=True)
def own_data_home(tmp_path_factory):
    """Every test process (each xdist worker) has its own XDG_DATA_HOME: a kiosk or Settings made without a
    data directory writes below it, never into the user's ~/.local/share nor another worker's."""
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("xdg-data"))


@pytest.fixture
def mosquitto(tmp_path):
    """A started private Mosquitto (tests/mosquitto.py) on a free loopback port; stopped after the test."""
    from tests.mosquitto import Broker

    with Broker(tmp_path / "mosquitto") as broker:
        yield broker


@pytest.fixture(autouse=True)
def no_guarded_errors():
    """Fail a test that leaves an error caught by the display loop's guard (kiosk/loop/guard.py) in a kiosk it started:
    the guard protects guests, it must never hide a bug from us. A test that injects faults on purpose sets
    `expect_guarded_errors` on its KioskProcess."""
    from tests import kiosk_helpers
    from tests.kiosk_process import KioskProcess

    KioskProcess.started.clear()
    kiosk_helpers.MADE.clear()
    yield
    found = left_guarded_errors(KioskProcess.started, kiosk_helpers.MADE)
    KioskProcess.started.clear()
    kiosk_helpers.MADE.clear()
    if found:
        pytest.fail("the display loop's guard caught errors (bugs hidden from guests, not from us):\n"
                    + "\n".join(found), pytrace=False)


@pytest.fixture(autouse=True)
def nothing_cut():
    """Fail a test whose kiosk (a process it started, or an app made by `tests/kiosk_helpers.make_app`) drew a text
    cut with "…" or below its role's floor (issue #37: real play must never cut, not only the audit's scenes). A test
    that draws a crowded screen on purpose sets `expect_cut_texts` on its KioskProcess (an app: `EXPECT_CUTS`)."""
    from tests import kiosk_helpers
    from tests.kiosk_process import KioskProcess

    yield
    found = [f"kiosk pid {k.proc.pid}: {line}" for k in KioskProcess.started if not k.expect_cut_texts
             for line in k.cut_texts()]
    found += [f"in-process app: {example[:300]}" for app in kiosk_helpers.MADE if app not in kiosk_helpers.EXPECT_CUTS
              for example in app.display.renderer.cuts.last]
    kiosk_helpers.EXPECT_CUTS.clear()
    if found:
        pytest.fail("the renderer cut texts (lay them out again or say them shorter):\n" + "\n".join(found[:20]),
                    pytrace=False)


def left_guarded_errors(kiosks, apps) -> list[str]:
    """What the guard caught in these kiosk processes (unless expected) and in-process apps, one line each."""
    found = [f"kiosk pid {k.proc.pid}: {line}" for k in kiosks if not k.expect_guarded_errors
             for line in k.guarded_errors()]
    return found + [f"in-process app: {app.loop.guard.count} guarded error(s)" for app in apps if app.loop.guard.count]


@pytest.fixture
def restore_logging():
    """Put the root logger and `sys.excepthook` back after a test that ran the kiosk's `main()` in-process
    (it installs its own handlers and hook), so later tests log as before."""
    root = logging.getLogger()
    handlers, level, hook = list(root.handlers), root.level, sys.excepthook
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    sys.excepthook = hook
