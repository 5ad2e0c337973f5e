"""The table server's manager alone, in process: its CPU an action without sockets.

``load_server.py`` measures the whole server (sockets, event loop, the clients on the
same cores); on a shared machine its CPU an action moves by ±15% from one run to the
next. This drives :class:`chinchon.server.manager.Manager` directly: ``--tables``
tables of ``--players`` scripted seats (``chinchon.server.scripted``, as the load
tool's clients play), each connection a list, one group commit (``Manager.flush``)
per round in which every seat that may act does, then a few turns of the event loop
for what the round scheduled (the next hand, once a summary's seats are all ready).
It reports the CPU time of the manager's own work an action (this thread's, not the
wall clock: the scripted players are not counted), and with ``--cprofile FILE``
writes a profile of that work alone.

    python benchmarks/profile_manager.py --tables 200 --rounds 100

What it leaves out, the socket layer and the event loop, was about a third of the
server's CPU under the load test (docs/server-performance.md). ``--parts`` also times the
manager's main parts around their calls (the views, the state, the commit, the game,
parsing, scheduling; a few hundred nanoseconds a call more in all) and reports each
in µs an action.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from typing import Any, Optional

import orjson

from chinchon.server import scripted
from chinchon.server.manager import Manager, ServerConfig


class ListClient:
    """A connection that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: int, reason: str) -> None:
        pass


def last_view(client: ListClient) -> Optional[dict[str, Any]]:
    for text in reversed(client.sent):
        if text.startswith('{"type":"view"'):
            return dict(orjson.loads(text))
    return None


#: the parts --parts times: (module, owner or None, function name, label)
PARTS = (("commit", None, "encode_views", "views"),
         ("tables", "Table", "state_json", "state"),
         ("store", "Store", "write", "commit"),
         ("tables", "Table", "apply", "game"),
         ("manager", None, "parse_message", "parse"),
         ("driving", "Driving", "_drive", "scheduling"))


def time_parts() -> dict[str, int]:
    """Wrap each of PARTS to add its thread CPU time (ns) to the returned dict."""
    import importlib

    spent = {label: 0 for *_, label in PARTS}
    for module, owner, name, label in PARTS:
        mod = importlib.import_module(f"chinchon.server.{module}")
        target = mod if owner is None else getattr(mod, owner)
        fn = getattr(target, name)

        def timed(*a: Any, _fn: Any = fn, _label: str = label, **k: Any) -> Any:
            t = time.thread_time_ns()
            try:
                return _fn(*a, **k)
            finally:
                spent[_label] += time.thread_time_ns() - t

        setattr(target, name, timed)
    return spent


async def run(tables: int, players: int, rounds: int, profile: Optional[str],
              parts: Optional[dict[str, int]] = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        m = Manager(ServerConfig(db=os.path.join(tmp, "m.sqlite3"), rate=1e6, burst=10**6,
                                 bot_delay=0))
        m.start()
        seats = []
        for t in range(tables):
            clients = [ListClient() for _ in range(players)]
            conns = [m.connect(c) for c in clients]
            m.handle(conns[0], json.dumps({"type": "create", "name": f"t{t}",
                                           "players": players}))
            m.flush()
            table = next(orjson.loads(x) for x in clients[0].sent if '"seated"' in x)["table"]
            for i in range(1, players):
                m.handle(conns[i], json.dumps({"type": "join", "table": table,
                                               "name": f"t{t}-{i}"}))
                m.flush()
            seats.extend(zip(conns, clients))
        rng = random.Random(1)
        first_parts = dict(parts) if parts is not None else None  # the rounds' alone
        prof = None
        if profile:
            import cProfile

            prof = cProfile.Profile()
        actions, spent, next_id = 0, 0.0, 0
        for _ in range(rounds):
            todo = []
            for conn, client in seats:
                view = last_view(client)
                client.sent.clear()
                if view is None or view["status"] == "over":
                    continue
                action = scripted.choose(view, rng)
                if action is not None:
                    next_id += 1
                    action["id"] = next_id
                    todo.append((conn, json.dumps(action)))
            start = time.thread_time()
            if prof is not None:
                prof.enable()
            for conn, text in todo:
                m.handle(conn, text)
            m.flush()
            # the loop's turns: what the actions scheduled runs (a summary whose seats
            # are all ready opens the next hand, and that event is committed), as it
            # does in a server between two reads; without them every table would stop
            # in its first summary
            for _ in range(3):
                await asyncio.sleep(0)
            if prof is not None:
                prof.disable()
            spent += time.thread_time() - start
            actions += len(todo)
        stats = dict(m.stats)
        m.stop()
        if prof is not None and profile:
            prof.dump_stats(profile)
    report: dict[str, Any] = {
        "tables": tables, "players": players, "rounds": rounds, "actions": actions,
        "manager_cpu_us_per_action": round(spent / max(actions, 1) * 1e6, 1),
        "events": stats["events"], "commits": stats["commits"]}
    if parts is not None and first_parts is not None:
        report["parts_us_per_action"] = {
            k: round((v - first_parts[k]) / max(actions, 1) / 1e3, 1) for k, v in parts.items()}
    return report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--cprofile", default=None, metavar="FILE")
    ap.add_argument("--parts", action="store_true",
                    help="also time the manager's main parts (µs an action)")
    args = ap.parse_args()
    if not 1 <= args.tables <= 2000 or not 1 <= args.rounds <= 10_000:
        ap.error("bounded: 1..2000 tables, 1..10000 rounds")
    parts = time_parts() if args.parts else None
    report = asyncio.run(run(args.tables, args.players, args.rounds, args.cprofile, parts))
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
