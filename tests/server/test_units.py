"""The server's parts without sockets: message checks, tables as event records, the
store and the manager's group commit (with an injected clock and a store that fails).
These need only the standard library, so they run without the server extra too."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from chinchon import IllegalAction
from chinchon.rules import HOUSE_RULES, PRESETS, Rules
from chinchon.server.manager import Manager, ServerConfig
from chinchon.server.protocol import MAX_MESSAGE_BYTES, ProtocolError, clean_name, parse_message
from chinchon.server.store import Store, StoreError, TableWrite
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


# ---------------------------------------------------------------------------- store and manager

def test_a_store_write_is_all_or_nothing(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "s.sqlite3"))
    store.create("A", "waiting", "{}", '{"s": 1}', '{"kind": "create"}')
    store.create("B", "waiting", "{}", '{"s": 1}', '{"kind": "create"}')
    with pytest.raises(StoreError, match="not at event 5"):
        store.write([TableWrite("A", 1, 2, None, '{"s": 2}'),
                     TableWrite("B", 5, 6, None, '{"s": 6}')],
                    [("A", 2, "{}"), ("B", 6, "{}")])
    row = store.load("A")
    assert (row.seq, row.state) == (1, '{"s": 1}') and len(store.events("A")) == 1
    store.write([TableWrite("A", 1, 2, "playing", '{"s": 2}', ("{\"m\": 1}", "{}"))],
                [("A", 2, "{}")])
    row = store.load("A")
    assert (row.seq, row.snap_seq, row.status, row.meta, row.game, row.state) == \
        (2, 2, "playing", '{"m": 1}', "{}", '{"s": 2}')
    store.write([TableWrite("A", 2, 3, None, '{"s": 3}')], [("A", 3, "{}")])
    row = store.load("A")  # the base stays, the state follows every event
    assert (row.seq, row.snap_seq, row.status, row.meta, row.state) == \
        (3, 2, "playing", '{"m": 1}', '{"s": 3}')
    assert [q for q, _ in store.events("A")] == [1, 2, 3]
    store.close()


def test_the_wal_is_checkpointed_by_its_own_thread_not_by_a_commit(tmp_path: Path) -> None:
    import sqlite3
    import time

    path = str(tmp_path / "w.sqlite3")
    store = Store(path, checkpoint_seconds=0.02)
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    store.create("A", "waiting", "{}", '{"s": 1}', '{"kind": "create"}')
    for seq in range(1, 200):
        store.write([TableWrite("A", seq, seq + 1, None, '{"s": %d}' % seq)],
                    [("A", seq + 1, '{"pad": "%s"}' % ("x" * 2000))])
    deadline = time.time() + 10
    while store.checkpoints() < 2 and time.time() < deadline:
        time.sleep(0.01)
    assert store.checkpoints() >= 2
    other = sqlite3.connect(path)  # nothing left in the WAL that is not in the database
    busy, log, moved = other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert busy == 0 and log == moved
    other.close()
    store.close()
    again = Store(path)
    assert again.load("A").seq == 200
    again.close()


def _long_hands(seed: int, events: int) -> tuple[Table, list[dict[str, Any]]]:
    """A table of three whose players always draw from the stock and close only once
    the stock has run out and the discard pile been reshuffled in the hand, with
    connection events and summaries between hands: ``events`` records after the
    start."""
    records = [table_record(), {"kind": "join", "seat": 1, "name": "B", "token_sha256": "", "now": 1},
               {"kind": "join", "seat": 2, "name": "C", "token_sha256": "", "now": 1},
               {"kind": "start", "seed": seed, "now": 2}]
    t = Table.replay(records)
    now = 3.0
    for k in range(events):
        game = t.game
        assert game is not None
        now += 1.0
        if game.result is not None:
            break
        if k % 23 == 5 and not game.disconnected:
            r: dict[str, Any] = {"kind": "disconnect", "seat": k % 3}
        elif game.disconnected:
            r = {"kind": "reconnect", "seat": next(iter(game.disconnected))}
        elif game.phase == "summary":
            r = {"kind": "next_hand"}
        elif game.phase == "draw":
            r = {"kind": "draw", "seat": game.turn, "source": "stock"}
        else:
            hints = game.hints()
            closing = [h for h in hints if h.can_close]
            if closing and t.reshuffles >= game.hand_number:  # a reshuffle in each hand
                r = {"kind": "close", "seat": game.turn, "card": str(closing[0].card)}
            else:
                card = min(hints, key=lambda h: (h.points, str(h.card))).card
                r = {"kind": "discard", "seat": game.turn, "card": str(card)}
        r["now"] = now
        t.apply(r)
        records.append(r)
    return t, records


def test_the_stored_snapshot_is_the_table_at_every_event_without_replay() -> None:
    """What the server stores with each event -- the state always, the base when its
    key changes -- restores the very table (the generator included) with no event
    replayed, through reshuffles, new hands and reconnections; and the restored table
    plays on exactly as the original."""
    from chinchon.server.tables import same_base

    for seed in (1, 2):
        whole, records = _long_hands(seed, 400)
        t = Table.from_create(records[0])
        stored_key = None
        base = (t.meta_json(), t.base_game_json())
        reshuffles = bases = 0
        for n, r in enumerate(records[1:], 2):
            t.apply(dict(r))
            state, key = t.state_json()
            if not same_base(stored_key, key):
                base, stored_key = (t.meta_json(), t.base_game_json()), key
                bases += 1
            restored = Table.restore(base[0], base[1], state)
            assert restored.seq == n and restored.fingerprint() == t.fingerprint(), n
            if n % 37 == 0 or n == len(records):  # and it goes on the same way
                for later in records[n:n + 30]:
                    restored.apply(dict(later))
                twin = Table.replay(records[:n + 30])
                assert restored.fingerprint() == twin.fingerprint()
        reshuffles += t.reshuffles
        assert t.fingerprint() == whole.fingerprint()
        assert reshuffles > 0 and t.game.hand_number > 1
        assert bases < len(records) / 4  # the base is written now and then, not every time


def test_the_stored_state_writes_the_cards_as_the_state_dict_does() -> None:
    """The state stored with each event writes its cards as text straight from the
    game (capture.cards_json, seen_json): the very text that encoding the state's
    dict form (cards_dict, seen_dict) gives, at every event of hands with pile draws,
    reshuffles and new hands."""
    from chinchon.game.capture import cards_dict, seen_dict
    from chinchon.server._json import encode

    for seed in (3, 4):
        _, records = _long_hands(seed, 300)
        t = Table.from_create(records[0])
        seen = 0
        for r in records[1:]:
            t.apply(dict(r))
            text = t.state_json()[0]
            if t.game is None:
                assert json.loads(text)["game"] is None
                continue
            f = t.game.fields(rng=False)
            cards, more = encode(cards_dict(f))[1:-1], encode(seen_dict(f))[1:-1]
            assert "," + cards + "," in text, r
            assert text.endswith(("," + more if more else "") + "}}"), r
            game = json.loads(text)["game"]
            assert {k: game[k] for k in ("hands", "stock", "discard", "face_down")} \
                == cards_dict(f)
            seen += bool(more)
        assert seen > 0  # some states had cards taken from the pile or a reshuffle


def test_a_database_of_schema_1_is_upgraded_and_its_tables_load_by_replay(
        tmp_path: Path) -> None:
    import sqlite3

    _, records = _long_hands(5, 40)
    snap = Table.replay(records[:20])
    path = str(tmp_path / "old.sqlite3")
    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE tables (id TEXT PRIMARY KEY, status TEXT NOT NULL, seq INTEGER NOT NULL,
                             created REAL NOT NULL, updated REAL NOT NULL);
        CREATE TABLE snapshots (table_id TEXT PRIMARY KEY, snap_seq INTEGER NOT NULL,
                                meta TEXT NOT NULL, game TEXT);
        CREATE TABLE events (table_id TEXT NOT NULL, seq INTEGER NOT NULL, record TEXT NOT NULL,
                             at REAL NOT NULL, PRIMARY KEY (table_id, seq)) WITHOUT ROWID;
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO settings VALUES ('schema', '1');
    """)
    con.execute("INSERT INTO tables VALUES ('T1', 'playing', ?, 0, 0)", (len(records),))
    con.execute("INSERT INTO snapshots VALUES ('T1', 20, ?, ?)", (snap.meta_json(), snap.game_json()))
    con.executemany("INSERT INTO events VALUES ('T1', ?, ?, 0)",
                    [(q, json.dumps(r)) for q, r in enumerate(records, 1)])
    con.commit()
    con.close()
    store = Store(path)
    row = store.load("T1")
    assert row.state is None and row.snap_seq == 20
    loaded = Table.load(row.meta, row.game,
                        [json.loads(r) for _, r in store.events("T1", after=row.snap_seq)])
    assert loaded.fingerprint() == Table.replay(records).fingerprint()
    # from its next event on, the table is stored with its state
    state, _ = loaded.state_json()
    store.write([TableWrite("T1", len(records), len(records) + 1, None, state,
                            (loaded.meta_json(), loaded.base_game_json()))],
                [("T1", len(records) + 1, "{}")])
    row = store.load("T1")
    assert Table.restore(row.meta, row.game, row.state).fingerprint() == loaded.fingerprint()
    store.close()


