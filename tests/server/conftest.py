"""Fixtures of the table server tests: a real server process on a loopback port, and a
small synchronous WebSocket client.

The server tests need the optional extra (``pip install ".[server]"``: Starlette,
uvicorn, websockets); without it each module skips itself (``pytest.importorskip``),
except when ``CHINCHON_REQUIRE_SERVER_TESTS`` is set (``.ci/run`` sets it), where a
missing extra is an error, so that CI can never pass by skipping them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import pytest

_MISSING = [m for m in ("starlette", "uvicorn", "websockets")
            if importlib.util.find_spec(m) is None]
if _MISSING and os.environ.get("CHINCHON_REQUIRE_SERVER_TESTS"):
    # each test module skips itself (pytest.importorskip) without the extra; .ci/run
    # installs it and sets this variable, so there a missing extra is an error rather
    # than a quiet skip
    raise RuntimeError(f"CHINCHON_REQUIRE_SERVER_TESTS is set, but {', '.join(_MISSING)} "
                       f"is not installed (pip install '.[server]')")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: the app's own ASGI ``/ws`` under uvicorn (``chinchon serve`` serves it otherwise):
#: argv: the database, the port, uvicorn's ``ws`` implementation
_ASGI = """
import sys, uvicorn
from chinchon.server.app import create_app
from chinchon.server.config import ServerConfig
db, port, ws = sys.argv[1:]
uvicorn.run(create_app(ServerConfig(db=db)), host="127.0.0.1", port=int(port), ws=ws,
            log_level="warning")
