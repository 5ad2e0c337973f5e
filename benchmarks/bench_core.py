"""Meld search speed: native vs reference, single calls and batches."""

from __future__ import annotations

import numpy as np
import pytest

from chinchon import Hand

from .conftest import IMPLS, WORKLOADS, random_masks

ROWS = {"native": 200_000, "python": 300}


@pytest.mark.parametrize("workload", list(WORKLOADS))
def test_deadwood_batch(benchmark, impl_name, workload):
    decks, ranks = WORKLOADS[workload]
    impl = IMPLS[impl_name]
    masks = random_masks(np.random.default_rng(1), ROWS[impl_name], 7, decks, ranks)
    benchmark.extra_info.update(rows=len(masks), op="deadwood_batch", workload=workload)
    out = benchmark(impl.deadwood_batch, masks, threads=1)
    assert out.shape == (len(masks),) and int(out.max()) <= 7 * 12


@pytest.mark.parametrize("workload", list(WORKLOADS))
def test_hints_batch(benchmark, impl_name, workload):
    decks, ranks = WORKLOADS[workload]
    impl = IMPLS[impl_name]
    masks = random_masks(np.random.default_rng(2), ROWS[impl_name] // 2, 8, decks, ranks)
    benchmark.extra_info.update(rows=len(masks), op="hints_batch", workload=workload)
    out = benchmark(impl.hints_batch, masks, threads=1)
    assert out.shape == (len(masks), 8)


@pytest.mark.parametrize("threads", [1, 2])
def test_deadwood_batch_threads(benchmark, threads):
    impl = IMPLS["native"]
    if impl is None:
        pytest.skip("native module not built")
    masks = random_masks(np.random.default_rng(3), 2_000_000, 7, 1)
    benchmark.extra_info.update(rows=len(masks), op=f"deadwood_batch threads={threads}",
                                workload="single-uniform")
    out = benchmark(impl.deadwood_batch, masks, threads=threads)
    assert out.shape == (len(masks),)


def test_deadwood_single_call(benchmark, impl_name):
    impl = IMPLS[impl_name]
    hand = Hand("7o 7c 7b 9e 10e 11e 4o")
    benchmark.extra_info.update(rows=1, op="deadwood(Hand)", workload="example")
    assert benchmark(impl.deadwood, hand) == 4


def test_discard_hints_single_call(benchmark, impl_name):
    impl = IMPLS[impl_name]
    hand = Hand("7o 7c 7b 9e 10e 11e 4o 5b")
    benchmark.extra_info.update(rows=1, op="discard_hints(Hand)", workload="example")
    assert min(h.points for h in benchmark(impl.discard_hints, hand)) == 4


def test_deadwood_from_text(benchmark, impl_name):
    impl = IMPLS[impl_name]
    benchmark.extra_info.update(rows=1, op="deadwood(str)", workload="example")
    assert benchmark(impl.deadwood, "7o 7c 7b 9e 10e 11e 4o") == 4