def test_a_draw_alone_waits_in_its_row_and_only_onto_the_event_before_it(
        tmp_path: Path) -> None:
    """A draw stored without its table's state is written in the table's row as well
    as the log, only if the row is at the event before it with no draw waiting: else
    the whole write is refused and nothing of it stored. The next state clears it."""
    import sqlite3

    path = str(tmp_path / "p.sqlite3")
    store = Store(path)
    store.create("A", "playing", "{}", '{"s": 1}', '{"kind": "create"}')
    store.create("B", "playing", "{}", '{"s": 1}', '{"kind": "create"}')
    draw = '{"kind": "draw", "seat": 0}'
    store.write([], [("A", 2, draw)], [("A", 2, draw)])
    row = store.load("A")
    assert (row.seq, row.state) == (1, '{"s": 1}')
    assert store.events("A", after=1) == [(2, draw)] and store.events("A", after=2) == []
    assert [q for q, _ in store.events("A")] == [1, 2]

    def stored() -> list[tuple[Any, ...]]:
        con = sqlite3.connect(path)
        try:
            return (con.execute("SELECT id, seq, state, pending FROM tables ORDER BY id").fetchall()
                    + con.execute("SELECT table_id, seq, record FROM events ORDER BY rowid").fetchall())
        finally:
            con.close()

    before = stored()
    # a second draw onto the same state, a draw onto a state two behind it, each beside
    # a write that alone would be stored: refused, nothing stored
    for bad in [("A", 2, '{"kind": "draw", "seat": 1}'), ("A", 3, draw)]:
        with pytest.raises(StoreError, match=f"table\\(s\\) A \\(event {bad[1]}\\)"):
            store.write([TableWrite("B", 1, 2, None, '{"s": 2}')],
                        [("B", 2, "{}"), bad], [bad])
        assert stored() == before
    with pytest.raises(StoreError, match="B \\(event 3\\)"):  # B is at 1, not 2
        store.write([], [("B", 3, draw)], [("B", 3, draw)])
    assert stored() == before
    # the discard stores the state: the draw no longer waits
    store.write([TableWrite("A", 1, 3, None, '{"s": 3}')], [("A", 3, "{}")])
    row = store.load("A")
    assert (row.seq, row.state) == (3, '{"s": 3}') and store.events("A", after=3) == []
    assert [q for q, _ in store.events("A")] == [1, 2, 3]
    assert stored()[0][3] is None
    store.close()


