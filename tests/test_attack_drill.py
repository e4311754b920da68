"""The attack drill at CI's size (issue #34's "Done when"): every attack of the issue against the real broker with
TLS, the hub as a process and real kiosk processes (benchmarks/attack.py) is refused, detected or harmless, with
no record lost or changed, no rating changed by a forged record, no kiosk exit and /api/health honest
throughout. The pages' p99 during the flood is reported by the drill, not asserted (tests assert no timings)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_attack_is_refused_detected_or_harmless(tmp_path) -> None:
    out = tmp_path / "attack.json"
    done = subprocess.run([sys.executable, "-m", "benchmarks.attack", "--small", "--json", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert out.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(out.read_text(encoding="utf-8"))
    verdicts = {row["attack"]: row["verdict"] for row in result["attacks"]}
    assert len(verdicts) >= 14
    assert set(verdicts.values()) <= {"refused", "detected", "harmless"}, json.dumps(result["attacks"], indent=1)
    totals = result["totals"]
    assert totals["records lost or changed"] == 0
    assert totals["ratings changed by forged records"] == 0
    assert totals["kiosk exits"] == 0
    assert totals["health honest"], totals["health"]
    assert done.returncode == 0, done.stdout[-3000:]
