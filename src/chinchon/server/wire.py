"""The WebSocket endpoint straight on the event loop's transport (RFC 6455), for
``chinchon serve``: uvicorn hands each upgrade request on ``/ws`` to
:class:`Wire` (its ``ws`` protocol class), which speaks the frames itself and calls the
manager directly.

Why: through ASGI every message in took a queue, a task's wake-up and a parse by a
general WebSocket library, and every message out a coroutine and the library's frame
building, about half of the server's CPU per action under the load test. Here a
message in is parsed from the bytes read and handed to ``Manager.handle`` at once; a
message out is one ``transport.write`` of a two- or four-byte header and the text.

What it does, as a WebSocket server must: the opening handshake (version 13; no
extension or subprotocol is agreed); client frames must be masked, carry no reserved
bit and a known opcode (else close 1002); messages may be fragmented; a frame or
message larger than ``ws_max_size`` closes the connection with 1009 and a text message
that is no UTF-8 with 1007; a ping is answered, and the server pings every
``ws_ping_interval`` seconds and drops a connection whose pong is ``ws_ping_timeout``
late (1011); a close is answered (its code echoed; 1002 for a malformed one, 1007 for
a reason that is no UTF-8) and ends the connection. A peer that stops reading is
written to until the transport's buffer is full, then its messages wait, bounded
(:data:`SEND_QUEUE`, the same rule as the ASGI endpoint of :mod:`.app`): past that it
is closed with 1013; of its pings, only the last one's pong waits. Other paths are refused (403), as the app does.

This module imports nothing of uvicorn: the class only has the constructor uvicorn
calls (``config``, ``server_state``, ``app_state``) and reads the ``ws_*`` settings of
that config.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import struct
from typing import Any, Callable, Optional

from .live import Conn
from .manager import Manager

__all__ = ["Wire", "wire_protocol", "frame_length", "SEND_QUEUE"]

log = logging.getLogger("uvicorn.error")

#: messages held for a connection whose transport is full before it counts as too
#: slow and is dropped (as the ASGI endpoint's queue)
SEND_QUEUE = 1024
#: seconds a closing connection may take to answer the close before it is cut
CLOSE_TIMEOUT = 10.0

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TEXT, _BINARY, _CONT, _CLOSE, _PING, _PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA
#: the least a client's frame takes besides its payload: two bytes of header and the
#: mask's four; a message's pieces count it against the size limit
_FRAME_OVERHEAD = 6


def frame_length(buf: bytes, pos: int, size: int) -> Optional[tuple[int, int]]:
    """``(payload length, header bytes before the mask key)`` of the frame starting at
    ``buf[pos]`` (of ``size`` bytes read), or None while its length is not all read."""
    length, head = buf[pos + 1] & 0x7F, 2
    if length == 126:
        if size - pos < 4:
            return None
        return int.from_bytes(buf[pos + 2:pos + 4], "big"), 4
    if length == 127:
        if size - pos < 10:
            return None
        return int.from_bytes(buf[pos + 2:pos + 10], "big"), 10
    return length, head


_SHORT, _MEDIUM, _LONG = (struct.Struct(f).pack for f in ("!BB", "!BBH", "!BBQ"))


def _header(opcode: int, n: int) -> bytes:
    """A final, unmasked frame's header for a payload of ``n`` bytes (one struct call:
    every view sent has one)."""
    if n < 126:
        return _SHORT(0x80 | opcode, n)
    if n < 65536:
        return _MEDIUM(0x80 | opcode, 126, n)
    return _LONG(0x80 | opcode, 127, n)


def _unmask(payload: bytes, mask: bytes) -> bytes:
    n = len(payload)
    if not n:
        return payload
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")


#: the codes a peer may send in its close (RFC 6455, 7.4, and IANA's registry): the
#: rest of 1000-2999 is the protocol's own or unassigned, 3000-4999 are applications'
_PEER_CLOSE_CODES = frozenset((1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011,
                               1012, 1013, 1014))


def _answer_to_close(payload: bytes) -> int:
    """The code that answers a peer's close of ``payload``: its own code echoed (1000
    when it gave none); 1002 for a body of one byte or a code no peer may send, 1007
    for a reason that is not UTF-8."""
    if not payload:
        return 1000
    if len(payload) == 1:
        return 1002
    code = int.from_bytes(payload[:2], "big")
    if code not in _PEER_CLOSE_CODES and not 3000 <= code <= 4999:
        return 1002
    try:
        payload[2:].decode("utf-8")
    except UnicodeDecodeError:
        return 1007
    return code


def _close_payload(code: int, reason: str) -> bytes:
    return code.to_bytes(2, "big") + reason.encode()[:120]


class Wire(asyncio.Protocol):
    """One WebSocket connection (see the module docstring). ``manager`` gives the
    server's :class:`Manager` (set by :func:`wire_protocol`)."""

    manager: Callable[[], Manager]
    path = "/ws"

    def __init__(self, config: Any, server_state: Any, app_state: Any = None,
                 _loop: Optional[asyncio.AbstractEventLoop] = None) -> None:
        self.loop = _loop or asyncio.get_event_loop()
        self.max_size: int = config.ws_max_size
        self.ping_interval: Optional[float] = config.ws_ping_interval
        self.ping_timeout: Optional[float] = config.ws_ping_timeout
        self.server_state = server_state
        self.transport: Any = None
        self.buffer = b""
        self.upgraded = False
        self.conn: Optional[Conn] = None     # the manager's, once upgraded
        self.gone = False                    # the manager was told
        self.close_sent = False              # nothing more is sent; messages in are dropped
        self.lost = False                    # the transport is closed
        self.paused = False                  # the transport's buffer is full
        self.backlog: list[bytes] = []       # frames waiting for it to drain
        self.pong: Optional[bytes] = None     # the pong of the peer's last ping, waiting too
        self.fragments: list[bytes] = []
        # the bytes of the message's frames so far, each frame's header and mask
        # included: thousands of empty pieces reach the limit too, at a constant cost
        # a frame (the sum of every piece at every frame was quadratic)
        self.fragments_size = 0
        self.fragment_opcode: Optional[int] = None
        self.timer: Optional[asyncio.TimerHandle] = None   # the next ping, or its deadline
        self.close_timer: Optional[asyncio.TimerHandle] = None

    # ------------------------------------------------------------------ transport events

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.server_state.connections.add(self)

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self.lost = self.close_sent = True
        self.backlog.clear()
        self.pong = None
        for timer in (self.timer, self.close_timer):
            if timer is not None:
                timer.cancel()
        self.server_state.connections.discard(self)
        self._tell_manager()

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        if self.pong is not None:  # first: a control frame may come between messages
            self.backlog.insert(0, self.pong)
            self.pong = None
        if self.backlog and not self.lost:
            data, self.backlog = b"".join(self.backlog), []
            self.transport.write(data)

    def shutdown(self) -> None:
        """The server stops (uvicorn calls this on every connection): going away."""
        if not self.upgraded:
            self.transport.close()
            return
        self._close_frame(1012, "the server is restarting")
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if not self.upgraded:
            self._handshake(data)
            return
        buf = self.buffer + data if self.buffer else data
        pos, size = 0, len(buf)
        while size - pos >= 2 and not self.lost:
            b0, b1 = buf[pos], buf[pos + 1]
            known = frame_length(buf, pos, size)
            if known is None:
                break
            length, head = known
            if not b1 & 0x80:
                return self._fail(1002, "a client's frames must be masked")
            if b0 & 0x70:
                return self._fail(1002, "reserved bits set: no extension was agreed")
            if b0 & 0x0F >= 0x8:
                if not b0 & 0x80 or length > 125:  # refused by its header, not buffered
                    return self._fail(1002, "a control frame is final and at most 125 bytes")
            elif length + (self.fragments_size + _FRAME_OVERHEAD if b0 & 0x0F == _CONT
                           else 0) > self.max_size:
                return self._fail(1009, f"a message is at most {self.max_size} bytes")
            end = pos + head + 4 + length
            if end > size:
                break
            payload = _unmask(buf[pos + head + 4:end], buf[pos + head:pos + head + 4])
            pos = end
            self._frame(b0 & 0x0F, bool(b0 & 0x80), payload)
        self.buffer = buf[pos:] if pos < size else b""

    # ------------------------------------------------------------------ frames in

    def _frame(self, opcode: int, fin: bool, payload: bytes) -> None:
        if opcode == _TEXT or opcode == _BINARY:
            if self.fragment_opcode is not None:
                return self._fail(1002, "a new message before the last one ended")
            if fin:
                return self._message(opcode, payload)
            self.fragment_opcode, self.fragments = opcode, [payload]
            self.fragments_size = len(payload) + _FRAME_OVERHEAD
        elif opcode == _CONT:
            if self.fragment_opcode is None:
                return self._fail(1002, "a continuation of no message")
            self.fragments.append(payload)
            self.fragments_size += len(payload) + _FRAME_OVERHEAD
            if fin:
                opcode, self.fragment_opcode = self.fragment_opcode, None
                data, self.fragments, self.fragments_size = b"".join(self.fragments), [], 0
                self._message(opcode, data)
        elif opcode == _CLOSE:
            self._peer_closed(payload)
        elif opcode == _PING:
            if not self.close_sent:
                pong = _header(_PONG, len(payload)) + payload
                if self.paused:
                    # only the last ping's pong waits (RFC 6455, 5.5.3, allows it): a
                    # peer that pings and never reads holds one pong, not one a ping
                    self.pong = pong
                else:
                    self.transport.write(pong)
        elif opcode == _PONG:
            if self.timer is not None and self.ping_interval:  # the pong came in time
                self.timer.cancel()
                self.timer = self.loop.call_later(self.ping_interval, self._ping)
        else:
            self._fail(1002, f"unknown opcode {opcode}")

    def _message(self, opcode: int, payload: bytes) -> None:
        if self.close_sent or self.conn is None:
            return  # closing: what comes now is not read
        if opcode == _TEXT:
            try:
                text = payload.decode()
            except UnicodeDecodeError:
                return self._fail(1007, "a text message must be UTF-8")
            self.manager().handle(self.conn, text)
        else:
            self.manager().handle(self.conn, payload)

    def _peer_closed(self, payload: bytes) -> None:
        """The peer's close: answered (its code echoed) unless this side closed
        first; then the connection ends."""
        if not self.close_sent:
            self._close_frame(_answer_to_close(payload), "")
        self.transport.close()
        self._tell_manager()

    def _fail(self, code: int, reason: str) -> None:
        """A protocol error: close with ``code`` and stop reading."""
        self.buffer = b""
        self._close_frame(code, reason)
        self.transport.close()
        self._tell_manager()

    # ------------------------------------------------------------------ the manager's Client

    def send(self, text: str) -> None:
        if self.close_sent:
            return
        data = text.encode()
        frame = _header(_TEXT, len(data)) + data
        if self.paused:
            if len(self.backlog) >= SEND_QUEUE:
                self.backlog.clear()  # it would never catch up: drop it
                self.close(1013, "too slow: messages were piling up")
                return
            self.backlog.append(frame)
        else:
            self.transport.write(frame)

    def close(self, code: int, reason: str) -> None:
        """Close after what was already sent; the manager is told (soon: not in the
        middle of what it is doing)."""
        if self.close_sent:
            return
        self._close_frame(code, reason)
        self.loop.call_soon(self._tell_manager)

    # ------------------------------------------------------------------ helpers

    def _write(self, frame: bytes) -> None:
        if self.paused:
            self.backlog.append(frame)
        elif not self.lost:
            self.transport.write(frame)

    def _close_frame(self, code: int, reason: str) -> None:
        """Send a close frame (once) and give the peer a while to answer it."""
        if self.close_sent or self.lost:
            return
        payload = _close_payload(code, reason)
        self._write(_header(_CLOSE, len(payload)) + payload)
        self.close_sent = True
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.close_timer = self.loop.call_later(CLOSE_TIMEOUT, self.transport.abort)

    def _tell_manager(self) -> None:
        if self.conn is not None and not self.gone:
            self.gone = True
            self.manager().disconnect(self.conn)

    def _ping(self) -> None:
        if self.close_sent:
            return
        self._write(_header(_PING, 4) + b"ping")
        if self.ping_timeout:
            self.timer = self.loop.call_later(self.ping_timeout, self._ping_late)
        else:
            self.timer = None

    def _ping_late(self) -> None:
        self.timer = None
        self._close_frame(1011, "keepalive ping timeout")
        self.transport.close()
        self._tell_manager()

    # ------------------------------------------------------------------ the handshake

    def _handshake(self, data: bytes) -> None:
        buf = self.buffer + data
        end = buf.find(b"\r\n\r\n")
        if end < 0:
            if len(buf) > 65536:
                return self._refuse(b"431 Request Header Fields Too Large")
            self.buffer = buf
            return
        self.buffer = b""
        head, rest = buf[:end].decode("latin-1").split("\r\n"), buf[end + 4:]
        parts = head[0].split(" ")
        headers: dict[str, str] = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            key = name.strip().lower()
            value = value.strip()
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        if len(parts) != 3 or parts[0] != "GET":
            return self._refuse(b"400 Bad Request")
        if parts[1].split("?", 1)[0] != self.path:
            return self._refuse(b"403 Forbidden")
        key = headers.get("sec-websocket-key", "")
        try:
            valid_key = len(base64.b64decode(key, validate=True)) == 16
        except ValueError:
            valid_key = False
        if headers.get("sec-websocket-version") != "13":
            return self._refuse(b"426 Upgrade Required", b"Sec-WebSocket-Version: 13\r\n")
        if not valid_key or "websocket" not in headers.get("upgrade", "").lower():
            return self._refuse(b"400 Bad Request")
        accept = base64.b64encode(hashlib.sha1(key.encode() + _GUID).digest())
        extra = b"".join(name + b": " + value + b"\r\n"
                         for name, value in getattr(self.server_state, "default_headers", []))
        self.transport.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                             b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept
                             + b"\r\n" + extra + b"\r\n")
        self.upgraded = True
        peer = self.transport.get_extra_info("peername")
        log.info('%s - "WebSocket %s" [accepted]', peer[0] if peer else "-", self.path)
        if self.ping_interval:
            self.timer = self.loop.call_later(self.ping_interval, self._ping)
        self.conn = self.manager().connect(self)
        if rest:
            self.data_received(rest)

    def _refuse(self, status: bytes, extra: bytes = b"") -> None:
        self.transport.write(b"HTTP/1.1 " + status + b"\r\ncontent-length: 0\r\n"
                             b"connection: close\r\n" + extra + b"\r\n")
        self.close_sent = True
        self.transport.close()


def wire_protocol(manager: Callable[[], Manager]) -> type[Wire]:
    """The :class:`Wire` class for the server whose manager ``manager()`` returns
    (uvicorn's ``ws`` setting)."""
    return type("ChinchonWire", (Wire,), {"manager": staticmethod(manager)})
