"""A Dask cluster to simulate on (needs the ``dask`` extra: ``pip install
"chinchon[dask]"``, which brings ``dask[distributed]`` and pyarrow).

:func:`dask_client` connects to a running scheduler (``tcp://HOST:PORT``, or any
address Dask takes) or starts a ``LocalCluster`` of ``N`` worker processes on this
machine (``local:N``). Pass the client as ``simulate(..., executor=client)``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ..errors import ChinchonError, shown
from .extras import extra_module

__all__ = ["dask_client", "parse_scheduler"]

_MAX_LOCAL_WORKERS = 256


def parse_scheduler(scheduler: str) -> tuple[str, Any]:
    """``('local', N)`` for ``local:N``, else ``('address', scheduler)``."""
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise ChinchonError(f"scheduler must be tcp://HOST:PORT or local:N, "
                            f"got {shown(scheduler)}")
    text = scheduler.strip()
    if text.lower().startswith("local:"):
        n = text[6:]
        if not n.isdigit() or not 1 <= int(n) <= _MAX_LOCAL_WORKERS:
            raise ChinchonError(f"scheduler local:N takes N workers 1..{_MAX_LOCAL_WORKERS}, "
                                f"got {shown(text)}")
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
        cluster = distributed.LocalCluster(n_workers=value, threads_per_worker=1,
                                           processes=True, host="127.0.0.1",
                                           dashboard_address=":0")
        try:
            with distributed.Client(cluster) as client:
                yield client
        finally:
            cluster.close()
    else:
        with distributed.Client(value) as client:
            yield client
