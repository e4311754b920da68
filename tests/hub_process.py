"""The hub as a real process for tests: `python -m hub` on a free loopback port, killed or stopped after."""

from __future__ import annotations

import os
import resource
import signal
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.mosquitto import free_port

ROOT = Path(__file__).resolve().parents[1]


class HubProcess:
    def __init__(self, workdir: Path, broker: str, cafe: str, extra: list[str] | None = None,
                 config: Path | None = None, https: bool = False, nofile: int | None = None,
                 trust_first_key: bool = True):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.broker, self.cafe = broker, cafe
        self.port = free_port()
        # Most tests are about what happens after pairing: each table's first key is taken as the staff would
        # (`--trust-first-key`); the pairing tests start the hub without it and accept on the staff page.
        self.extra = (extra or []) + (["--trust-first-key"] if trust_first_key else [])
        self.config = config
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = self.workdir / "hub.log"
        self.nofile = nofile  # the hub's limit of open files (as a unit's LimitNOFILE sets it), else this one's
        self.https = https  # HTTPS (a certificate from the config, or the self-signed default); else --plain-http

    @property
    def url(self) -> str:
        return f"{'https' if self.https else 'http'}://127.0.0.1:{self.port}"

    def ssl_context(self) -> ssl.SSLContext | None:
        """For a test's own requests to an HTTPS hub with a self-signed certificate (not checked)."""
        if not self.https:
            return None
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context

    def start(self, timeout: float = 30.0) -> HubProcess:
        args = [sys.executable, "-m", "hub", "--broker", self.broker, "--cafe", self.cafe,
                "--data-dir", str(self.workdir / "data"), "--listen", f"127.0.0.1:{self.port}", *self.extra]
        if self.config is not None:
            args += ["--config", str(self.config)]
        if not self.https:
            args.append("--plain-http")
        log = open(self.log_path, "ab")  # noqa: SIM115 - the hub keeps writing it
        limit = self.nofile
        self.proc = subprocess.Popen(args, stdout=log, stderr=log, cwd=ROOT, env=os.environ | {"PYTHONPATH": str(ROOT)},
                                     preexec_fn=None if limit is None else
                                     lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit)))
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the hub exited ({self.proc.returncode}): {self.log_tail()}")
            try:
                with urllib.request.urlopen(self.url + "/api/tables", timeout=1, context=self.ssl_context()):
                    return self
            except OSError:
                if time.monotonic() > deadline:
                    self.kill()
                    raise TimeoutError(f"the hub did not answer: {self.log_tail()}") from None
                time.sleep(0.1)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def __enter__(self) -> HubProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
