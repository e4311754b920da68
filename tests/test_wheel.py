"""The package as a Pi gets it: the built wheel carries every data file, and installed into a fresh venv
(not `-e`, run from elsewhere) the kiosk draws its German screen from its own catalogs.

Builds the wheel with pip (the build backend comes from PyPI, as in any install) and installs it with its
dependencies into a new venv; pip's cache keeps the second run quick.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # real processes for seconds to minutes: `-m 'not slow'` leaves them out

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("referee", "hw", "kiosk", "cafe", "hub")


def package_files() -> set[str]:
    """Every file of the packages in the source tree (bytecode and lgpio's FIFOs aside)."""
    files = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and not path.name.startswith(".lgd-nfy"):
                files.add(path.relative_to(ROOT).as_posix())
    return files


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a clean copy: setuptools reuses ./build, where files long gone from the tree may linger.
    source = out / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".venv*", "build", "dist", "*.egg-info", ".git", "__pycache__", ".hypothesis", ".pytest_cache",
        ".ruff_cache", "out", ".lgd-nfy*"))
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out),
                            str(source)], capture_output=True, text=True, timeout=600, cwd=out)
    assert build.returncode == 0, build.stderr[-3000:]
    [built] = out.glob("tabletop_referee-*.whl")
    return built


@pytest.fixture(scope="module")
def fresh_venv(wheel, tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    install = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
                             capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stderr[-3000:]
    return venv


def test_the_wheel_carries_every_file_of_the_packages(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    missing = package_files() - names
    assert not missing, f"not in the wheel: {sorted(missing)}"
    assert "referee/locale/de/LC_MESSAGES/tabletop.mo" in names


def test_the_installed_kiosk_knows_its_version_and_speaks_german(fresh_venv, tmp_path):
    python = fresh_venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NOTIFY_SOCKET")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GPIOZERO_PIN_FACTORY="mock")
    where = subprocess.run([str(python), "-c", "import kiosk.i18n as m; print(m.LOCALE_DIR)"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, check=True)
    assert Path(where.stdout.strip()).is_relative_to(fresh_venv), "the source tree leaked into the fresh venv"
    version = subprocess.run([str(fresh_venv / "bin" / "referee-kiosk"), "--version"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, check=True)
    assert version.stdout.strip() == "referee-kiosk 0.1.0"
    control = tmp_path / "c.sock"
    proc = subprocess.Popen([str(fresh_venv / "bin" / "referee-kiosk"), "--sim", "--lang", "de", "--demo-after", "0",
                             "--data-dir", str(tmp_path / "data"), "--control", str(control)],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        texts = _view_texts(proc, control)
    finally:
        proc.terminate()
        proc.wait(30)
    assert "Wähle ein Spiel" in texts, texts


def _view_texts(proc: subprocess.Popen, control: Path) -> list[str]:
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read().decode()[-3000:])
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(30)
                sock.connect(str(control))
                sock.sendall(b'{"cmd": "view"}\n')
                reply = json.loads(sock.makefile("rb").readline())
                assert reply["ok"], reply
                return reply["texts"]
        except (FileNotFoundError, ConnectionRefusedError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
