"""simulate on any concurrent.futures executor: the same result as in this process,
and faults (a game that raises, a worker that dies) reported or survived, never hung."""

from __future__ import annotations

import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

import chinchon
from chinchon.errors import ChinchonError, SimulationError
from chinchon.simulation import play_game, run, simulate

from . import faulty

NATIVE = chinchon.IMPLEMENTATION == "native"
N = 40 if NATIVE else 6
BOTS = "greedy,greedy,random,random"


@pytest.mark.parametrize("seed", [0, 9, 2**70 + 3])
def test_any_executor_gives_the_result_of_one_process(seed):
    ref = simulate(N, 4, bots=BOTS, seed=seed, jobs=1)
    with ThreadPoolExecutor(3) as threads, ProcessPoolExecutor(2) as procs:
        for executor, size in ((threads, 1), (threads, 7), (procs, 3), (procs, N)):
            r = simulate(N, 4, bots=BOTS, seed=seed, executor=executor, chunk_size=size)
            assert r.stats() == ref.stats()
            assert r.records == ref.records
    assert simulate(N, 4, bots=BOTS, seed=seed, jobs=2, chunk_size=5).stats() == ref.stats()


def test_keep_records_false_keeps_the_statistics():
    ref = simulate(N, 3, seed=4)
    r = simulate(N, 3, seed=4, jobs=2, keep_records=False)
    assert r.records == [] and len(ref.records) == N
    assert r.stats() == ref.stats()


def test_not_an_executor_is_refused():
    with pytest.raises(ChinchonError, match="executor must be"):
        simulate(2, 3, executor=object())
    with pytest.raises(ChinchonError, match="keep_records"):
        simulate(2, 3, keep_records=1)
    # jobs is not used with an executor, but a bad one is still an error, not ignored
    with ThreadPoolExecutor(1) as pool:
        for jobs in ("garbage", -7, 0):
            with pytest.raises(ChinchonError, match="jobs"):
                simulate(2, 3, executor=pool, jobs=jobs)
        assert simulate(2, 3, executor=pool, jobs=None).games == 2


@pytest.mark.parametrize("how", ["here", "jobs=2", "threads"])
def test_a_bot_that_raises_names_the_game_that_replays_it(how):
    bots = [faulty.RaisingBot, "greedy", "random"]
    kwargs = {"here": {}, "jobs=2": {"jobs": 2, "chunk_size": 3},
              "threads": {"executor": ThreadPoolExecutor(2), "chunk_size": 2}}[how]
    with pytest.raises(SimulationError) as info:
        simulate(faulty.INDEX + 8, 3, bots=bots, seed=faulty.SEED, **kwargs)
    err = info.value
    assert (err.index, err.seed) == (faulty.INDEX, faulty.SEED)
    assert "RuntimeError: the raising bot's bug" in str(err) and err.cause
    assert f"index={faulty.INDEX}" in str(err)
    assert isinstance(err, ChinchonError)
    # the index and seed replay the failure alone
    with pytest.raises(RuntimeError, match="raising bot"):
        play_game(3, bots, err.seed, err.index)
    play_game(3, bots, err.seed, err.index - 1)  # its neighbour plays through
    if "executor" in kwargs:
        kwargs["executor"].shutdown()


def test_a_dead_worker_is_replaced_and_the_result_unchanged(tmp_path, monkeypatch):
    marker = tmp_path / "died"
    monkeypatch.setenv("CHINCHON_TEST_DIE_MARKER", str(marker))
    bots = [faulty.DyingBot, "greedy", "random"]
    games = faulty.INDEX + 12
    marker.write_text("reference run: nobody dies\n")
    ref = simulate(games, 3, bots=bots, seed=faulty.SEED, jobs=1)
    marker.unlink()
    r = simulate(games, 3, bots=bots, seed=faulty.SEED, jobs=2, chunk_size=4)
    assert marker.exists(), "no worker died: the test tested nothing"
    assert r.stats() == ref.stats() and r.records == ref.records


def test_a_worker_dying_every_time_ends_the_run_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("CHINCHON_TEST_DIE_MARKER", str(tmp_path / "died"))
    monkeypatch.setenv("CHINCHON_TEST_DIE_ALWAYS", "1")
    bots = [faulty.DyingBot, "greedy", "random"]
    with pytest.raises(BrokenProcessPool):
        simulate(faulty.INDEX + 4, 3, bots=bots, seed=faulty.SEED, jobs=2, chunk_size=4)
    deaths = (tmp_path / "died").read_text().split()
    assert len(deaths) == run.MAX_POOL_RESTARTS + 1
    assert threading.active_count() < 10  # the pools' manager threads are gone


