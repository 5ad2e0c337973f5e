"""The server's parts without sockets: message checks, tables as event records, the
manager's group commit (with an injected clock and a store that fails). The store's own
tests are in test_store.py. These need only the standard library, so they run without
the server extra too."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from chinchon import IllegalAction
from chinchon.rules import HOUSE_RULES, PRESETS, Rules
from chinchon.server.live import Live
from chinchon.server.manager import Manager, ServerConfig
from chinchon.server.protocol import MAX_MESSAGE_BYTES, ProtocolError, clean_name, parse_message
from chinchon.server.store import StoreError
from chinchon.server.tables import Table
from chinchon.server.views import view_for

from .conftest import FakeClient, table_record


# ---------------------------------------------------------------------------- protocol

def test_parse_fills_nothing_it_was_not_given_and_keeps_the_id() -> None:
    assert parse_message('{"type": "draw", "source": "stock", "id": 5, "v": 1}') == \
        {"type": "draw", "source": "stock", "id": 5}
    assert parse_message(b'{"type": "ping"}') == {"type": "ping"}


@pytest.mark.parametrize("raw, code", [
    ('{"type": "close", "card": "7o", "close": true}', "bad_message"),
    ('{"type": "resume", "table": "t", "seat": -1, "token": "x"}', "bad_message"),
    ('{"type": "resume", "table": "t", "seat": 1.0, "token": "x"}', "bad_message"),
    ('{"type": "join", "table": "", "name": "A"}', "bad_message"),
    ('{"type": "ping", "v": "1"}', "unsupported_version"),
    # another version's message may be of a type this one lacks: the version is said
    ('{"type": "nope", "v": 2}', "unsupported_version"),
    ('{"v": 2}', "unsupported_version"),
    ("1e999999", "bad_message"),
    (None, "bad_json"),
    ("x" * (MAX_MESSAGE_BYTES + 1), "too_big"),
    ('{"type": "lobby", "p": "' + "é" * 1100 + '"}', "too_big"),  # 2 bytes a character
])
def test_parse_refuses(raw: Any, code: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_message(raw)
    assert info.value.code == code


def test_a_refused_message_keeps_its_id_for_the_error() -> None:
    with pytest.raises(ProtocolError) as info:
        parse_message('{"type": "draw", "source": "hat", "id": "r1"}')
    assert info.value.request_id == "r1"


def test_names_lose_control_and_format_characters_only() -> None:
    assert clean_name("  Ana\t\n María  ") == "Ana María"
    assert clean_name("<b>Bo</b> & \u202eevil\u200b") == "<b>Bo</b> & evil"
    with pytest.raises(ProtocolError):
        clean_name("\u200b\u200c")


def test_a_name_counts_the_characters_it_shows() -> None:
    """An accent typed apart rides on its letter (13 of them are 13 characters); a
    filler that shows as nothing is a space; marks alone show nothing."""
    accented = "e\u0301" * 13
    assert clean_name(accented) == accented
    assert clean_name("Ana\u3164Bea") == "Ana Bea"
    for blank in ("\u3164", "\u115f\u1160", "\uffa0 \u2800", "\u0301", " \u0301\u0302 "):
        with pytest.raises(ProtocolError, match="visible"):
            clean_name(blank)
    for long in ("x" * 25, "e\u0301" * 25, "x" + "\u0301" * 96):
        with pytest.raises(ProtocolError, match="at most 24"):
            clean_name(long)
    assert clean_name("x" * 24) == "x" * 24


# ---------------------------------------------------------------------------- tables

def test_a_table_is_its_events_and_a_refused_event_changes_nothing() -> None:
    t = Table.from_create(table_record(players=3, bots=1))
    records = [table_record(players=3, bots=1)]
    for r in ({"kind": "join", "seat": 1, "name": "Bea", "token_sha256": "1" * 64, "now": 1.0},
              {"kind": "start", "seed": 7, "now": 2.0}):
        t.apply(r)
        records.append(r)
    assert t.status == "playing" and t.game is not None
    before = (t.seq, t.meta_json(), t.game_json())
    wrong = (t.game.turn + 1) % 3
    for bad in ({"kind": "draw", "seat": wrong, "source": "stock", "now": 3.0},
                {"kind": "discard", "seat": t.game.turn, "card": "1o", "now": 3.0},
                {"kind": "ready", "seat": 0, "now": 3.0},
                {"kind": "join", "seat": 2, "name": "X", "token_sha256": "", "now": 3.0},
                {"kind": "fly", "now": 3.0}):
        with pytest.raises(IllegalAction):
            t.apply(dict(bad))
        assert (t.seq, t.meta_json(), t.game_json()) == before
    r = {"kind": "draw", "seat": t.game.turn, "source": "stock", "now": 4.0}
    t.apply(r)
    records.append(r)
    assert r["card"] in map(str, t.game.held(r["seat"]))
    again = Table.replay(records)
    assert (again.meta_json(), again.game_json()) == (t.meta_json(), t.game_json())
    # a snapshot plus the events after it is the same table
    loaded = Table.load(Table.replay(records[:3]).meta_json(),
                        Table.replay(records[:3]).game_json(), records[3:])
    assert loaded.game_json() == t.game_json()


def test_a_replay_that_draws_another_card_is_refused() -> None:
    records = [table_record(), {"kind": "join", "seat": 1, "name": "B", "token_sha256": "", "now": 1},
               {"kind": "join", "seat": 2, "name": "C", "token_sha256": "", "now": 1},
               {"kind": "start", "seed": 3, "now": 2}]
    t = Table.replay(records)
    draw = {"kind": "draw", "seat": t.game.turn, "source": "stock", "now": 3}
    t.apply(draw)
    forged = dict(draw, card="1o" if draw["card"] != "1o" else "2o")
    with pytest.raises(IllegalAction, match="replay diverged"):
        Table.replay(records + [forged])


def test_a_stored_card_of_another_spelling_replays_as_the_protocols_text() -> None:
    """An older server stored cards as typed (``7O``); a table loaded from such records
    shows and keeps the one text of the card."""
    records = [table_record(), {"kind": "join", "seat": 1, "name": "B", "token_sha256": "", "now": 1},
               {"kind": "join", "seat": 2, "name": "C", "token_sha256": "", "now": 1},
               {"kind": "start", "seed": 3, "now": 2}]
    t = Table.replay(records)
    seat = t.game.turn
    draw = {"kind": "draw", "seat": seat, "source": "stock", "now": 3}
    t.apply(draw)
    card = str(t.game.held(seat)[0])
    old = {"kind": "discard", "seat": seat, "card": " " + card.upper(), "now": 4}
    t = Table.replay(records + [draw, old])
    assert t.last is not None and t.last["card"] == card
    view = view_for(t, (seat + 1) % 3, connected=[True] * 3, now=4.0, summary_seconds=45)
    assert view["event"]["card"] == card and view["game"]["discard_top"] == card


def test_a_seat_is_stored_with_every_field() -> None:
    """The stored base writes each seat by Seat.to_dict: every field of the dataclass,
    in its order (as dataclasses.asdict), so a field added to Seat is not lost."""
    from dataclasses import asdict

    from chinchon.server.tables import Seat

    for seat in (Seat("open"), Seat("human", "Ana", token_sha256="0" * 64),
                 Seat("bot", "Lola", "greedy")):
        assert list(seat.to_dict().items()) == list(asdict(seat).items())


def test_the_server_offers_every_preset_of_the_package() -> None:
    from chinchon.server.manager import presets

    assert presets() == dict(PRESETS)
    assert Rules.preset("barajamos") is HOUSE_RULES


# ---------------------------------------------------------------------------- manager

def test_manager_group_commit_sends_nothing_before_the_commit_and_survives_a_failed_one(
        tmp_path: Path) -> None:
    now = [100.0]
    config = ServerConfig(db=str(tmp_path / "m.sqlite3"), bot_delay=0, rate=1e6, burst=10**6,
                          clock=lambda: now[0])

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        host, guest = FakeClient(), FakeClient()
        c0, c1 = m.connect(host), m.connect(guest)
        m.handle(c0, json.dumps({"type": "create", "name": "Ana", "players": 3, "id": 1}))
        await asyncio.sleep(0)
        seated = [x for x in host.sent if x["type"] == "seated"]
        table = seated[0]["table"]
        m.handle(c1, json.dumps({"type": "join", "table": table, "name": "Bea"}))
        # staged, not committed: nothing told yet, not even the seat
        assert not any(x["type"] == "seated" for x in guest.sent)
        assert m.store.load(table).seq == 1
        await asyncio.sleep(0)
        assert any(x["type"] == "seated" for x in guest.sent)
        assert m.store.load(table).seq == 2

        # the next write fails: the table goes back to what is stored, nobody is told of
        # the lost event, the one who sent it gets an error and a fresh view
        real_write = m.store.write

        def failing(*args: Any, **kw: Any) -> None:
            raise StoreError("disk full")

        m.store.write = failing  # type: ignore[method-assign]
        third = FakeClient()
        c2 = m.connect(third)
        m.handle(c2, json.dumps({"type": "join", "table": table, "name": "Cy", "id": 9}))
        await asyncio.sleep(0)
        m.store.write = real_write  # type: ignore[method-assign]
        assert [x["code"] for x in third.sent if x["type"] == "error"] == ["internal"]
        assert not any(x["type"] == "seated" for x in third.sent)
        assert m.live[table].table.seq == 2 and m.live[table].table.open_seats() == [2]
        assert host.sent[-1]["type"] == "view" and host.sent[-1]["seq"] == 2
        # and the table works on: Cy tries again
        m.handle(c2, json.dumps({"type": "join", "table": table, "name": "Cy"}))
        await asyncio.sleep(0)
        assert m.store.load(table).seq == 4  # the join and the start
        assert m.live[table].table.status == "playing"
        m.stop()

    asyncio.run(scenario())


def test_the_lobby_builds_the_entries_it_shows_alone(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``lobby`` costs its 100 entries, not one for every table the server holds (a
    client may ask 20 times a second, and a server holds thousands): the newest tables
    not over, in that order."""
    config = ServerConfig(db=str(tmp_path / "l.sqlite3"), bot_delay=0, rate=1e6, burst=10**6)

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        try:
            host = FakeClient()
            conn = m.connect(host)
            for _ in range(130):
                m.handle(conn, json.dumps({"type": "create", "name": "Ana", "players": 3}))
            await asyncio.sleep(0)
            made = [x["table"] for x in host.sent if x["type"] == "seated"]
            assert len(made) == 130
            m.handle(conn, json.dumps({"type": "leave"}))  # the newest is over
            await asyncio.sleep(0)
            asked = []
            real = Live.connected

            def counted(self: Live) -> Any:
                asked.append(self.table.id)
                return real(self)

            monkeypatch.setattr(Live, "connected", counted)
            m.handle(conn, json.dumps({"type": "lobby", "id": 1}))
            shown = [t["id"] for t in host.sent[-1]["tables"]]
            assert shown == made[-2::-1][:100]
            assert asked == shown
        finally:
            m.stop()

    asyncio.run(scenario())


