"""The manager's group commit: events applied and staged, written once per turn of the
event loop with each table's snapshot, and the outbox that waits for the write (see
:mod:`chinchon.server.manager`). Also loading a table back from the store.

A draw is the first half of a turn: the seat that drew must discard next. A commit
whose only event of a table is a draw, at a table whose stored state is at the event
before it, stores the draw's event but not the table's state (nor its ``seq``): the
draw waits in the table's row (``pending``, written only if the row is at the event
before it with none waiting) and goes into the log, and the discard that completes
the turn stores the state and clears the row's draw (:meth:`flush`). So the stored
state is the table at its last event, or one draw before it; a restarted server
(:meth:`GroupCommit._load`) replays that one draw, read from the row, and a server
that stops cleanly stores every such state first (:meth:`GroupCommit.store_states`).
Every event, the draw included, is in the store before anyone is told of it. Half
the events of a game are draws: this spares the state's encoding for each of them."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Callable, Iterable, Optional, Sequence

from ..errors import IllegalAction
from ._json import encode
from .config import ServerConfig
from .live import Client, Conn, Live
from .store import Store, StoreError, StoredTable, TableWrite
from .tables import Table, same_base
from .views import encode_views

__all__ = ["GroupCommit", "Staged"]

log = logging.getLogger("chinchon.server")


class Staged:
    """A table's events waiting for the group commit."""

    __slots__ = ("live", "seq_before", "status_before", "events", "base_key")

    def __init__(self, live: Live, seq_before: int, status_before: str) -> None:
        self.live = live
        self.seq_before = seq_before
        self.status_before = status_before
        self.events: list[tuple[int, str]] = []
        self.base_key: Optional[tuple[Any, ...]] = None   # of a base being written




def _lost_answers(outbox: Iterable[tuple[Client, Optional[str], bool, Any]]
                  ) -> dict[int, list[Any]]:
    """For each connection (by ``id``) with a message in ``outbox`` about events that
    were not stored: the ids of its own messages those answered (a ``seated``'s
    ``id``, the ``ack`` of a view), in order, or ``[None]`` when none did."""
    lost: dict[int, list[Any]] = {}
    for client, text, durable, _ in outbox:
        if durable and text is not None:
            ids = lost.setdefault(id(client), [])
            msg = json.loads(text)
            rid = msg.get("ack", msg.get("id"))
            if rid is not None and rid not in ids:
                ids.append(rid)
    return {key: ids or [None] for key, ids in lost.items()}


