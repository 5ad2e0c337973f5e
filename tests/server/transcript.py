"""Every message a scripted session of the server sends, exactly, with no socket and no
real clock: the proof that a change to how the server writes its messages (the views
above all) leaves the text it sends as it was.

The session drives :class:`chinchon.server.manager.Manager` in process through its own
API (``connect``, ``handle``, ``disconnect``, ``start``, ``stop``), each connection a
list, on a clock and an event loop of its own (timers fire in order when the clock
reaches them), with the table ids, tokens and the seeds of games and bots drawn from a seeded
generator. At
tables of every preset and every player count the game seats, people play the
scripted moves (:mod:`chinchon.server.scripted`) to the end of the game beside bots;
on the way a table is started early by its host, a guest leaves before the start,
a host leaves (the table is cancelled), connections drop and resume, a second
connection takes over a seat, a person sits out the summary until its time is up,
a seat stays away until its table is cancelled, people ask for the lobby and ping,
send moves out of turn and messages the protocol refuses, and the server restarts
half-way (every table loaded back from its store).

    python tests/server/transcript.py OUT        # the session's messages, one a line

Run it on two versions of the package and compare the files: the text must be the
same byte for byte. ``tests/server/test_views.py`` pins a digest of a shorter
session's views.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import random
import sys
import tempfile
from typing import Any, Callable, Iterator, Optional


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class _Handle:
    __slots__ = ("when", "order", "fn", "args", "cancelled")

    def __init__(self, when: float, order: int, fn: Callable[..., Any], args: tuple[Any, ...]):
        self.when, self.order, self.fn, self.args = when, order, fn, args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class _Loop:
    """What the manager asks of its event loop (``call_soon``, ``call_later``), run by
    hand: :meth:`run` does what is due, in order."""

    def __init__(self, clock: _Clock) -> None:
        self.clock = clock
        self.handles: list[_Handle] = []
        self.order = 0

    def call_soon(self, fn: Callable[..., Any], *args: Any) -> _Handle:
        return self.call_later(0.0, fn, *args)

    def call_later(self, delay: float, fn: Callable[..., Any], *args: Any) -> _Handle:
        self.order += 1
        h = _Handle(self.clock.now + max(0.0, delay), self.order, fn, args)
        self.handles.append(h)
        return h

    def run(self) -> None:
        while True:
            due = [h for h in self.handles
                   if not h.cancelled and h.when <= self.clock.now]
            if not due:
                self.handles = [h for h in self.handles if not h.cancelled]
                return
            h = min(due, key=lambda h: (h.when, h.order))
            self.handles.remove(h)
            h.fn(*h.args)


class _Secrets:
    """``secrets`` as the server uses it, from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def token_urlsafe(self, n: int) -> str:
        return "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789_-")
                       for _ in range(n + n // 3))

    def randbits(self, k: int) -> int:
        return self.rng.getrandbits(k)


class _Client:
    def __init__(self, log: list[str], name: str) -> None:
        self.log = log
        self.name = name
        self.views: list[dict[str, Any]] = []
        self.seated: Optional[dict[str, Any]] = None

    def send(self, text: str) -> None:
        self.log.append(f"{self.name} {text}")
        msg = json.loads(text)
        if msg["type"] == "view":
            self.views.append(msg)
        elif msg["type"] == "seated":
            self.seated = msg

    def close(self, code: int, reason: str) -> None:
        self.log.append(f"{self.name} close {code} {reason}")


class _Person:
    """A person at a table: its connection, its seat's token, how it plays."""

    def __init__(self, session: "_Session", name: str, seed: int) -> None:
        self.session = session
        self.name = name
        self.rng = random.Random(seed)
        self.client: Optional[_Client] = None
        self.conn: Any = None
        self.table: Optional[str] = None
        self.seat: Optional[int] = None
        self.token: Optional[str] = None
        self.next_id = 0
        self.sit_out_summaries = False   # waits for the summary's time to run out
        self.away_until: Optional[float] = None

    def connect(self) -> None:
        self.client = self.session.client(self.name)
        self.conn = self.session.m.connect(self.client)

    def drop(self) -> None:
        if self.conn is not None:
            self.session.m.disconnect(self.conn)
            self.conn = None

    def send(self, msg: dict[str, Any]) -> None:
        assert self.conn is not None
        self.next_id += 1
        self.session.m.handle(self.conn, json.dumps(dict(msg, id=self.next_id)))
        self.session.pump()
        assert self.client is not None
        if self.client.seated is not None:
            s = self.client.seated
            self.table, self.seat = s["table"], s["seat"]
            self.token = s.get("token", self.token)

    def resume(self) -> None:
        self.connect()
        self.send({"type": "resume", "table": self.table, "seat": self.seat,
                   "token": self.token})

    def act(self) -> bool:
        """One scripted move on the last view, if there is one to make."""
        if self.conn is None or self.client is None or not self.client.views:
            return False
        view = self.client.views[-1]
        if view["status"] != "playing":
            return False
        if self.sit_out_summaries and view["can"]["ready"]:
            return False
        action = _choose(view, self.rng)
        if action is None:
            return False
        self.send(action)
        return True


def _choose(view: dict[str, Any], rng: random.Random) -> Optional[dict[str, Any]]:
    """:func:`chinchon.server.scripted.choose`, but for a draw: from the discard pile
    one time in three (the scripted player asks the solver, which knows only the
    default rules' deck)."""
    from chinchon.server import scripted

    can = view["can"]
    if can["draw"]:
        take = "discard" in can["draw"] and rng.random() < 1 / 3
        return {"type": "draw", "source": "discard" if take else "stock"}
    return scripted.choose(view, rng)


class _Session:
    def __init__(self, db: str, seed: int) -> None:
        self.db = db
        self.log: list[str] = []
        self.clock = _Clock()
        self.loop = _Loop(self.clock)
        self.secrets = _Secrets(seed)
        self.clients = 0
        self.m: Any = None

    def client(self, name: str) -> _Client:
        self.clients += 1
        return _Client(self.log, f"{self.clients}:{name}")

    def start(self) -> None:
        from chinchon.server.manager import Manager, ServerConfig

        config = ServerConfig(db=self.db, rate=1e6, burst=10**6, bot_delay=0.5,
                              summary_seconds=6.0, reconnect_seconds=8.0, clock=self.clock)
        self.m = Manager(config)
        self.m.start()
        self.pump()

    def stop(self) -> None:
        self.m.stop()
        self.loop.handles.clear()

    def pump(self) -> None:
        self.loop.run()

    def tick(self, seconds: float = 0.25) -> None:
        self.clock.now += seconds
        self.pump()


@contextlib.contextmanager
def _seeded(s: _Session) -> Iterator[None]:
    """The server's randomness from the session's generator, and its event loop the
    session's, for as long as the session runs."""
    from chinchon.bots import make_bot
    from chinchon.server import driving, seats

    patches: list[tuple[Any, str, Any]] = [
        (seats, "secrets", s.secrets),
        (driving, "make_bot",
         lambda spec, threads=1: make_bot(spec, s.secrets.randbits(64), threads=threads)),
        (asyncio, "get_running_loop", lambda: s.loop)]
    saved = [(obj, name, getattr(obj, name)) for obj, name, _ in patches]
    for obj, name, value in patches:
        setattr(obj, name, value)
    try:
        yield
    finally:
        for obj, name, value in saved:
            setattr(obj, name, value)


def _tables(player_counts: list[int], presets: list[str]) -> Iterator[tuple[str, int, int]]:
    """(preset, players, bots) of the session's tables."""
    k = 0
    for preset in presets:
        for players in player_counts:
            yield preset, players, (k % players) if players > 2 else k % 2
            k += 1


def session(presets: Optional[list[str]] = None, players: Optional[list[int]] = None,
            seed: int = 7, max_ticks: int = 4000, restart_at: int = 300) -> list[str]:
    """The messages of the whole session, in the order sent, each ``N:name text`` (or
    ``N:name close code reason``)."""
    with tempfile.TemporaryDirectory() as tmp:
        s = _Session(os.path.join(tmp, "t.sqlite3"), seed)
        with _seeded(s):
            _play(s, presets, players, max_ticks, restart_at)
    return s.log


def _play(s: _Session, presets: Optional[list[str]], players: Optional[list[int]],
          max_ticks: int, restart_at: int) -> None:
    from chinchon.server.config import presets as known_presets

    s.start()
    counts = s.m.player_counts if players is None else players
    names = sorted(known_presets()) if presets is None else presets
    people: list[_Person] = []
    # the preludes: a guest who leaves, a host who leaves, a host who starts early
    p = _Person(s, "lone", 1)
    p.connect()
    p.send({"type": "create", "name": "Lone", "players": max(counts), "rules": names[0]})
    g = _Person(s, "guest", 2)
    g.connect()
    g.send({"type": "lobby"})
    g.send({"type": "join", "table": p.table, "name": "Guest"})
    g.send({"type": "leave"})
    g.send({"type": "join", "table": p.table, "name": "Guést <b>"})
    p.send({"type": "start"})
    people += [p, g]
    h = _Person(s, "host", 3)
    h.connect()
    h.send({"type": "create", "name": "Host", "players": min(counts)})
    h.send({"type": "ping"})
    h.send({"type": "leave"})
    h.send({"type": "draw", "source": "stock"})           # no seat: refused
    h.send({"type": "create", "name": "", "players": 3})  # no name: refused
    h.drop()
    for t, (preset, n, bots) in enumerate(_tables(counts, names)):
        host = _Person(s, f"t{t}p0", 100 * t)
        host.connect()
        host.send({"type": "create", "name": f"T{t} host", "players": n, "rules": preset,
                   "bots": bots})
        people.append(host)
        for i in range(1, n - bots):
            guest = _Person(s, f"t{t}p{i}", 100 * t + i)
            guest.connect()
            guest.send({"type": "join", "table": host.table, "name": f"T{t} ñ{i}"})
            people.append(guest)
        if t % 3 == 1 and n - bots > 1:
            people[-1].sit_out_summaries = True
    watcher = next(x for x in people if x.name == "t0p0")
    ticks = 0
    restarted = False
    while ticks < max_ticks:
        ticks += 1
        moved = False
        for x in people:
            if x.away_until is not None and s.clock.now >= x.away_until:
                x.away_until = None
                x.resume()
            moved = x.act() or moved
        if ticks % 97 == 0:  # a connection drops, and resumes a few seconds on
            x = people[(ticks // 97) % len(people)]
            if x.conn is not None and x.away_until is None:
                x.drop()
                x.away_until = s.clock.now + (3.0 if ticks % 2 else 12.0)
        if ticks % 131 == 0:  # a second connection takes over a seat
            x = people[(ticks // 131) % len(people)]
            if x.conn is not None and x.table is not None:
                x.resume()
        if ticks % 53 == 0 and watcher.conn is not None:
            watcher.send({"type": "lobby"})
            watcher.send({"type": "discard", "card": "1o"})  # likely out of turn
            watcher.send({"type": "draw", "source": "nowhere"})
        if ticks == restart_at and not restarted:  # the server restarts
            restarted = True
            for x in people:
                x.conn = None
            s.stop()
            s.start()
            for x in people:
                if x.table is not None:
                    x.resume()
        if not moved:
            s.tick(0.5)
            if not s.loop.handles and all(
                    x.client is None or not x.client.views
                    or x.client.views[-1]["status"] == "over" for x in people):
                break
        else:
            s.tick()
    s.stop()


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[-2].strip(), file=sys.stderr)
        return 2
    lines = session()
    with open(argv[0], "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    views = sum(1 for line in lines if '{"type":"view"' in line)
    print(f"{len(lines)} messages ({views} views), sha256 {digest(lines)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
