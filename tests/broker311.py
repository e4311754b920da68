"""A broker that speaks only MQTT 3.1.1, for the café contract's "any MQTT 3.1.1/5 broker": amqtt (a real
broker, installed with the dev extra) on a free loopback port, anonymous, stopped after the test.

Mosquitto speaks both versions and cannot be told to refuse MQTT 5; amqtt answers an MQTT 5 CONNECT
with "unsupported protocol version", as a 3.1.1-only broker must (MQTT 3.1.1, 3.1.2.2)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.mosquitto import HOST, free_port


class Broker311:
    def __init__(self, workdir: Path):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.host = HOST
        self.address = f"{HOST}:{self.port}"
        self.log_path = self.workdir / "amqtt.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Broker311:
        config = self.workdir / "amqtt.yaml"
        config.write_text(
            "listeners:\n"
            "  default:\n"
            "    type: tcp\n"
            f"    bind: {HOST}:{self.port}\n"
            "plugins:\n"
            "  amqtt.plugins.authentication.AnonymousAuthPlugin:\n"
            "    allow_anonymous: true\n"
        )
        amqtt = Path(sys.executable).parent / "amqtt"
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen([str(amqtt), "-c", str(config)], stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection((HOST, self.port), timeout=0.5):
                    return self
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    said = self.log_path.read_text(errors="replace")[-2000:]
                    raise RuntimeError(f"amqtt did not start: {said}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None
