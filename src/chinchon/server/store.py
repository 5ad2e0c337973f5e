"""Where tables live between restarts: one SQLite file (standard library ``sqlite3``).

Three tables:

- ``events``: every event of every table, ``(table_id, seq)`` -> the record (JSON), in
  the order they happened. The events are the truth: replaying a table's events from
  its ``create`` gives the table (:meth:`chinchon.server.tables.Table.replay`).
- ``tables``: one small row per table: ``seq`` (its last event) and ``status``.
- ``snapshots``: per table, the whole table (``meta``: seats, rules, clock...;
  ``game``: :meth:`chinchon.Game.to_json`, NULL until the game starts) at event
  ``snap_seq``. The table now = that snapshot + the events after it. (Apart from
  ``tables`` because SQLite rewrites a whole row on any update: the small row changes
  with every event, the big one only at a snapshot.)

:meth:`Store.write` writes events with their tables' new ``seq``, ``status`` and,
when due, snapshots, in **one transaction**; the server tells nobody about an event
before the transaction holding it is committed. The server gathers the events of one
turn of its event loop into one such transaction (a group commit): under load one
commit carries many events, at rest each event has its own. The server takes a snapshot at the
events that open or end a hand or the game and every ``snapshot_every`` events
(``chinchon serve --snapshot-every``, 1 = after every event), so a restart replays a
few events at most; a game's JSON grows with its log, so a snapshot after every event
costs more the longer a game runs.

The file is in WAL mode; ``synchronous=NORMAL`` (the default here) keeps every
committed transaction through a crash of the server process (SIGKILL included) and
can lose the last ones only if the operating system itself stops;
``durability="full"`` syncs every commit to disk (power-loss safe, slower).
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from typing import Optional, Sequence

__all__ = ["Store", "StoreError", "StoredTable", "TableWrite", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id       TEXT PRIMARY KEY,
    status   TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tables_status ON tables (status);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT PRIMARY KEY,
    snap_seq INTEGER NOT NULL,
    meta     TEXT NOT NULL,
    game     TEXT
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    record   TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


_SELECT = ("SELECT t.id, t.status, t.seq, s.snap_seq, s.meta, s.game "
           "FROM tables t JOIN snapshots s ON s.table_id = t.id")


class StoreError(Exception):
    """The database refused a write (disk full, a concurrent writer, a stale seq)."""


@dataclass(frozen=True)
class StoredTable:
    """A table as stored: the snapshot (``meta``, ``game``) is at event ``snap_seq``;
    :meth:`Store.events` gives the events after it, up to ``seq``."""

    id: str
    status: str
    seq: int
    snap_seq: int
    meta: str
    game: Optional[str]


@dataclass(frozen=True)
class TableWrite:
    """One table's part of :meth:`Store.write`: it moves from event ``seq_before`` to
    ``seq``; ``snapshot`` is ``(meta, game)`` at ``seq``, or None to keep the last one."""

    table_id: str
    seq_before: int
    seq: int
    status: str
    snapshot: Optional[tuple[str, Optional[str]]] = None


class Store:
    """The server's SQLite database. Used from one thread (the event loop's)."""

    def __init__(self, path: str, *, durability: str = "normal") -> None:
        if durability not in ("normal", "full"):
            raise ValueError(f"durability must be 'normal' or 'full', got {durability!r}")
        self.path = path
        # autocommit mode: transactions are opened explicitly with BEGIN IMMEDIATE
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={durability.upper()}")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)
        row = self._db.execute("SELECT value FROM settings WHERE key='schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO settings VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) != SCHEMA_VERSION:
            raise StoreError(f"{path}: database schema {row[0]}, this server reads "
                             f"schema {SCHEMA_VERSION}")

    def close(self) -> None:
        self._db.close()

    def create(self, table_id: str, status: str, meta: str, record: str) -> None:
        """A new table with its first event (seq 1) and its snapshot after it."""
        now = time.time()
        self._transaction(
            ("INSERT INTO tables (id, status, seq, created, updated) VALUES (?, ?, 1, ?, ?)",
             (table_id, status, now, now)),
            ("INSERT INTO snapshots (table_id, snap_seq, meta, game) VALUES (?, 1, ?, NULL)",
             (table_id, meta)),
            ("INSERT INTO events (table_id, seq, record, at) VALUES (?, 1, ?, ?)",
             (table_id, record, now)),
        )

    def write(self, tables: Sequence[TableWrite], events: Sequence[tuple[str, int, str]]) -> None:
        """Events ``(table_id, seq, record)`` and each table's new ``seq``, ``status`` and
        (when given) snapshot, in **one transaction** (the server's group commit: every
        event staged during one turn of the event loop). Refused as a whole
        (:class:`StoreError`, nothing written) if a table is not at the ``seq_before``
        the write expects, or if any statement fails."""
        now = time.time()
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for w in tables:
                    cur = db.execute(
                        "UPDATE tables SET status=?, seq=?, updated=? WHERE id=? AND seq=?",
                        (w.status, w.seq, now, w.table_id, w.seq_before))
                    if cur.rowcount != 1:
                        raise StoreError(f"table {w.table_id} is not at event {w.seq_before} "
                                         f"in the database")
                    if w.snapshot is not None:
                        db.execute("UPDATE snapshots SET snap_seq=?, meta=?, game=? "
                                   "WHERE table_id=?",
                                   (w.seq, w.snapshot[0], w.snapshot[1], w.table_id))
                db.executemany("INSERT INTO events (table_id, seq, record, at) VALUES (?, ?, ?, ?)",
                               [(t, q, r, now) for t, q, r in events])
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"database write failed: {exc}") from exc

    def _transaction(self, *statements: tuple[str, tuple[object, ...]]) -> None:
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    db.execute(sql, args)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"database write failed: {exc}") from exc

    def load(self, table_id: str) -> Optional[StoredTable]:
        row = self._db.execute(_SELECT + " WHERE t.id=?", (table_id,)).fetchone()
        return None if row is None else StoredTable(*row)

    def unfinished(self) -> list[StoredTable]:
        """Every table not over, oldest first: what a restarted server resumes."""
        rows = self._db.execute(_SELECT + " WHERE t.status != 'over' ORDER BY t.created").fetchall()
        return [StoredTable(*r) for r in rows]

    def events(self, table_id: str, after: int = 0) -> list[tuple[int, str]]:
        """``(seq, record)`` of the table's events after event ``after``, in order."""
        return self._db.execute("SELECT seq, record FROM events WHERE table_id=? AND seq>? "
                                "ORDER BY seq", (table_id, after)).fetchall()
