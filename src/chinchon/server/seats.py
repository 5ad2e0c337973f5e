"""Who sits where: creating, joining, resuming (a reconnect) and leaving a table, and
a connection's seat taken and given back."""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from typing import Any, Optional

from ..bots import bot_name
from ..errors import ChinchonError, IllegalAction
from ._json import encode
from .config import presets
from .driving import Driving
from .live import Conn, Live
from .protocol import ProtocolError
from .store import StoreError
from .tables import Table

__all__ = ["Seating"]

log = logging.getLogger("chinchon.server")


def _sha256(token: str) -> str:
    # surrogatepass: the protocol refuses a lone surrogate in a token, and no text of
    # any token may make the hash raise (it would be an internal error, not bad_token)
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Seating(Driving):
    """The seats of :class:`~chinchon.server.manager.Manager`."""

    def _seated(self, conn: Conn) -> tuple[Live, int]:
        if conn.table is None or conn.seat is None or conn.table not in self.live:
            raise IllegalAction("this connection has no seat: create, join or resume a table first")
        return self.live[conn.table], conn.seat

    def _create(self, conn: Conn, msg: dict[str, Any]) -> None:
        cap = self.config.max_tables  # counted only when the tables held could reach it
        if (len(self.live) >= cap
                and sum(1 for lv in self.live.values() if lv.table.status != "over") >= cap):
            raise ProtocolError("busy", "this server holds as many tables as it may; try later")
        known = presets()
        preset = msg.get("rules", "barajamos").strip().lower()
        if preset not in known:
            raise ProtocolError("bad_rules", f"unknown rules preset {msg.get('rules')!r}; "
                                             f"choose from {', '.join(known)}")
        rules = self.config.table_rules(known[preset])
        try:  # a name of BOTS, or the search's with a budget (search:2000, search:10ms)
            bot = self.config.table_bot(bot_name(msg.get("bot", "greedy")), msg["players"])
            self.config.check_bot(bot, msg["players"])
        except ChinchonError as e:
            raise ProtocolError("bad_message", str(e)) from None
        table_id = secrets.token_urlsafe(6)
        while table_id in self.live or self.store.load(table_id) is not None:  # pragma: no cover
            table_id = secrets.token_urlsafe(6)
        token = secrets.token_urlsafe(24)
        now = self.clock()
        record = Table.new_record(table_id, players=msg["players"], preset=preset, rules=rules,
                                  name=msg["name"], token_sha256=_sha256(token),
                                  bots=msg.get("bots", 0), bot=bot, now=now)
        table = Table.from_create(record)
        state, key = table.state_json()
        self.store.create(table_id, table.status, table.meta_json(), state, encode(record))
        self.stats["events"] += 1
        live = Live(table, 0.0, key)
        self.live[table_id] = live
        self._detach(conn)
        self._attach(conn, live, 0)
        self._seated_message(conn, live, 0, token, msg.get("id"))
        self._publish(live, conn, msg.get("id"))
        self._start_if_full(live)

    def _join(self, conn: Conn, msg: dict[str, Any]) -> None:
        live = self._table(msg["table"])
        table = live.table
        if table.status != "waiting":
            raise IllegalAction(f"table {table.id} has already started"
                                if table.status == "playing" else f"table {table.id} is over")
        free = table.open_seats()
        if not free:
            raise IllegalAction(f"table {table.id} is full")
        if conn.table == table.id:
            raise IllegalAction(f"this connection already sits at table {table.id}")
        name = msg["name"]
        for i, s in enumerate(table.seats):  # a person and a bot of one name: which is which?
            if s.kind == "bot" and s.name.casefold() == name.casefold():
                raise IllegalAction(f"the name {name!r} is the bot's at seat {i} of table "
                                    f"{table.id}: choose another name")
        token = secrets.token_urlsafe(24)
        seat = free[0]
        self._commit(live, {"kind": "join", "seat": seat, "name": name,
                            "token_sha256": _sha256(token)})
        self._detach(conn)
        self._attach(conn, live, seat)
        self._seated_message(conn, live, seat, token, msg.get("id"))
        self._publish(live, conn, msg.get("id"))
        self._start_if_full(live)

    def _start_if_full(self, live: Live) -> None:
        if live.table.status == "waiting" and not live.table.open_seats():
            self._start(live, None, None)

    def _start(self, live: Live, actor: Optional[Conn], rid: Any) -> None:
        """Start the game; then every person whose connection is gone already (one who
        dropped before the start) is disconnected at once, its reconnection wait
        running from the start, as if it had dropped then: no seat is waited for
        without a deadline."""
        self._commit(live, {"kind": "start", "seed": secrets.randbits(63)})
        self._publish(live, actor, rid)
        self._record_connections(live)

    def _resume(self, conn: Conn, msg: dict[str, Any]) -> None:
        live = self._table(msg["table"], load_over=True)
        table = live.table
        seat = msg["seat"]
        expected = table.seats[seat].token_sha256 if seat < table.players else None
        if expected is None or not hmac.compare_digest(expected, _sha256(msg["token"])):
            self._unload_if_done(live)  # a finished table loaded for this is let go
            raise ProtocolError("bad_token", f"that is not the token of seat {seat} at "
                                             f"table {table.id}")
        if conn.table != table.id or conn.seat != seat:  # else it holds the seat already
            self._detach(conn)
            for other in list(live.conns.get(seat, [])):  # the newest connection wins
                self._send(other.client, encode({"type": "replaced", "table": table.id,
                                                 "seat": seat}))
                self._detach(other, quiet=True)
                self._close(other.client, 4000, "the seat was taken over by another connection")
            self._attach(conn, live, seat)
        self._seated_message(conn, live, seat, None, msg.get("id"))
        game = table.game
        if (table.status == "playing" and game is not None and game.result is None
                and seat in game.disconnected):
            self._commit(live, {"kind": "reconnect", "seat": seat})
        self._publish(live, conn, msg.get("id"))

    def _leave(self, conn: Conn, rid: Any) -> None:
        live, seat = self._seated(conn)
        table = live.table
        if table.status == "waiting":
            if seat == 0:
                self._commit(live, {"kind": "abandon", "reason": "the host left"})
            else:
                self._commit(live, {"kind": "leave", "seat": seat})
            self._detach(conn, quiet=True)
            self._publish(live, None, None)
        else:
            self._detach(conn)
        out: dict[str, Any] = {"type": "left", "table": table.id}
        if rid is not None:
            out["id"] = rid
        self._send(conn.client, encode(out))

    def _table(self, table_id: str, load_over: bool = False) -> Live:
        live = self.live.get(table_id)
        if live is not None:
            return live
        if load_over:  # a finished table still shows its end to its players
            stored = self.store.load(table_id)
            if stored is not None and stored.status == "over":
                table = self._load(stored)
                live = Live(table, table.clock - self.clock(), stored_seq=stored.seq)
                self.live[table_id] = live
                return live
        raise ProtocolError("no_table", f"no table {table_id!r} on this server")

    def _seated_message(self, conn: Conn, live: Live, seat: int, token: Optional[str],
                        rid: Any) -> None:
        out: dict[str, Any] = {"type": "seated", "table": live.table.id, "seat": seat}
        if token is not None:
            out["token"] = token
        if rid is not None:
            out["id"] = rid
        self._send(conn.client, encode(out), durable=True)

    def _attach(self, conn: Conn, live: Live, seat: int) -> None:
        conn.table = live.table.id
        conn.seat = seat
        live.conns.setdefault(seat, []).append(conn)
        if live.table.status == "waiting":
            live.cancel("abandon")
            if seat == 0:
                live.cancel("host")

    def _detach(self, conn: Conn, quiet: bool = False) -> None:
        """Take the connection off its seat; the last one gone disconnects the seat."""
        if conn.table is None:
            return
        live = self.live.get(conn.table)
        seat = conn.seat
        conn.table = conn.seat = None
        if live is None or seat is None:
            return
        conns = live.conns.get(seat, [])
        if conn in conns:
            conns.remove(conn)
        if conns:
            return
        live.conns.pop(seat, None)
        table = live.table
        game = table.game
        if quiet:
            return
        if (table.status == "playing" and game is not None and game.result is None
                and seat not in game.disconnected and table.seats[seat].kind == "human"):
            try:
                self._commit(live, {"kind": "disconnect", "seat": seat})
            except (IllegalAction, StoreError) as exc:  # pragma: no cover - defensive
                log.error("table %s: disconnect of seat %s refused: %s", table.id, seat, exc)
            self._publish(live, None, None)
        elif table.status == "waiting":
            self._publish(live, None, None)
        self._unload_if_done(live)
