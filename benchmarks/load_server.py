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
- the stored snapshot of each table (committed with each event) is the table at its
  last event: what replaying every stored event from its creation gives.

It reports actions per second (actions sent by clients and acknowledged) and the
latency from sending an action to the updated view: to the acting client (``ack``)
and to the last seat of the table to receive it (``all seats``), p50 / p99 / max.

    python benchmarks/load_server.py --tables 200 --seconds 20

Needs ``pip install ".[server]"`` (and nothing else). Bounded: it stops by itself
after ``--seconds`` plus a few seconds of draining, and never sends more than
``--max-actions`` actions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from typing import Any, Optional

import websockets

from chinchon.server import scripted

RNG = random.Random(14)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.actions = 0
        self.ack_latency: list[float] = []
        self.all_latency: list[float] = []
        self.errors: list[dict[str, Any]] = []
        self.games = 0
        self.acked: list[tuple[str, int, int, dict[str, Any]]] = []  # table, seq, seat, msg
        self.max_seq: dict[str, int] = {}
        self.views = 0
        self.cpu = (0.0, 0.0)  # server, clients: CPU seconds in the measured window


class Seat:
    """One scripted client: a WebSocket, acting whenever its view allows."""

    def __init__(self, ws: Any, stats: Stats, tracker: "TableTracker", stop: asyncio.Event,
                 budget: list[int]) -> None:
        self.ws = ws
        self.stats = stats
        self.tracker = tracker
        self.stop = stop
        self.budget = budget
        self.pending: Optional[int] = None
        self.sent_at = 0.0
        self.sent_msg: dict[str, Any] = {}
        self.next_id = 0
        self.seat = -1
        self.table = ""

    async def send(self, msg: dict[str, Any]) -> None:
        self.next_id += 1
        msg["id"] = self.next_id
        self.pending = self.next_id
        self.sent_msg = msg
        self.sent_at = time.perf_counter()
        await self.ws.send(json.dumps(msg))

    async def recv(self) -> dict[str, Any]:
        return json.loads(await self.ws.recv())

    def choose(self, view: dict[str, Any]) -> Optional[dict[str, Any]]:
        return scripted.choose(view, RNG)

    async def play(self) -> bool:
        """Until the game is over (True) or the run stops (False)."""
        stats = self.stats
        while True:
            msg = await self.recv()
            now = time.perf_counter()
            kind = msg["type"]
            if kind == "error":
                stats.errors.append(msg)
                if msg.get("id") == self.pending:
                    self.pending = None
                continue
            if kind != "view":
                continue
            stats.views += 1
            seq = msg["seq"]
            table = msg["table"]
            if seq > stats.max_seq.get(table, 0):
                stats.max_seq[table] = seq
            self.tracker.received(seq, now)
            if msg.get("ack") is not None and msg["ack"] == self.pending:
                self.pending = None
                stats.actions += 1
                stats.ack_latency.append(now - self.sent_at)
                stats.acked.append((table, seq, self.seat, self.sent_msg))
                self.tracker.sent(seq, self.sent_at)
            if msg["status"] == "over":
                return True
            if self.pending is None and not self.stop.is_set():
                action = self.choose(msg)
                if action is not None:
                    if self.budget[0] <= 0:
                        self.stop.set()
                        continue
                    self.budget[0] -= 1
                    await self.tracker.pace()
                    await self.send(action)
            elif self.stop.is_set() and self.pending is None:
                return False


