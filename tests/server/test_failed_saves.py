"""What the server does when it cannot save: the events of that commit are lost, the
tables go back to what the store holds, and each connection is told (an ``internal``
error carrying the ``id`` of each of its own messages whose answer was lost).

In-process, on a real event loop and clock, with the people of test_seat_loss.
Standard library only: these run without the server extra too."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from chinchon.server.manager import Manager
from chinchon.server.store import StoreError

from .test_seat_loss import Person, _config, live_of, new_table, turn


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
