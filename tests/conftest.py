import os

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
