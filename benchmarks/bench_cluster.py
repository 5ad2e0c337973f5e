"""Benchmarks of simulate on a Dask cluster against the local process pool
(pytest-benchmark; outside testpaths; needs the dask extra).

Run: ``pytest benchmarks/bench_cluster.py``. ``test_simulate_runner``: the same games of
4 greedy bots (40,000 on the C engine, 1,000 on the Python loop) on ``jobs=1``, ``jobs=2`` and LocalClusters of 1 and 2 worker
processes (``extra_info['games_per_second']``). ``test_chunk_overhead``: 400 chunks of
no games each, so the time is only what a chunk costs around its games (submit,
schedule, ship the statistics back, merge); ``extra_info['us_per_chunk']``, and
``coordinator_cpu_us_per_chunk``, the CPU time of this process per chunk (it holds the
client and, in a LocalCluster, the scheduler: the serial part, which bounds how many
chunks a second one scheduler can take, whatever the number of workers).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from typing import Any

import pytest

distributed = pytest.importorskip("distributed")

import chinchon  # noqa: E402
from chinchon.simulation import SimulationParams, simulate  # noqa: E402
from chinchon.simulation.run import as_executor, run_chunks  # noqa: E402

NATIVE = chinchon.IMPLEMENTATION == "native"
#: games per run and engine: a few seconds of one core each (the C engine plays ~50x
#: the Python loop's games)
GAMES = {"native": 40_000, "python": 1000} if NATIVE else {"python": 8}
ENGINES = list(GAMES)
CHUNKS = 400
RUNNERS = ["jobs=1", "jobs=2", "dask 1 worker", "dask 2 workers"]


@pytest.fixture(scope="module")
def clusters() -> Iterator[dict[int, Any]]:
    """A LocalCluster client per worker count, started on first use."""
    made: dict[int, Any] = {}
    closers = []
    yield made
    for c in made.values():
        closers.append(c.cluster)
        c.close()
    for cl in closers:
        cl.close()


def _runner(name: str, clusters: dict[int, Any]) -> dict[str, Any]:
    if name.startswith("jobs="):
        return {"jobs": int(name[5:])}
    n = int(name.split()[1])
    if n not in clusters:
        for c in list(clusters.values()):  # one cluster at a time: 2 cores
            c.close()
            c.cluster.close()
        clusters.clear()
        cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                           host="127.0.0.1", dashboard_address=":0")
        clusters[n] = distributed.Client(cluster)
        clusters[n].wait_for_workers(n)
    return {"executor": clusters[n]}


@pytest.mark.parametrize("runner", RUNNERS)
@pytest.mark.parametrize("engine", ENGINES)
def test_simulate_runner(benchmark, clusters, runner, engine):
    kwargs = _runner(runner, clusters)
    games = GAMES[engine]
    result = benchmark.pedantic(simulate, args=(games, 4),
                                kwargs={"bots": "greedy", "seed": 2, "keep_records": False,
                                        "engine": engine, **kwargs},
                                rounds=3, iterations=1, warmup_rounds=1)
    assert result.games == games and result.engine == engine
    benchmark.extra_info.update(rows=games, op=f"simulate {runner}",
                                workload=f"4 greedy, {engine} engine",
                                games_per_second=games / benchmark.stats.stats.median)


@pytest.mark.parametrize("runner", RUNNERS)
def test_chunk_overhead(benchmark, clusters, runner):
    kwargs = _runner(runner, clusters)
    params = SimulationParams(4, ("greedy",) * 4, 2, chinchon.HOUSE_RULES, keep_records=False)
    chunks = [(i, i) for i in range(CHUNKS)]  # no games: the chunk's own cost alone
    executor = as_executor(kwargs["executor"]) if "executor" in kwargs else None
    cpu: list[float] = []

    def run() -> Any:
        t0 = time.process_time()
        out = run_chunks(params, chunks, jobs=kwargs.get("jobs", 1), executor=executor)
        cpu.append(time.process_time() - t0)
        return out

    result = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    assert result.games == 0
    benchmark.extra_info.update(rows=CHUNKS, op=f"chunk overhead {runner}", workload="-",
                                us_per_chunk=1e6 * benchmark.stats.stats.median / CHUNKS,
                                coordinator_cpu_us_per_chunk=1e6 * statistics.median(cpu[1:])
                                / CHUNKS)
