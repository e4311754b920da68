"""Every benchmark reports the one percentile of `benchmarks/stats.py` (statistics.quantiles, inclusive), so the
p99s of docs/figures.md compare across benchmarks; and the benchmarks import what they share with the tests as
modules of the project (`python -m benchmarks.…`), never by patching the import path."""

from __future__ import annotations

import re
import statistics
from pathlib import Path

import pytest

from benchmarks.stats import percentile

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def test_the_percentile_is_statistics_quantiles_inclusive() -> None:
    values = [5.0, 1.0, 4.0, 2.0, 3.0, 10.0, 7.0]
    assert percentile(values, 50) == statistics.median(values)
    assert percentile(values, 99) == statistics.quantiles(values, n=100, method="inclusive")[98]
    assert percentile(values, 0) == 1.0 and percentile(values, 100) == 10.0 and percentile([3.0], 99) == 3.0
    with pytest.raises(ValueError):
        percentile(values, 99.5)


def test_no_benchmark_ranks_its_own_samples_or_patches_the_import_path() -> None:
    own_rank = re.compile(r"\[\s*(?:int|round)\(\s*(?:0\.\d+|q|p\s*/\s*100)\s*\*\s*\(?len\(")
    for path in sorted(BENCHMARKS.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not own_rank.search(text), f"{path.name} picks a percentile by its own rank"
        assert "sys.path.insert" not in text and "sys.path.append" not in text, path.name
