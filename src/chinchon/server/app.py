"""The ASGI application: the page, its static files and the one WebSocket endpoint.

``create_app(config)`` builds a Starlette app around one :class:`Manager`:

- ``GET /`` the page (``static/index.html``), ``/static/...`` its CSS and JS;
- ``GET /healthz`` a small JSON status (tables, connections, events stored);
- ``WS /ws`` the game protocol (docs/protocol.md).

The WebSocket endpoint is plain ASGI beside the Starlette app (which serves the rest).
Each WebSocket gets a reader (every message goes to ``Manager.handle``, which never
awaits) and a :class:`_SocketClient` that writes each message out at once; only when
the socket cannot take more does it queue, bounded, so that a slow client never holds
up a table: a client that lets its queue fill up is disconnected (its seat then waits
for it like any dropped connection).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from pathlib import Path
from typing import Any, AsyncIterator, Coroutine, Optional, cast

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .manager import Manager, ServerConfig
from .store import Store
from .wire import Wire, wire_protocol

__all__ = ["create_app", "create_app_and_wire", "STATIC_DIR"]

STATIC_DIR = Path(__file__).resolve().parent / "static"

#: messages queued for one connection before it counts as too slow and is dropped
SEND_QUEUE = 1024
#: the longest a connection this side closes may take to end, in seconds
CLOSE_SECONDS = 5.0

_SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class _SecurityHeaders:
    """Adds a strict Content-Security-Policy and friends to every HTTP response: the
    page runs only its own script, so a name slipped past the escaping could still
    not run code."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + _SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _SocketClient:
    """A :class:`~chinchon.server.manager.Client` over an ASGI WebSocket.

    ``send`` hands the message to the server's ASGI ``send`` at once: that coroutine
    only suspends when the socket cannot take more (the peer is not reading), so it is
    run right here and, in that rare case, finished by a task, with the messages that
    follow queued behind it in order. No task wakes per message (the server sends
    three views or more for every action: this is much of its cost per action). A close
    is awaited whole in a task of its own: an ASGI server's close may time itself out
    (uvicorn's ``websockets`` implementation does), which a coroutine can only do from
    inside one task."""

    def __init__(self, asgi_send: Send) -> None:
        self.asgi_send = asgi_send
        self.backlog: deque[Message] = deque()
        self.busy: Optional[asyncio.Task[None]] = None   # finishing a suspended send
        self.closed = False      # nothing more is queued (close() called, or socket gone)
        self.sent_close = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.busy is not None:
            if len(self.backlog) >= SEND_QUEUE:
                self.backlog.clear()  # it would never catch up: drop it
                self.close(1013, "too slow: messages were piling up")
                return
            self.backlog.append({"type": "websocket.send", "text": text})
            return
        self._run({"type": "websocket.send", "text": text})

    def close(self, code: int, reason: str) -> None:
        """Close once the messages already queued are sent; nothing more is queued."""
        if self.closed:
            return
        self.closed = True
        message: Message = {"type": "websocket.close", "code": code, "reason": reason}
        if self.busy is not None:
            self.backlog.append(message)  # the last: nothing more is queued
        else:
            self.busy = asyncio.ensure_future(self._close(message))

    async def _close(self, message: Message) -> None:
        """Send the close (once), awaited as any coroutine is, in this task."""
        if self.sent_close:
            return
        self.sent_close = True
        try:
            await self.asgi_send(message)
        except Exception:  # the socket is gone; the reader sees the disconnect
            self._gone()
        finally:
            if self.busy is asyncio.current_task():
                self.busy = None

    def _step(self, message: Message) -> Optional[tuple[Any, Any]]:
        """Start sending the text ``message``: None once sent (or the socket is gone),
        else the suspended coroutine and what it waits for."""
        # an ASGI server's send is a coroutine function (the spec types it Awaitable)
        coro = cast(Coroutine[Any, None, None], self.asgi_send(message))
        try:
            return coro, coro.send(None)
        except StopIteration:
            return None
        except Exception:  # the socket is gone; the reader sees the disconnect
            self._gone()
            return None

    def _run(self, message: Message) -> None:
        suspended = self._step(message)
        if suspended is not None:
            self.busy = asyncio.ensure_future(self._finish(*suspended))

    async def _finish(self, coro: Any, waiting: Any) -> None:
        """Run a suspended send to its end (as a task would: resumed once what it waits
        for is done), then the backlog, in order."""
        try:
            while True:
                while True:
                    if asyncio.isfuture(waiting):
                        await asyncio.wait([waiting])
                    else:
                        await asyncio.sleep(0)
                    try:
                        waiting = coro.send(None)
                    except StopIteration:
                        break
                suspended = None
                while suspended is None and self.backlog:
                    message = self.backlog.popleft()
                    if message["type"] == "websocket.close":
                        await self._close(message)
                        return
                    suspended = self._step(message)
                if suspended is None:
                    return
                coro, waiting = suspended
        except Exception:  # the socket is gone; the reader sees the disconnect
            self._gone()
        finally:
            self.busy = None

    def _gone(self) -> None:
        self.closed = self.sent_close = True
        self.backlog.clear()

    async def drained(self, timeout: float) -> None:
        if self.busy is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self.busy), timeout)


