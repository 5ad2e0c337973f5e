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

The clients share the CPU with the server, so they are lean: each WebSocket is a
plain asyncio protocol speaking RFC 6455 itself, each message handled the moment its
bytes are read, and views are parsed with ``orjson`` (it comes with the server extra;
the standard library's ``json`` otherwise, slower). Still honest:
each client acts as soon as its view lets it, and the latency runs from writing the
action to reading the view that answers it.

Needs ``pip install ".[server]"`` (and nothing else). Bounded: it stops by itself
after ``--seconds`` plus a few seconds of draining, and never sends more than
``--max-actions`` actions.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
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
from typing import Any, Callable, Optional

from chinchon.server import scripted

try:  # the clients parse three views per action: with orjson, in less than half the time
    # (it comes with the server extra)
    from orjson import loads
    DECODER = "orjson"
except ImportError:  # pragma: no cover - the standard library's, slower
    loads = json.loads
    DECODER = "json"

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
        self.server_cpu = (0.0, 0.0)  # the server's user and system (kernel) CPU seconds
        self.health: dict[str, Any] = {}  # the server's /healthz at the end


class Socket(asyncio.Protocol):
    """A WebSocket client connection (RFC 6455) on a plain asyncio protocol: the
    handshake, masked frames out, frames in, each message handed to ``on_message``
    the moment its bytes are read (no task, no queue per message: the load generator
    shares the CPU with the server, so it must cost little per message). Answers pings;
    refuses nothing the server may send."""

    def __init__(self, host: str, port: int, path: str) -> None:
        self.request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Key: "
                        f"{base64.b64encode(os.urandom(16)).decode()}\r\n"
                        f"Sec-WebSocket-Version: 13\r\n\r\n").encode()
        self.transport: Optional[asyncio.Transport] = None
        self.buffer = b""
        self.upgraded = False
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.fragments: list[bytes] = []
        self.early: list[str] = []  # messages before anyone listens (see listen)
        self.on_message: Callable[[str], None] = self.early.append

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.transport.write(self.request)  # type: ignore[union-attr]

    def connection_lost(self, exc: Optional[Exception]) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"connection lost: {exc!r}"))
        if not self.closed.done():
            self.closed.set_result(None)

    def data_received(self, data: bytes) -> None:
        buf = self.buffer + data if self.buffer else data
        if not self.upgraded:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                self.buffer = buf
                return
            if not buf.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(ConnectionError(buf[:end].decode(errors="replace")))
                return
            self.upgraded = True
            self.opened.set_result(None)
            buf = buf[end + 4:]
        pos, size = 0, len(buf)
        while size - pos >= 2:
            b0, b1 = buf[pos], buf[pos + 1]
            length, head = b1 & 0x7F, 2
            if length == 126:
                if size - pos < 4:
                    break
                length, head = int.from_bytes(buf[pos + 2:pos + 4], "big"), 4
            elif length == 127:
                if size - pos < 10:
                    break
                length, head = int.from_bytes(buf[pos + 2:pos + 10], "big"), 10
            if b1 & 0x80:
                raise ConnectionError("the server masked a frame")
            if size - pos < head + length:
                break
            payload = buf[pos + head:pos + head + length]
            pos += head + length
            opcode = b0 & 0x0F
            if opcode in (1, 2, 0):
                if not b0 & 0x80:  # a fragment: more to come
                    self.fragments.append(payload)
                    continue
                if self.fragments:
                    payload = b"".join(self.fragments) + payload
                    self.fragments = []
                self.on_message(payload.decode())
            elif opcode == 9:  # ping: pong with its data
                self._frame(0xA, payload)
            elif opcode == 8:  # close: answer it and hang up
                if self.transport is not None and not self.transport.is_closing():
                    self._frame(0x8, payload[:2])
                    self.transport.close()
                if not self.closed.done():
                    self.closed.set_result(None)
                return
        self.buffer = buf[pos:]

    def _frame(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | opcode, 0x80 | n))
        elif n < 65536:
            head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        masked = (int.from_bytes(payload, "big")
                  ^ int.from_bytes((mask * (n // 4 + 1))[:n], "big")).to_bytes(n, "big")
        assert self.transport is not None
        self.transport.write(head + mask + masked)

    def listen(self, on_message: Callable[[str], None]) -> None:
        """Hand every message to ``on_message`` from now on, those already read first."""
        self.on_message = on_message
        early, self.early = self.early, []
        for text in early:
            on_message(text)

    def send(self, text: str) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._frame(0x1, text.encode())

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._frame(0x8, (1000).to_bytes(2, "big"))
            self.transport.close()


async def open_socket(host: str, port: int) -> Socket:
    loop = asyncio.get_running_loop()
    _, sock = await loop.create_connection(lambda: Socket(host, port, "/ws"), host, port)
    await asyncio.wait_for(sock.opened, 30)
    return sock


class Seat:
    """One scripted client: acts the moment a view lets it (one action in flight)."""

    def __init__(self, sock: Socket, game: "TableRun") -> None:
        self.sock = sock
        self.game = game
        self.stats = game.stats
        self.pending: Optional[int] = None
        self.sent_at = 0.0
        self.sent_msg: dict[str, Any] = {}
        self.next_id = 0
        self.seat = -1
        self.over = False
        self.inbox: Optional[asyncio.Queue[dict[str, Any]]] = asyncio.Queue()  # until seated
        self.everyone_seen = asyncio.Event()  # a view with every seat taken came

    def setup_message(self, text: str) -> None:
        assert self.inbox is not None
        msg = json.loads(text)
        self.inbox.put_nowait(msg)
        if msg["type"] == "view" and msg["seq"] >= self.game.tracker.players:
            self.everyone_seen.set()  # the create and every join

    async def recv(self) -> dict[str, Any]:
        assert self.inbox is not None
        return await asyncio.wait_for(self.inbox.get(), 30)

    def play(self) -> None:
        """From now on every message is handled as it arrives (see on_message)."""
        assert self.inbox is not None
        waiting, self.inbox = self.inbox, None
        self.sock.listen(self.on_message)
        while not waiting.empty():
            self.handle(waiting.get_nowait(), time.perf_counter())

    def on_message(self, text: str) -> None:
        self.handle(loads(text), time.perf_counter())

    def handle(self, msg: dict[str, Any], now: float) -> None:
        stats = self.stats
        kind = msg["type"]
        if kind == "error":
            stats.errors.append(msg)
            if msg.get("id") == self.pending:
                self.pending = None
            self.game.check_done()
            return
        if kind != "view":
            return
        stats.views += 1
        seq = msg["seq"]
        table = msg["table"]
        if seq > stats.max_seq.get(table, 0):
            stats.max_seq[table] = seq
        tracker = self.game.tracker
        tracker.received(seq, now)
        if self.pending is not None and msg.get("ack") == self.pending:
            self.pending = None
            stats.actions += 1
            stats.ack_latency.append(now - self.sent_at)
            stats.acked.append((table, seq, self.seat, self.sent_msg))
            tracker.sent(seq, self.sent_at)
        if msg["status"] == "over":
            self.over = True
        elif self.pending is None and not self.game.stop.is_set():
            action = scripted.choose(msg, RNG)
            if action is not None:
                budget = self.game.budget
                if budget[0] <= 0:
                    self.game.stop.set()
                else:
                    budget[0] -= 1
                    self.next_id += 1
                    action["id"] = self.pending = self.next_id
                    delay = tracker.pace()
                    if delay > 0:
                        asyncio.get_running_loop().call_later(delay, self.send, action)
                    else:
                        self.send(action)
        self.game.check_done()

    def send(self, action: dict[str, Any]) -> None:
        self.sent_msg = action
        self.sent_at = time.perf_counter()
        self.sock.send(json.dumps(action))


class TableTracker:
    """Per table: when each event was sent and when each seat got its view."""

    def __init__(self, players: int, stats: Stats, interval: float) -> None:
        self.players = players
        self.stats = stats
        self.interval = interval      # seconds between two actions of this table (0: none)
        self.next_at = 0.0
        self.sent_at: dict[int, float] = {}
        self.got: dict[int, list[float]] = {}

    def pace(self) -> float:
        """With --pace, how long to wait for this table's next slot (a steady schedule
        per table); 0 otherwise."""
        if not self.interval:
            return 0.0
        now = time.perf_counter()
        wait = max(0.0, self.next_at - now)
        self.next_at = max(now, self.next_at) + self.interval
        return wait

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


class TableRun:
    """One table of scripted clients, from its creation to the end of its game (or of
    the run)."""

    def __init__(self, stats: Stats, stop: asyncio.Event, budget: list[int], players: int,
                 interval: float) -> None:
        self.stats = stats
        self.stop = stop
        self.budget = budget
        self.tracker = TableTracker(players, stats, interval)
        self.done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.seats: list[Seat] = []

    def check_done(self) -> None:
        """Over when every seat saw the end of the game, or when the run stops and no
        action of the table waits for its answer."""
        if self.done.done():
            return
        if all(s.over for s in self.seats):
            self.done.set_result(True)
        elif self.stop.is_set() and all(s.pending is None for s in self.seats):
            self.done.set_result(False)


async def run_table(host: str, port: int, players: int, stats: Stats, stop: asyncio.Event,
                    budget: list[int], index: int, interval: float) -> None:
    while not stop.is_set():
        game = TableRun(stats, stop, budget, players, interval)
        sockets = [await open_socket(host, port) for _ in range(players)]
        try:
            seats = game.seats = [Seat(sock, game) for sock in sockets]
            for s in seats:
                s.sock.listen(s.setup_message)
            for s in seats:
                assert (await s.recv())["type"] == "welcome"
            sockets[0].send(json.dumps({"type": "create", "name": f"t{index}-0",
                                        "players": players}))
            seated = await seats[0].recv()
            if seated["type"] != "seated":
                stats.errors.append(seated)
                return
            table = seated["table"]
            seats[0].seat = 0
            for i, s in enumerate(seats[1:], 1):
                s.sock.send(json.dumps({"type": "join", "table": table, "name": f"t{index}-{i}"}))
                while True:
                    m = await s.recv()
                    if m["type"] == "seated":
                        s.seat = m["seat"]
                        break
                    if m["type"] == "error":
                        stats.errors.append(m)
                        return
            # every seat has the view of the last join (so that all it was told is seen)
            await asyncio.wait_for(asyncio.gather(*(s.everyone_seen.wait() for s in seats)), 30)
            for s in seats:  # the views queued so far, then each message as it comes
                s.play()
            stopped = asyncio.ensure_future(stop.wait())
            while not game.done.done():
                await asyncio.wait([game.done, stopped], return_when=asyncio.FIRST_COMPLETED)
                game.check_done()
            stopped.cancel()
            stats.games += game.done.result()
        finally:
            for sock in sockets:
                sock.close()


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
