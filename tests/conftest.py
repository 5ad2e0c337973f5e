"""Shared fixtures: both implementations, random hand generators, test scale."""

from __future__ import annotations

import os

import numpy as np
import pytest

import chinchon
from chinchon import reference

#: multiplies the number of random hands in the differential tests (CI may shrink it)
SCALE = float(os.environ.get("CHINCHON_TEST_SCALE", "1"))


def scaled(n: int) -> int:
    return max(1, int(n * SCALE))


def _native():
    try:
        from chinchon import _core
    except ImportError:
        return None
    return _core


NATIVE = _native()
IMPLEMENTATIONS = [reference] + ([NATIVE] if NATIVE is not None else [])


def pytest_report_header(config):
    return (f"chinchon {chinchon.__version__}: package implementation "
            f"{chinchon.IMPLEMENTATION}, native module {'loaded' if NATIVE else 'absent'}, "
            f"CHINCHON_TEST_SCALE={SCALE}")


@pytest.fixture(params=IMPLEMENTATIONS, ids=lambda m: m.IMPLEMENTATION)
def impl(request):
    """Each implementation in turn: the reference, and the native one when built."""
    return request.param


@pytest.fixture(scope="session")
def native():  # session scope: hypothesis tests take it too
    if NATIVE is None:
        if os.environ.get("CHINCHON_IMPLEMENTATION", "").lower() in ("python", "py"):
            pytest.skip("pure-Python run: the native module is not under test")
        pytest.fail("the native extension is not built; build it or set "
                    "CHINCHON_IMPLEMENTATION=python")
    return NATIVE


def random_masks(rng: np.random.Generator, n: int, cards: int, decks: int = 1,
                 ranks: tuple[int, int] | None = None) -> np.ndarray:
    """n random hands of `cards` cards dealt from `decks` decks, in the public encoding.

    `ranks=(lo, hi)` confines the ranks to lo..hi (meld-rich hands)."""
    lo, hi = ranks or (1, 12)
    deck = np.array([16 * s + r - 1 for s in range(4) for r in range(lo, hi + 1)] * decks,
                    dtype=np.int64)
    # argsort of random keys gives a uniform random permutation of the deck per row
    keys = rng.random((n, len(deck)))
    picks = deck[np.argsort(keys, axis=1)[:, :cards]]
    bits = np.uint64(1) << picks.astype(np.uint64)
    if decks == 1:
        return np.bitwise_or.reduce(bits, axis=1) if cards else np.zeros(n, np.uint64)
    once = np.zeros(n, np.uint64)
    twice = np.zeros(n, np.uint64)
    for j in range(cards):
        b = bits[:, j]
        twice |= once & b
        once |= b
    return np.stack([once, twice], axis=1)
