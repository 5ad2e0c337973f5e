"""Benchmarks of the game loop (pytest-benchmark; outside testpaths).

Run: ``pytest benchmarks/bench_game.py``. Targets with the native core: full games of 4
greedy bots at >= 300 games per second per core, and ``simulate(jobs=2)`` at >= 1.8x
``jobs=1``. The targets are asserted only with the native solver (the pure-Python one
is ~100x slower) and, for the scaling, on a machine with two or more cores.
"""

from __future__ import annotations

import os
import time

import pytest

import chinchon
from chinchon.simulate import play_game, simulate

NATIVE = chinchon.IMPLEMENTATION == "native"
GAMES = 100 if NATIVE else 3


def _games(n: int, seed: int = 1) -> list:
    return [play_game(4, ["greedy"] * 4, seed, i) for i in range(n)]


def test_full_games_four_greedy(benchmark):
    records = benchmark.pedantic(_games, args=(GAMES,), rounds=3 if NATIVE else 1,
                                 iterations=1, warmup_rounds=1 if NATIVE else 0)
    assert len(records) == GAMES and all(r.status in ("won", "draw", "stalled")
                                         for r in records)
    rate = GAMES / benchmark.stats.stats.min
    benchmark.extra_info["games_per_second"] = rate
    benchmark.extra_info["implementation"] = chinchon.IMPLEMENTATION
    if NATIVE:
        assert rate >= 300, f"{rate:.0f} games/s, target 300"


@pytest.mark.parametrize("jobs", [1, 2])
def test_simulate(benchmark, jobs):
    n = 400 if NATIVE else 8
    result = benchmark.pedantic(simulate, args=(n, 4),
                                kwargs={"bots": "greedy", "seed": 2, "jobs": jobs},
                                rounds=1, iterations=1)
    assert result.games == n
    benchmark.extra_info["games_per_second"] = n / benchmark.stats.stats.min


def _spin(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s


def _machine_scaling() -> float:
    """How much two processes gain on plain CPU work here (a container may give one
    core's worth of time to many cores)."""
    from concurrent.futures import ProcessPoolExecutor

    t = time.perf_counter()
    for _ in range(4):
        _spin(2_000_000)
    t1 = time.perf_counter() - t
    with ProcessPoolExecutor(2) as pool:
        t = time.perf_counter()
        list(pool.map(_spin, [2_000_000] * 4))
        t2 = time.perf_counter() - t
    return t1 / t2


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs two cores")
def test_simulate_scales_with_jobs():
    machine = _machine_scaling()
    if machine < 1.85:
        pytest.skip(f"this machine gains only x{machine:.2f} from two processes")
    n = 1000 if NATIVE else 12
    simulate(4, 4, bots="greedy", seed=0, jobs=2)  # warm up the pool machinery
    t = time.perf_counter()
    one = simulate(n, 4, bots="greedy", seed=3, jobs=1)
    t1 = time.perf_counter() - t
    t = time.perf_counter()
    two = simulate(n, 4, bots="greedy", seed=3, jobs=2)
    t2 = time.perf_counter() - t
    assert one.stats() == two.stats()
    speedup = t1 / t2
    print(f"jobs=1 {n / t1:.0f} games/s, jobs=2 {n / t2:.0f} games/s, x{speedup:.2f}")
    if NATIVE:
        assert speedup >= 1.8, f"jobs=2 is only x{speedup:.2f} of jobs=1"