def test_manager_clock_cancels_a_table_when_a_seat_does_not_come_back(tmp_path: Path) -> None:
    now = [0.0]
    config = ServerConfig(db=str(tmp_path / "c.sqlite3"), bot_delay=0, reconnect_seconds=30,
                          clock=lambda: now[0])

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        a, b, c = FakeClient(), FakeClient(), FakeClient()
        ca, cb, cc = m.connect(a), m.connect(b), m.connect(c)
        m.handle(ca, json.dumps({"type": "create", "name": "A", "players": 3}))
        await asyncio.sleep(0)
        table = next(x for x in a.sent if x["type"] == "seated")["table"]
        m.handle(cb, json.dumps({"type": "join", "table": table, "name": "B"}))
        m.handle(cc, json.dumps({"type": "join", "table": table, "name": "C"}))
        await asyncio.sleep(0)
        m.disconnect(cc)
        await asyncio.sleep(0)
        live = m.live[table]
        assert live.table.game.disconnected == {2: 0.0}
        now[0] = 29.9          # the injected clock: not yet
        m._deadline(live)
        await asyncio.sleep(0)
        assert live.table.status == "playing"
        now[0] = 30.0          # the wait is over
        m._deadline(live)
        await asyncio.sleep(0)
        assert live.table.status == "over"
        last = a.sent[-1]
        assert last["result"]["status"] == "cancelled" and "seat 2" in last["result"]["reason"]
        assert m.store.load(table).status == "over"
        m.stop()

    asyncio.run(scenario())


