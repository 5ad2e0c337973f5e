"""The SIMD paths of the native batch kernels in one run: every path this machine runs
(``scalar``, ``avx2``, ``avx512``, ``neon``), the same hands on each, one thread.

    python -m pytest benchmarks/bench_simd.py --benchmark-json=simd.json
    python benchmarks/report.py --simd simd.json     # ns a hand, and each path's speed-up
                                                     # over the scalar path of the run
"""

from __future__ import annotations

import numpy as np
import pytest

from .conftest import IMPLS, WORKLOADS, random_masks

ROWS = 200_000


def _paths() -> tuple[str, ...]:
    native = IMPLS["native"]
    return native.melds.simd_paths() if native is not None else ()


@pytest.fixture
def on_path(request):
    """The batch kernels on the parameter's path; the path before restored after."""
    native = IMPLS["native"]
    if native is None:
        pytest.skip("native module not built")
    before = native.melds.simd_active()
    native.melds.simd_use(request.param)
    yield request.param
    native.melds.simd_use(before)


@pytest.mark.parametrize("on_path", _paths(), indirect=True)
@pytest.mark.parametrize("workload", list(WORKLOADS))
@pytest.mark.parametrize("op", ["deadwood_batch", "hints_batch"])
def test_simd_batch(benchmark, on_path, workload, op):
    decks, ranks = WORKLOADS[workload]
    cards, n = (7, ROWS) if op == "deadwood_batch" else (8, ROWS // 2)
    masks = random_masks(np.random.default_rng(25), n, cards, decks, ranks)
    call = getattr(IMPLS["native"], op)
    benchmark.group = f"{op} {workload}"
    benchmark.extra_info.update(rows=n, op=op, workload=workload, simd=on_path)
    out = benchmark(call, masks, threads=1)
    assert out.shape[0] == n


@pytest.mark.parametrize("on_path", _paths(), indirect=True)
@pytest.mark.parametrize("threads", [1, 2])
def test_simd_threads(benchmark, on_path, threads):
    masks = random_masks(np.random.default_rng(26), 2_000_000, 7, 1)
    benchmark.group = "deadwood_batch threads"
    benchmark.extra_info.update(rows=len(masks), op=f"deadwood_batch threads={threads}",
                                workload="single-uniform", simd=on_path)
    out = benchmark(IMPLS["native"].deadwood_batch, masks, threads=threads)
    assert out.shape == (len(masks),)
