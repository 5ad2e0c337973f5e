"""Load test of the table server: many tables of scripted clients, loopback only.

Starts ``python -m chinchon.server`` on 127.0.0.1 with a fresh database, opens
``--tables`` tables of ``--players`` scripted clients each (every seat a WebSocket,
no bots), and lets every client act as fast as it can - draw, discard by the hints,
close when allowed, ready/rejoin in the summary - for ``--seconds`` (or until
``--max-actions``). A finished game is replaced by a new table, so the count of
concurrent tables stays put. Then it stops, reads the server's database and checks:

- no client got an error message;
- no action was lost: every action a client saw acknowledged is in the database at
  the sequence number its view carried, and each table's stored event count equals
  the highest sequence number any of its clients saw (nothing was told that was not
  stored);
- the stored snapshot of each table (committed with each event but a draw, and by
  the server as it stops) is the table at its last event: what replaying every stored
  event from its creation gives.

It reports actions per second (actions sent by clients and acknowledged) and the
latency from sending an action to the updated view: to the acting client (``ack``)
and to the last seat of the table to receive it (``all seats``), p50 / p99 / max.

    python benchmarks/load_server.py --tables 200 --seconds 20

The clients share the CPU with the server, so they are lean: each WebSocket is a
plain asyncio protocol speaking RFC 6455 itself, each message handled the moment its
bytes are read, and views are parsed with ``orjson`` (it comes with the server extra;
the standard library's ``json`` otherwise, slower). Still honest:
each client acts as soon as its view lets it, and the latency runs from writing the
action to reading the view that answers it.

The clients, the seats and the tables they play are in ``load_client.py`` beside this
file; here, the server it starts, the measured window, the database check and the
report.

Needs ``pip install ".[server]"`` (and nothing else). Bounded: it stops by itself
after ``--seconds`` plus a few seconds of draining, and never sends more than
``--max-actions`` actions.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from typing import Any

if __package__:  # imported as benchmarks.load_server
    from .load_client import DECODER, Stats, run_table
else:  # run as documented, python benchmarks/load_server.py: its directory is on sys.path
    from load_client import DECODER, Stats, run_table


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def check_database(db: str, stats: Stats) -> list[str]:
    """What disagrees between the database and what the clients saw (empty: nothing)."""
    from chinchon.server.tables import Table

    problems: list[str] = []
    con = sqlite3.connect(db)
    stored: dict[tuple[str, int], dict[str, Any]] = {}
    for table_id, seq, record in con.execute("SELECT table_id, seq, record FROM events"):
        stored[(table_id, seq)] = json.loads(record)
    for table, seq, seat, msg in stats.acked:
        rec = stored.get((table, seq))
        if rec is None:
            problems.append(f"{table} #{seq}: acknowledged {msg['type']} is not stored")
            continue
        if rec["kind"] != msg["type"] or rec.get("seat") != seat or \
                (msg.get("card") is not None and rec.get("card") != msg["card"]) or \
                (msg.get("source") is not None and rec.get("source") != msg["source"]):
            problems.append(f"{table} #{seq}: stored {rec} is not the acknowledged {msg}")
    tables = {tid: (seq, meta, game, state) for tid, seq, meta, game, state in
              con.execute("SELECT t.id, t.seq, s.meta, s.game, t.state FROM tables t "
                          "JOIN snapshots s ON s.table_id = t.id")}
    for table, seen in stats.max_seq.items():
        if table not in tables:
            problems.append(f"{table}: clients saw it, the database has no such table")
            continue
        seq = tables[table][0]
        # after the last event the clients saw, only events of the server's own may
        # follow: their disconnections (the run stopped, they closed their sockets), the
        # start after the last join and the next hand after the last 'ready'
        unseen = [stored.get((table, s), {}).get("kind") for s in range(seen + 1, seq + 1)]
        if seq < seen or any(k not in ("disconnect", "next_hand", "start") for k in unseen):
            problems.append(f"{table}: database at event {seq}, clients saw up to {seen} "
                            f"(unseen: {unseen})")
    for table, (seq, meta, game, state) in tables.items():
        records = [stored[(table, s)] for s in range(1, seq + 1) if (table, s) in stored]
        if len(records) != seq:
            problems.append(f"{table}: {len(records)} stored events for seq {seq}")
            continue
        # what a restarted server would load -- the stored snapshot alone, no event
        # replayed -- is what replaying every event from the table's creation gives
        loaded = Table.restore(meta, game, state)
        if loaded.seq != seq or loaded.fingerprint() != Table.replay(records).fingerprint():
            problems.append(f"{table}: its stored snapshot disagrees with its full replay")
    con.close()
    return problems


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def healthz(port: int) -> dict[str, Any]:
    """The server's own counters (events stored, group commits, connections)."""
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
            return dict(json.loads(r.read()))
    except OSError as exc:
        return {"error": repr(exc)}