class GroupCommit:
    """The store side of :class:`~chinchon.server.manager.Manager`: its state is set by
    ``Manager.__init__``."""

    config: ServerConfig
    clock: Callable[[], float]
    store: Store
    live: dict[str, Live]
    stats: dict[str, int]
    _loop: Optional[asyncio.AbstractEventLoop]
    _staged: dict[str, Staged]
    _outbox: list[tuple[Client, Optional[str], bool, Optional[tuple[int, str]]]]
    _flush_handle: Optional[asyncio.Handle]

    def _drive(self, live: Live) -> None:
        """Schedule what happens next at the table (:class:`.driving.Driving`)."""
        raise NotImplementedError

    def _retry_seats(self, live: Live) -> None:
        """After a failed save: store again, a little later, the disconnections and
        reconnections it lost (:class:`.driving.Driving`)."""
        raise NotImplementedError

    def _load(self, stored: StoredTable) -> Table:
        """The table from its stored snapshot: base and state, at its last event or a
        draw before it, and then that draw (see the module docstring), which
        :meth:`Store.events` reads from the table's row. (A table stored without a
        state, by a server of schema 1, replays the events after its base, read from
        the log.)"""
        after = stored.seq if stored.state is not None else stored.snap_seq
        rows = self.store.events(stored.id, after=after)
        if [seq for seq, _ in rows] != list(range(after + 1, after + 1 + len(rows))):
            raise ValueError(f"table {stored.id}: the events after {after} are not "
                             f"{after + 1}, {after + 2}, ...")
        records = [json.loads(r) for _, r in rows]
        # a state at the last event or one draw behind it (see the module docstring); a
        # table of schema 1: the events after its base, up to its seq
        if stored.state is not None and records and (
                len(records) > 1 or records[0].get("kind") != "draw"):
            raise ValueError(f"table {stored.id}: {len(records)} event(s) after its "
                             f"stored state, at most one draw expected")
        table = Table.load(stored.meta, stored.game, records, stored.state)
        if table.seq != stored.seq + (len(records) if stored.state is not None else 0):
            raise ValueError(f"table {stored.id}: {table.seq} events found, {stored.seq} recorded")
        return table

    def now(self, live: Live) -> float:
        return self.clock() + live.offset

    def _send(self, client: Client, text: str, durable: bool = False) -> None:
        """Send now, or after the pending commit if there is one (``durable``: the
        message tells of staged events and is dropped if their commit fails)."""
        if self._staged:
            self._outbox.append((client, text, durable, None))
        else:
            client.send(text)

    def _close(self, client: Client, code: int, reason: str) -> None:
        """Close a connection after what it was already sent (or is to be sent)."""
        if self._staged:
            self._outbox.append((client, None, False, (code, reason)))
        else:
            client.close(code, reason)

    def _commit(self, live: Live, record: dict[str, Any]) -> None:
        """Apply one event and stage it for the store (written at the end of this turn
        of the event loop, see :meth:`flush`). A refused event (IllegalAction) changes
        nothing and stages nothing."""
        table = live.table
        record["now"] = self.now(live)
        status = table.status
        try:
            table.apply(record)
        except IllegalAction:
            raise
        except Exception:  # a bug half-way through: store what came before, reload it
            self.flush()
            self._reload(live)
            raise
        staged = self._staged.get(table.id)
        if staged is None:  # the write expects the table's row at its stored state
            staged = self._staged[table.id] = Staged(live, live.stored_seq, status)
        staged.events.append((table.seq, encode(record)))
        if self._flush_handle is None:
            loop = self._loop or asyncio.get_running_loop()
            self._flush_handle = loop.call_soon(self.flush)

    def flush(self) -> None:
        """Write every staged event in one transaction, then send the outbox. If the
        write fails nothing of it is stored: the tables are reloaded from the store,
        the messages about the lost events are dropped, and their connections get an
        error and the reloaded view."""
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        staged, self._staged = self._staged, {}
        outbox, self._outbox = self._outbox, []
        failed = False
        if staged:
            writes: list[TableWrite] = []
            events: list[tuple[str, int, str]] = []
            pending: list[tuple[str, int, str]] = []
            for table_id, st in staged.items():
                table = st.live.table
                events.extend((table_id, seq, rec) for seq, rec in st.events)
                if (len(st.events) == 1 and st.seq_before == table.seq - 1
                        and table.status == st.status_before and table.last is not None
                        and table.last.get("kind") == "draw"
                        and same_base(st.live.base_key, table.base_key())):
                    # a draw alone: it waits in the row, its state comes with the discard
                    pending.append((table_id, *st.events[0]))
                    continue
                # the table's snapshot at its last event: the state always, the base
                # when what it holds changed
                writes.append(self._table_write(st, table))
            try:
                self.store.write(writes, events, pending)
            except StoreError as exc:
                log.error("store: %s; %d table(s) reloaded", exc, len(staged))
                failed = True
            else:
                self.stats["events"] += len(events)
                self.stats["commits"] += 1
                self._written(staged.values(), writes)
        # after a failed write each connection is told once, where its first lost
        # message was: an error for each of its own messages whose answer was lost,
        # carrying that message's id, or one without an id if it lost only the views
        # of others' events
        lost = _lost_answers(outbox) if failed else {}
        for client, text, durable, close in outbox:
            if text is None:
                assert close is not None
                client.close(*close)
            elif failed and durable:
                for rid in lost.pop(id(client), ()):
                    error: dict[str, Any] = {
                        "type": "error", "code": "internal",
                        "message": "the server could not save the last events; the "
                                   "table was reloaded"}
                    if rid is not None:
                        error["id"] = rid
                    client.send(encode(error))
            else:
                client.send(text)
        if failed:
            for st in staged.values():
                live = st.live
                self._reload(live)
                # a seat taken by a lost event is open again: its connection sits nowhere
                for seat, conns in list(live.conns.items()):
                    if live.table.seats[seat].kind != "human":
                        for c in conns:
                            c.table = c.seat = None
                        del live.conns[seat]
                if self.live.get(live.table.id) is live:
                    self._publish(live, None, None)
                    self._retry_seats(live)

    @staticmethod
    def _table_write(st: Staged, table: Table) -> TableWrite:
        """The table's row for the store: its state now, and its base when what the
        base holds changed since it was stored."""
        state, key = table.state_json()
        base = None
        if not same_base(st.live.base_key, key):
            base = (table.meta_json(), table.base_game_json())
            st.base_key = key
        return TableWrite(table.id, st.seq_before, table.seq,
                          None if table.status == st.status_before else table.status,
                          state, base)

    @staticmethod
    def _written(staged: Iterable[Staged], writes: Sequence[TableWrite]) -> None:
        """After a commit: what the store now holds of each table written."""
        written = {w.table_id: w.seq for w in writes}
        for st in staged:
            seq = written.get(st.live.table.id)
            if seq is not None:
                st.live.stored_seq = seq
                if st.base_key is not None:
                    st.live.base_key = st.base_key

    def store_states(self) -> None:
        """Store the state of every table whose stored state is a draw behind (see the
        module docstring), in one transaction: what a server does before it stops."""
        self.flush()
        behind = [Staged(live, live.stored_seq, live.table.status)
                  for live in self.live.values() if live.stored_seq != live.table.seq]
        if not behind:
            return
        writes = [self._table_write(st, st.live.table) for st in behind]
        try:
            self.store.write(writes, [])
        except StoreError as exc:  # the draws are stored: a restart replays them
            log.error("store: %s; %d table(s) left a draw behind", exc, len(writes))
        else:
            self._written(behind, writes)

    def _reload(self, live: Live) -> None:
        """Back to what the store holds (after a failed write or a bug)."""
        stored = self.store.load(live.table.id)
        if stored is not None:
            live.table = self._load(stored)
            live.base_key = None
            live.stored_seq = stored.seq
            live.bots.clear()

    def _publish(self, live: Live, actor: Optional[Conn], rid: Any) -> None:
        """Queue every connected seat's view, then schedule what happens next."""
        table = live.table
        conns = live.conns
        seats = [seat for seat, at in conns.items() if at]
        texts = encode_views(table, seats, connected=live.connected(), now=self.now(live),
                             summary_seconds=self.config.summary_seconds)
        # as _send(client, text, durable=True) for each, in one loop
        outbox = self._outbox if self._staged else None
        for seat in seats:
            text = texts[seat]
            for c in conns[seat]:
                if c is actor and rid is not None:  # the view answers this message
                    ack = str(rid) if type(rid) is int else encode(rid)
                    out = f'{text[:-1]},"ack":{ack}}}'
                else:
                    out = text
                if outbox is None:
                    c.client.send(out)
                else:
                    outbox.append((c.client, out, True, None))
        self._drive(live)
