"""The app's own ASGI ``/ws`` (what any ASGI server other than ``chinchon serve`` serves)
under each WebSocket implementation of uvicorn installed here: a close this side
starts reaches the peer at once, whole, with nothing logged as an error.

uvicorn's ``websockets`` implementation times its close out from inside the coroutine
the app awaits, and waits for the peer's answer, which it reads only once the messages
before it are taken: a close sent as a plain message would fail there, and one whose
connection stops reading would wait for its timeout."""

from __future__ import annotations

import importlib.util
import warnings

import pytest

pytest.importorskip("starlette")
uvicorn_config = pytest.importorskip("uvicorn.config")
pytest.importorskip("websockets")

from websockets.exceptions import ConnectionClosed  # noqa: E402

from chinchon.server.app import CLOSE_SECONDS  # noqa: E402

from .conftest import Client, Server  # noqa: E402

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
    at once gets its burst's pongs, then errors, then a close 1008 while its last
    pings are still unread; the close comes well within the time a close may take."""
    c = Client(asgi_server.url)
    try:
        for _ in range(400):
            c.send({"type": "ping"})
        kinds: list[str] = []
        with pytest.raises(ConnectionClosed):
            while True:
                kinds.append(c.recv(timeout=CLOSE_SECONDS - 1)["type"])
        assert c.ws.close_code == 1008, c.ws.close_code
        assert kinds.count("pong") == 40 and "error" in kinds, kinds
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            c.close()
    asgi_server.stop()
    log = asgi_server.log.read_text()
    assert "ERROR" not in log and "Task was destroyed" not in log, log
