"""The table manager: every live table, every connection, the clock, the bots.

The manager knows nothing of HTTP or WebSockets. A connection is anything with
``send(text)`` (queue one message, never block) and ``close(code, reason)``; the app
(:mod:`chinchon.server.app`) gives it real sockets, the tests may give it lists.

Everything here runs on one asyncio event loop, and each incoming message is handled
to the end without awaiting: check it, apply its event to the table (a refused event
changes nothing), stage the event for the store and put the seats' new views in the
outbox. At the end of the loop's turn (``call_soon``) every staged event of every table
is written in one transaction (a group commit), each with its table's snapshot (see
:mod:`chinchon.server.store`), and only once it is committed does the outbox go out. So no two events of a table interleave and nobody is ever told of
an event the store does not hold. While a commit is pending every message, errors
included, waits in the outbox, so each connection gets its messages in order.

Time: the manager reads ``clock()`` (``time.monotonic`` unless a test injects
another). Each table has its own clock, ``clock() + offset``, which continues from
its last event when a server restarts; timers (a disconnected seat's deadline, the
summary's wait, a bot's thinking pause) are asyncio timers set from it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Optional, Protocol

from .. import __version__
from ..bots import BOTS, Bot, make_bot
from ..errors import ChinchonError, IllegalAction
from ..rules import Rules
from ._json import encode
from .protocol import MAX_MESSAGE_BYTES, MAX_NAME_CHARS, PROTOCOL_VERSION, ProtocolError, parse_message
from .store import Store, StoreError, StoredTable, TableWrite
from .tables import Table, same_base
from .views import encode_views, lobby_entry

__all__ = ["Manager", "ServerConfig", "Client", "presets"]

log = logging.getLogger("chinchon.server")

def presets() -> dict[str, Rules]:
    """The named rules a table may be created with: ``chinchon.rules.PRESETS``, read at
    call time so that presets added to the package appear here by themselves."""
    from .. import rules as rules_module

    return dict(rules_module.PRESETS)


@dataclass
class ServerConfig:
    """Settings of a server (``chinchon serve`` options)."""

    db: str = "chinchon-tables.sqlite3"
    #: every table's ``rules.reconnect_seconds`` is replaced by this when set
    reconnect_seconds: Optional[float] = None
    #: a bot waits this long before each move, so that people can follow the play
    bot_delay: float = 0.8
    #: the summary between hands waits this long for everyone to press "ready"
    summary_seconds: float = 45.0
    #: per connection: messages per second, and the burst allowed above that rate
    rate: float = 20.0
    burst: int = 40
    #: tables not over that the server holds at once
    max_tables: int = 5000
    #: "normal" or "full" (see :class:`chinchon.server.store.Store`)
    durability: str = "normal"
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)


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
                 base_key: Optional[tuple[Any, ...]] = None) -> None:
        self.table = table
        self.offset = offset
        #: the key of the stored base (Table.state_json); None: store it with the next event
        self.base_key = base_key
        self.conns: dict[int, list[Conn]] = {}
        self.bots: dict[int, Bot] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}

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


class _Staged:
    """A table's events waiting for the group commit."""

    __slots__ = ("live", "seq_before", "status_before", "events", "base_key")

    def __init__(self, live: Live, seq_before: int, status_before: str) -> None:
        self.live = live
        self.seq_before = seq_before
        self.status_before = status_before
        self.events: list[tuple[int, str]] = []
        self.base_key: Optional[tuple[Any, ...]] = None   # of a base being written


def _game_accepts(players: int) -> bool:
    from ..game import Game

    try:
        Game(players, seed=0)
    except IllegalAction:
        return False
    return True


