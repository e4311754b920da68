"""The simulator's shuffle: a permutation, reproducible from the seed, and uniform."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st

from referee.sim import shuffled


@given(items=st.lists(st.integers()), seed=st.integers(0, 2**32 - 1))
def test_a_shuffle_is_a_permutation_given_by_the_seed(items: list[int], seed: int) -> None:
    out = shuffled(random.Random(seed), items)
    assert sorted(out) == sorted(items)
    assert out == shuffled(random.Random(seed), items)


def test_every_order_of_four_items_is_about_equally_likely() -> None:
    rng = random.Random(7)
    counts = dict.fromkeys(itertools.permutations("abcd"), 0)
    runs = 24_000
    for _ in range(runs):
        counts[tuple(shuffled(rng, "abcd"))] += 1
    expected = runs / 24
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 60, f"chi-square {chi2:.1f} over 23 degrees of freedom: not uniform"  # p ≈ 4e-5