def test_a_worker_dying_in_a_callers_pool_is_reported(tmp_path, monkeypatch):
    """A pool of the caller's is not ours to make anew: its BrokenProcessPool goes on."""
    monkeypatch.setenv("CHINCHON_TEST_DIE_MARKER", str(tmp_path / "died"))
    bots = [faulty.DyingBot, "greedy", "random"]
    with ProcessPoolExecutor(2) as pool, pytest.raises(BrokenProcessPool):
        simulate(faulty.INDEX + 4, 3, bots=bots, seed=faulty.SEED, executor=pool,
                 chunk_size=4)


def test_stopping_our_pool_with_queued_chunks_raises_nothing_in_its_threads(monkeypatch):
    """Ctrl-C ends our pool at once. The pool's manager thread fails every unfinished task
    when its workers die; a task cancelled meanwhile by another thread made it raise
    InvalidStateError on Python < 3.12 (a traceback at Ctrl-C, about 1 stop in 10 before
    the stop left all cancelling to that thread)."""
    import time

    raised: list[str] = []
    monkeypatch.setattr(threading, "excepthook",
                        lambda a: raised.append(f"{a.thread.name}: {a.exc_type.__name__}"))
    for _ in range(20):
        pool = run._new_pool(2)
        queued = [pool.submit(time.sleep, 30) for _ in range(8)]  # 3 running, 5 queued
        deadline = time.monotonic() + 30
        while not any(f.running() for f in queued):
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.01)
        run._stop(pool)
        assert all(f.done() for f in queued)  # cancelled, or failed with the workers
    assert raised == []


# Dask's concurrent.futures adapter (distributed/cfexecutor.py) fails the future of a
# chunk that finished on a worker the scheduler then lost, with a TypeError of its own
# ("cannot unpack non-iterable SimulationResult"): a function compiled under that file
# name raises the same here, for the first `lost` chunks an executor is given.
_ADAPTER = compile("def cascade(result):\n    typ, exc, tb = result\n",
                   "/site-packages/distributed/cfexecutor.py", "exec")
_OTHER = compile("def cascade(result):\n    typ, exc, tb = result\n",
                 "/site-packages/elsewhere/module.py", "exec")


class _Losing(ThreadPoolExecutor):
    """Threads whose first ``lost`` futures fail as ``code``'s function fails."""

    def __init__(self, lost: int, code) -> None:
        super().__init__(2)
        self.lost = lost
        self.space: dict = {}
        exec(code, self.space)

    def submit(self, fn, /, *args, **kwargs):
        if self.lost > 0:
            self.lost -= 1
            return super().submit(self.space["cascade"], 7)
        return super().submit(fn, *args, **kwargs)


def test_a_chunk_dasks_adapter_lost_is_played_again():
    ref = simulate(N, 4, bots=BOTS, seed=5, jobs=1)
    with _Losing(2, _ADAPTER) as executor:
        r = simulate(N, 4, bots=BOTS, seed=5, executor=executor, chunk_size=3)
    assert r.stats() == ref.stats() and r.records == ref.records


def test_a_chunk_lost_every_time_or_another_type_error_is_raised():
    with _Losing(100, _ADAPTER) as executor, pytest.raises(TypeError):
        simulate(N, 4, bots=BOTS, seed=5, executor=executor, chunk_size=3)
    with _Losing(1, _OTHER) as executor, pytest.raises(TypeError):
        simulate(N, 4, bots=BOTS, seed=5, executor=executor, chunk_size=3)


def test_chunks_are_read_as_workers_take_them():
    """The chunks' bounds are made as the window of queued chunks opens, never all at
    once: a billion games in chunks of one were a list of over 100 GB before the
    first game was played."""
    from chinchon.simulation.chunks import SimulationParams, chunk_bounds
    from chinchon.simulation.run import QUEUED_PER_WORKER, run_chunks

    import tracemalloc

    tracemalloc.start()
    try:
        bounds = chunk_bounds(10**6, 1)  # as a list: about 100 MB
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held < 10_000, held
    assert len(bounds) == 10**6 and bounds[-1] == (10**6 - 1, 10**6)
    assert list(chunk_bounds(10, 4)) == [(0, 4), (4, 8), (8, 10)] == chunk_bounds(10, 4)[:]
    read: list[int] = []

    def chunks():
        for start in range(0, 30):
            read.append(start)
            yield start, start + 1

    read_by_first_result: list[int] = []
    params = SimulationParams(2, ("random", "random"), 1, chinchon.HOUSE_RULES)
    with ThreadPoolExecutor(1) as one:
        result = run_chunks(params, chunks(), executor=one,
                            progress=lambda n: read_by_first_result.append(len(read)))
    assert result.games == 30 and len(read) == 30
    assert read_by_first_result[0] <= QUEUED_PER_WORKER, read_by_first_result[:3]
