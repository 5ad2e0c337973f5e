"""The table server's search bot seats: their threads, and their decisions played on
worker threads while the event loop serves the other tables (no sockets: the manager
with in-process clients)."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from chinchon.bots import search as bots_search
from chinchon.bots import SearchBot
from chinchon.errors import ChinchonError
from chinchon.server import scripted
from chinchon.server.live import Live
from chinchon.server.manager import Manager, ServerConfig

from .conftest import FakeClient

pytest.importorskip("chinchon._core.engine")


def test_search_bot_seats_take_the_servers_threads(tmp_path: Path) -> None:
    """``search_threads`` reaches every search bot seat (the other bots play on the
    loop's thread), and a server refuses a number of threads no search takes, or of
    workers."""
    for bad in (0, 65, 1.5, True):
        with pytest.raises(ChinchonError, match="threads must be an int 1..64"):
            ServerConfig(db=str(tmp_path / "x.sqlite3"), search_threads=bad)
    for bad in (-1, 1025, 2.0, False, "2"):
        with pytest.raises(ChinchonError, match="search_workers must be None or an int 0..1024"):
            ServerConfig(db=str(tmp_path / "x.sqlite3"), search_workers=bad)
    config = ServerConfig(db=str(tmp_path / "t.sqlite3"), bot_delay=0, search_threads=2)

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        a = FakeClient()
        ca = m.connect(a)
        m.handle(ca, json.dumps({"type": "create", "name": "A", "players": 3, "bots": 2,
                                 "bot": "search:30", "rules": "conga"}))
        await asyncio.sleep(0)
        table = next(x for x in a.sent if x["type"] == "seated")["table"]
        live = m.live[table]
        rng = random.Random(5)

        def drawn(seat: int) -> bool:  # the seat's bot has made a draw decision
            bot = live.bots.get(seat)
            return isinstance(bot, SearchBot) and bot._seen is not None

        for _ in range(400):
            if drawn(1) and drawn(2):
                break
            views = [x for x in a.sent if x["type"] == "view"]
            action = scripted.choose(views[-1], rng) if views else None
            if action is not None:
                m.handle(ca, json.dumps(action))
            await asyncio.sleep(0.01)
        assert sorted(live.bots) == [1, 2] and drawn(1) and drawn(2)
        assert all(isinstance(b, SearchBot) and b.threads == 2 for b in live.bots.values())
        m.stop()

    asyncio.run(scenario())


class HeldSearch:
    """The engine's binding with its search held: each decision waits for ``go`` (every
    decision from then on) or for one of the permits of ``let_one``, notes the thread
    it ran on, then searches as usual."""

    def __init__(self, binding: Any) -> None:
        self.binding = binding
        self.started = threading.Event()
        self.go = threading.Event()
        self.permits = threading.Semaphore(0)
        self.threads: list[int] = []
        self.done = 0

    def let_one(self) -> None:
        """Let one decision go (the next ones wait again)."""
        self.permits.release()

    def _search_choose(self, *args: Any) -> Any:
        self.threads.append(threading.get_ident())
        self.started.set()
        for _ in range(3000):  # 30 s
            if self.go.is_set() or self.permits.acquire(timeout=0.01):
                break
        else:
            raise AssertionError("the test never let the search go")
        try:
            return self.binding._search_choose(*args)
        finally:
            self.done += 1


def _held(monkeypatch: pytest.MonkeyPatch) -> HeldSearch:
    held = HeldSearch(bots_search._search_binding())
    monkeypatch.setattr(bots_search, "_search_binding", lambda: held)
    return held


def test_a_table_asks_for_a_search_budget_within_the_servers(tmp_path: Path) -> None:
    """A search is not stopped once begun and every table's search seats share the
    workers: a table may ask for at most the server's budget (in playouts, in
    milliseconds), listed in ``welcome.limits``; ``search`` alone asks for the table's
    default (5000 playouts at 2 players), or the server's most where that is less (the
    page offers the level by that name alone)."""
    for name in ("max_search_playouts", "max_search_ms"):
        for bad in (0, -1, 4_000_001, 2.0, True, "50"):
            with pytest.raises(ChinchonError, match=f"{name} must be an int 1..4000000"):
                ServerConfig(db=str(tmp_path / "x.sqlite3"), **{name: bad})
    config = ServerConfig(db=str(tmp_path / "t.sqlite3"), bot_delay=0,
                          max_search_playouts=300, max_search_ms=20)

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        try:
            a = FakeClient()
            conn = m.connect(a)
            assert a.sent[0]["limits"]["search_playouts"] == 300
            assert a.sent[0]["limits"]["search_ms"] == 20
            for bot in ("search:301", "search:21ms", "Search:4000000ms"):
                m.handle(conn, json.dumps({"type": "create", "name": "A", "players": 2,
                                           "bots": 1, "bot": bot, "rules": "conga"}))
                await asyncio.sleep(0)
                error = a.sent[-1]
                assert error["type"] == "error" and error["code"] == "bad_message", error
                assert "at most 300 playouts or 20 ms" in error["message"], error
                assert not m.live
            for bot in ("search:300", "search:20ms", "expert"):
                live = await _table(m, FakeClient(), bot)
                assert live.table.seats[1].bot == bot
            live = await _table(m, FakeClient(), "search")  # 5000 is more than 300 here
            assert live.table.seats[1].bot == live.table.bot_kind == "search:300"
        finally:
            m.stop()

    asyncio.run(scenario())
    roomy = ServerConfig(db=str(tmp_path / "r.sqlite3"), max_search_playouts=5000)
    roomy.check_bot("search", 2)
    roomy.check_bot("search", 4)  # 3000 there
    assert roomy.table_bot("search", 2) == roomy.table_bot("search", 4) == "search"
    assert replace(roomy, max_search_playouts=4000).table_bot("search", 2) == "search:4000"
    assert replace(roomy, max_search_playouts=4000).table_bot("search", 4) == "search"
    assert replace(roomy, max_search_playouts=10).table_bot("expert", 2) == "expert"
    with pytest.raises(ChinchonError, match="got search \\(3000 playouts at 4 players\\)"):
        replace(roomy, max_search_playouts=2999).check_bot("search", 4)


async def _table(m: Manager, client: FakeClient, bot: str) -> Live:
    conn = m.connect(client)
    m.handle(conn, json.dumps({"type": "create", "name": "A", "players": 2, "bots": 1,
                               "bot": bot, "rules": "conga"}))
    await asyncio.sleep(0)  # the group commit's write, then the messages
    seated = next(x for x in client.sent if x["type"] == "seated")
    client.conn = conn  # type: ignore[attr-defined]
    return m.live[seated["table"]]


async def _deciding(m: Manager, held: HeldSearch,
                    seed: int) -> tuple[FakeClient, Live, Any]:
    """A person's table against ``search:50`` played until the search seat's first
    decision is under way (held): the person's client, the table and its game."""
    a = FakeClient()
    live = await _table(m, a, "search:50")
    await _play_until(m, a, random.Random(seed), held.started.is_set)
    assert live.table.game is not None
    return a, live, live.table.game