def _sha256(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


_dumps = encode  # compact JSON text (see chinchon.server._json)


class Manager:
    """See the module docstring."""

    def __init__(self, config: ServerConfig, store: Optional[Store] = None) -> None:
        self.config = config
        self.clock = config.clock
        self.store = store if store is not None else Store(config.db, durability=config.durability)
        self.live: dict[str, Live] = {}
        self.stats = {"events": 0, "commits": 0, "messages_in": 0, "refused": 0,
                      "connections": 0}
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        #: the table sizes the game accepts (asked of chinchon.Game itself)
        self.player_counts = [n for n in range(1, 13) if _game_accepts(n)]
        # the group commit: events staged per table, messages held until they are stored
        self._staged: dict[str, _Staged] = {}
        # (client, text, durable, close): a message, or with text None a close (code, reason)
        self._outbox: list[tuple[Client, Optional[str], bool, Optional[tuple[int, str]]]] = []
        self._flush_handle: Optional[asyncio.Handle] = None
        self._welcome: Optional[tuple[dict[str, Rules], str]] = None

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Resume every unfinished table of the store (call on the running loop)."""
        self._loop = asyncio.get_running_loop()
        for stored in self.store.unfinished():
            try:
                table = self._load(stored)
            except (ChinchonError, KeyError, TypeError, ValueError) as exc:
                log.error("table %s cannot be restored, left as is: %s", stored.id, exc)
                continue
            live = Live(table, table.clock - self.clock())
            self.live[table.id] = live
            try:
                if table.status == "playing":
                    self._commit(live, {"kind": "restart", "seats": table.humans()})
            except (IllegalAction, StoreError) as exc:  # pragma: no cover - defensive
                log.error("table %s: restart event refused: %s", table.id, exc)
            self._drive(live)
        self.flush()
        if self.live:
            log.info("resumed %d table(s) from %s", len(self.live), self.store.path)

    def _load(self, stored: StoredTable) -> Table:
        """The table from its stored snapshot: base and state, at its last event. (A
        table stored without a state, by a server of schema 1, replays the events
        after its base.)"""
        after = stored.seq if stored.state is not None else stored.snap_seq
        events = [json.loads(r) for _, r in self.store.events(stored.id, after=after)]
        table = Table.load(stored.meta, stored.game, events, stored.state)
        if table.seq != stored.seq:
            raise ValueError(f"table {stored.id}: {table.seq} events found, {stored.seq} recorded")
        return table

    def stop(self) -> None:
        self.flush()
        for live in self.live.values():
            live.cancel_all()
        self.store.close()

    # ------------------------------------------------------------------ connections

    def connect(self, client: Client) -> Conn:
        self.stats["connections"] += 1
        conn = Conn(client, self.config.burst, self.clock())
        known = presets()
        if self._welcome is None or self._welcome[0] != known:  # built once, unless the
            self._welcome = (known, _dumps({                    # presets change
                "type": "welcome", "v": PROTOCOL_VERSION, "server": f"chinchon {__version__}",
                "presets": {name: _rules_dict(r) for name, r in known.items()},
                "bots": list(BOTS),
                "players": self.player_counts,
                "limits": {"message_bytes": MAX_MESSAGE_BYTES, "rate": self.config.rate,
                           "burst": self.config.burst, "name_chars": MAX_NAME_CHARS},
            }))
        self._send(client, self._welcome[1])
        return conn

    def disconnect(self, conn: Conn) -> None:
        """The connection is gone (socket closed, or dropped by the server)."""
        self._detach(conn)

    def handle(self, conn: Conn, raw: Any) -> None:
        """One message from a connection: checked, applied, answered. Never raises."""
        self.stats["messages_in"] += 1
        request_id = None
        try:
            try:
                msg = parse_message(raw)
            except ProtocolError:
                self._rate_limit(conn)  # a refused message counts against the rate too
                raise
            request_id = msg.get("id")
            self._rate_limit(conn)
            self._dispatch(conn, msg)
        except ProtocolError as exc:
            self.stats["refused"] += 1
            rid = exc.request_id if request_id is None else request_id
            self._error(conn, exc.code, exc.message, rid)
        except IllegalAction as exc:
            self.stats["refused"] += 1
            self._error(conn, "illegal", str(exc), request_id)
        except ChinchonError as exc:
            self.stats["refused"] += 1
            self._error(conn, "bad_message", str(exc), request_id)
        except StoreError as exc:
            log.error("store: %s", exc)
            self._error(conn, "internal", "the table could not be saved; nothing changed",
                        request_id)
        except Exception:  # a bug must not take the server down; the table is reloaded
            log.exception("error handling a message")
            self._error(conn, "internal", "internal server error", request_id)

    def _rate_limit(self, conn: Conn) -> None:
        now = self.clock()
        cfg = self.config
        conn.tokens = min(float(cfg.burst), conn.tokens + (now - conn.stamp) * cfg.rate)
        conn.stamp = now
        if conn.tokens < 1.0:
            conn.refused += 1
            if conn.refused > 4 * cfg.burst:
                self._close(conn.client, 1008, "too many messages")
            raise ProtocolError("rate_limited",
                                f"too many messages: at most {cfg.rate:g} per second "
                                f"(bursts of {cfg.burst})")
        conn.tokens -= 1.0
        conn.refused = 0

    def _error(self, conn: Conn, code: str, message: str, request_id: Any) -> None:
        out: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if request_id is not None:
            out["id"] = request_id
        self._send(conn.client, _dumps(out))

    # ------------------------------------------------------------------ messages

    def _dispatch(self, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        rid = msg.get("id")
        if kind == "ping":
            self._send(conn.client, _dumps({"type": "pong", **({"id": rid} if rid is not None else {})}))
        elif kind == "lobby":
            self._send_lobby(conn, rid)
        elif kind == "create":
            self._create(conn, msg)
        elif kind == "join":
            self._join(conn, msg)
        elif kind == "resume":
            self._resume(conn, msg)
        elif kind == "leave":
            self._leave(conn, rid)
        else:
            live, seat = self._seated(conn)
            record: dict[str, Any] = {"kind": kind, "seat": seat}
            if kind == "draw":
                record["source"] = msg["source"]
            elif kind in ("discard", "close"):
                record["card"] = msg["card"]
            elif kind == "start" and seat != 0:
                raise IllegalAction("only the host (seat 0) may start the table early")
            elif kind == "start":
                record = {"kind": "start", "seed": secrets.randbits(63)}
            self._commit(live, record)
            self._publish(live, conn, rid)

    def _seated(self, conn: Conn) -> tuple[Live, int]:
        if conn.table is None or conn.seat is None or conn.table not in self.live:
            raise IllegalAction("this connection has no seat: create, join or resume a table first")
        return self.live[conn.table], conn.seat

    def _send_lobby(self, conn: Conn, rid: Any) -> None:
        tables = [lobby_entry(live.table, live.connected())
                  for live in reversed(list(self.live.values()))
                  if live.table.status != "over"][:100]
        out: dict[str, Any] = {"type": "lobby", "tables": tables}
        if rid is not None:
            out["id"] = rid
        self._send(conn.client, _dumps(out))

    def _create(self, conn: Conn, msg: dict[str, Any]) -> None:
        if sum(1 for lv in self.live.values() if lv.table.status != "over") >= self.config.max_tables:
            raise ProtocolError("busy", "this server holds as many tables as it may; try later")
        known = presets()
        preset = msg.get("rules", "barajamos").strip().lower()
        if preset not in known:
            raise ProtocolError("bad_rules", f"unknown rules preset {msg.get('rules')!r}; "
                                             f"choose from {', '.join(known)}")
        rules = known[preset]
        if self.config.reconnect_seconds is not None:
            rules = replace(rules, reconnect_seconds=self.config.reconnect_seconds)
        bot = msg.get("bot", "greedy").strip().lower()
        if bot not in BOTS:
            raise ProtocolError("bad_message", f"unknown bot {msg.get('bot')!r}; "
                                               f"choose from {', '.join(BOTS)}")
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
        self.store.create(table_id, table.status, table.meta_json(), state, _dumps(record))
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
        token = secrets.token_urlsafe(24)
        seat = free[0]
        self._commit(live, {"kind": "join", "seat": seat, "name": msg["name"],
                            "token_sha256": _sha256(token)})
        self._detach(conn)
        self._attach(conn, live, seat)
        self._seated_message(conn, live, seat, token, msg.get("id"))
        self._publish(live, conn, msg.get("id"))
        self._start_if_full(live)

    def _start_if_full(self, live: Live) -> None:
        if live.table.status == "waiting" and not live.table.open_seats():
            self._commit(live, {"kind": "start", "seed": secrets.randbits(63)})
            self._publish(live, None, None)

    def _resume(self, conn: Conn, msg: dict[str, Any]) -> None:
        live = self._table(msg["table"], load_over=True)
        table = live.table
        seat = msg["seat"]
        expected = table.seats[seat].token_sha256 if seat < table.players else None
        if expected is None or not hmac.compare_digest(expected, _sha256(msg["token"])):
            raise ProtocolError("bad_token", f"that is not the token of seat {seat} at "
                                             f"table {table.id}")
        if conn.table == table.id and conn.seat == seat:
            self._publish(live, conn, msg.get("id"))
            return
        self._detach(conn)
        for other in list(live.conns.get(seat, [])):  # the newest connection wins
            self._send(other.client, _dumps({"type": "replaced", "table": table.id, "seat": seat}))
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
        self._send(conn.client, _dumps(out))

    def _table(self, table_id: str, load_over: bool = False) -> Live:
        live = self.live.get(table_id)
        if live is not None:
            return live
        if load_over:  # a finished table still shows its end to its players
            stored = self.store.load(table_id)
            if stored is not None and stored.status == "over":
                table = self._load(stored)
                live = Live(table, table.clock - self.clock())
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
        self._send(conn.client, _dumps(out), durable=True)

    def _attach(self, conn: Conn, live: Live, seat: int) -> None:
        conn.table = live.table.id
        conn.seat = seat
        live.conns.setdefault(seat, []).append(conn)
        if live.table.status == "waiting":
            live.cancel("abandon")

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

    def _unload_if_done(self, live: Live) -> None:
        """A table that is over and has nobody left is dropped from memory (it stays in
        the store; ``resume`` loads it again to show its end)."""
        if live.table.status == "over" and not live.conns:
            live.cancel_all()
            if self.live.get(live.table.id) is live:
                del self.live[live.table.id]

    # ------------------------------------------------------------------ events

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
        before, status = table.seq, table.status
        try:
            table.apply(record)
        except IllegalAction:
            raise
        except Exception:  # a bug half-way through: store what came before, reload it
            self.flush()
            self._reload(live)
            raise
        staged = self._staged.get(table.id)
        if staged is None:
            staged = self._staged[table.id] = _Staged(live, before, status)
        staged.events.append((table.seq, _dumps(record)))
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
            for table_id, st in staged.items():
                table = st.live.table
                # the table's snapshot at its last event: the state always, the base
                # when what it holds changed
                state, key = table.state_json()
                base = None
                if not same_base(st.live.base_key, key):
                    base = (table.meta_json(), table.base_game_json())
                    st.base_key = key
                writes.append(TableWrite(
                    table_id, st.seq_before, table.seq,
                    None if table.status == st.status_before else table.status, state, base))
                events.extend((table_id, seq, rec) for seq, rec in st.events)
            try:
                self.store.write(writes, events)
            except StoreError as exc:
                log.error("store: %s; %d table(s) reloaded", exc, len(staged))
                failed = True
            else:
                self.stats["events"] += len(events)
                self.stats["commits"] += 1
                for st in staged.values():
                    if st.base_key is not None:
                        st.live.base_key = st.base_key
        told: set[int] = set()
        for client, text, durable, close in outbox:
            if text is None:
                assert close is not None
                client.close(*close)
            elif failed and durable:
                if id(client) not in told:
                    told.add(id(client))
                    client.send(_dumps({"type": "error", "code": "internal",
                                        "message": "the server could not save the last "
                                                   "events; the table was reloaded"}))
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

    def _reload(self, live: Live) -> None:
        """Back to what the store holds (after a failed write or a bug)."""
        stored = self.store.load(live.table.id)
        if stored is not None:
            live.table = self._load(stored)
            live.base_key = None
            live.bots.clear()

    def _publish(self, live: Live, actor: Optional[Conn], rid: Any) -> None:
        """Queue every connected seat's view, then schedule what happens next."""
        table = live.table
        seats = [seat for seat, conns in live.conns.items() if conns]
        texts = encode_views(table, seats, connected=live.connected(), now=self.now(live),
                             summary_seconds=self.config.summary_seconds)
        for seat in seats:
            text = texts[seat]
            for c in live.conns[seat]:
                if c is actor and rid is not None:  # the view answers this message
                    ack = str(rid) if type(rid) is int else _dumps(rid)
                    self._send(c.client, f'{text[:-1]},"ack":{ack}}}', durable=True)
                else:
                    self._send(c.client, text, durable=True)
        self._drive(live)

    # ------------------------------------------------------------------ what happens next

    def _later(self, live: Live, name: str, delay: float, fn: Callable[[], None]) -> None:
        live.cancel(name)
        loop = self._loop or asyncio.get_running_loop()
        live.timers[name] = loop.call_later(max(0.0, delay), self._fire, live, name, fn)

    def _fire(self, live: Live, name: str, fn: Callable[[], None]) -> None:
        live.timers.pop(name, None)
        if self.live.get(live.table.id) is not live:
            return
        try:
            fn()
        except (IllegalAction, StoreError) as exc:
            log.error("table %s: %s refused: %s", live.table.id, name, exc)
        except Exception:  # pragma: no cover - a bug in a timer must not stop the loop
            log.exception("table %s: error in %s", live.table.id, name)

    def _drive(self, live: Live) -> None:
        """Schedule the table's next automatic event, if any: a bot's move, a bot's
        choice in the summary, the next hand, a disconnected seat's deadline, the end
        of a table nobody waits at."""
        table = live.table
        if table.status == "over":
            live.cancel_all()
            self._unload_if_done(live)
            return
        if table.status == "waiting":
            if not any(live.conns.get(s) for s in table.humans()):
                if "abandon" not in live.timers:
                    self._later(live, "abandon", table.rules.reconnect_seconds,
                                lambda: self._auto(live, {"kind": "abandon",
                                                          "reason": "nobody stayed at the table"}))
            return
        game = table.game
        assert game is not None
        wait = table.rules.reconnect_seconds
        now = self.now(live)
        for name in [n for n in live.timers if n.startswith("deadline")]:
            if int(name[len("deadline"):]) not in game.disconnected:
                live.cancel(name)
        for seat, since in game.disconnected.items():
            name = f"deadline{seat}"
            if name not in live.timers and game.in_game[seat]:
                self._later(live, name, since + wait - now, lambda: self._deadline(live))
        phase = game.phase
        if phase in ("draw", "discard"):
            live.cancel("summary")
            turn = game.turn
            if turn is not None and table.seats[turn].kind == "bot":
                if "bot" not in live.timers:
                    self._later(live, "bot", self.config.bot_delay, lambda: self._bot_move(live))
            else:
                live.cancel("bot")
        elif phase == "summary":
            live.cancel("bot")
            self._later(live, "bot", 0.0, lambda: self._summary_step(live))
            if "summary" not in live.timers:
                since = table.summary_since if table.summary_since is not None else now
                self._later(live, "summary", since + self.config.summary_seconds - now,
                            lambda: self._auto(live, {"kind": "next_hand"}))

    def _auto(self, live: Live, record: dict[str, Any]) -> None:
        self._commit(live, record)
        self._publish(live, None, None)

    def _bot(self, live: Live, seat: int) -> Bot:
        bot = live.bots.get(seat)
        if bot is None:
            bot = live.bots[seat] = make_bot(live.table.seats[seat].bot or "greedy")
        return bot

    def _bot_move(self, live: Live) -> None:
        game = live.table.game
        if game is None or game.result is not None:
            return
        seat = game.turn
        if seat is None or live.table.seats[seat].kind != "bot":
            return
        bot = self._bot(live, seat)
        if game.phase == "draw":
            source = bot.choose_draw(game.observe(seat), seat)  # only what the seat sees
            self._auto(live, {"kind": "draw", "seat": seat, "source": source})
        else:
            card, close = bot.choose_discard(game.observe(seat), seat)
            self._auto(live, {"kind": "close" if close else "discard", "seat": seat,
                              "card": str(card)})

    def _summary_step(self, live: Live) -> None:
        """One automatic event of the summary: a bot's rejoin or 'ready', or the next
        hand once every connected person is ready."""
        table = live.table
        game = table.game
        if game is None or game.phase != "summary":
            return
        for seat in table.bot_seats():
            if not table.ready[seat]:
                if (("rejoin", seat) in game.legal_actions()
                        and self._bot(live, seat).choose_rejoin(game.observe(seat), seat)):
                    self._auto(live, {"kind": "rejoin", "seat": seat})
                else:
                    self._auto(live, {"kind": "ready", "seat": seat})
                return
        waiting = [s for s in table.humans() if live.conns.get(s) and not table.ready[s]]
        if not waiting:
            self._auto(live, {"kind": "next_hand"})

    def _deadline(self, live: Live) -> None:
        """A disconnected seat's wait may be over: tick the game, and store the tick
        only if it cancelled the game."""
        table = live.table
        game = table.game
        if game is None or game.result is not None:
            return
        now = self.now(live)
        wait = table.rules.reconnect_seconds
        late = [s for s, t in game.disconnected.items() if game.in_game[s] and now >= t + wait]
        if late:
            self._auto(live, {"kind": "tick"})
        else:  # woke a little early (timer granularity): look again
            for s, t in game.disconnected.items():
                live.cancel(f"deadline{s}")
            self._drive(live)


def _rules_dict(rules: Rules) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(rules)
