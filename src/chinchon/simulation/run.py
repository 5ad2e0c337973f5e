"""Running the chunks of a simulation: in this process, on a local process pool of our
own (``jobs``), or on any ``concurrent.futures.Executor`` the caller gives (a Dask
client's, Ray's, mpi4py's ...). Each finished chunk's statistics are merged at once
(:meth:`SimulationResult.merge` is exact and order-free), so memory does not grow with
the number of chunks, and the progress callback hears of every finished chunk.

Faults: a chunk whose game raises stops the run with that :class:`SimulationError`
(the queued chunks are cancelled; our own pool's workers are ended). A worker of our
own pool that dies (killed, out of memory) breaks the pool (``BrokenProcessPool``):
the pool is made anew and every unfinished chunk submitted again, up to
``MAX_POOL_RESTARTS`` times. On Dask the scheduler itself runs a lost worker's chunks
again elsewhere; but Dask's ``concurrent.futures`` adapter fails the future of a
chunk that had finished on that worker when the scheduler marks it lost before the
adapter reads its status (a ``TypeError`` raised in ``distributed/cfexecutor.py``):
such a chunk is submitted again, up to ``MAX_POOL_RESTARTS`` times in all. Either way a
chunk played twice gives the same statistics (merged once: only the future we read
counts) and rewrites the same records part.
"""

from __future__ import annotations

import signal
import threading
from collections import deque
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Optional

from ..errors import ChinchonError
from .chunks import SimulationParams, play_chunk
from .play import GameRecord
from .stats import SimulationResult

__all__ = ["run_chunks", "as_executor", "executor_workers", "MAX_POOL_RESTARTS"]

#: how many times one run recovers from a dead worker: makes its own process pool anew,
#: or submits again a chunk Dask's adapter failed as lost (see the module docstring)
MAX_POOL_RESTARTS = 3
#: the most chunks in flight per worker: enough to keep every worker busy, few enough
#: that an interrupted or failed run has little to cancel
QUEUED_PER_WORKER = 4

Progress = Optional[Callable[[int], None]]


def _lost_by_dask(exc: TypeError) -> bool:
    """Whether ``exc`` was raised by Dask's adapter failing a chunk its scheduler lost
    with a worker (see the module docstring), not by the chunk itself."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.replace("\\", "/").endswith("distributed/cfexecutor.py"):
            return True
        tb = tb.tb_next
    return False


def as_executor(executor: Any) -> Executor:
    """``executor`` as a ``concurrent.futures.Executor``: itself, or a Dask ``Client``'s
    executor (told that chunks are not pure, so none is ever taken from a cache)."""
    if isinstance(executor, Executor):
        return executor
    get = getattr(executor, "get_executor", None)  # dask.distributed.Client, duck-typed
    if callable(get):
        made = get(pure=False)
        if isinstance(made, Executor):
            return made
    raise ChinchonError(f"executor must be a concurrent.futures.Executor or a "
                        f"dask.distributed.Client, got {type(executor).__name__}")


def executor_workers(executor: Executor) -> int:
    """How many chunks ``executor`` runs at once, as far as it says (at least 1)."""
    client = getattr(executor, "_client", None)  # dask's ClientExecutor
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # noqa: BLE001 - a client that cannot say: assume a few
            return 4
    n = getattr(executor, "_max_workers", None)  # ProcessPool-, ThreadPoolExecutor
    return n if isinstance(n, int) and n > 0 else 4


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C reaches every process of the terminal's foreground
    group; the workers leave it to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _new_pool(jobs: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_sigint)


class _Merged:
    """The statistics merged so far, and the kept records by chunk."""

    def __init__(self, params: SimulationParams, progress: Progress) -> None:
        self.result = params.empty()
        self.records: dict[int, list[GameRecord]] = {}
        self.progress = progress

    def add(self, start: int, part: SimulationResult) -> None:
        if part.records:
            self.records[start] = part.records
            part.records = []
        self.result = self.result.merge(part)
        if self.progress is not None:
            self.progress(part.games)

    def done(self) -> SimulationResult:
        result = self.result
        result.records = [r for start in sorted(self.records) for r in self.records[start]]
        return result


def run_chunks(params: SimulationParams, chunks: Iterable[tuple[int, int]], *,
               jobs: int = 1, executor: Optional[Executor] = None,
               progress: Progress = None) -> SimulationResult:
    """The merged statistics of ``chunks`` (``(start, stop)`` game ranges): on
    ``executor`` when given, else on ``jobs`` local processes (1: in this process)."""
    merged = _Merged(params, progress)
    if executor is None and jobs == 1:
        for start, stop in chunks:
            merged.add(start, play_chunk(params, start, stop))
        return merged.done()
    own = executor is None
    pool = _new_pool(jobs) if executor is None else executor
    window = QUEUED_PER_WORKER * (jobs if own else executor_workers(pool))
    fresh = iter(chunks)  # read as the window opens: never all of them at once
    queue: deque[tuple[int, int]] = deque()  # chunks to play again, before a new one
    pending: dict[Future[SimulationResult], tuple[int, int]] = {}
    restarts = 0
    try:
        while True:
            while len(pending) < window:
                bounds = queue.popleft() if queue else next(fresh, None)
                if bounds is None:
                    break
                pending[pool.submit(play_chunk, params, *bounds)] = bounds
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            broken = False
            for fut in sorted(done, key=lambda f: pending[f]):
                bounds = pending.pop(fut)
                try:
                    part = fut.result()
                except BrokenProcessPool:
                    if not own or restarts >= MAX_POOL_RESTARTS:
                        raise
                    queue.appendleft(bounds)
                    broken = True
                    continue
                except TypeError as exc:
                    if own or restarts >= MAX_POOL_RESTARTS or not _lost_by_dask(exc):
                        raise
                    restarts += 1
                    queue.appendleft(bounds)
                    continue
                merged.add(bounds[0], part)
            if broken:
                # a worker died: the pool fails every chunk it still had; all of them
                # run again on a new pool (any that did finish is simply not read)
                restarts += 1
                queue.extendleft(sorted(pending.values(), reverse=True))
                pending.clear()
                assert isinstance(pool, ProcessPoolExecutor)
                _stop(pool)
                pool = _new_pool(jobs)
    except BaseException:
        if own:
            assert isinstance(pool, ProcessPoolExecutor)
            _stop(pool)
        else:
            for fut in pending:
                fut.cancel()
        raise
    if own:
        pool.shutdown(wait=True)
    return merged.done()


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel the queued tasks and end the workers now (a second Ctrl-C meanwhile is
    ignored: the stop takes a moment and must not be cut short).

    The pool's own manager thread cancels the queued tasks (``shutdown(cancel_futures=
    True)``), never this thread: it is also the thread that fails every unfinished task
    when it sees a worker gone, and on Python < 3.12 it raises ``InvalidStateError`` (a
    traceback printed at Ctrl-C) for a task another thread cancelled in between. So the
    pool is told to shut down first, and only then are its workers ended (what
    ``terminate_workers`` of Python 3.14 does too)."""
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        # shutdown() forgets the workers and the manager thread: take them first
        workers = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in workers:
            if proc.is_alive():
                proc.terminate()
        for proc in workers:
            proc.join(timeout=2)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=1)
        # and the pool's manager thread: left running, it closes its wake-up pipe while
        # the interpreter's exit hook may be writing to it ("Bad file descriptor"
        # printed at exit); with the workers gone it ends at once
        if manager is not None:
            manager.join(timeout=2)
    finally:
        if main and old is not None:
            signal.signal(signal.SIGINT, old)