async def _play_until(m: Manager, client: FakeClient, rng: random.Random,
                      done: Any, steps: int = 500) -> None:
    """The client plays its seat (scripted) until ``done()``."""
    for _ in range(steps):
        if done():
            return
        views = [x for x in client.sent if x["type"] == "view"]
        action = scripted.choose(views[-1], rng) if views else None
        if action is not None:
            m.handle(client.conn, json.dumps(action))  # type: ignore[attr-defined]
        await asyncio.sleep(0.01)
    assert done(), "the condition never came"


def test_a_search_seat_decides_on_a_worker_thread_while_the_loop_serves_other_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a search seat's decision is under way (held here), the loop goes on: a
    person at another table plays whole turns against its greedy bot. The decision ran
    on another thread, and its move is made at its table once found."""
    held = _held(monkeypatch)
    config = ServerConfig(db=str(tmp_path / "t.sqlite3"), bot_delay=0)

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        a, b = FakeClient(), FakeClient()
        searching, other = await _table(m, a, "search:50"), await _table(m, b, "greedy")
        rng = random.Random(3)
        await _play_until(m, a, rng, held.started.is_set)
        game = searching.table.game
        assert game is not None and game.turn == 1  # the bot's seat, thinking
        seq, phase = searching.table.seq, game.phase
        assert isinstance(searching.timers.get("bot"), asyncio.Future)
        before = other.table.seq
        await _play_until(m, b, rng, lambda: other.table.seq >= before + 8)
        assert searching.table.seq == seq and game.phase == phase and game.turn == 1
        held.go.set()
        await _play_until(m, a, rng, lambda: searching.table.seq > seq)
        assert game.turn != 1 or game.phase != phase  # the bot moved
        assert threading.get_ident() not in held.threads
        m.stop()

    asyncio.run(scenario())


def test_with_no_search_workers_a_search_seat_decides_on_the_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``search_workers=0``: the decisions are played on the event loop's thread (each
    one holding every table), as the other bots' are."""
    held = _held(monkeypatch)
    held.go.set()
    config = ServerConfig(db=str(tmp_path / "t.sqlite3"), bot_delay=0, search_workers=0)

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        a = FakeClient()
        live = await _table(m, a, "search:50")
        await _play_until(m, a, random.Random(6), lambda: held.done >= 3)
        assert "bot" not in live.timers or not isinstance(live.timers["bot"], asyncio.Future)
        assert set(held.threads) == {threading.get_ident()}
        m.stop()

    asyncio.run(scenario())