def _schema_2(path: str, tables: list[tuple[str, str, int, Table, list[dict[str, Any]]]]) -> None:
    """A database as a server of schema 2 left it: ``(id, status, seq, table at seq,
    every event)`` a table."""
    import sqlite3

    con = sqlite3.connect(path)
    con.executescript("""
        CREATE TABLE events (table_id TEXT NOT NULL, seq INTEGER NOT NULL, record TEXT NOT NULL,
                             at REAL NOT NULL);
        CREATE UNIQUE INDEX events_by_table ON events (table_id, seq);
        CREATE TABLE tables (id TEXT PRIMARY KEY, status TEXT NOT NULL, seq INTEGER NOT NULL,
                             created REAL NOT NULL, updated REAL NOT NULL, state TEXT);
        CREATE INDEX tables_status ON tables (status);
        CREATE TABLE snapshots (table_id TEXT PRIMARY KEY, snap_seq INTEGER NOT NULL,
                                meta TEXT NOT NULL, game TEXT);
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO settings VALUES ('schema', '2');
    """)
    for n, (tid, status, seq, at, records) in enumerate(tables):
        con.execute("INSERT INTO tables VALUES (?, ?, ?, ?, 0, ?)",
                    (tid, status, seq, n, at.state_json()[0]))
        con.execute("INSERT INTO snapshots VALUES (?, ?, ?, ?)",
                    (tid, seq, at.meta_json(), at.base_game_json()))
        con.executemany("INSERT INTO events VALUES (?, ?, ?, 0)",
                        [(tid, q, json.dumps(r)) for q, r in enumerate(records, 1)])
    con.commit()
    con.close()


