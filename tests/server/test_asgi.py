"""The app's own ASGI ``/ws`` (what any ASGI server other than ``chinchon serve`` serves)
under each WebSocket implementation of uvicorn installed here: a close this side
starts reaches the peer at once, whole, with nothing logged as an error.

uvicorn's ``websockets`` implementation times its close out from inside the coroutine
the app awaits, and waits for the peer's answer, which it reads only once the messages
before it are taken: a close sent as a plain message would fail there, and one whose
connection stops reading would wait for its timeout."""

from __future__ import annotations

import importlib.util
import json
import os
import time

import pytest

pytest.importorskip("starlette")
uvicorn_config = pytest.importorskip("uvicorn.config")
pytest.importorskip("websockets")

from chinchon.server.app import CLOSE_SECONDS  # noqa: E402
from chinchon.server.config import ServerConfig  # noqa: E402

from .conftest import Server  # noqa: E402
from .test_wire import Raw  # noqa: E402

#: uvicorn's WebSocket implementations whose library is installed
IMPLEMENTATIONS = [
    ws for ws, library in (("websockets", "websockets"), ("websockets-sansio", "websockets"),
                           ("wsproto", "wsproto"))
    if ws in uvicorn_config.WS_PROTOCOLS and importlib.util.find_spec(library) is not None]


@pytest.fixture(params=IMPLEMENTATIONS)
def asgi_server(request: pytest.FixtureRequest, tmp_path) -> Server:
    s = Server(tmp_path / "tables.sqlite3", asgi=request.param)
    yield s
    s.stop()


def test_a_flooding_client_is_closed_at_once_with_its_code(asgi_server: Server) -> None:
    """The default rate limit (20 a second, a burst of 40): a client sending 400 pings
    in one write gets its burst's pongs, then errors, then a close 1008 while its last
    pings are still unread; once it answers the close, the server ends the connection
    well within the time a close may take. (Written by hand, frame by frame: a client
    library still sending when the close comes waits on its own close instead.)"""
    c = Raw(asgi_server.port)
    try:
        assert c.message()["type"] == "welcome"
        ping = b'{"type":"ping"}'
        frames = []
        for _ in range(400):
            mask = os.urandom(4)
            frames.append(bytes([0x81, 0x80 | len(ping)]) + mask
                          + bytes(b ^ mask[k % 4] for k, b in enumerate(ping)))
        sent = time.monotonic()
        c.sock.sendall(b"".join(frames))
        kinds: list[str] = []
        while True:
            opcode, payload = c.read()
            if opcode != 1:
                break
            kinds.append(json.loads(payload)["type"])
        closed = time.monotonic()
        assert opcode == 8 and int.from_bytes(payload[:2], "big") == 1008, (opcode, payload)
        # the burst, and what the allowance refilled meanwhile at 20 a second (on a busy
        # machine the 400 pings take more than the 50 ms of one refill)
        refilled = int(ServerConfig.rate * (closed - sent)) + 1
        assert 40 <= kinds.count("pong") <= 40 + refilled and "error" in kinds, kinds
        c.frame(8, (1008).to_bytes(2, "big"))  # the close answered
        c.sock.settimeout(CLOSE_SECONDS - 1)
        assert c.read() == (-1, b"")  # the server ends the connection
    finally:
        c.close()
    asgi_server.stop()
    log = asgi_server.log.read_text()
    assert "ERROR" not in log and "Task was destroyed" not in log, log
