"""A private Mosquitto for tests: Debian's broker on a free loopback port, its config generated, stopped after.

Real parts, not mocks: `scripts/test.sh` installs Debian's `mosquitto` when it is
missing (as root). Persistence is on (in the broker's own folder), so a broker
stopped and started again keeps retained messages and persistent sessions, as a
café's broker does across a restart. The `mosquitto` fixture in conftest.py
yields a started `Broker`; build one directly for a config of your own.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
HOST = "127.0.0.1"


# Ports handed out come from below the kernel's ephemeral range (32768–60999 here): a port the kernel picks
# for bind(0) or for a client's connect() may be taken again by the next such call, in this process or in
# another test worker, before the broker or hub that was meant to get it binds it.
PORTS = range(20000, 32768)
_given: set[int] = set()


def free_port() -> int:
    """A TCP port on loopback nobody listens on now, never handed out before in this process."""
    while True:
        port = random.choice(PORTS)
        if port in _given:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((HOST, port))
            except OSError:
                continue
        _given.add(port)
        return port


class Broker:
    """One mosquitto process; `config` (optional) replaces the generated settings, `{port}`/`{dir}` filled in."""

    def __init__(self, workdir: Path, port: int | None = None, config: str | None = None):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.config = config
        self.conf_path = self.workdir / "mosquitto.conf"
        self.log_path = self.workdir / "mosquitto.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def host(self) -> str:
        return HOST

    @property
    def address(self) -> str:
        """"host:port", as a table's `[cafe] broker` and `--cafe-broker` take it."""
        return f"{HOST}:{self.port}"

    def config_text(self) -> str:
        # As root, mosquitto would drop to the `mosquitto` user, who cannot enter pytest's private tmp folders.
        stay = "user root\n" if os.geteuid() == 0 else ""
        if self.config is not None:
            return stay + self.config.replace("{port}", str(self.port)).replace("{dir}", str(self.workdir))
        return stay + "\n".join([
            f"listener {self.port} {HOST}",
            "allow_anonymous true",
            "persistence true",
            f"persistence_location {self.workdir}/",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            "",
        ])

    def start(self, timeout: float = 15.0) -> Broker:
        if self.running:
            return self
        self.conf_path.write_text(self.config_text(), encoding="utf-8")
        log = open(self.log_path, "ab")  # noqa: SIM115 - the broker keeps writing it
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf_path)], stdout=log, stderr=log,
                                     cwd=self.workdir)
        log.close()
        self.starts += 1
        deadline = time.monotonic() + timeout
        for port in self.ports():
            self._wait_listening(port, deadline)
        return self

    def ports(self) -> list[int]:
        """Every port the broker listens on: `start` returns when each of them answers."""
        return [self.port]

    def _wait_listening(self, port: int, deadline: float) -> None:
        assert self.proc is not None
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited ({self.proc.returncode}): {self.log_tail()}")
            try:
                with socket.create_connection((HOST, port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    self.kill()
                    raise TimeoutError(f"mosquitto did not listen on {HOST}:{port}: {self.log_tail()}") from None
                time.sleep(0.02)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM: mosquitto saves its persistence file and exits."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill(self) -> None:
        """SIGKILL: a crash, nothing saved since the last autosave."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc = None

    def restart(self) -> Broker:
        self.stop()
        return self.start()

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-chars:]
        except OSError:
            return ""

    def __enter__(self) -> Broker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class CafeBroker(Broker):
    """The broker as `python -m cafe broker-config` sets up a café (TLS listener, plain loopback listener, the café's
    CA, dynamic security and/or file-based tables), on two free loopback ports; `files` are what it wrote."""

    def __init__(self, workdir: Path, cafe: str, tables: Sequence[str] = (), bind: str | None = HOST,
                 **options: Any):
        from cafe.broker import Listeners, write_broker_config

        port, self.tls_port = free_port(), free_port()
        self.files = write_broker_config(Path(workdir) / "conf", cafe, tables,
                                         listeners=Listeners(port, self.tls_port, bind),
                                         names=options.pop("names", ["127.0.0.1", "localhost"]), **options)
        super().__init__(Path(workdir) / "broker", port=port, config=self.files.conf.read_text(encoding="utf-8"))

    def ports(self) -> list[int]:
        """The plain listener and the TLS one (a test that connects by TLS right after the start once found it
        not yet listening: ConnectionRefusedError under load)."""
        return [self.port, self.tls_port]

    @property
    def tls_address(self) -> str:
        """"host:port" of the TLS listener, where a café's tables connect."""
        return f"{HOST}:{self.tls_port}"

    def password(self, user: str) -> str:
        return self.files.passwords[user].read_text(encoding="utf-8").strip()