def test_a_persons_disconnection_does_not_drop_a_search_decision_under_way(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The person at the table disconnects while the search seat decides: an event of
    its own, but the game is where it was, so the decision's move is made."""
    held = _held(monkeypatch)
    config = ServerConfig(db=str(tmp_path / "t.sqlite3"), bot_delay=0)

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        a, live, game = await _deciding(m, held, 4)
        where = (game.hand_number, game.turns_this_hand, game.phase, game.turn)
        m.disconnect(a.conn)  # type: ignore[attr-defined]
        await asyncio.sleep(0)
        seq = live.table.seq
        assert 0 in game.disconnected  # the person's seat
        held.let_one()  # that decision alone: one made again would wait for ever
        await _play_until(m, FakeClient(), random.Random(4), lambda: live.table.seq > seq)
        assert (game.hand_number, game.turns_this_hand, game.phase, game.turn) != where
        assert held.done == 1
        held.go.set()  # the seat's next decision, if it has one, need not wait
        m.stop()

    asyncio.run(scenario())


def test_a_search_decision_under_way_when_the_server_stops_makes_no_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A server that stops while a search seat decides lets the decision finish on its
    thread and makes no move of it: the table stays where it was, and nothing is
    logged as an error."""
    held = _held(monkeypatch)
    config = ServerConfig(db=str(tmp_path / "t.sqlite3"), bot_delay=0)
    caplog.set_level(logging.ERROR, logger="chinchon.server")

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        _, live, game = await _deciding(m, held, 5)
        where = (live.table.seq, game.hand_number, game.turns_this_hand, game.phase,
                 game.turn)
        m.stop()
        held.go.set()
        for _ in range(300):
            if held.done == len(held.threads):
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the loop's turn for a move it must not make
        assert held.done == len(held.threads) == 1
        assert (live.table.seq, game.hand_number, game.turns_this_hand, game.phase,
                game.turn) == where

    asyncio.run(scenario())
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_search_decision_for_a_table_that_moved_on_is_dropped_and_the_table_driven(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision found for another moment of its table (another turn, phase or game)
    makes no move: the table is driven again, so its bot seat decides anew."""
    held = _held(monkeypatch)
    config = ServerConfig(db=str(tmp_path / "t.sqlite3"), bot_delay=0)

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        a, live, game = await _deciding(m, held, 7)
        running = live.timers["bot"]
        seq = live.table.seq
        # as if this decision were of the turn before: it must not be played now
        stale: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        stale.set_result("stock" if game.phase == "draw" else (None, False))
        live.timers["bot"] = stale
        m._thought(live, (game, (game.hand_number, game.turns_this_hand - 1, game.phase,
                                 game.turn)), stale)
        assert live.table.seq == seq and "bot" in live.timers  # driven again
        assert live.timers["bot"] is not stale and live.timers["bot"] is not running
        held.go.set()
        await _play_until(m, a, random.Random(7), lambda: live.table.seq > seq)
        m.stop()

    asyncio.run(scenario())
