"""Benchmark fixtures: both implementations and the hand workloads.

Run: ``python -m pytest benchmarks --benchmark-json=bench.json`` then
``python benchmarks/report.py bench.json`` for the README table (ns per hand, ratios).
"""

from __future__ import annotations

import numpy as np
import pytest

from chinchon import reference

try:
    from chinchon import _core as native
except ImportError:  # pragma: no cover - benchmarks want the native module
    native = None

IMPLS = {"native": native, "python": reference}


def random_masks(rng, n, cards, decks=1, ranks=None):
    lo, hi = ranks or (1, 12)
    deck = np.array([16 * s + r - 1 for s in range(4) for r in range(lo, hi + 1)] * decks)
    picks = deck[np.argsort(rng.random((n, len(deck))), axis=1)[:, :cards]]
    bits = np.uint64(1) << picks.astype(np.uint64)
    if decks == 1:
        return np.bitwise_or.reduce(bits, axis=1)
    once = np.zeros(n, np.uint64)
    twice = np.zeros(n, np.uint64)
    for j in range(cards):
        twice |= once & bits[:, j]
        once |= bits[:, j]
    return np.stack([once, twice], axis=1)


#: workload name -> (cards, decks, rank window)
WORKLOADS = {
    "single-uniform": (1, None),
    "single-meldrich": (1, (4, 7)),
    "double-uniform": (2, None),
    "double-meldrich": (2, (5, 8)),
}


@pytest.fixture(params=["native", "python"])
def impl_name(request):
    if IMPLS[request.param] is None:
        pytest.skip("native module not built")
    return request.param
