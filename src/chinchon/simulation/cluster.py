"""A Dask cluster to simulate on (needs the ``dask`` extra: ``pip install
"chinchon[dask]"``, which brings ``dask[distributed]`` and pyarrow).

:func:`dask_client` connects to a running scheduler (``tcp://HOST:PORT``, or any
address Dask takes) or starts a ``LocalCluster`` of ``N`` worker processes on this
machine (``local:N``). Pass the client as ``simulate(..., executor=client)``. An
address Dask does not take, a scheduler it cannot reach (after Dask's connect timeout,
``distributed.comm.timeouts.connect``) or a cluster that cannot start is a
:class:`SchedulerError` naming the scheduler.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Iterator
from typing import Any, NoReturn

from ..errors import SchedulerError, shown
from .extras import extra_module

__all__ = ["dask_client", "parse_scheduler", "SchedulerError"]

_MAX_LOCAL_WORKERS = 256


def _reason(exc: BaseException) -> str:
    """``exc``'s message on one line (the command line prints one line)."""
    return " ".join(str(exc).split()) or type(exc).__name__


def parse_scheduler(scheduler: str) -> tuple[str, Any]:
    """``('local', N)`` for ``local:N``, else ``('address', scheduler)``."""
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise SchedulerError(f"scheduler must be tcp://HOST:PORT or local:N, "
                             f"got {shown(scheduler)}")
    text = scheduler.strip()
    if text.lower().startswith("local:"):
        n = text[6:]
        if (not (n.isascii() and n.isdigit()) or len(n) > 6
                or not 1 <= int(n) <= _MAX_LOCAL_WORKERS):
            raise SchedulerError(f"scheduler local:N takes N workers "
                                 f"1..{_MAX_LOCAL_WORKERS}, got {shown(text)}")
        return "local", int(n)
    return "address", text


@contextlib.contextmanager
def dask_client(scheduler: str) -> Iterator[Any]:
    """A ``dask.distributed.Client`` for ``scheduler`` (closed on exit, with the
    LocalCluster it started): ``local:N`` starts N single-threaded worker processes
    on the loopback interface (a game holds the GIL: one thread per process)."""
    kind, value = parse_scheduler(scheduler)
    distributed = extra_module("distributed", needs="running on Dask needs the dask extra",
                               extra="dask")
    if kind == "local":
        # the scheduler serves HTTP (its dashboard when bokeh is there) in any case: on
        # a free port, so that two local clusters never collide on Dask's default 8787
        problem = None
        try:
            with _sigint_ignored():  # the workers' processes inherit it (see below)
                cluster = distributed.LocalCluster(n_workers=value, threads_per_worker=1,
                                                   processes=True, host="127.0.0.1",
                                                   dashboard_address=":0")
        except (OSError, ValueError) as exc:
            problem = (f"scheduler {scheduler.strip()!r}: cannot start the local "
                       f"cluster: {_reason(exc)}")
        if problem is not None:
            _refused(problem)
        try:
            with distributed.Client(cluster) as client:
                yield client
        finally:
            cluster.close()
    else:
        # only the connection is looked at here: what the caller's block raises is its own
        problem = None
        try:
            made = distributed.Client(value)
        except ValueError as exc:  # the address: its form, its scheme
            problem = (f"scheduler {value!r} is not an address Dask takes "
                       f"(tcp://HOST:PORT, or local:N): {_reason(exc)}")
        except (OSError, asyncio.TimeoutError) as exc:  # none there, after Dask's timeout
            problem = f"scheduler {value!r}: cannot connect: {_reason(exc)}"
        if problem is not None:
            _refused(problem)
        with made as client:
            yield client


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while the local cluster's processes start: they inherit it, and a
    Python started with SIGINT ignored raises no KeyboardInterrupt. A Ctrl-C at the
    terminal goes to every process of its group: each worker and nanny printed its
    traceback (dozens of lines under the one ``interrupted``), where the cluster is
    this process's to stop, as ``--jobs`` workers are. Only the main thread may set a
    handler; elsewhere the cluster starts as it is."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _refused(problem: str) -> NoReturn:
    """Raise :class:`SchedulerError` once the client or cluster that failed is gone.

    A ``Client`` whose start failed is left half made, in reference cycles: collected
    later, at whatever allocation the collector picks, its finaliser stops the loop
    that the next client may be starting at that moment, and distributed then waits on
    itself for ever (a second ``--scheduler`` call after a refused one hung so). Its
    exception, which holds it, is gone once out of the ``except`` block: it is collected
    here, before anything else is started."""
    gc.collect()
    raise SchedulerError(problem)
