"""A draw's state is stored with the discard that completes its turn: every event is
in the store before anyone is told of it, the stored state is the table at its last
event or one draw before it, a restarted server replays that draw, and a server that
stops stores every state first."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from chinchon.server import scripted
from chinchon.server.manager import Manager, ServerConfig
from chinchon.server.tables import Table


class ListClient:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        pass


def _rows(db: str) -> dict[str, tuple[int, list[tuple[int, str]]]]:
    """Each table's stored ``seq`` and its events ``(seq, kind)``, read apart."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        out = {tid: (seq, []) for tid, seq in con.execute("SELECT id, seq FROM tables")}
        for tid, seq, record in con.execute(
                "SELECT table_id, seq, record FROM events ORDER BY table_id, seq"):
            out[tid][1].append((seq, json.loads(record)["kind"]))
    finally:
        con.close()
    return out


async def _three_at_a_draw(m: Manager, name: str = "a"
                           ) -> tuple[str, list[Any], list[ListClient]]:
    """A table of three people (``name``), playing, its seat to move about to draw."""
    clients = [ListClient() for _ in range(3)]
    conns = [m.connect(c) for c in clients]
    m.handle(conns[0], json.dumps({"type": "create", "name": name, "players": 3}))
    await asyncio.sleep(0)
    table = next(x for x in clients[0].sent if x["type"] == "seated")["table"]
    for i in (1, 2):
        m.handle(conns[i], json.dumps({"type": "join", "table": table, "name": f"p{i}"}))
        await asyncio.sleep(0)
    live = m.live[table]
    assert live.table.status == "playing" and live.stored_seq == live.table.seq
    return table, conns, clients


def test_a_draws_state_waits_for_its_discard_and_a_restart_replays_it(tmp_path: Path) -> None:
    db = str(tmp_path / "d.sqlite3")
    config = ServerConfig(db=db, bot_delay=0, rate=1e6, burst=10**6)

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        seats: list[tuple[Any, ListClient]] = []
        for t in range(4):
            _, conns, clients = await _three_at_a_draw(m, f"t{t}")
            seats.extend(zip(conns, clients))
        rng = random.Random(3)
        behind = current = 0
        for _ in range(150):
            for conn, client in seats:
                views = [x for x in client.sent if x["type"] == "view"]
                if not views or views[-1]["status"] != "playing":
                    continue
                action = scripted.choose(views[-1], rng)
                if action is not None:
                    m.handle(conn, json.dumps(action))
            await asyncio.sleep(0)  # the group commit, then the views
            rows = _rows(db)
            for table_id, live in m.live.items():
                seq, events = rows[table_id]
                # every event told is stored, in order
                assert [q for q, _ in events] == list(range(1, live.table.seq + 1))
                if seq == live.table.seq:
                    current += 1
                else:  # one draw behind, never more
                    assert (seq, events[-1][1]) == (live.table.seq - 1, "draw")
                    assert live.stored_seq == seq
                    behind += 1
            # a server killed now comes back to the same tables, from the store alone
            other = Manager(config)
            try:
                for table_id, live in m.live.items():
                    stored = other.store.load(table_id)
                    assert stored is not None
                    loaded = other._load(stored)
                    assert loaded.fingerprint() == live.table.fingerprint()
            finally:
                other.store.close()
        assert behind > 20 and current > 20
        # a server that stops stores every state first: nothing is left to replay
        tables = {tid: live.table for tid, live in m.live.items()}
        m.stop()
        con = sqlite3.connect(db)
        try:
            for tid, table in tables.items():
                seq, meta, game, state = con.execute(
                    "SELECT t.seq, s.meta, s.game, t.state FROM tables t JOIN snapshots s "
                    "ON s.table_id = t.id WHERE t.id=?", (tid,)).fetchone()
                assert seq == table.seq
                assert Table.restore(meta, game, state).fingerprint() == table.fingerprint()
        finally:
            con.close()

    asyncio.run(scenario())


def test_a_stored_state_with_more_than_one_draw_after_it_is_refused(tmp_path: Path) -> None:
    """The store holds at most one draw after a table's state: anything else after it
    (a discard, two events) is not what this server writes, and the table is not
    loaded from it."""
    db = str(tmp_path / "r.sqlite3")
    config = ServerConfig(db=db, bot_delay=0, rate=1e6, burst=10**6)

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        table, conns, _ = await _three_at_a_draw(m)
        turn = m.live[table].table.game.turn  # type: ignore[union-attr]
        m.handle(conns[turn], json.dumps({"type": "draw", "source": "stock"}))
        await asyncio.sleep(0)
        live = m.live[table]
        assert live.stored_seq == live.table.seq - 1
        stored = m.store.load(table)
        assert stored is not None and m._load(stored).fingerprint() == live.table.fingerprint()
        # a stored state two events behind: refused
        older = stored.seq - 1
        bad = type(stored)(stored.id, stored.status, older, stored.snap_seq, stored.meta,
                           stored.game, Table.replay(
                               [json.loads(r) for _, r in m.store.events(table)][:older]
                           ).state_json()[0])
        with pytest.raises(ValueError, match="at most one draw"):
            m._load(bad)
        m.stop()

    asyncio.run(scenario())