def test_serve_without_the_extra_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    from chinchon.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    assert main(["serve", "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert "is not installed" in err and 'pip install "chinchon[server]"' in err


def test_serve_refuses_nonsense_options(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    from chinchon.cli import main

    assert main(["serve", "--rate", "0"]) == 2
    assert main(["serve", "--bot-delay", "-1"]) == 2
    assert "--bot-delay" in capsys.readouterr().err
    for bad in ("0", "65"):
        assert main(["serve", "--search-threads", bad]) == 2
        assert f"--search-threads must be 1..64, got {bad}" in capsys.readouterr().err
    for bad in ("-1", "1025"):
        assert main(["serve", "--search-workers", bad]) == 2
        assert f"--search-workers must be 0..1024, got {bad}" in capsys.readouterr().err
    for option in ("--max-search-playouts", "--max-search-ms"):
        for bad in ("0", "4000001"):
            assert main(["serve", option, bad]) == 2
            assert f"{option} must be 1..4000000, got {bad}" in capsys.readouterr().err
    assert main(["serve", "--rate", "0"]) == 2
    assert "--rate must be over 0" in capsys.readouterr().err
    for bad in ("99999", "-1", "65536"):  # 99999 was served on 99999 mod 65536
        assert main(["serve", "--port", bad]) == 2
        assert f"--port must be 0..65535, got {bad}" in capsys.readouterr().err


def test_serve_names_a_database_it_cannot_open_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Found before the server starts (it was a traceback in uvicorn's startup)."""
    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    from chinchon.cli import main

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    for db in (blocker / "tables.sqlite3", tmp_path):
        assert main(["serve", "--db", str(db)]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"chinchon serve: error: the tables' database {db} cannot "
                              f"be opened") and "\n" not in err, err


def test_serve_names_an_address_it_cannot_listen_on_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A port in use or an address not of this machine (uvicorn's log line and exit 3
    before)."""
    import socket

    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    from chinchon.cli import main

    db = str(tmp_path / "tables.sqlite3")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--db", db, "--port", str(port)]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"chinchon serve: error: cannot listen on 127.0.0.1:{port}:")
        assert "in use" in err and "\n" not in err, err
    # 192.0.2.1 is kept for documentation (RFC 5737): no machine has it
    assert main(["serve", "--db", db, "--host", "192.0.2.1", "--port", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("chinchon serve: error: cannot listen on 192.0.2.1:0:") and (
        "\n" not in err), err


def test_serve_refuses_an_empty_db_and_another_schema_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--db "" served the default file; a database of a newer schema was a
    traceback and exit 1."""
    import sqlite3

    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    from chinchon.cli import main
    from chinchon.server.store import Store

    assert main(["serve", "--db", ""]) == 2
    assert "--db must name a file, got an empty path" in capsys.readouterr().err
    newer = tmp_path / "newer.sqlite3"
    Store(str(newer)).close()
    with sqlite3.connect(newer) as db:
        db.execute("UPDATE settings SET value = '99' WHERE key = 'schema'")
    assert main(["serve", "--db", str(newer)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"chinchon serve: error: the tables' database {newer} cannot be "
                          f"opened") and "schema 99" in err and "\n" not in err, err


def test_serve_refuses_a_database_another_server_serves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two servers on one file each wrote their events into the other's tables (a
    player still connected was then taken for gone, and the table cancelled)."""
    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    from chinchon.cli import main
    from chinchon.server.cli import _lock_db

    db = str(tmp_path / "tables.sqlite3")
    held = _lock_db(db)  # as a running server holds it
    assert held is not None
    try:
        assert main(["serve", "--db", db, "--port", "0"]) == 2
        err = capsys.readouterr().err.strip()
        assert err == (f"chinchon serve: error: the tables' database {db} is served by "
                       f"another chinchon serve (its lock {db}.lock is held)")
    finally:
        held.close()
    again = _lock_db(db)  # released with its holder
    assert again is not None
    again.close()


def test_serve_names_a_lock_file_it_cannot_open_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder where the lock file goes was a bare OSError line and status 1."""
    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    from chinchon.cli import main

    db = str(tmp_path / "tables.sqlite3")
    (tmp_path / "tables.sqlite3.lock").mkdir()
    assert main(["serve", "--db", db, "--port", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"chinchon serve: error: cannot open the lock file {db}.lock ")
    assert "\n" not in err, err


def test_the_servers_json_is_the_standard_librarys_text() -> None:
    """With orjson or without, the same text; what orjson refuses is written by the
    standard library as before."""
    from chinchon.server._json import encode

    for obj in ({"a": [1, 2.5, None, True], "é": "ñ <b>\u2028\n\t\x01\x7f"},
                {"now": 12345.678901, "left": 44.3, "zero": 0.0, "neg": -3},
                {"seed": 2**70, "n": -(2**63) - 1}, ["\ud800"], [], {}, "x", 7):
        assert encode(obj) == json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def test_socket_client_sends_at_once_and_queues_in_order_only_behind_a_stalled_send() -> None:
    """The app's connection writer: a message goes out during send() itself; while the
    socket cannot take more (the ASGI send suspends) the next ones wait, in order, and
    a peer that lets too many pile up is closed; a broken socket stops all sending."""
    pytest.importorskip("starlette")
    from chinchon.server import app as app_module

    async def scenario() -> None:
        out: list[Any] = []
        gate = asyncio.Event()
        gate.set()

        async def asgi_send(message: dict[str, Any]) -> None:
            await gate.wait()  # like uvicorn: waits only while the transport is paused
            out.append(message.get("text", message.get("code")))

        client = app_module._SocketClient(asgi_send)
        client.send("a")
        assert out == ["a"] and client.busy is None  # sent within the call, no task
        gate.clear()
        client.send("b")     # stalls: finished later by a task
        client.send("c")
        assert out == ["a"] and client.busy is not None
        gate.set()
        await asyncio.sleep(0.01)
        assert out == ["a", "b", "c"] and client.busy is None
        client.send("d")
        assert out[-1] == "d"
        # a peer that never reads: dropped once SEND_QUEUE messages wait
        gate.clear()
        for i in range(app_module.SEND_QUEUE + 5):
            client.send(f"x{i}")
        assert client.closed
        gate.set()
        await asyncio.sleep(0.01)
        assert out[-1] == 1013 and "x1" not in out
        assert client.busy is None

        async def broken(message: dict[str, Any]) -> None:
            raise OSError("gone")

        dead = app_module._SocketClient(broken)
        dead.send("a")
        assert dead.closed
        dead.send("b")
        dead.close(1000, "bye")  # nothing raised, nothing sent

    asyncio.run(scenario())



def test_the_scripted_player_reads_the_tables_rules() -> None:
    """Under fifty a joker on the pile made it raise (it asked the house rules, which
    deal no joker)."""
    import random
    from dataclasses import asdict

    from chinchon import FIFTY_RULES
    from chinchon.server import scripted

    view = {"can": {"draw": ["stock", "discard"]}, "game": {"discard_top": "*2"},
            "hand": ["1o", "2o", "4o", "5c", "6c", "9e", "12b"],
            "rules": json.loads(json.dumps(asdict(FIFTY_RULES))), "seats": [{}, {}]}
    # the joker makes 1o 2o *2 4o a run: 1o 2o 4o leave the hand, and it is taken
    assert scripted.choose(view, random.Random(1)) == {"type": "draw", "source": "discard"}


def test_a_client_paced_over_the_rate_is_cut_off_and_one_under_it_is_not(
        tmp_path: Path) -> None:
    """Each accepted message reset the count of refusals, so a client sending at three
    times the rate (one accepted every 1/rate seconds) was refused for ever and never
    disconnected; a full allowance is what forgives them now."""
    now = [0.0]
    config = ServerConfig(db=str(tmp_path / "r.sqlite3"), bot_delay=0, rate=20.0, burst=40,
                          clock=lambda: now[0])

    async def scenario() -> None:
        m = Manager(config)
        m.start()
        fast, fair = FakeClient(), FakeClient()
        cf, cg = m.connect(fast), m.connect(fair)
        for k in range(60 * 30):  # 60 a second for 30 s
            if fast.closed is not None:
                break
            now[0] = k / 60
            m.handle(cf, json.dumps({"type": "ping"}))
        assert fast.closed is not None and fast.closed[0] == 1008
        assert now[0] < 5.0  # 160 refusals at 40 a second
        # a burst over the allowance, then just under the rate for a minute: never cut off
        start = now[0]
        for _ in range(60):
            m.handle(cg, json.dumps({"type": "ping"}))
        for k in range(1, 19 * 60):
            now[0] = start + k / 19
            m.handle(cg, json.dumps({"type": "ping"}))
        assert fair.closed is None
        assert sum(x.get("code") == "rate_limited" for x in fair.sent) == 20
        m.stop()

    asyncio.run(scenario())


def test_a_write_waits_briefly_for_another_programs_lock(tmp_path: Path) -> None:
    """The writes run on the event loop: waiting 5 s for a lock another program holds
    stopped every table for as long; a write now fails after WRITE_WAIT_MS."""
    import sqlite3

    from chinchon.server.store import WRITE_WAIT_MS, Store, StoreError

    store = Store(str(tmp_path / "w.sqlite3"))
    try:
        assert store._db.execute("PRAGMA busy_timeout").fetchone()[0] == WRITE_WAIT_MS <= 100
        other = sqlite3.connect(str(tmp_path / "w.sqlite3"), isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreError):
            store.write([], [("T1", 1, "{}")])
        other.execute("ROLLBACK")
        other.close()
    finally:
        store.close()
