"""Run ../shared/tools/check-transcripts over every acceptance transcript in ../shared/transcripts.

Uses this interpreter (the project's venv) for `python -m referee replay`.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def main() -> int:
    folder = SHARED / "transcripts"
    if not any(folder.rglob("*.jsonl")):
        print("no acceptance transcripts found in", folder)
        return 1
    cmd = [sys.executable, str(SHARED / "tools" / "check-transcripts"),
           "--cmd", f"{sys.executable} -m referee replay", str(folder)]
    return subprocess.call(cmd, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main())