def test_a_database_of_schema_2_is_upgraded_and_resumes_the_draw_after_a_state(
        tmp_path: Path) -> None:
    import sqlite3

    _, records = _long_hands(7, 40)
    draw = next(n for n in range(10, len(records)) if records[n]["kind"] == "draw")
    done = next(n for n in range(draw + 1, len(records)) if records[n - 1]["kind"] == "discard")
    t2 = [dict(r, table="T2") if r["kind"] == "create" else r for r in records]
    path = str(tmp_path / "two.sqlite3")
    # T1: its state one draw behind its last event; T2: its state at its last event
    _schema_2(path, [("T1", "playing", draw, Table.replay(records[:draw]), records[:draw + 1]),
                     ("T2", "playing", done, Table.replay(t2[:done]), t2[:done])])
    store = Store(path)
    con = sqlite3.connect(path)
    assert con.execute("SELECT value FROM settings WHERE key='schema'").fetchone() == ("3",)
    assert con.execute("SELECT name FROM sqlite_master WHERE name='events_by_table'"
                       ).fetchone() is None
    assert con.execute("SELECT id, seq, pending FROM tables ORDER BY id").fetchall() == \
        [("T1", draw, json.dumps(records[draw])), ("T2", done, None)]
    con.close()
    store.close()
    config = ServerConfig(db=path, bot_delay=0, rate=1e6, burst=10**6)

    async def scenario() -> None:
        m = Manager(config)
        m.start()  # resumed, each with a restart event, from the rows alone
        one, two = m.live["T1"].table, m.live["T2"].table
        assert one.seq == draw + 2 and two.seq == done + 1
        stored = m.store.load("T1")
        assert stored.seq == draw + 2 and m.store.events("T1", after=stored.seq) == []
        log = [json.loads(r) for _, r in m.store.events("T1")]
        assert [r["kind"] for r in log[draw:]] == ["draw", "restart"]
        assert Table.replay(log).fingerprint() == one.fingerprint()
        assert Table.replay([json.loads(r) for _, r in m.store.events("T2")]
                            ).fingerprint() == two.fingerprint()
        m.stop()

    asyncio.run(scenario())


def test_a_database_of_schema_2_with_two_events_after_a_state_is_not_upgraded(
        tmp_path: Path) -> None:
    import sqlite3

    _, records = _long_hands(7, 40)
    path = str(tmp_path / "odd.sqlite3")
    _schema_2(path, [("T1", "playing", 20, Table.replay(records[:20]), records[:22])])
    with pytest.raises(StoreError, match="not upgraded from schema 2: table\\(s\\) T1 hold"):
        Store(path)
    con = sqlite3.connect(path)  # left as it was
    assert con.execute("SELECT value FROM settings WHERE key='schema'").fetchone() == ("2",)
    assert con.execute("SELECT name FROM sqlite_master WHERE name='events_by_table'"
                       ).fetchone() == ("events_by_table",)
    assert [c[1] for c in con.execute("PRAGMA table_info(tables)")][-1] == "state"
    con.close()


def test_a_database_of_a_newer_schema_is_refused(tmp_path: Path) -> None:
    import sqlite3

    path = str(tmp_path / "new.sqlite3")
    Store(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE settings SET value='4' WHERE key='schema'")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="database schema 4, this server reads schema 3"):
        Store(path)


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

