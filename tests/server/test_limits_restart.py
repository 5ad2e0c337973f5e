"""Bad input and abuse against a server with its default limits; a server killed with
SIGKILL and started again."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from .conftest import Client, Server  # noqa: E402
from .test_protocol import kill_and_resume, mid_hand_table, play, wait_view  # noqa: E402


@pytest.fixture(scope="module")
def plain_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The default limits: 20 messages a second per connection, bursts of 40."""
    s = Server(tmp_path_factory.mktemp("plain") / "tables.sqlite3", "--bot-delay", "0")
    yield s
    s.stop()


BAD: list[tuple[Any, str, str]] = [
    ("not json", "bad_json", "JSON"),
    ("[1, 2]", "bad_message", "object"),
    ('{"type": "fly"}', "bad_message", "unknown message type"),
    ('{"no": "type"}', "bad_message", "unknown message type"),
    ('{"type": "draw"}', "bad_message", "missing field 'source'"),
    ('{"type": "draw", "source": "stock", "extra": 1}', "bad_message", "unknown field 'extra'"),
    ('{"type": "create", "name": "A", "players": "4"}', "bad_message", "players must be an integer"),
    ('{"type": "create", "name": "A", "players": true}', "bad_message", "players must be an integer"),
    ('{"type": "create", "name": "", "players": 4}', "bad_message", "name"),
    ('{"type": "create", "name": "\\u202e\\u200b", "players": 4}', "bad_message", "visible"),
    ('{"type": "create", "name": "' + "x" * 25 + '", "players": 4}', "bad_message", "24"),
    ('{"type": "discard", "card": 7}', "bad_message", "card must be a string"),
    ('{"type": "ping", "v": 2}', "unsupported_version", "version 1"),
    ('{"type": "ping", "id": {"a": 1}}', "bad_message", "id"),
    ('{"type": "ping", "n": NaN}', "bad_json", "JSON"),
    ("[" * 5000, "too_big", "2048"),
    (json.dumps({"type": "lobby", "pad": "x" * 3000}), "too_big", "2048"),
    (b"\xff\xfe", "bad_json", "UTF-8"),
]


@pytest.mark.parametrize("raw, code, words", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_a_bad_message_gets_an_error_and_the_connection_lives_on(
        plain_server: Server, clients: list[Client], raw: Any, code: str, words: str) -> None:
    c = plain_server.client()
    clients.append(c)
    c.send_raw(raw)
    reply = c.recv()
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert words in reply["message"], reply
    assert c.request({"type": "ping"})["type"] == "pong"


def test_a_huge_frame_closes_the_connection_but_not_the_server(
        plain_server: Server, clients: list[Client]) -> None:
    from websockets.exceptions import ConnectionClosed

    c = plain_server.client()
    c.send_raw("x" * 200_000)  # past the WebSocket limit itself: closed with 1009
    with pytest.raises(ConnectionClosed) as info:
        c.recv()
    assert info.value.rcvd is not None and info.value.rcvd.code == 1009
    other = plain_server.client()
    clients.append(other)
    assert other.request({"type": "ping"})["type"] == "pong"


def test_a_flood_is_rate_limited_then_cut_off(plain_server: Server, clients: list[Client]) -> None:
    c = plain_server.client()
    clients.append(c)
    for _ in range(60):
        c.send({"type": "ping"})
    replies = [c.recv() for _ in range(60)]
    pongs = sum(m["type"] == "pong" for m in replies)
    limited = [m for m in replies if m["type"] == "error"]
    assert 40 <= pongs <= 45 and limited and all(m["code"] == "rate_limited" for m in limited)
    time.sleep(0.5)  # the bucket refills at 20 a second
    assert c.request({"type": "ping"})["type"] == "pong"
    # a client that keeps hammering is disconnected
    from websockets.exceptions import ConnectionClosed

    abuser = plain_server.client()
    with pytest.raises(ConnectionClosed):
        for _ in range(1000):
            abuser.send({"type": "ping"})
        for _ in range(1000):
            abuser.recv(5)
    assert c.request({"type": "ping"})["type"] == "pong"


def test_names_are_cleaned_of_control_characters_and_kept_verbatim_otherwise(
        plain_server: Server, clients: list[Client]) -> None:
    c = plain_server.client()
    clients.append(c)
    name = "<i onclick=x>\n&amp;\u200b"
    assert c.request({"type": "create", "name": name, "players": 3, "bots": 2})["type"] == "seated"
    view = wait_view(c, lambda v: True)
    assert view["seats"][0]["name"] == "<i onclick=x> &amp;"


def test_sigkill_and_restart_resume_the_table_mid_hand(tmp_path: Path) -> None:
    """The table's snapshot is committed with each event: the server killed mid-hand
    comes back from it alone, replaying nothing."""
    from chinchon.server.tables import Table

    with mid_hand_table(tmp_path) as (server, person, opened, before):
        table = person.table
        assert before["status"] == "playing"
        assert before["seq"] == server.stored_seq(table)
        assert before["game"]["last_hand"] is not None
        con = sqlite3.connect(f"file:{server.db}?mode=ro", uri=True)
        seq, snap_seq, meta, game, state = con.execute(
            "SELECT t.seq, s.snap_seq, s.meta, s.game, t.state FROM tables t "
            "JOIN snapshots s ON s.table_id = t.id WHERE t.id=?", (table,)).fetchone()
        records = [json.loads(r) for (r,) in con.execute(
            "SELECT record FROM events WHERE table_id=? ORDER BY seq", (table,))]
        con.close()
        # the stored snapshot (base and state) is the table at its last event, with no
        # event to replay: the same as replaying every event from the table's creation
        assert seq == before["seq"] == len(records) and snap_seq <= seq
        stored = Table.restore(meta, game, state)
        assert stored.seq == seq
        assert stored.fingerprint() == Table.replay(records).fingerprint()
        back, after = kill_and_resume(server, person, opened, before["seq"])
        assert after["hand"] == before["hand"] and after["you"] == before["you"]
        for key in ("totals", "chips", "in_game", "hand_number", "turn", "phase", "lead",
                    "discard_top", "discard_size", "stock_size", "last_hand"):
            assert after["game"][key] == before["game"][key], key
        assert after["can"]["draw"] == before["can"]["draw"]
        # and the game goes on from there, with the same stock
        top_of_stock = stored.game.to_dict()["stock"][0]
        reply = back.request({"type": "draw", "source": "stock"})
        assert reply["type"] == "view" and len(reply["hand"]) == 8
        assert reply["event"]["card"] == top_of_stock
        assert reply["game"]["stock_size"] == before["game"]["stock_size"] - 1
        final = play(back)
        assert final["status"] == "over"
