"""The scripted clients of the table server's load test (benchmarks/load_server.py runs
them): a lean WebSocket client on a plain asyncio protocol, the seat that acts the
moment its view lets it, and the tables they play, recording into ``Stats`` what the
clients sent, what was acknowledged and when each seat saw it.

The clients share the CPU with the server, so they are lean: each WebSocket speaks
RFC 6455 itself, each message is handled the moment its bytes are read, and views are
parsed with ``orjson`` (it comes with the server extra; the standard library's ``json``
otherwise, slower).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import time
from typing import Any, Callable, Optional

from chinchon.server import scripted
from chinchon.server.wire import frame_length

try:  # the clients parse three views per action: with orjson, in less than half the time
    # (it comes with the server extra)
    from orjson import loads
    DECODER = "orjson"
except ImportError:  # pragma: no cover - the standard library's, slower
    loads = json.loads
    DECODER = "json"

RNG = random.Random(14)


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
            known = frame_length(buf, pos, size)
            if known is None:
                break
            length, head = known
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
