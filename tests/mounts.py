"""Small real file systems for storage-fault tests: a size-limited tmpfs fills up for real (ENOSPC), a
read-only one refuses writes for real (EROFS) — no mocks of sqlite or the OS.

Mounting needs root. As root (CI) the test mounts directly; otherwise `run_as_root_in_namespace` runs
the same test again inside `unshare --user --map-root-user --mount`, where it is root of its own mounts."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

NESTED = "REFEREE_TEST_IN_MOUNT_NS"


def can_mount() -> bool:
    return os.geteuid() == 0


def rerun_in_namespace(request: pytest.FixtureRequest) -> None:
    """Not root: run this very test in a user+mount namespace and fail here exactly when it fails there."""
    unshare = shutil.which("unshare")
    if unshare is None or os.environ.get(NESTED):
        pytest.fail("storage-fault tests need root or `unshare` (util-linux) to mount a small tmpfs")
    env = {**os.environ, NESTED: "1"}
    result = subprocess.run([unshare, "--user", "--map-root-user", "--mount", sys.executable, "-m", "pytest", "-q",
                             "-p", "no:cacheprovider", request.node.nodeid], cwd=request.config.rootpath, env=env,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


@contextlib.contextmanager
def tmpfs(path: Path, size: str = "1m", readonly: bool = False) -> Iterator[Path]:
    path.mkdir(parents=True, exist_ok=True)
    options = f"size={size},mode=0755" + (",ro" if readonly else "")
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], check=True, capture_output=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False, capture_output=True)


def remount(path: Path, readonly: bool) -> None:
    subprocess.run(["mount", "-o", f"remount,{'ro' if readonly else 'rw'}", str(path)], check=True,
                   capture_output=True)


def fill(directory: Path) -> Path:
    """Write a filler file until the file system is full (ENOSPC); returns it (delete it to free the space)."""
    filler = directory / "filler"
    chunk = b"\0" * 4096
    with open(filler, "wb", buffering=0) as out, contextlib.suppress(OSError):
        while True:
            out.write(chunk)
    with contextlib.suppress(OSError), open(directory / "filler-tail", "wb", buffering=0) as out:
        while True:
            out.write(b"\0")
    return filler


def free(directory: Path) -> None:
    for name in ("filler", "filler-tail"):
        with contextlib.suppress(FileNotFoundError):
            (directory / name).unlink()
