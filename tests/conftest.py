import logging
import os
import sys

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


@pytest.fixture
def mosquitto(tmp_path):
    """A started private Mosquitto (tests/mosquitto.py) on a free loopback port; stopped after the test."""
    from tests.mosquitto import Broker

    with Broker(tmp_path / "mosquitto") as broker:
        yield broker


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
