"""What the server does when it cannot save: the events of that commit are lost, the
tables go back to what the store holds, and each connection is told (an ``internal``
error carrying the ``id`` of each of its own messages whose answer was lost); a
disconnection lost so is stored again until it is, so that the seat's wait runs.

In-process, on a real event loop and clock, with the people of test_seat_loss.
Standard library only: these run without the server extra too."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from chinchon.server.driving import RETRY_SECONDS
from chinchon.server.manager import Manager
from chinchon.server.store import StoreError

from .test_seat_loss import (Person, _config, check_no_endless_wait, ends_cancelled,
                             live_of, new_table, turn)


def _failing(*args: Any, **kw: Any) -> None:
    raise StoreError("disk full")


def _internal(p: Person) -> list[dict[str, Any]]:
    return [x for x in p.sent if x["type"] == "error" and x["code"] == "internal"]


def test_an_internal_error_after_a_failed_save_carries_the_id_it_answers(
        tmp_path: Path) -> None:
    """A join and a draw whose events could not be saved: each sender gets one
    ``internal`` error with its message's id; a seat that only lost the view of
    another's event gets one without an id."""
    async def scenario() -> None:
        m = Manager(_config(tmp_path))
        m.start()
        try:
            host, guest = await new_table(m, joined=1)
            real = m.store.write
            m.store.write = _failing  # type: ignore[method-assign]
            third = Person(m, "Third")
            third.say(type="join", table=host.table, name="Third", id=9)
            await turn()
            assert _internal(third) == [{
                "type": "error", "code": "internal", "id": 9,
                "message": "the server could not save the last events; the table was "
                           "reloaded"}]
            assert [{k: v for k, v in e.items() if k != "message"}
                    for e in _internal(host)] == [{"type": "error", "code": "internal"}]
            m.store.write = real  # type: ignore[method-assign]
            third.say(type="join", table=host.table, name="Third")
            await turn()
            people = [host, guest, third]
            view = host.view()
            assert view["status"] == "playing"
            mover = people[view["game"]["turn"]]
            before = {id(p): len(_internal(p)) for p in people}
            m.store.write = _failing  # type: ignore[method-assign]
            mover.say(type="draw", source="stock", id="d-1")
            await turn()
            m.store.write = real  # type: ignore[method-assign]
            for p in people:
                new = _internal(p)[before[id(p)]:]
                assert [e.get("id") for e in new] == (["d-1"] if p is mover else [None])
            assert live_of(m, people).table.game.phase == "draw"  # type: ignore[union-attr]
        finally:
            m.stop()

    asyncio.run(scenario())


def test_a_disconnection_whose_save_failed_is_stored_later_and_its_wait_runs(
        tmp_path: Path) -> None:
    """A person drops while another program holds the database's write lock (an
    sqlite3 shell in a transaction): the disconnection is lost with its commit, and
    stored once the lock is gone; the seat then waits its reconnection wait, and the
    table is cancelled when it runs out."""
    import sqlite3

    async def scenario() -> None:
        m = Manager(_config(tmp_path))
        m.start()
        m.store._db.execute("PRAGMA busy_timeout=50")  # not the 5 s a server waits
        try:
            people = await new_table(m, joined=2)
            live = live_of(m, people)
            table = live.table.id
            other = sqlite3.connect(m.store.path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            try:
                people[2].drop()
                await turn()
                assert live.table.game.disconnected == {}  # type: ignore[union-attr]
                await asyncio.sleep(RETRY_SECONDS + 0.2)  # a retry fails: still locked
                await turn()
                assert live.table.game.disconnected == {}  # type: ignore[union-attr]
            finally:
                other.execute("ROLLBACK")
                other.close()
            for _ in range(100):  # the next retry stores it
                if "2" in people[0].view()["game"]["disconnected"]:
                    break
                await asyncio.sleep(0.05)
            kinds = [json.loads(r)["kind"] for _, r in m.store.events(table)]
            assert kinds[-1] == "disconnect" and kinds.count("disconnect") == 1
            await ends_cancelled(m, people[0], 2)
            assert m.store.load(table).status == "over"  # type: ignore[union-attr]
        finally:
            m.stop()

    asyncio.run(scenario())


def test_a_reconnection_whose_save_failed_is_stored_later_and_the_seat_kept(
        tmp_path: Path) -> None:
    """The mirror case: a person resumes while the database is locked; the
    reconnection is lost (an ``internal`` error with the resume's id) but the
    connection holds the seat, so the reconnection is stored once the lock is gone,
    within the seat's wait, and the seat has no deadline left to cancel the table."""
    import sqlite3
    from dataclasses import replace

    async def scenario() -> None:
        m = Manager(replace(_config(tmp_path), reconnect_seconds=RETRY_SECONDS + 10))
        m.start()
        m.store._db.execute("PRAGMA busy_timeout=50")
        try:
            people = await new_table(m, joined=2)
            live = live_of(m, people)
            people[2].drop()
            await turn()
            assert 2 in live.table.game.disconnected  # type: ignore[union-attr]
            back = Person(m, "Back")
            other = sqlite3.connect(m.store.path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            try:
                back.say(type="resume", table=live.table.id, seat=2, token=people[2].token,
                         id=4)
                await turn()
            finally:
                other.execute("ROLLBACK")
                other.close()
            assert [e.get("id") for e in _internal(back)] == [4]
            assert 2 in live.table.game.disconnected  # type: ignore[union-attr]
            for _ in range(100):  # the retry stores it
                if not back.view()["game"]["disconnected"]:
                    break
                await asyncio.sleep(0.05)
            kinds = [json.loads(r)["kind"] for _, r in m.store.events(live.table.id)]
            assert kinds[-2:] == ["disconnect", "reconnect"]
            assert back.view()["status"] == "playing" and back.view()["you"] == 2
            assert "deadline2" not in live.timers
            check_no_endless_wait(m)
        finally:
            m.stop()

    asyncio.run(scenario())