"""


class Server:
    """``python -m chinchon.server`` on 127.0.0.1, its own database file; with ``asgi``
    (uvicorn's ``ws`` setting) the app's ASGI ``/ws`` under uvicorn instead, with the
    default settings (``options`` are then ignored)."""

    def __init__(self, db: Path, *options: str, port: Optional[int] = None,
                 asgi: Optional[str] = None) -> None:
        self.db = db
        self.options = options
        self.asgi = asgi
        self.port = port or free_port()
        self.proc: Optional[subprocess.Popen[bytes]] = None
        self.start()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.log = self.db.with_suffix(f".{int(time.time() * 1000)}.log")
        self._log_file = open(self.log, "wb")
        command = [sys.executable, "-m", "chinchon.server", "--host", "127.0.0.1",
                   "--port", str(self.port), "--db", str(self.db), "--log-level", "warning",
                   *self.options]
        if self.asgi is not None:
            command = [sys.executable, "-c", _ASGI, str(self.db), str(self.port), self.asgi]
        self.proc = subprocess.Popen(command, stdout=self._log_file, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("the server did not start:\n" + self.log.read_text())
                time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._log_file.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log_file.close()

    def client(self) -> "Client":
        c = Client(self.url)
        c.server = self
        return c

    def events(self, table: str) -> list[dict[str, Any]]:
        """The table's stored event records, in order (read straight from SQLite)."""
        con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            rows = con.execute("SELECT record FROM events WHERE table_id=? ORDER BY seq",
                               (table,)).fetchall()
        finally:
            con.close()
        return [json.loads(r[0]) for r in rows]

    def stored_seq(self, table: str) -> int:
        """The table's last stored event. Its stored state (``tables.seq``) is at that
        event, or at the one before when that one is a draw (the draw's state comes
        with its discard): checked here at every call."""
        con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            row = con.execute("SELECT seq FROM tables WHERE id=?", (table,)).fetchone()
            last = con.execute("SELECT seq, record FROM events WHERE table_id=? "
                               "ORDER BY seq DESC LIMIT 1", (table,)).fetchone()
        finally:
            con.close()
        seq, (last_seq, record) = int(row[0]), last
        assert seq == last_seq or (seq == last_seq - 1
                                   and json.loads(record)["kind"] == "draw"), (seq, last)
        return int(last_seq)


class Client:
    """A synchronous protocol client that keeps every message it received."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        # entered like a context manager: the form every websockets version accepts
        self._cm = connect(url, max_size=2**20, open_timeout=10, compression=None)
        self.ws = self._cm.__enter__()
        self.messages: list[dict[str, Any]] = []
        self.next_id = 0
        self.welcome = self.recv()
        assert self.welcome["type"] == "welcome"
        self.table: Optional[str] = None
        self.seat: Optional[int] = None
        self.token: Optional[str] = None
        self.server: Optional[Server] = None

    def close(self) -> None:
        self._cm.__exit__(None, None, None)

    def send(self, msg: dict[str, Any]) -> int:
        self.next_id += 1
        msg = dict(msg, id=self.next_id)
        self.ws.send(json.dumps(msg))
        return self.next_id

    def send_raw(self, data: Any) -> None:
        self.ws.send(data)

    def recv(self, timeout: float = 15) -> dict[str, Any]:
        msg = json.loads(self.ws.recv(timeout))
        self.messages.append(msg)
        if msg["type"] == "seated":
            self.table, self.seat = msg["table"], msg["seat"]
            if "token" in msg:
                self.token = msg["token"]
        return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 15) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, end - time.monotonic()))
            if pred(msg):
                return msg

    def request(self, msg: dict[str, Any], timeout: float = 15) -> dict[str, Any]:
        """Send and wait for the message that answers it (carries its id or ack)."""
        rid = self.send(msg)
        return self.until(lambda m: m.get("id") == rid or m.get("ack") == rid, timeout)

    def view(self) -> Optional[dict[str, Any]]:
        views = [m for m in self.messages if m["type"] == "view"]
        return views[-1] if views else None

    def views(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "view"]


class FakeClient:
    """A connection of the manager's own tests (no socket): what it was sent, decoded,
    and how it was closed."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed: Any = None

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def table_record(players: int = 3, bots: int = 0) -> dict[str, Any]:
    """The create record of table T1 under the house rules, its host Ana at seat 0."""
    from chinchon.rules import HOUSE_RULES
    from chinchon.server.tables import Table

    return Table.new_record("T1", players=players, preset="barajamos", rules=HOUSE_RULES,
                            name="Ana", token_sha256="0" * 64, bots=bots, bot="greedy", now=0.0)


def void_hand_records(table_id: str, token_sha256: str, name: str = "Ana") -> list[dict[str, Any]]:
    """The event records of a table under the ``conga`` rules (the hand is void when a
    turn ends with 2 cards or fewer in the stock) whose first hand is about to end void:
    seat 0, a person (the others are bots), has drawn, and any discard of its voids the
    hand. Nobody closes; the bots take from the discard pile rather than end a turn
    with 2 cards in the stock."""
    from chinchon.rules import PRESETS
    from chinchon.server.tables import Table

    rules = PRESETS["conga"]
    assert rules.void_at_stock == 2
    create = Table.new_record(table_id, players=3, preset="conga", rules=rules, name=name,
                              token_sha256=token_sha256, bots=2, bot="greedy", now=0.0)
    records = [create, {"kind": "start", "seed": 1, "now": 1.0}]
    table = Table.replay(records)
    game = table.game
    assert game is not None
    while not (game.turn == 0 and game.phase == "discard" and game.stock_size <= 2):
        seat = game.turn
        if game.phase == "draw":
            source = "discard" if seat != 0 and game.stock_size <= 3 else "stock"
            record = {"kind": "draw", "seat": seat, "source": source, "now": 1.0}
        else:
            discards = [a for a in game.legal_actions() if a[0] == "discard"]
            record = {"kind": "discard", "seat": seat, "card": str(discards[-1][1]),
                      "now": 1.0}
        table.apply(dict(record))
        records.append(record)
    assert game.last_hand is None
    return records


def close_clients(opened: list[Client]) -> None:
    """Close every client of ``opened``, whatever state each is in."""
    for c in opened:
        try:
            c.close()
        except Exception:
            pass


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server shared by a module's tests: bots move at once, a dropped seat waits 2 s,
    no practical rate limit."""
    db = tmp_path_factory.mktemp("server") / "tables.sqlite3"
    s = Server(db, "--bot-delay", "0", "--reconnect-seconds", "2", "--summary-seconds", "30",
               # scripted players act at once, far above a person's pace: the rate limit
               # has its own test, on a server with the default limits
               "--rate", "1000", "--burst", "1000")
    yield s
    s.stop()


@pytest.fixture
def clients() -> Iterator[list[Client]]:
    """Clients opened by a test, closed after it; then every message each of them got
    is checked for cards its seat must not see (against the events the server stored)."""
    from .checks import check_messages, truths

    opened: list[Client] = []
    yield opened
    close_clients(opened)
    cache: dict[str, Any] = {}
    for c in opened:
        if c.server is None:
            continue
        for table in {m["table"] for m in c.messages if m["type"] == "view"}:
            if table not in cache:
                cache[table] = truths(c.server.events(table))
            check_messages(c.messages, table, cache[table])
