"""The server's own WebSocket code (chinchon.server.wire) against raw frames: what a
client library would never send, and what it always may (fragments, pings)."""

from __future__ import annotations

import base64
import json
import os
import socket
from typing import Any, Iterator, Optional

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from .conftest import Server  # noqa: E402


class Raw:
    """A WebSocket client that writes its frames by hand."""

    def __init__(self, port: int, path: str = "/ws", rcvbuf: Optional[int] = None) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:  # before connecting: the window it offers stays small
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                          f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                          f"Sec-WebSocket-Version: 13\r\n\r\n".encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            self.buf += chunk
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        self.status = head.split(b"\r\n")[0].decode()

    def frame(self, opcode: int, payload: bytes, fin: bool = True, masked: bool = True,
              rsv: int = 0) -> None:
        b0 = (0x80 if fin else 0) | rsv | opcode
        n = len(payload)
        m = 0x80 if masked else 0
        length = (bytes([n | m]) if n < 126 else bytes([126 | m]) + n.to_bytes(2, "big")
                  if n < 65536 else bytes([127 | m]) + n.to_bytes(8, "big"))
        if masked:
            mask = os.urandom(4)
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            length += mask
        self.sock.sendall(bytes([b0]) + length + payload)

    def read(self) -> tuple[int, bytes]:
        """The next frame: (opcode, payload); (-1, b"") when the connection ended."""
        while True:
            if len(self.buf) >= 2:
                n, head = self.buf[1] & 0x7F, 2
                if n == 126 and len(self.buf) >= 4:
                    n, head = int.from_bytes(self.buf[2:4], "big"), 4
                if n != 126 and len(self.buf) >= head + n:
                    opcode, payload = self.buf[0] & 0x0F, self.buf[head:head + n]
                    self.buf = self.buf[head + n:]
                    return opcode, payload
            chunk = self.sock.recv(65536)
            if not chunk:
                return -1, b""
            self.buf += chunk

    def message(self) -> dict[str, Any]:
        while True:
            opcode, payload = self.read()
            assert opcode in (1, 9), (opcode, payload)
            if opcode == 1:
                return dict(json.loads(payload))

    def closed_with(self) -> Optional[int]:
        """The code of the server's close frame (messages before it are skipped)."""
        while True:
            opcode, payload = self.read()
            if opcode == 8:
                return int.from_bytes(payload[:2], "big")
            if opcode == -1:
                return None

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def raw(server: Server) -> Iterator[Any]:
    opened: list[Raw] = []

    def make(path: str = "/ws", rcvbuf: Optional[int] = None) -> Raw:
        r = Raw(server.port, path, rcvbuf)
        opened.append(r)
        return r

    yield make
    for r in opened:
        r.close()


def test_the_handshake_and_a_fragmented_message(raw: Any) -> None:
    c = raw()
    assert c.status.startswith("HTTP/1.1 101")
    assert c.message()["type"] == "welcome"
    c.frame(1, b'{"type":"pi', fin=False)
    c.frame(9, b"hi")           # a ping between the fragments is answered at once
    assert c.read() == (10, b"hi")
    c.frame(0, b'ng","id":', fin=False)
    c.frame(0, b"5}")
    assert c.message() == {"type": "pong", "id": 5}
    c.frame(2, b'{"type":"ping","id":6}')   # a binary message is read as UTF-8 JSON
    assert c.message() == {"type": "pong", "id": 6}


def test_another_path_is_refused(raw: Any) -> None:
    assert raw("/other").status.startswith("HTTP/1.1 403")


@pytest.mark.parametrize("send, code", [
    (lambda c: c.frame(1, b'{"type":"ping"}', masked=False), 1002),
    (lambda c: c.frame(1, b'{"type":"ping"}', rsv=0x40), 1002),
    (lambda c: c.frame(0, b"stray"), 1002),
    (lambda c: c.frame(3, b"?"), 1002),
    (lambda c: c.frame(9, b"x" * 126), 1002),
    (lambda c: c.frame(1, b'{"type":"ping","id":"\xff"}'), 1007),
    (lambda c: c.frame(1, b"x" * 70000), 1009),
], ids=["unmasked", "reserved bit", "stray continuation", "unknown opcode",
        "long ping", "not UTF-8", "too big"])
def test_a_broken_frame_closes_the_connection_with_its_code(raw: Any, send: Any,
                                                           code: int) -> None:
    c = raw()
    assert c.message()["type"] == "welcome"
    send(c)
    assert c.closed_with() == code
    other = raw()  # the server lives on
    assert other.message()["type"] == "welcome"