class TableTracker:
    """Per table: when each event was sent and when each seat got its view."""

    def __init__(self, players: int, stats: Stats, interval: float) -> None:
        self.players = players
        self.stats = stats
        self.interval = interval      # seconds between two actions of this table (0: none)
        self.next_at = 0.0
        self.sent_at: dict[int, float] = {}
        self.got: dict[int, list[float]] = {}

    async def pace(self) -> None:
        """With --pace, wait for this table's next slot (a steady schedule per table)."""
        if not self.interval:
            return
        now = time.perf_counter()
        if self.next_at > now:
            await asyncio.sleep(self.next_at - now)
            now = self.next_at
        self.next_at = max(now, self.next_at) + self.interval

    def sent(self, seq: int, t: float) -> None:
        self.sent_at[seq] = t
        self._check(seq)

    def received(self, seq: int, t: float) -> None:
        self.got.setdefault(seq, []).append(t)
        self._check(seq)

    def _check(self, seq: int) -> None:
        got = self.got.get(seq)
        if seq in self.sent_at and got is not None and len(got) == self.players:
            self.stats.all_latency.append(max(got) - self.sent_at.pop(seq))
            del self.got[seq]
        elif len(self.got) > 64:  # views of events no client of ours caused (none here)
            for old in sorted(self.got)[:-32]:
                self.got.pop(old, None)


async def run_table(url: str, players: int, stats: Stats, stop: asyncio.Event,
                    budget: list[int], index: int, interval: float) -> None:
    kw = dict(max_size=2**20, ping_interval=None, compression=None, open_timeout=30)
    while not stop.is_set():
        tracker = TableTracker(players, stats, interval)
        sockets = [await websockets.connect(url, **kw) for _ in range(players)]
        try:
            seats = [Seat(ws, stats, tracker, stop, budget) for ws in sockets]
            for s in seats:
                assert (await s.recv())["type"] == "welcome"
            await sockets[0].send(json.dumps({"type": "create", "name": f"t{index}-0",
                                              "players": players}))
            seated = await seats[0].recv()
            if seated["type"] != "seated":
                stats.errors.append(seated)
                return
            table = seated["table"]
            seats[0].seat, seats[0].table = 0, table
            for i, s in enumerate(seats[1:], 1):
                await s.ws.send(json.dumps({"type": "join", "table": table, "name": f"t{index}-{i}"}))
                while True:
                    m = await s.recv()
                    if m["type"] == "seated":
                        s.seat, s.table = m["seat"], table
                        break
                    if m["type"] == "error":
                        stats.errors.append(m)
                        return
            over = await asyncio.gather(*(s.play() for s in seats))
            stats.games += any(over)
        finally:
            for ws in sockets:
                await ws.close()


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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def drive(args: argparse.Namespace, url: str, stats: Stats, server_pid: int) -> float:
    stop = asyncio.Event()
    budget = [args.max_actions]
    tasks = []
    for i in range(args.tables):
        interval = args.tables / args.pace if args.pace else 0.0
        tasks.append(asyncio.create_task(run_table(url, args.players, stats, stop, budget, i,
                                                   interval)))
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
    stats.cpu = (cpu_seconds(server_pid) - cpu0[0], time.process_time() - cpu0[1])
    measured = stats.actions
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
    ap.add_argument("--server-cmd", default=None,
                    help="run this command (with {port} and {db}) as the server instead "
                         "of python -m chinchon.server (for profiling)")
    args = ap.parse_args()
    if not 1 <= args.tables <= 1000 or not 0 < args.seconds <= 600:
        ap.error("bounded: 1..1000 tables, 0..600 seconds")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "load.sqlite3")
        cmd = [sys.executable, "-m", "chinchon.server", "--host", "127.0.0.1", "--port", str(port),
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
            elapsed = asyncio.run(drive(args, f"ws://127.0.0.1:{port}/ws", stats, server.pid))
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
        "cpu_s": {"server": round(stats.cpu[0], 2), "clients": round(stats.cpu[1], 2)},
        "load_average": os.getloadavg()[0],
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
        print(f"CPU in the measured window: server {stats.cpu[0]:.1f} s "
              f"({stats.cpu[0] / max(stats.actions, 1) * 1e6:.0f} us/action), clients "
              f"{stats.cpu[1]:.1f} s; load average {os.getloadavg()[0]:.1f} on "
              f"{os.cpu_count()} cores")
        print(f"errors: {len(stats.errors)}; database check: "
              f"{'every acknowledged action stored, replay matches' if not problems else problems[:5]}")
    for e in stats.errors[:5]:
        print("error:", e, file=sys.stderr)
    return 0 if not problems and not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())
