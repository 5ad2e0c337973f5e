"""The table store without sockets: a write all or nothing, the WAL's checkpoints on
their own thread, the stored snapshot and state against a replay, and the upgrades of
older schemas. These need only the standard library, so they run without the server
extra too."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from chinchon.server.manager import Manager, ServerConfig
from chinchon.server.store import Store, StoreError, TableWrite
from chinchon.server.tables import Table

from .conftest import table_record


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