@pytest.mark.parametrize("body, code", [
    ((1000).to_bytes(2, "big") + b"bye", 1000),
    (b"", 1000),
    ((4001).to_bytes(2, "big"), 4001),
    ((1012).to_bytes(2, "big"), 1012),
    (b"\x03", 1002),
    ((1005).to_bytes(2, "big"), 1002),
    ((1016).to_bytes(2, "big"), 1002),
    ((2999).to_bytes(2, "big"), 1002),
    ((999).to_bytes(2, "big"), 1002),
    ((1000).to_bytes(2, "big") + b"\xff\xfe", 1007),
], ids=["normal", "no body", "an application's", "restart", "one byte", "reserved",
        "unassigned", "protocol's", "under 1000", "reason not UTF-8"])
def test_a_close_is_answered(raw: Any, body: bytes, code: int) -> None:
    c = raw()
    assert c.message()["type"] == "welcome"
    c.frame(8, body)
    assert c.closed_with() == code
    assert c.read() == (-1, b"")


def test_a_peer_that_pings_and_never_reads_holds_one_pong(raw: Any) -> None:
    """Pings answered while the peer's socket takes them; while it is full, only the
    last ping's pong waits (memory bounded however long it pings), sent once the
    socket takes more, before what the server sends after it. 100,000 pongs would
    take 12.7 MB: more than the kernel's buffers hold for a peer whose receive buffer
    is 4 KiB (before this rule every pong waited, and the server's first message
    after them closed the connection as too slow)."""
    c = raw(rcvbuf=4096)
    assert c.message()["type"] == "welcome"
    n = 100_000
    frames = []
    for i in range(n):
        payload = b"%07d" % i + b"." * 118  # the longest a control frame may be
        mask = os.urandom(4)
        frames.append(bytes([0x89, 0x80 | len(payload)]) + mask
                      + bytes(b ^ mask[k % 4] for k, b in enumerate(payload)))
    for start in range(0, n, 1000):
        c.sock.sendall(b"".join(frames[start:start + 1000]))
    c.frame(1, b'{"type":"ping","id":1}')
    pongs = []
    while True:
        opcode, payload = c.read()
        if opcode == 10:
            pongs.append(payload)
            continue
        assert opcode == 1, (opcode, payload)
        assert json.loads(payload) == {"type": "pong", "id": 1}
        break
    assert len(pongs) < n // 2, len(pongs)
    # in order, the skipped ones those of the pings answered while a later one came in,
    # and the last ping's answered
    seen = [int(p[:7]) for p in pongs]
    assert seen == sorted(set(seen)) and seen[-1] == n - 1, seen[-5:]


def test_a_message_of_many_empty_pieces_is_too_big(raw: Any) -> None:
    """Each piece's frame counts against the size: 12,000 empty continuation frames (72
    KB, six bytes each: a header and a mask) were one message, read at a cost that grew
    with the square of their number while every table waited."""
    c = raw()
    assert c.message()["type"] == "welcome"
    c.frame(1, b'{"type":"ping","id":"f"', fin=False)
    c.sock.sendall((bytes([0x00, 0x80]) + os.urandom(4)) * 12_000)
    c.frame(0, b"}")
    while True:  # the close, not the message's pong
        opcode, payload = c.read()
        assert opcode != 1, f"the message was read: {payload!r}"
        if opcode in (8, -1):
            break
    assert opcode == 8 and int.from_bytes(payload[:2], "big") == 1009
    other = raw()  # the server lives on
    assert other.message()["type"] == "welcome"


@pytest.mark.parametrize("opcode", [9, 10, 8])
def test_a_control_frame_announcing_more_than_125_bytes_is_refused_by_its_header(
        raw: Any, opcode: int) -> None:
    """A ping (pong, close) whose header announces a gigabyte is refused when its
    header arrives, not buffered byte by byte until it is complete: the server read
    such a frame's payload without limit (64 MiB of it grew the server by about 140 MB
    and held every table's replies for seconds)."""
    c = raw()
    assert c.message()["type"] == "welcome"
    c.sock.sendall(bytes([0x80 | opcode, 0x80 | 127]) + (1 << 30).to_bytes(8, "big")
                   + os.urandom(4) + b"x" * 1000)  # no more: the payload never comes
    assert c.closed_with() == 1002
    other = raw()  # the server lives on
    assert other.message()["type"] == "welcome"


def test_an_unfinished_control_frame_is_refused_by_its_header(raw: Any) -> None:
    c = raw()
    assert c.message()["type"] == "welcome"
    c.frame(9, b"ping", fin=False)
    assert c.closed_with() == 1002
