"""The table server's event loop while search bot seats decide.

Runs the server's manager in this process (no sockets): ``--tables`` tables, each one
scripted person against one ``--bot`` seat (``search`` by default) under ``--rules``,
with no bot delay, so that a search decision is always under way somewhere. A probe
on the loop sleeps 2 ms at a time and notes how much later than asked it woke: the
time the loop could not serve anyone (another table's message, a timer). Each run of
``--workers`` (``ServerConfig.search_workers``; 0: the decisions on the loop itself,
as before they had workers) prints the probe's lag (median, p99, max) and the table
events a second (the moves made, by the bots and the people).

    python benchmarks/search_strength.py --only speed   # the decisions themselves
    python benchmarks/server_search.py --tables 4 --seconds 20 --workers 0,2

The person is the scripted player of ``chinchon.server.scripted``, acting at the
probe's pace. Bounded: each run stops after ``--seconds``. Needs nothing beyond the
package (the manager, not the server extra's web parts).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from typing import Any

from chinchon.server import scripted
from chinchon.server.manager import Manager, ServerConfig


class Client:
    """A connection without a socket: the messages the manager sent it since they were
    last read, decoded (read ones are dropped: kept, they would grow the heap without
    bound and every full garbage collection with it, pausing the loop the probe
    measures)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        pass


async def run(tables: int, seconds: float, bot: str, rules: str, workers: int,
              db: str) -> dict[str, float]:
    """One run: the probe's lags (ms) and the events a second."""
    m = Manager(ServerConfig(db=db, bot_delay=0, search_workers=workers, rate=1e5,
                             burst=100_000))  # the person acts at once
    m.start()
    create = json.dumps({"type": "create", "name": "P", "players": 2, "bots": 1,
                         "bot": bot, "rules": rules})
    people = []
    for k in range(tables):
        client = Client()
        conn = m.connect(client)
        m.handle(conn, create)
        people.append((client, conn, random.Random(k)))
    await asyncio.sleep(0)
    lags: list[float] = []
    start = time.perf_counter()
    events0 = m.stats["events"]
    while time.perf_counter() - start < seconds:
        asked = time.perf_counter()
        await asyncio.sleep(0.002)
        lags.append(time.perf_counter() - asked - 0.002)
        for client, conn, rng in people:
            views = [x for x in client.sent if x["type"] == "view"]
            client.sent.clear()
            if views and views[-1]["status"] == "over":  # a new table, a new game
                m.handle(conn, json.dumps({"type": "leave"}))
                m.handle(conn, create)
                continue
            action = scripted.choose(views[-1], rng) if views else None
            if action is not None:
                m.handle(conn, json.dumps(action))
    elapsed = time.perf_counter() - start
    events = m.stats["events"] - events0
    m.stop()
    lags.sort()

    def at(q: float) -> float:
        return 1000 * lags[min(len(lags) - 1, int(q * len(lags)))]

    return {"median": at(0.5), "p99": at(0.99), "max": 1000 * lags[-1],
            "events_per_s": events / elapsed, "probes": len(lags)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--bot", default="search")
    ap.add_argument("--rules", default="conga")
    ap.add_argument("--workers", default=f"0,{os.cpu_count() or 1}",
                    help="search_workers to run, by comma (0: on the loop)")
    args = ap.parse_args()
    print(f"## {args.tables} tables of a person and `{args.bot}` ({args.rules}), "
          f"{args.seconds:g} s each\n")
    print("| search_workers | loop lag median | p99 | max | events/s | probes |")
    print("|---|---|---|---|---|---|")
    for workers in (int(w) for w in args.workers.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            r = asyncio.run(run(args.tables, args.seconds, args.bot, args.rules, workers,
                                os.path.join(tmp, "tables.sqlite3")))
        print(f"| {workers} | {r['median']:.2f} ms | {r['p99']:.2f} ms | {r['max']:.2f} ms "
              f"| {r['events_per_s']:.0f} | {r['probes']} |", flush=True)


if __name__ == "__main__":
    main()
