"""What the manager holds in memory: a connection, and a live table with what is not
stored (its connections, bots and timers)."""

from __future__ import annotations

import asyncio
from typing import Any, Optional, Protocol, Union

from ..bots import Bot
from .tables import Table

__all__ = ["Client", "Conn", "Live"]


class Client(Protocol):
    def send(self, text: str) -> None: ...
    def close(self, code: int, reason: str) -> None: ...


class Conn:
    """The manager's record of one connection."""

    __slots__ = ("client", "table", "seat", "tokens", "stamp", "refused")

    def __init__(self, client: Client, burst: int, now: float) -> None:
        self.client = client
        self.table: Optional[str] = None
        self.seat: Optional[int] = None
        self.tokens = float(burst)
        self.stamp = now
        self.refused = 0


class Live:
    """A table held in memory, with what is not stored: connections, bots, timers."""

    def __init__(self, table: Table, offset: float,
                 base_key: Optional[tuple[Any, ...]] = None,
                 stored_seq: Optional[int] = None) -> None:
        self.table = table
        self.offset = offset
        #: the key of the stored base (Table.state_json); None: store it with the next event
        self.base_key = base_key
        #: the event the table's stored state is at: ``table.seq``, or one before it
        #: while a draw waits for its discard to be stored with (chinchon.server.commit)
        self.stored_seq = table.seq if stored_seq is None else stored_seq
        self.conns: dict[int, list[Conn]] = {}
        self.bots: dict[int, Bot] = {}
        #: by name: a timer, or (``bot``) a search's decision under way (its future)
        self.timers: dict[str, Union[asyncio.TimerHandle, asyncio.Future[Any]]] = {}

    def connected(self) -> list[bool]:
        return [bool(self.conns.get(i)) for i in range(self.table.players)]

    def cancel(self, name: str) -> None:
        handle = self.timers.pop(name, None)
        if handle is not None:
            handle.cancel()

    def cancel_all(self) -> None:
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