def create_app(config: Optional[ServerConfig] = None, *,
               store: Optional[Store] = None) -> ASGIApp:
    """The server as an ASGI app. The manager opens (or creates, with its folder)
    ``config.db`` at startup and resumes every unfinished table in it."""
    return create_app_and_wire(config, store=store)[0]


def create_app_and_wire(config: Optional[ServerConfig] = None, *,
                        store: Optional[Store] = None) -> tuple[ASGIApp, type[Wire]]:
    """:func:`create_app`, and the WebSocket protocol class that serves its ``/ws``
    straight on the transport (:mod:`.wire`; uvicorn's ``ws`` setting): what
    ``chinchon serve`` runs. The app's own ``/ws`` (ASGI) serves any other server."""
    config = config or ServerConfig()
    holder: dict[str, Manager] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if store is None:
            Path(config.db).parent.mkdir(parents=True, exist_ok=True)
        manager = Manager(config, store)
        manager.start()
        holder["manager"] = manager
        app.state.manager = manager
        try:
            yield
        finally:
            manager.stop()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers={"cache-control": "no-cache"})

    async def healthz(request: Request) -> Response:
        manager = holder["manager"]
        return JSONResponse({
            "ok": True,
            "tables": sum(1 for lv in manager.live.values() if lv.table.status != "over"),
            **manager.stats,
        })

    async def socket(scope: Scope, receive: Receive, send: Send) -> None:
        """The game protocol on ``/ws``, straight on ASGI (Starlette's WebSocket adds
        a few calls to every message and is not needed here)."""
        if (await receive())["type"] != "websocket.connect":
            return
        if scope.get("path") != "/ws":
            await send({"type": "websocket.close", "code": 1000})
            return
        await send({"type": "websocket.accept"})
        manager = holder["manager"]
        client = _SocketClient(send)
        conn = manager.connect(client)
        try:
            kind = ""
            while not client.closed:
                message = await receive()
                kind = message["type"]
                if kind == "websocket.receive":
                    data = message.get("text")
                    manager.handle(conn, message.get("bytes") if data is None else data)
                elif kind == "websocket.disconnect":
                    break
            # closed by this side: what the peer still sends is read and dropped until
            # its close ends the socket (a server whose close waits for the peer's
            # answer, as uvicorn's `websockets` does, reads it only once the messages
            # before it are taken), for as long as a close may take
            deadline = asyncio.get_running_loop().time() + CLOSE_SECONDS
            while kind != "websocket.disconnect":
                left = deadline - asyncio.get_running_loop().time()
                kind = (await asyncio.wait_for(receive(), max(left, 0)))["type"]
        except Exception:  # the connection broke under us (or would not close in time)
            pass
        finally:
            manager.disconnect(conn)
            client.close(1000, "bye")
            await client.drained(CLOSE_SECONDS)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/healthz", healthz),
            Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        ],
        lifespan=lifespan,
    )
    app.add_middleware(_SecurityHeaders)

    async def asgi(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await socket(scope, receive, send)
        else:
            await app(scope, receive, send)

    return asgi, wire_protocol(lambda: holder["manager"])