async def drive(args: argparse.Namespace, port: int, stats: Stats, server_pid: int) -> float:
    stop = asyncio.Event()
    budget = [args.max_actions]
    tasks = []
    for i in range(args.tables):
        interval = args.tables / args.pace if args.pace else 0.0
        tasks.append(asyncio.create_task(run_table("127.0.0.1", port, args.players, stats,
                                                   stop, budget, i, interval)))
        if i % 20 == 19:
            await asyncio.sleep(0.05)  # open the connections in waves
    warm = time.perf_counter()
    await asyncio.sleep(args.warmup)
    # measure from here: reset the counters so the ramp-up is not in the numbers
    stats.actions, stats.ack_latency, stats.all_latency = 0, [], []
    start = time.perf_counter()
    cpu0 = (cpu_seconds(server_pid), time.process_time())
    try:
        await asyncio.wait_for(stop.wait(), args.seconds)
    except asyncio.TimeoutError:
        pass
    stop.set()
    elapsed = time.perf_counter() - start
    user, system = cpu_seconds(server_pid)
    stats.server_cpu = (user - cpu0[0][0], system - cpu0[0][1])
    stats.cpu = (sum(stats.server_cpu), time.process_time() - cpu0[1])
    measured = stats.actions
    stats.health = await asyncio.get_running_loop().run_in_executor(None, healthz, port)
    done, pending = await asyncio.wait(tasks, timeout=15)
    for t in pending:
        t.cancel()
    for t in done:
        if t.exception() is not None:
            stats.errors.append({"type": "exception", "message": repr(t.exception())})
    stats.actions = measured
    del warm
    return elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=20.0, help="measured run time (20)")
    ap.add_argument("--warmup", type=float, default=3.0, help="unmeasured start (3)")
    ap.add_argument("--max-actions", type=int, default=500_000)
    ap.add_argument("--pace", type=float, default=0.0, metavar="N",
                    help="offer N actions/s in all (each table acts on a steady schedule "
                         "of tables/N seconds) instead of as fast as possible")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--server-python", default=sys.executable, metavar="PYTHON",
                    help="the interpreter that runs the server (another venv's python: "
                         "another version of the server against the same clients)")
    ap.add_argument("--server-cmd", default=None,
                    help="run this command (with {port} and {db}) as the server instead "
                         "of python -m chinchon.server (for profiling)")
    args = ap.parse_args()
    if not 1 <= args.tables <= 1000 or not 0 < args.seconds <= 600:
        ap.error("bounded: 1..1000 tables, 0..600 seconds")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "load.sqlite3")
        cmd = [args.server_python, "-m", "chinchon.server", "--host", "127.0.0.1", "--port", str(port),
               "--db", db, "--bot-delay", "0", "--log-level", "warning",
               # the clients act as fast as they can: lift the per-connection abuse limit
               "--rate", "10000", "--burst", "10000"]
        if args.server_cmd:
            cmd = args.server_cmd.format(port=port, db=db).split()
        server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL if not args.server_cmd else None,
                                  stderr=subprocess.PIPE if not args.server_cmd else None)
        try:
            deadline = time.time() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if server.poll() is not None or time.time() > deadline:
                        raise SystemExit("the server did not start: "
                                         + server.stderr.read().decode(errors="replace"))
                    time.sleep(0.1)
            stats = Stats()
            try:  # the clients are the bottleneck as often as the server: use uvloop if there
                import uvloop
                asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
            except ImportError:
                pass
            # the load generator's own pauses would count as latency: it keeps every
            # measurement and answer in memory, so collect seldom (as the server does)
            gc.collect()
            gc.freeze()
            gc.set_threshold(20_000, 20, 50)
            elapsed = asyncio.run(drive(args, port, stats, server.pid))
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
        problems = check_database(db, stats)
    rate = stats.actions / elapsed
    ms = 1000.0
    report = {
        "tables": args.tables, "players": args.players, "seconds": round(elapsed, 2),
        "pace": args.pace or None,
        "actions": stats.actions, "actions_per_s": round(rate, 1), "games_finished": stats.games,
        "ack_ms": {"p50": round(pct(stats.ack_latency, 50) * ms, 2),
                   "p99": round(pct(stats.ack_latency, 99) * ms, 2),
                   "max": round(max(stats.ack_latency, default=float("nan")) * ms, 2)},
        "all_seats_ms": {"p50": round(pct(stats.all_latency, 50) * ms, 2),
                         "p99": round(pct(stats.all_latency, 99) * ms, 2),
                         "max": round(max(stats.all_latency, default=float("nan")) * ms, 2)},
        "errors": len(stats.errors), "lost_or_mismatched": len(problems),
        "cpu_s": {"server": round(stats.cpu[0], 2), "clients": round(stats.cpu[1], 2),
                  "server_user": round(stats.server_cpu[0], 2),
                  "server_system": round(stats.server_cpu[1], 2)},
        "server_cpu_us_per_action": round(stats.cpu[0] / max(stats.actions, 1) * 1e6, 1),
        "load_average": os.getloadavg()[0], "client_decoder": DECODER,
        "server": stats.health,
    }
    if args.json:
        print(json.dumps(report))
    else:
        mode = f"paced at {args.pace:g} actions/s" if args.pace else "as fast as they can"
        print(f"{args.tables} tables x {args.players} scripted clients ({mode}), {elapsed:.1f} s measured "
              f"(after {args.warmup:g} s warm-up): {stats.actions} actions, {rate:,.0f} actions/s, "
              f"{stats.games} games finished")
        print(f"action -> own view (ack): p50 {report['ack_ms']['p50']} ms, "
              f"p99 {report['ack_ms']['p99']} ms, max {report['ack_ms']['max']} ms")
        print(f"action -> every seat's view: p50 {report['all_seats_ms']['p50']} ms, "
              f"p99 {report['all_seats_ms']['p99']} ms, max {report['all_seats_ms']['max']} ms")
        per = 1e6 / max(stats.actions, 1)
        print(f"CPU in the measured window: server {stats.cpu[0]:.1f} s "
              f"({stats.cpu[0] * per:.0f} us/action: {stats.server_cpu[0] * per:.0f} user, "
              f"{stats.server_cpu[1] * per:.0f} system), clients "
              f"{stats.cpu[1]:.1f} s (views parsed with {DECODER}); load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        h = stats.health
        if h.get("commits"):
            print(f"server: {h['events']} events stored in {h['commits']} commits "
                  f"({h['events'] / h['commits']:.1f} per commit), "
                  f"{h.get('connections')} connections")
        print(f"errors: {len(stats.errors)}; database check: "
              f"{'every acknowledged action stored, replay matches' if not problems else problems[:5]}")
    for e in stats.errors[:5]:
        print("error:", e, file=sys.stderr)
    return 0 if not problems and not stats.errors and stats.actions else 1


if __name__ == "__main__":
    sys.exit(main())
