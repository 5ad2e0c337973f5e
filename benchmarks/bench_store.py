"""The server's store alone: :meth:`chinchon.server.store.Store.write` called as the
group commit calls it under load, its CPU an event and the bytes it writes a commit.

``--tables`` tables; ``--commits`` commits, after as many unmeasured ones (so the
log and the rows are as a running server has them), each of ``--events`` events of
as many tables drawn at random. About half of them are draws stored alone (a
table's state waits for the discard, see :mod:`chinchon.server.commit`), the others
store their table's state (``--state-bytes``). It reports the process's CPU (user and
system, µs an event) and the bytes written a commit (``wchar`` of
``/proc/self/io``: the WAL, as the checkpoints are held off; Linux only), as JSON.

    python benchmarks/bench_store.py

A store whose ``write`` takes no pending draws (schema 2, before they waited in the
table's row) stores a draw alone as its event alone, as its server did: the same
command with another venv's python measures that version against the same load.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import resource
import tempfile
import time
from typing import Any, Optional

from chinchon.server.store import SCHEMA_VERSION, Store, TableWrite


def written() -> Optional[int]:
    """Bytes this process has passed to write() so far, if the system says."""
    try:
        with open("/proc/self/io") as f:
            for line in f:
                if line.startswith("wchar:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200, help="tables (200)")
    ap.add_argument("--events", type=int, default=90, help="events a commit (90)")
    ap.add_argument("--commits", type=int, default=300, help="measured commits (300)")
    ap.add_argument("--state-bytes", type=int, default=400, help="a table's state (400)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not (1 <= args.events <= args.tables <= 10_000 and 1 <= args.commits <= 10_000):
        ap.error("bounded: 1 <= events <= tables <= 10000, 1..10000 commits")
    pending_draws = "pending" in inspect.signature(Store.write).parameters
    rng = random.Random(args.seed)
    record = json.dumps({"kind": "discard", "seat": 1, "card": "7o", "now": 1234.567})
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(os.path.join(tmp, "bench.sqlite3"), checkpoint_seconds=1e9)
        ids = [f"{n:04d}-{rng.getrandbits(64):016x}" for n in range(args.tables)]
        last = {t: 1 for t in ids}    # each table's last event
        stored = {t: 1 for t in ids}  # the event its stored state is at
        for t in ids:
            store.create(t, "playing", "{}", "s" * args.state_bytes, '{"kind": "create"}')

        def commit() -> None:
            writes: list[TableWrite] = []
            events: list[tuple[str, int, str]] = []
            pending: list[tuple[str, int, str]] = []
            for t in rng.sample(ids, args.events):
                last[t] += 1
                events.append((t, last[t], record))
                # a draw alone: as a game goes, draw, discard, draw, ...; now and then
                # another event
                if stored[t] == last[t] - 1 and rng.random() < 0.9:
                    pending.append((t, last[t], record))
                else:
                    writes.append(TableWrite(t, stored[t], last[t], None,
                                             "s" * args.state_bytes))
                    stored[t] = last[t]
            if pending_draws:
                store.write(writes, events, pending)
            else:
                store.write(writes, events)

        for _ in range(args.commits):  # unmeasured: a log of some size first
            commit()
        w0, r0, t0 = written(), resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        for _ in range(args.commits):
            commit()
        t1, r1, w1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF), written()
        store.close()
    n = args.commits * args.events
    report: dict[str, Any] = {
        "schema": SCHEMA_VERSION, "tables": args.tables, "events_a_commit": args.events,
        "commits": args.commits,
        "cpu_us_per_event": round(1e6 * (r1.ru_utime - r0.ru_utime + r1.ru_stime
                                         - r0.ru_stime) / n, 2),
        "user_us_per_event": round(1e6 * (r1.ru_utime - r0.ru_utime) / n, 2),
        "system_us_per_event": round(1e6 * (r1.ru_stime - r0.ru_stime) / n, 2),
        "wall_us_per_event": round(1e6 * (t1 - t0) / n, 2),
        "kib_written_per_commit": (None if w0 is None or w1 is None
                                   else round((w1 - w0) / args.commits / 1024, 1)),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
