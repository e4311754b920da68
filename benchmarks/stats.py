"""The one percentile every benchmark reports, so a p99 means the same in every figure (docs/figures.md).

`percentile(values, p)` is `statistics.quantiles(values, n=100, method="inclusive")[p - 1]`: the inclusive method
treats the samples as the whole population and interpolates linearly between the two nearest ranks (for p50 the
median). p 0 and 100 are the least and the greatest value; a single value is every percentile of itself.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable


def percentile(values: Iterable[float], p: float) -> float:
    """The `p`th percentile (0 … 100, whole numbers) of `values`; NaN for no values."""
    data = sorted(values)
    if not data:
        return float("nan")
    if not 0 <= p <= 100 or p != int(p):
        raise ValueError(f"a percentile is a whole number 0 … 100, not {p}")
    if p == 0 or len(data) == 1:
        return data[0] if p < 100 else data[-1]
    if p == 100:
        return data[-1]
    return statistics.quantiles(data, n=100, method="inclusive")[int(p) - 1]