def test_sigkill_right_after_a_draw_keeps_the_card_drawn(tmp_path: Path) -> None:
    """The server killed between a person's draw and the discard: the draw was told, so
    it is stored; the restarted server replays it onto the stored state, and the seat
    is back in the middle of its turn with the card it drew."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    pytest.importorskip("websockets")
    from .test_protocol import kill_and_resume, mid_hand_table, play

    with mid_hand_table(tmp_path) as (server, person, opened, _):
        table = person.table
        drawn = person.request({"type": "draw", "source": "stock"})
        assert drawn["type"] == "view" and drawn["can"]["discard"] and len(drawn["hand"]) == 8
        events = server.events(table)
        assert len(events) == drawn["seq"] and events[-1]["kind"] == "draw"
        assert server.stored_seq(table) == drawn["seq"]
        assert _rows(str(server.db))[table][0] == drawn["seq"] - 1  # the state waits
        back, after = kill_and_resume(server, person, opened, drawn["seq"])
        assert after["hand"] == drawn["hand"] and after["can"]["discard"]
        assert after["event"]["kind"] == "reconnect"
        for key in ("totals", "hand_number", "turn", "phase", "discard_top", "discard_size",
                    "stock_size", "last_hand"):
            assert after["game"][key] == drawn["game"][key], key
        assert server.stored_seq(table) == after["seq"]
        final = play(back)
        assert final["status"] == "over"


def test_a_server_killed_after_a_draw_alone_resumes_that_draw(tmp_path: Path) -> None:
    """No store_states (as after SIGKILL): the draw committed alone waits in the table's
    row, and a server started on the file resumes the table with it, the seat in the
    middle of its turn with the card it drew."""
    db = str(tmp_path / "k.sqlite3")
    config = ServerConfig(db=db, bot_delay=0, rate=1e6, burst=10**6)

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        table, conns, _ = await _three_at_a_draw(m)
        live = m.live[table]
        turn = live.table.game.turn  # type: ignore[union-attr]
        m.handle(conns[turn], json.dumps({"type": "draw", "source": "stock"}))
        await asyncio.sleep(0)
        drawn = live.table
        assert drawn.last is not None and drawn.last["kind"] == "draw"
        hand = drawn.game.hand(turn)  # type: ignore[union-attr]
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            seq, pending = con.execute("SELECT seq, pending FROM tables WHERE id=?",
                                       (table,)).fetchone()
        finally:
            con.close()
        assert seq == drawn.seq - 1 == live.stored_seq
        assert json.loads(pending) == drawn.last
        # killed: m stores nothing more; another server opens the same file
        other = Manager(config)
        other.start()
        back = other.live[table].table
        assert back.seq == drawn.seq + 1 and back.last is not None
        assert back.last["kind"] == "restart"
        assert back.game.hand(turn) == hand and back.game.turn == turn  # type: ignore[union-attr]
        assert back.game.phase == drawn.game.phase == "discard"  # type: ignore[union-attr]
        rows = _rows(db)[table]
        assert rows[0] == back.seq  # the restart event stored the state: nothing waits
        assert [k for _, k in rows[1][-2:]] == ["draw", "restart"]
        assert other.store.events(table, after=back.seq) == []
        log = [json.loads(r) for _, r in other.store.events(table)]
        assert Table.replay(log).fingerprint() == back.fingerprint()
        other.stop()
        m.store.close()

    asyncio.run(scenario())


def test_a_draw_alone_onto_a_table_moved_on_in_the_database_is_refused(tmp_path: Path) -> None:
    """The draw committed alone is stored only onto the table's stored event before it:
    a table moved on in the database meanwhile (another writer) refuses it, nothing of
    it is stored, and the server reloads the table from the store."""
    db = str(tmp_path / "s.sqlite3")
    config = ServerConfig(db=db, bot_delay=0, rate=1e6, burst=10**6)

    async def scenario() -> None:
        from chinchon.server.store import Store, TableWrite

        m = Manager(config)
        m.start()
        table, conns, clients = await _three_at_a_draw(m)
        live = m.live[table]
        seq = live.table.seq
        turn = live.table.game.turn  # type: ignore[union-attr]
        # another writer stores an event of the table: a seat not its turn's drops
        stored = m.store.load(table)
        assert stored is not None
        theirs = m._load(stored)
        seat = (turn + 1) % 3
        record = {"kind": "disconnect", "seat": seat, "now": theirs.clock}
        theirs.apply(record)
        writer = Store(db)
        writer.write([TableWrite(table, seq, seq + 1, None, theirs.state_json()[0])],
                     [(table, seq + 1, json.dumps(record))])
        writer.close()
        m.handle(conns[turn], json.dumps({"type": "draw", "source": "stock"}))
        await asyncio.sleep(0)
        rows = _rows(db)[table]
        assert rows[0] == seq + 1
        assert [q for q, _ in rows[1]] == list(range(1, seq + 2))  # no draw stored
        assert rows[1][-1] == (seq + 1, "disconnect")
        assert m.store.events(table, after=seq + 1) == []
        assert m.live[table].table.fingerprint() == theirs.fingerprint()
        assert m.live[table].stored_seq == seq + 1
        assert [x["code"] for x in clients[turn].sent if x["type"] == "error"] == ["internal"]
        m.stop()

    asyncio.run(scenario())
