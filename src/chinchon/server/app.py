"""The ASGI application: the page, its static files and the one WebSocket endpoint.

``create_app(config)`` builds a Starlette app around one :class:`Manager`:

- ``GET /`` the page (``static/index.html``), ``/static/...`` its CSS and JS;
- ``GET /healthz`` a small JSON status (tables, connections, events stored);
- ``WS /ws`` the game protocol (docs/protocol.md).

Each WebSocket gets a reader (this module's endpoint: every message goes to
``Manager.handle``, which never awaits) and a writer task draining a bounded queue, so
that a slow client never holds up a table: a client that lets its queue fill up is
disconnected (its seat then waits for it like any dropped connection).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from pathlib import Path
from typing import AsyncIterator, Optional

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .manager import Manager, ServerConfig
from .store import Store

__all__ = ["create_app", "STATIC_DIR"]

STATIC_DIR = Path(__file__).resolve().parent / "static"

#: messages queued for one connection before it counts as too slow and is dropped
SEND_QUEUE = 1024

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
    """A :class:`~chinchon.server.manager.Client` over a Starlette WebSocket: ``send``
    appends to a buffer that one writer task drains in order."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.buffer: deque[str] = deque()
        self.wakeup = asyncio.Event()
        self.closed = False
        self.close_with: Optional[tuple[int, str]] = None

    def send(self, text: str) -> None:
        if self.closed:
            return
        if len(self.buffer) >= SEND_QUEUE:
            self.buffer.clear()  # it would never catch up: drop it
            self.close(1013, "too slow: messages were piling up")
            return
        self.buffer.append(text)
        self.wakeup.set()

    def close(self, code: int, reason: str) -> None:
        """Close once the messages already queued are sent; nothing more is queued."""
        if self.closed:
            return
        self.closed = True
        self.close_with = (code, reason)
        self.wakeup.set()

    async def writer(self) -> None:
        ws = self.ws
        buffer = self.buffer
        try:
            while True:
                await self.wakeup.wait()
                self.wakeup.clear()
                while buffer:
                    await ws.send_text(buffer.popleft())
                if self.close_with is not None:
                    if ws.application_state == WebSocketState.CONNECTED:
                        await ws.close(*self.close_with)
                    return
        except Exception:  # the socket is gone; the reader sees the disconnect
            self.closed = True
            with contextlib.suppress(Exception):
                await ws.close(1011)


def create_app(config: Optional[ServerConfig] = None, *,
               store: Optional[Store] = None) -> Starlette:
    """The server as an ASGI app. The manager opens (or creates) ``config.db`` at
    startup and resumes every unfinished table in it."""
    config = config or ServerConfig()
    holder: dict[str, Manager] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
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

    async def socket(ws: WebSocket) -> None:
        manager = holder["manager"]
        await ws.accept()
        client = _SocketClient(ws)
        writer = asyncio.create_task(client.writer())
        conn = manager.connect(client)
        try:
            while not client.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes")
                manager.handle(conn, data)
        except WebSocketDisconnect:
            pass
        finally:
            manager.disconnect(conn)
            client.close(1000, "bye")
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/healthz", healthz),
            WebSocketRoute("/ws", socket),
            Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        ],
        lifespan=lifespan,
    )
    app.add_middleware(_SecurityHeaders)
    return app

