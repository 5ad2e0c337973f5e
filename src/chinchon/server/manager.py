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

The manager is put together from one module per part: :mod:`.commit` (the group commit
and the store), :mod:`.driving` (the clock's timers and the bots), :mod:`.seats` (who
sits where), :mod:`.live` (what is held in memory) and :mod:`.config`; what is here is
the life cycle and the messages.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any, Optional

from .._version import __version__
from ..bots import BOTS
from ..errors import ChinchonError, IllegalAction
from ..rules import Rules
from ._json import encode
from .commit import Staged
from .config import ServerConfig, presets
from .faces import CARD_FACES, OUTCOMES
from .live import Client, Conn, Live
from .protocol import MAX_MESSAGE_BYTES, MAX_NAME_CHARS, PROTOCOL_VERSION, ProtocolError, parse_message
from .seats import Seating
from .store import Store, StoreError
from .views import lobby_entry

__all__ = ["Manager", "ServerConfig", "Client", "presets"]

log = logging.getLogger("chinchon.server")

#: the tables a ``lobby`` answer lists at most, the newest first
LOBBY_TABLES = 100


def _game_accepts(players: int) -> bool:
    from ..game import Game

    try:
        Game(players, seed=0)
    except IllegalAction:
        return False
    return True


class Manager(Seating):
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
        self._staged: dict[str, Staged] = {}
        # (client, text, durable, close): a message, or with text None a close (code, reason)
        self._outbox: list[tuple[Client, Optional[str], bool, Optional[tuple[int, str]]]] = []
        self._flush_handle: Optional[asyncio.Handle] = None
        self._welcome: Optional[tuple[dict[str, Rules], str]] = None

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Resume every unfinished table of the store (call on the running loop): a
        ``restart`` event at each table in play, and at any table whose reconnection
        wait is not this server's (``ServerConfig.table_rules``)."""
        self._loop = asyncio.get_running_loop()
        for stored in self.store.unfinished():
            try:
                table = self._load(stored)
            except (ChinchonError, KeyError, TypeError, ValueError) as exc:
                log.error("table %s cannot be restored, left as is: %s", stored.id, exc)
                continue
            live = Live(table, table.clock - self.clock(), stored_seq=stored.seq)
            self.live[table.id] = live
            restart: dict[str, Any] = {"kind": "restart", "seats": table.humans()}
            rules = self.config.table_rules(table.rules)
            if rules is not table.rules:  # this server's --reconnect-seconds, from now on
                restart["reconnect_seconds"] = rules.reconnect_seconds
            try:
                if table.status == "playing" or "reconnect_seconds" in restart:
                    self._commit(live, restart)
            except (IllegalAction, StoreError) as exc:  # pragma: no cover - defensive
                log.error("table %s: restart event refused: %s", table.id, exc)
            self._drive(live)
        self.flush()
        if self.live:
            log.info("resumed %d table(s) from %s", len(self.live), self.store.path)

    def stop(self) -> None:
        self.store_states()  # flushes first
        for live in self.live.values():
            live.cancel_all()
        self.stop_thinking()
        self.store.close()

    # ------------------------------------------------------------------ connections

    def connect(self, client: Client) -> Conn:
        self.stats["connections"] += 1
        conn = Conn(client, self.config.burst, self.clock())
        known = presets()
        if self._welcome is None or self._welcome[0] != known:  # built once, unless the
            self._welcome = (known, encode({                    # presets change
                "type": "welcome", "v": PROTOCOL_VERSION, "server": f"chinchon {__version__}",
                "presets": {name: _rules_dict(r) for name, r in known.items()},
                "descriptions": {name: r.description for name, r in known.items()},
                "bots": list(BOTS),
                "players": self.player_counts,
                "cards": CARD_FACES, "outcomes": OUTCOMES,
                "limits": {"message_bytes": MAX_MESSAGE_BYTES, "rate": self.config.rate,
                           "burst": self.config.burst, "name_chars": MAX_NAME_CHARS,
                           "search_playouts": self.config.max_search_playouts,
                           "search_ms": self.config.max_search_ms},
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
        if conn.tokens >= cfg.burst:  # quiet long enough to refill: its refusals forgiven
            conn.refused = 0
        if conn.tokens < 1.0:
            conn.refused += 1
            if conn.refused > 4 * cfg.burst:
                self._close(conn.client, 1008, "too many messages")
            raise ProtocolError("rate_limited",
                                f"too many messages: at most {cfg.rate:g} per second "
                                f"(bursts of {cfg.burst})")
        # a refusal is forgiven only by a full bucket, not by the message the rate lets
        # through next: a client paced over the rate (one accepted each 1/rate seconds)
        # was never cut off
        conn.tokens -= 1.0

    def _error(self, conn: Conn, code: str, message: str, request_id: Any) -> None:
        out: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if request_id is not None:
            out["id"] = request_id
        self._send(conn.client, encode(out))

    # ------------------------------------------------------------------ messages

    def _dispatch(self, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        rid = msg.get("id")
        if kind == "ping":
            self._send(conn.client, encode({"type": "pong", **({"id": rid} if rid is not None else {})}))
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
                self._start(live, conn, rid)
                return
            self._commit(live, record)
            self._publish(live, conn, rid)

    def _send_lobby(self, conn: Conn, rid: Any) -> None:
        # the newest 100: built for those alone, however many tables the server holds
        # (a client may ask 20 times a second)
        shown = itertools.islice((live for live in reversed(self.live.values())
                                  if live.table.status != "over"), LOBBY_TABLES)
        tables = [lobby_entry(live.table, live.connected()) for live in shown]
        out: dict[str, Any] = {"type": "lobby", "tables": tables}
        if rid is not None:
            out["id"] = rid
        self._send(conn.client, encode(out))

def _rules_dict(rules: Rules) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(rules)
